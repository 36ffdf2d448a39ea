// SPDX-License-Identifier: Apache-2.0
// Gemma 3 270M (Q4_K_M) against llama.cpp: golden data made by
// tests/reference/generate_gemma3_reference.py with llama-cpp-python 0.3.16
// (plain CPU kernels). Skips, saying so, when models/gemma-3-270m-q4_k_m.gguf
// is absent (scripts/fetch-model gemma3-270m).
//
// - Tokenization: identical ids on every recorded text (hand-written ones and
//   1500 generated multilingual texts), no tolerance.
// - First-step logits: within k_logit_tolerance on the reference's top-10 and
//   on ids 0..31. The tolerance comes from measurement (see the constant).
// - Greedy: identical for 32 tokens, or, where kvlens parts earlier, the
//   reference's top-2 margin at that step is a near tie: below k_near_tie or
//   below twice this prompt's measured first-step difference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "engine/model/model.h"
#include "engine/runtime/sampling.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/float_compare.h"
#include "tests/support/reference_runner.h"
#include "tests/support/reference_suite.h"
#include "tests/support/test_paths.h"

using nlohmann::json;

namespace {

constexpr const char* k_sha256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818";
constexpr int k_required_identical = 32;
constexpr double k_near_tie = 0.1;
// The noise of a correct engine, measured: llama.cpp against itself, the same
// prompt fed as one batch and one token per eval (two kernel paths), differs
// by up to 1.24 on the first step's logits (batch_vs_single_max_diff in the
// golden data: 0 to 1.24 over the 8 prompts, logits of about +-25). kvlens
// differs from llama.cpp by 0.23 to 0.88 on the recorded logits. The
// tolerance is llama.cpp's own spread, rounded up: 1.25. Both engines quantize
// activations to 8-bit blocks and keep K/V in f16; they differ in summation
// order, GELU (llama.cpp: an f16 lookup table) and exp. A wrong RoPE base,
// norm, window or scale moves logits by whole units.
constexpr double k_logit_tolerance = 1.25;

std::filesystem::path gemma_model() {
    if (const char* p = std::getenv("KVLENS_GEMMA3_MODEL")) return p;
    return kvlens::test::source_root() / "models/gemma-3-270m-q4_k_m.gguf";
}

}  // namespace

// Gemma 3 270M and its golden data, loaded once for the suite (reference_suite.h).
struct gemma3_files {
    static std::filesystem::path model() { return gemma_model(); }
    static constexpr int max_batch = 128;
    static constexpr const char* golden = "gemma3_greedy.json";
    static constexpr const char* sha256 = k_sha256;
    static constexpr const char* no_model =
        "Gemma 3 270M not fetched (scripts/fetch-model gemma3-270m); the gemma3 parity checks did not run";
    static constexpr const char* no_golden = "no Gemma 3 golden data (tests/reference/generate_gemma3_reference.py)";
};

class Gemma3Reference : public kvlens::test::reference_suite<gemma3_files> {};

TEST_F(Gemma3Reference, theConfigurationIsLlamaCppsFiveLocalLayersThenOneGlobal)
{
    using kvlens::test::qt_fuzzy_equal;
    const kvlens::model_config& c = r_.m->config();
    ASSERT_EQ(c.n_layer, 18);
    for (int il = 0; il < c.n_layer; ++il)
        ASSERT_EQ(c.layer_window[static_cast<std::size_t>(il)], il % 6 == 5 ? 0 : 512);
    ASSERT_TRUE(qt_fuzzy_equal(c.rope_base(0), 10000.0f)) << c.rope_base(0);
    ASSERT_TRUE(qt_fuzzy_equal(c.rope_base(5), 1000000.0f)) << c.rope_base(5);
    ASSERT_TRUE(qt_fuzzy_equal(c.score_scale(), 1.0f / 16.0f)) << c.score_scale();   // 1 / sqrt(key_length 256)
}

TEST_F(Gemma3Reference, tokenizationIsIdenticalOnEveryRecordedText)
{
    const json t = kvlens::test::load_reference_data("gemma3_tokenize.json");
    auto tok = kvlens::tokenizer::from_gguf(r_.m->file());
    ASSERT_TRUE(tok.ok());
    int checked = 0;
    for (const json& e : t["entries"]) {
        const auto want = e["ids"].get<std::vector<std::int32_t>>();
        const auto got = (*tok)->encode(e["text"].get<std::string>(), false, false);
        ASSERT_TRUE(got == want) << "text '" << e["text"].get<std::string>() << "' (" << e["name"].get<std::string>()
                                 << ") tokenized differently";
        ++checked;
    }
    ASSERT_TRUE(checked > 1000);
    fmt::print("{} texts tokenized as llama.cpp does\n", checked);
}

// One case per recorded prompt (the rows of the Qt Test suite's greedy_data).
TEST_F(Gemma3Reference, greedyContinuationsMatchLlamaCppOrPartOnlyAtANearTie)
{
    for (const auto& g : kvlens::test::check_greedy_all(r_, golden_, k_required_identical, k_near_tie)) {
        EXPECT_TRUE(g.ok) << g.name << ": " << g.failure;
        if (g.ok) fmt::print("{}: {}\n", g.name, g.note);
    }
}

TEST_F(Gemma3Reference, firstStepLogitsAreWithinLlamaCppsOwnSpread)
{
    for (const json& e : golden_["entries"]) {
        SCOPED_TRACE(e["name"].get<std::string>());
        [&] {
            ASSERT_TRUE(r_.feed(e["prompt_ids"].get<std::vector<std::int32_t>>(), 0).ok());
            const double worst = r_.first_step_difference(e);
            fmt::print("largest first-step logit difference: {:.5f}\n", worst);
            ASSERT_TRUE(worst <= k_logit_tolerance) << "first-step logits differ by " << worst;
            const double margin0 = e["steps"][0]["margin"].get<double>();
            if (kvlens::argmax(r_.logits) != e["first_step"]["argmax"].get<std::int32_t>())
                ASSERT_TRUE(margin0 < std::max(k_near_tie, 2 * worst)) << "first token differs at a margin of " << margin0;
        }();
    }
}
