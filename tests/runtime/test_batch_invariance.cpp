// SPDX-License-Identifier: Apache-2.0
// Batching does not change what a request generates: with greedy sampling,
// each prompt decoded next to others gives the same token ids as the same
// prompt alone, on the default model (issue 15, item 13: the CPU kernels used
// to be picked by the batch size, so a neighbour changed the rounding).
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "engine/runtime/engine.h"
#include "tests/support/test_paths.h"

using namespace kvlens;

namespace {

std::unique_ptr<engine> make_engine(int parallel, int kv_block) {
    engine_options o;
    o.model_path = test::default_model().string();
    o.backend = "cpu";
    o.parallel = parallel;
    o.kv_block = kv_block;
    o.n_ctx = 512;
    auto e = engine::create(o);
    if (!e) ADD_FAILURE() << e.message();
    return e ? std::move(*e) : nullptr;
}

request_params raw(const std::string& text, int max_tokens) {
    request_params p;
    p.text = text;
    p.max_tokens = max_tokens;
    return p;
}

// Greedy ids of every prompt, all submitted at once to one engine.
std::vector<std::vector<std::int32_t>> generate_all(engine& e, const std::vector<std::string>& prompts, int max_tokens) {
    std::mutex mu;
    std::vector<std::vector<std::int32_t>> ids(prompts.size());
    for (std::size_t k = 0; k < prompts.size(); ++k)
        e.submit(raw(prompts[k], max_tokens), [&mu, &ids, k](const event& ev) {
            std::lock_guard<std::mutex> lock(mu);
            if (auto* t = std::get_if<event_token>(&ev)) ids[k].push_back(t->id);
        });
    e.wait_idle();
    return ids;
}

std::vector<std::vector<std::int32_t>> generate_each_alone(const std::vector<std::string>& prompts, int max_tokens,
                                                           int kv_block) {
    std::vector<std::vector<std::int32_t>> out;
    for (const auto& p : prompts) {
        auto e = make_engine(1, kv_block);   // a fresh engine: no prefix cache from an earlier prompt
        if (!e) return {};
        out.push_back(generate_all(*e, {p}, max_tokens).front());
    }
    return out;
}

}  // namespace

TEST(BatchInvariance, TwoPromptsBatchedGiveTheirSoloTextOnTheDefaultModel) {
    if (!test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    // The case: -p "The capital of Germany is" -p "Once upon a time" --parallel 2 --kv-block 4.
    const std::vector<std::string> prompts = {"The capital of Germany is", "Once upon a time"};
    const auto alone = generate_each_alone(prompts, 48, 4);
    ASSERT_EQ(alone.size(), prompts.size());
    auto e = make_engine(2, 4);
    ASSERT_TRUE(e);
    const auto batched = generate_all(*e, prompts, 48);
    for (std::size_t k = 0; k < prompts.size(); ++k) {
        // The first text's length is not part of the specification: after
        // "... 311 million people." llama.cpp's top two next tokens are "\n"
        // and end-of-text, 0.08 logits apart (step 19), so a change in
        // summation order may end it there (20 tokens) or let it run to 48.
        // Batched must give the solo text whatever its length.
        ASSERT_GE(alone[k].size(), 20u) << prompts[k];
        EXPECT_EQ(batched[k], alone[k]) << "prompt " << k << ": " << prompts[k];
    }
}

TEST(BatchInvariance, SixPromptsDecodedTogetherGiveTheirSoloTextOnTheDefaultModel) {
    if (!test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    // Six decode rows in one step (more than a 4-row kernel tile), prefill
    // chunks of 3 to 9 tokens joining decode steps of the others.
    const std::vector<std::string> prompts = {
        "The key-value cache stores", "Paris is the capital of", "Water boils at",
        "The three primary colours are", "In 1969, the first person to walk on the Moon was", "def fibonacci(n):"};
    const auto alone = generate_each_alone(prompts, 24, 16);
    ASSERT_EQ(alone.size(), prompts.size());
    auto e = make_engine(6, 16);
    ASSERT_TRUE(e);
    const auto batched = generate_all(*e, prompts, 24);
    for (std::size_t k = 0; k < prompts.size(); ++k) EXPECT_EQ(batched[k], alone[k]) << "prompt " << k << ": " << prompts[k];
}
