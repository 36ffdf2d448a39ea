// SPDX-License-Identifier: Apache-2.0
// Speculative decoding's parts without a model: prompt lookup finds the
// tokens that followed the latest earlier occurrence of the text's end, and
// the sampler's check of a draft token emits tokens with the distribution
// plain sampling has (greedy: the argmax, whatever the draft).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "engine/runtime/prompt_lookup.h"
#include "engine/runtime/sampling.h"

using kvlens::prompt_lookup_draft;

TEST(PromptLookup, takesWhatFollowedTheLatestEarlierOccurrenceOfTheLongestSuffix)
{
    //                    0  1  2  3  4  5  6  7  8  9 10
    const std::vector<std::int32_t> h = {1, 2, 3, 4, 9, 2, 3, 5, 7, 2, 3};
    // "2 3" occurs at 1 and 5; the latest (5) was followed by 5 7 2 3.
    EXPECT_EQ(prompt_lookup_draft(h, 2, 3), (std::vector<std::int32_t>{5, 7, 2}));
    // Never past the history's end.
    EXPECT_EQ(prompt_lookup_draft(h, 2, 8), (std::vector<std::int32_t>{5, 7, 2, 3}));
}

TEST(PromptLookup, fallsBackToShorterSuffixesAndGivesNothingWithoutAMatch)
{
    // "8 3" never occurred before; "3" did, at 2, followed by 4 9.
    const std::vector<std::int32_t> h = {1, 2, 3, 4, 9, 8, 3};
    EXPECT_EQ(prompt_lookup_draft(h, 3, 2), (std::vector<std::int32_t>{4, 9}));
    const std::vector<std::int32_t> fresh = {1, 2, 3, 4};
    EXPECT_TRUE(prompt_lookup_draft(fresh, 3, 4).empty());
    EXPECT_TRUE(prompt_lookup_draft(h, 3, 0).empty());
    EXPECT_TRUE(prompt_lookup_draft(std::vector<std::int32_t>{7}, 3, 4).empty());
}

TEST(PromptLookup, aShortestSuffixKeepsWeakMatchesOut)
{
    // Only the last token ("3") occurred before: with ngram_min 2 that is no draft.
    const std::vector<std::int32_t> h = {1, 2, 3, 4, 9, 8, 3};
    EXPECT_TRUE(prompt_lookup_draft(h, 3, 2, 2).empty());
    EXPECT_EQ(prompt_lookup_draft(h, 3, 2, 1), (std::vector<std::int32_t>{4, 9}));
}

TEST(PromptLookup, aRepeatedTokenDraftsItsOwnContinuation)
{
    // The suffix "5 5" occurs at 1 (overlapping the end is not allowed: at
    // least one token must follow the match), followed by 5.
    const std::vector<std::int32_t> h = {4, 5, 5, 5};
    EXPECT_EQ(prompt_lookup_draft(h, 2, 4), (std::vector<std::int32_t>{5}));
}

TEST(SamplerVerify, greedyEmitsTheArgmaxWhateverTheDraft)
{
    kvlens::sampling_params p;   // temperature 0
    kvlens::sampler s(p);
    const std::array<float, 4> logits = {0.5f, 2.0f, 1.0f, -1.0f};
    EXPECT_EQ(s.verify(logits, 1), 1);
    EXPECT_EQ(s.verify(logits, 2), 1);
}

// With sampling, the emitted token must have the distribution sample() draws
// from, whichever token is the draft: 40k checks against 3 candidates, each
// frequency within 1.5 % (about 6 standard deviations) of its probability.
// Always accepting, or accepting with the wrong probability, fails.
TEST(SamplerVerify, samplingKeepsTheTargetDistribution)
{
    kvlens::sampling_params p;
    p.temperature = 1.0f;
    p.top_k = 0;
    p.top_p = 1.0f;
    p.min_p = 0.0f;
    p.seed = 7;
    const std::array<float, 3> logits = {0.0f, std::log(2.0f), std::log(5.0f)};   // p = 1/8, 2/8, 5/8
    const double expected[3] = {1.0 / 8, 2.0 / 8, 5.0 / 8};
    for (std::int32_t draft : {0, 1, 2}) {
        kvlens::sampler s(p);
        std::array<int, 3> seen{};
        const int n = 40000;
        for (int i = 0; i < n; ++i) ++seen[static_cast<std::size_t>(s.verify(logits, draft))];
        for (int t = 0; t < 3; ++t)
            EXPECT_NEAR(static_cast<double>(seen[static_cast<std::size_t>(t)]) / n, expected[t], 0.015)
                << "draft " << draft << ", token " << t;
    }
}
