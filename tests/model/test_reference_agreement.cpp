// SPDX-License-Identifier: Apache-2.0
// The engine against llama.cpp on the default model (golden data made by
// tests/reference/generate_reference.py with llama-cpp-python).
//
// How close two correct engines can be: both quantize activations to 8-bit
// blocks before every quantized dot product, so logits carry noise of a few
// tenths. Measured on these prompts' first steps: an exact float64 forward pass
// (tests/reference/reference_forward.py) differs from llama.cpp by 0.52 to
// 1.77; kvlens differs from llama.cpp by 0.15 to 0.7. Hence:
// - first-step logits: within 0.9 (half the exact-vs-llama.cpp spread) of
//   llama.cpp on the reference's top-10 tokens, or of the exact float64 pass
//   where that pass recorded the token (its own top 10), and the same argmax;
//   on ids 0..31 (control tokens, whose logits are the least well
//   conditioned) within 0.9 of llama.cpp or of the exact pass, whichever is
//   nearer. In chat_summary llama.cpp puts id 9207 at 29.90, the exact pass
//   at 29.02; kvlens with its scalar reference attention (and, on AVX-512,
//   its rows-in-lanes prefill attention) at 28.96: 0.06 from the exact
//   answer, 0.94 from llama.cpp. The
//   golden data was recorded on an AVX-512 CPU; on an AVX2 CPU kvlens's
//   kernels round differently, and in chat_capital id 6 lands at 2.08 where
//   llama.cpp says 1.07 and the exact pass 2.39: nearer the exact answer than
//   llama.cpp itself is. A wrong engine is far from both references;
// - greedy continuations: identical for the first 32 tokens, or, where they
//   part earlier, the reference's top-2 margin at that step must be a near tie:
//   below 0.1, or below twice the first-step logit difference measured on the
//   same prompt (the noise level of that prompt). A wrong engine (RoPE, norm,
//   attention, a kernel) moves logits by whole units and fails both checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/runtime/sampling.h"
#include "tests/support/reference_runner.h"
#include "tests/support/reference_suite.h"
#include "tests/support/test_paths.h"

using nlohmann::json;

namespace {

constexpr int k_required_identical = 32;
constexpr double k_near_tie = 0.1;
constexpr double k_logit_tolerance = 0.9;

// The exact float64 pass's first-step record of a prompt (null when absent).
json exact_first_step(const std::string& name) {
    const json f = kvlens::test::load_reference_data("forward_f64.json");
    for (const json& e : f["entries"])
        if (e["name"] == name) return e["first_step"];
    return nullptr;
}

// The exact pass's first-step logit of `id`, where it recorded one (its top 10).
std::optional<double> exact_top10_logit(const json& exact, std::int32_t id) {
    const auto ids = exact["top10_ids"].get<std::vector<std::int32_t>>();
    const auto logits = exact["top10_logits"].get<std::vector<double>>();
    for (std::size_t i = 0; i < ids.size() && i < logits.size(); ++i)
        if (ids[i] == id) return logits[i];
    return std::nullopt;
}

}  // namespace

// SmolLM2 (the default model) and its golden data, loaded once for the suite
// (reference_suite.h); the golden data is in the tree, so it is required.
struct smollm2_files {
    static std::filesystem::path model() { return kvlens::test::default_model(); }
    static constexpr int max_batch = 256;
    static constexpr const char* golden = "greedy.json";
    static constexpr const char* sha256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";
    static constexpr const char* no_model = "default model not fetched (scripts/fetch-model)";
    static constexpr const char* no_golden = "";
};

class ReferenceAgreement : public kvlens::test::reference_suite<smollm2_files> {};

TEST_F(ReferenceAgreement, firstStepLogitsAreNearLlamaCppOrTheExactPass)
{
    for (const json& e : golden_["entries"]) {
        SCOPED_TRACE(e["name"].get<std::string>());
        [&] {
            ASSERT_TRUE(r_.feed(e["prompt_ids"].get<std::vector<std::int32_t>>(), 0).ok());
            const auto ids = e["first_step"]["top10_ids"].get<std::vector<std::int32_t>>();
            const auto ref = e["first_step"]["top10_logits"].get<std::vector<double>>();
            const json exact_step = exact_first_step(e["name"].get<std::string>());
            ASSERT_FALSE(exact_step.is_null());
            double worst = 0;
            for (std::size_t i = 0; i < ids.size(); ++i) {
                const double ours = r_.logits[static_cast<std::size_t>(ids[i])];
                const std::optional<double> exact = exact_top10_logit(exact_step, ids[i]);
                const double d = std::fabs(ours - ref[i]);
                const double nearest = exact ? std::min(d, std::fabs(ours - *exact)) : d;
                worst = std::max(worst, d);
                ASSERT_TRUE(nearest <= k_logit_tolerance)
                    << "token " << ids[i] << ": " << ours << " vs llama.cpp " << ref[i]
                    << (exact ? fmt::format(", exact {}", *exact) : std::string(", not in the exact pass's top 10"));
            }
            const auto slice = e["first_step"]["logits_0_31"].get<std::vector<double>>();
            const auto exact = exact_step["logits_0_31"].get<std::vector<double>>();
            ASSERT_EQ(exact.size(), slice.size());
            for (std::size_t i = 0; i < slice.size(); ++i) {
                const double d = std::fabs(r_.logits[i] - slice[i]);
                const double d_exact = std::fabs(r_.logits[i] - exact[i]);
                worst = std::max(worst, std::min(d, d_exact));
                ASSERT_TRUE(std::min(d, d_exact) <= k_logit_tolerance)
                    << "token " << i << ": " << r_.logits[i] << " vs llama.cpp " << slice[i] << ", exact " << exact[i];
            }
            // The same first token, unless the reference itself had a near tie there
            // (chat_haiku: margin 0.07; summation order alone can flip it).
            const double margin0 = e["steps"][0]["margin"].get<double>();
            if (kvlens::argmax(r_.logits) != e["first_step"]["argmax"].get<std::int32_t>())
                ASSERT_TRUE(margin0 < std::max(k_near_tie, 2 * worst)) << "first token differs at a margin of " << margin0;
            fmt::print("largest first-step logit difference: {:.5f}\n", worst);
        }();
    }
}

// One case per recorded prompt (the rows of the Qt Test suite's greedy_data).
TEST_F(ReferenceAgreement, greedyContinuationsMatchLlamaCppOrPartOnlyAtANearTie)
{
    for (const auto& g : kvlens::test::check_greedy_all(r_, golden_, k_required_identical, k_near_tie)) {
        EXPECT_TRUE(g.ok) << g.name << ": " << g.failure;
        if (g.ok) fmt::print("{}: {}\n", g.name, g.note);
    }
}
