// SPDX-License-Identifier: Apache-2.0
// The gemma3 architecture on synthetic files (synth-model's tiny-gemma3
// shape), no real weights needed: llama.cpp's layer pattern read from the
// window, bad patterns and windows rejected with the key named, and a
// forward pass whose batching does not change its logits.
#include <gtest/gtest.h>

#include <unistd.h>

#include "tests/support/table_rows.h"

#include <cmath>
#include <filesystem>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/kv/kv_geometry.h"
#include "engine/model/model.h"
#include "engine/model/synth_model.h"
#include "tests/support/float_compare.h"
#include "tests/support/temp_dir.h"
#include "tests/support/text_checks.h"

using namespace kvlens;
using kvlens::test::contains;

namespace {

std::string write_shape(const synth_shape& s, ggml_type t, const std::string& tag) {
    const auto path = test::removed_at_exit(std::filesystem::temp_directory_path() /
                                            ("kvlens_test_gemma3_" + tag + "_" + std::to_string(::getpid()) + ".gguf"));
    const status st = write_synth_model(s, t, path.string(), 3);
    if (!st) std::fprintf(stderr, "%s\n", st.message().c_str());
    return path.string();
}

synth_shape tiny() { return *synth_shape_named("tiny-gemma3"); }

// Logits of the last token of ids fed in chunks of `chunk` tokens.
std::vector<float> run(const model& m, const std::vector<std::int32_t>& ids, int chunk) {
    backend_options o;
    o.max_batch = 64;
    o.max_ctx = 64;
    auto be = make_cpu_backend(m, o);
    if (!be) return {};
    auto g = make_kv_geometry(m.info(), kv_dtype::f16, 16);
    g.layer_window = m.config().layer_window;
    if (!(*be)->init_kv(g, 4)) return {};
    std::vector<std::int32_t> table(4);
    std::iota(table.begin(), table.end(), 0);
    std::vector<float> logits(static_cast<std::size_t>(m.info().n_vocab));
    for (std::size_t at = 0; at < ids.size(); at += static_cast<std::size_t>(chunk)) {
        forward_batch b;
        for (std::size_t i = at; i < std::min(ids.size(), at + chunk); ++i) {
            b.tokens.push_back(ids[i]);
            b.positions.push_back(static_cast<std::int32_t>(i));
            b.block_tables.push_back(table.data());
        }
        b.logit_rows.push_back(static_cast<std::int32_t>(b.size() - 1));
        if (!(*be)->forward(b, logits.data(), nullptr)) return {};
    }
    return logits;
}

}  // namespace

TEST(Gemma3Shape, aWindowMeansFiveLocalLayersThenOneGlobalAsInLlamaCpp)
{
    auto m = model::load(write_shape(tiny(), ggml_type::q5_0, "pattern"));
    ASSERT_TRUE(m.ok()) << (m.ok() ? "" : m.message().c_str());
    const model_config& c = (*m)->config();
    ASSERT_EQ(c.architecture, arch::gemma3);
    const std::vector<int> want = {8, 8, 8, 8, 8, 0};
    ASSERT_EQ(c.layer_window, want);
    ASSERT_TRUE(kvlens::test::qt_fuzzy_equal(c.rope_base(0), 10000.0f)) << c.rope_base(0);
    ASSERT_TRUE(kvlens::test::qt_fuzzy_equal(c.rope_base(5), 1000000.0f)) << c.rope_base(5);
    ASSERT_TRUE(kvlens::test::qt_fuzzy_equal(c.score_scale(), 1.0f / std::sqrt(32.0f))) << c.score_scale();
    ASSERT_TRUE(kvlens::test::qt_fuzzy_equal(c.embd_scale, std::sqrt(64.0f))) << c.embd_scale;
    ASSERT_EQ((*m)->info().sliding_window, 8);
}

TEST(Gemma3Shape, anExplicitPatternIsFollowed)
{
    synth_shape s = tiny();
    s.swa_pattern = {1, 0, 1, 0, 1, 0};
    auto m = model::load(write_shape(s, ggml_type::q8_0, "explicit"));
    ASSERT_TRUE(m.ok()) << (m.ok() ? "" : m.message().c_str());
    const std::vector<int> want = {8, 0, 8, 0, 8, 0};
    ASSERT_EQ((*m)->config().layer_window, want);
}

struct inconsistentPatternsAndWindowsAreErrors_row {
    std::string tag;
    std::vector<int> pattern;
    int window;
    std::string names;
};

std::vector<inconsistentPatternsAndWindowsAreErrors_row> inconsistentPatternsAndWindowsAreErrors_rows()
{
    std::vector<inconsistentPatternsAndWindowsAreErrors_row> rows;
    rows.push_back({"pattern of the wrong length", std::vector<int>{1, 1, 0}, 8, "3 entries for 6 layers"});
    rows.push_back({"pattern without a window", std::vector<int>{1, 1, 1, 1, 1, 0}, 0, "no sliding_window"});
    rows.push_back({"no global layer", std::vector<int>{1, 1, 1, 1, 1, 1}, 8, "none of the 6 layers global"});
    rows.push_back({"not bools", std::vector<int>{1, 2, 1, 1, 1, 0}, 8, "must hold bools"});
    return rows;
}

TEST(Gemma3Shape, inconsistentPatternsAndWindowsAreErrors)
{
    kvlens::test::for_each_row(inconsistentPatternsAndWindowsAreErrors_rows(), [&](const inconsistentPatternsAndWindowsAreErrors_row& row) {
        synth_shape s = tiny();
        s.swa_pattern = std::vector<int>(row.pattern.begin(), row.pattern.end());
        s.sliding_window = row.window;
        auto m = model::load(write_shape(s, ggml_type::q8_0, "bad"));
        ASSERT_TRUE(!m.ok());
        ASSERT_TRUE(contains(m.message(), row.names)) << m.message().c_str();
    });
}

TEST(Gemma3Shape, batchingDoesNotChangeGemma3Logits)
{
    auto m = model::load(write_shape(tiny(), ggml_type::q5_1, "batch"));
    ASSERT_TRUE(m.ok());
    std::vector<std::int32_t> ids(20);   // longer than the window of 8
    for (int i = 0; i < 20; ++i) ids[static_cast<std::size_t>(i)] = 3 + (i * 37) % 500;
    const auto whole = run(**m, ids, 20);
    const auto steps = run(**m, ids, 1);
    const auto chunks = run(**m, ids, 7);
    ASSERT_TRUE(!whole.empty() && !steps.empty() && !chunks.empty());
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < whole.size(); ++i) {
        ASSERT_TRUE(std::isfinite(whole[i]));
        worst = std::max({worst, std::fabs(double(whole[i]) - steps[i]), std::fabs(double(whole[i]) - chunks[i])});
        scale = std::max(scale, std::fabs(double(whole[i])));
    }
    ASSERT_TRUE(scale > 0);
    ASSERT_TRUE(worst <= 1e-4 * scale) << "logits differ by " << worst << " (scale " << scale << ")";
}
