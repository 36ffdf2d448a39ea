// SPDX-License-Identifier: Apache-2.0
// The capped sliding-window KV on the real Gemma 3 270M (window 512): the
// engine, whose local layers release the blocks behind the window, produces
// the same greedy tokens over a prompt longer than the window as the
// uncapped path (one block table for every layer, every K/V kept), reports
// local-layer blocks that stop growing, and serves a follow-up question from
// the prefix cache with the same tokens as the uncapped path computes.
// Skips, saying so, without models/gemma-3-270m-q4_k_m.gguf.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <string>
#include <variant>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/kv/kv_geometry.h"
#include "engine/model/model.h"
#include "engine/runtime/engine.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/test_paths.h"

using namespace kvlens;

namespace {

constexpr int k_chunk = 256;   // the engine's prefill chunk, which the uncapped path copies
constexpr int k_ctx = 1024;
constexpr int k_new = 12;

std::filesystem::path gemma_model() { return test::source_root() / "models/gemma-3-270m-q4_k_m.gguf"; }

// About 620 tokens of plain prose: longer than the window of 512.
std::string long_report() {
    static const char* const sentences[] = {
        "The committee reviewed the water supply figures for the northern district. ",
        "Rainfall in the spring was lower than in any of the previous eleven years. ",
        "Reservoir levels fell to sixty percent of capacity by the end of June. ",
        "Farmers reported that irrigation costs rose by nearly a third. ",
        "The report recommends new storage ponds and repairs to the old canals. ",
        "A pilot program will meter household use in three towns next year. ",
    };
    std::string text;
    for (int i = 0; i < 48; ++i) text += sentences[(i * 5) % 6];
    return text;
}

struct engine_run {
    std::vector<std::int32_t> ids;
    std::int64_t last_kv_tokens = 0;
    std::int64_t last_kv_allocated = 0;
    std::vector<std::int64_t> allocated;   // kv_allocated_bytes of every token
    int cached_tokens = -1;
    bool ok = false;
};

engine_run run_engine(engine& e, const std::string& text) {
    engine_run r;
    request_params p;
    p.text = text;
    p.max_tokens = k_new;
    e.submit(p, [&r](const event& ev) {
        if (const auto* t = std::get_if<event_token>(&ev)) {
            r.ids.push_back(t->id);
            r.last_kv_tokens = t->kv_tokens;
            r.last_kv_allocated = t->kv_allocated_bytes;
            r.allocated.push_back(t->kv_allocated_bytes);
        } else if (const auto* d = std::get_if<event_done>(&ev)) {
            r.ok = d->reason == finish_reason::length;
            r.cached_tokens = d->figures.cached_tokens;
        }
    });
    e.wait_idle();
    return r;
}

// The engine's prefill runs of a prompt whose first `cached` tokens came from
// the prefix cache: the runs that computed those (chunks of 256 from 0, cut
// at `cached`), then chunks of 256 from `cached`. Row results depend only on
// the kernels a run's length picks (matmul.h), and these lengths pick the
// engine's.
std::vector<int> engine_runs(int n_prompt, int cached) {
    std::vector<int> cuts;
    for (int at = k_chunk; at < cached; at += k_chunk) cuts.push_back(at);
    if (cached > 0) cuts.push_back(cached);
    for (int at = cached + k_chunk; at < n_prompt; at += k_chunk) cuts.push_back(at);
    cuts.push_back(n_prompt);
    return cuts;
}

// The uncapped path: the CPU backend with one block table for every layer
// (the local layers' storage indexed by it too, nothing released), fed in the
// engine's runs (cuts: the end of each) so every product picks the same
// kernels; greedy.
std::vector<std::int32_t> run_uncapped(const model& m, const std::vector<std::int32_t>& prompt, const std::vector<int>& cuts) {
    backend_options o;
    o.n_threads = 2;
    o.max_batch = k_chunk + 1;
    o.max_ctx = k_ctx;
    auto be = make_cpu_backend(m, o);
    if (!be) return {};
    kv_geometry g = make_kv_geometry(m.info(), kv_dtype::f16, 16);
    g.layer_window = m.config().layer_window;
    const std::int32_t n_blocks = static_cast<std::int32_t>(g.blocks_for_tokens(k_ctx));
    if (!(*be)->init_kv(g, n_blocks)) return {};
    std::vector<std::int32_t> table(static_cast<std::size_t>(n_blocks));
    std::iota(table.begin(), table.end(), 0);
    std::vector<float> logits(static_cast<std::size_t>(m.info().n_vocab));
    const auto step = [&](const std::int32_t* ids, int n, int pos) {
        forward_batch b;
        b.append({ids, static_cast<std::size_t>(n)}, pos, table.data(), true);
        if (!(*be)->forward(b, logits.data(), nullptr)) return -1;
        return static_cast<int>(std::max_element(logits.begin(), logits.end()) - logits.begin());
    };
    int next = -1;
    int at = 0;
    for (int end : cuts) {
        if (end <= at) continue;
        next = step(prompt.data() + at, end - at, at);
        at = end;
    }
    if (at != static_cast<int>(prompt.size())) return {};
    std::vector<std::int32_t> out;
    for (int i = 0; i < k_new && next >= 0; ++i) {
        out.push_back(next);
        const std::int32_t id = next;
        next = step(&id, 1, static_cast<int>(prompt.size()) + i);
    }
    return out;
}

class SlidingWindowEngine : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::filesystem::exists(gemma_model())) GTEST_SKIP() << "no " << gemma_model() << " (scripts/fetch-model gemma3-270m)";
    }
};

TEST_F(SlidingWindowEngine, GreedyTokensPastTheWindowEqualTheUncappedPathAndLocalBlocksStopGrowing) {
    engine_options o;
    o.model_path = gemma_model().string();
    o.backend = "cpu";
    o.n_threads = 2;
    o.n_ctx = k_ctx;
    o.chunk = k_chunk;
    auto e = engine::create(o);
    ASSERT_TRUE(e.ok()) << e.message();
    const std::string text = long_report();
    const std::vector<std::int32_t> prompt = (*e)->vocab().encode(text, (*e)->vocab().add_bos(), false);
    ASSERT_GT(prompt.size(), 560u) << "the prompt must be longer than the window of 512";
    ASSERT_LT(prompt.size() + k_new, static_cast<std::size_t>(k_ctx));

    const engine_run capped = run_engine(**e, text);
    ASSERT_TRUE(capped.ok);
    auto m = model::load(o.model_path);
    ASSERT_TRUE(m.ok());
    const int n_prompt = static_cast<int>(prompt.size());
    const std::vector<std::int32_t> uncapped = run_uncapped(**m, prompt, engine_runs(n_prompt, 0));
    ASSERT_EQ(uncapped.size(), static_cast<std::size_t>(k_new));
    EXPECT_EQ(capped.ids, uncapped);

    // The KV figures: 15 local layers hold the window's blocks only, 3 global
    // layers every block; the uncapped cache would hold every block in all 18.
    kv_geometry g = make_kv_geometry((*m)->info(), kv_dtype::f16, 16);
    g.layer_window = (*m)->config().layer_window;
    ASSERT_EQ(g.n_group_layers(layer_group::local), 15);
    const std::int64_t n = capped.last_kv_tokens;
    EXPECT_EQ(n, static_cast<std::int64_t>(prompt.size()) + k_new - 1);   // the last token is not yet in the cache
    const std::int64_t local_blocks = g.blocks_for_tokens(n) - g.local_keep_from(n) / 16;
    EXPECT_LE(local_blocks, 512 / 16 + 1);
    EXPECT_EQ(capped.last_kv_allocated, g.blocks_for_tokens(n) * g.group_block_bytes(layer_group::global) +
                                            local_blocks * g.group_block_bytes(layer_group::local));
    EXPECT_LT(capped.last_kv_allocated, g.blocks_bytes(g.blocks_for_tokens(n)));

    // A follow-up over the same report: served from the prefix cache (the
    // local layers' window before the hit included) with the uncapped tokens.
    const std::string follow = text + "In one sentence, the main recommendation is";
    const std::vector<std::int32_t> follow_ids = (*e)->vocab().encode(follow, (*e)->vocab().add_bos(), false);
    const engine_run again = run_engine(**e, follow);
    ASSERT_TRUE(again.ok);
    EXPECT_GE(again.cached_tokens, 512) << "the follow-up should reuse the report's KV";
    EXPECT_EQ(again.ids, run_uncapped(**m, follow_ids, engine_runs(static_cast<int>(follow_ids.size()), again.cached_tokens)));
}

}  // namespace
