// SPDX-License-Identifier: Apache-2.0
// LFM2's short convolutions in the engine, on a synthetic check-lfm2 model
// (3 convolution layers of 3 taps, 1 attention layer): the convolutions'
// B*X rows live in the KV cache's local group, which keeps only the taps'
// rows of a sequence. Specified here: the engine's tokens (prefill in chunks
// that cut through the taps, blocks behind them released; sampled, or greedy
// with prompt-lookup drafts) equal those of the prompt in one run over one
// block table that keeps every row;
// the KV figures count the attention layer's K/V per token and the
// convolutions' f32 rows for 3 tokens; a follow-up over the same prompt is
// served from the prefix cache with the same tokens.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "engine/backend/backend.h"
#include "engine/kv/kv_geometry.h"
#include "engine/model/model.h"
#include "engine/model/synth_model.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/sampling.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/temp_dir.h"

using namespace kvlens;

namespace {

constexpr int k_chunk = 7;   // prefill chunks that end between a convolution's taps
constexpr int k_ctx = 4096;   // a pool of 256 blocks, of which the convolutions' rows need far fewer
constexpr int k_new = 24;

// check-lfm2 in Q8_0 with room for k_ctx tokens.
std::filesystem::path lfm2_model() {
    static const std::filesystem::path path = [] {
        auto shape = synth_shape_named("check-lfm2");
        auto p = test::removed_at_exit(std::filesystem::temp_directory_path() / fmt::format("kvlens_test_lfm2_{}.gguf", ::getpid()));
        if (!shape) return p;
        shape->n_ctx = k_ctx;
        (void)write_synth_model(*shape, ggml_type::q8_0, p.string());
        return p;
    }();
    return path;
}

// Text whose bytes repeat (prompt lookup finds drafts in it), about 150 tokens.
std::string prompt_text() {
    std::string text;
    for (int i = 0; i < 6; ++i) text += "the pump moves water up the hill, and the canal ";
    return text;
}

struct engine_run {
    std::vector<std::int32_t> ids;
    std::int64_t last_kv_tokens = 0;
    std::int64_t last_kv_allocated = 0;
    kv_groups last_groups;
    int cached_tokens = -1;
    bool ok = false;
};

// Sampled at temperature 8 from the whole vocabulary, seeded: a token's
// choice moves with any change in its logits (greedy on a random model
// repeats one token whatever the state holds).
sampling_params sampled() {
    sampling_params s;
    s.temperature = 8.0f;
    s.top_k = 0;
    s.top_p = 1.0f;
    s.min_p = 0.0f;
    s.seed = 11;
    return s;
}

engine_run run_engine(engine& e, const std::string& text, int draft_tokens) {
    engine_run r;
    request_params p;
    p.text = text;
    p.max_tokens = k_new;
    p.speculation.draft_tokens = draft_tokens;
    // Drafts are checked with greedy here: with sampling, verify() draws differently from sample().
    p.sampling = draft_tokens > 0 ? sampling_params{} : sampled();
    e.submit(p, [&r](const event& ev) {
        if (const auto* t = std::get_if<event_token>(&ev)) {
            r.ids.push_back(t->id);
            r.last_kv_tokens = t->kv_tokens;
            r.last_kv_allocated = t->kv_allocated_bytes;
            r.last_groups = t->kv_group;
        } else if (const auto* d = std::get_if<event_done>(&ev)) {
            r.ok = d->reason == finish_reason::length;
            r.cached_tokens = d->figures.cached_tokens;
        }
    });
    e.wait_idle();
    return r;
}

// One block table for every layer (the convolutions' storage indexed by it
// too, no row released), the prompt fed in one run (a prompt token computes
// the same in any chunk: forward_batch::step), then decode steps, each token
// chosen as run_engine's request chooses it.
std::vector<std::int32_t> run_one_table(const model& m, const std::vector<std::int32_t>& prompt, int draft_tokens) {
    sampler choose(draft_tokens > 0 ? sampling_params{} : sampled());
    backend_options o;
    o.n_threads = 2;
    o.max_batch = k_ctx;
    o.max_ctx = k_ctx;
    auto be = make_cpu_backend(m, o);
    if (!be) return {};
    const kv_geometry g = make_kv_geometry(m.info(), kv_dtype::f16, 16);
    const std::int32_t n_blocks = static_cast<std::int32_t>(g.blocks_for_tokens(k_ctx));
    if (!(*be)->init_kv(g, n_blocks)) return {};
    std::vector<std::int32_t> table(static_cast<std::size_t>(n_blocks));
    std::iota(table.begin(), table.end(), 0);
    std::vector<float> logits(static_cast<std::size_t>(m.info().n_vocab));
    const auto step = [&](const std::int32_t* ids, int n, int pos, bool prompt_run) {
        forward_batch b;
        if (prompt_run) b.append_prompt({ids, static_cast<std::size_t>(n)}, pos, table.data(), true);
        else b.append({ids, static_cast<std::size_t>(n)}, pos, table.data(), true);
        if (!(*be)->forward(b, logits.data(), nullptr)) return -1;
        return static_cast<int>(choose.sample(logits));
    };
    int next = step(prompt.data(), static_cast<int>(prompt.size()), 0, true);
    std::vector<std::int32_t> out;
    for (int i = 0; i < k_new && next >= 0; ++i) {
        out.push_back(next);
        const std::int32_t id = next;
        next = step(&id, 1, static_cast<int>(prompt.size()) + i, false);
    }
    return out;
}

class ShortConvEngine : public ::testing::TestWithParam<int> {
protected:
    void SetUp() override { ASSERT_TRUE(std::filesystem::exists(lfm2_model())) << "check-lfm2 could not be written"; }
};

TEST_P(ShortConvEngine, TokensEqualOneRunOverOneTableKeepingEveryRowAndTheConvolutionsHoldTheirTapsOnly) {
    const int draft_tokens = GetParam();
    engine_options o;
    o.model_path = lfm2_model().string();
    o.backend = "cpu";
    o.n_threads = 2;
    o.n_ctx = k_ctx;
    o.chunk = k_chunk;
    auto e = engine::create(o);
    ASSERT_TRUE(e.ok()) << e.message();
    const kv_layer_groups groups = (*e)->layer_groups();
    EXPECT_TRUE(groups.local_is_conv);
    EXPECT_EQ(groups.n_local_layers, 3);
    EXPECT_EQ(groups.window, 3);
    EXPECT_EQ(groups.local_bytes_per_token, 3 * 256 * 4);     // 3 layers x 256 f32 (half in K, half in V)
    EXPECT_EQ(groups.global_bytes_per_token, 2 * 2 * 64 * 2);  // 1 layer x K and V x 2 heads x 64 x f16
    // The pool: 256 blocks of the attention layer's K/V for the context, and
    // of the convolutions' rows what one sequence holds at a time (the 3
    // taps and a chunk of 7 tokens, or a step with 8 drafts: 3 blocks at
    // most) twice over, at least 64 blocks.
    const std::int64_t block_tokens = 16;
    EXPECT_EQ((*e)->kv_pool_bytes(), 256 * block_tokens * groups.global_bytes_per_token +
                                         64 * block_tokens * groups.local_bytes_per_token);

    const std::string text = prompt_text();
    const std::vector<std::int32_t> prompt = (*e)->vocab().encode(text, (*e)->vocab().add_bos(), false);
    const engine_run run = run_engine(**e, text, draft_tokens);
    ASSERT_TRUE(run.ok);
    auto m = model::load(o.model_path);
    ASSERT_TRUE(m.ok()) << m.message();
    EXPECT_EQ(run.ids, run_one_table(**m, prompt, draft_tokens));

    // The attention layer holds every token; each convolution layer 3 (its taps).
    const std::int64_t n = run.last_kv_tokens;
    EXPECT_EQ(n, static_cast<std::int64_t>(prompt.size()) + k_new - 1);
    EXPECT_EQ(run.last_groups.local_tokens, 3);
    EXPECT_EQ(run.last_groups.local_bytes, 3 * 3 * 256 * 4);
    EXPECT_EQ(run.last_groups.global_bytes, n * 2 * 2 * 64 * 2);
    const kv_geometry g = make_kv_geometry((*m)->info(), kv_dtype::f16, 16);
    const std::int64_t local_blocks = g.blocks_for_tokens(n) - g.local_keep_from(n) / 16;
    EXPECT_LE(local_blocks, 2);
    EXPECT_EQ(run.last_kv_allocated, g.blocks_for_tokens(n) * g.group_block_bytes(layer_group::global) +
                                         local_blocks * g.group_block_bytes(layer_group::local));

    // A follow-up over the same text: its prefix from the cache (the taps'
    // rows before the hit included), the same tokens as one table computes.
    // (The engine's sampler starts again from its seed for each request.)
    const std::string follow = text + "and the mill";
    const engine_run again = run_engine(**e, follow, draft_tokens);
    ASSERT_TRUE(again.ok);
    EXPECT_GE(again.cached_tokens, 100);
    const std::vector<std::int32_t> follow_ids = (*e)->vocab().encode(follow, (*e)->vocab().add_bos(), false);
    EXPECT_EQ(again.ids, run_one_table(**m, follow_ids, draft_tokens));
}

// Without drafts (sampled), and with up to 4 draft tokens a step (prompt
// lookup; greedy, which on this random model repeats one token, so the
// drafts are accepted: a check of batched steps over the convolutions' rows).
INSTANTIATE_TEST_SUITE_P(DraftTokens, ShortConvEngine, ::testing::Values(0, 4));

}  // namespace
