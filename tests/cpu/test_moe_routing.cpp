// SPDX-License-Identifier: Apache-2.0
// A mixture of experts' routing (moe_routing.h): each token's most probable
// experts under the router's softmax (or sigmoids and an expert bias), their weights, and the tokens grouped
// by expert for the experts' products.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/backend/cpu/moe_routing.h"

using namespace kvlens;

namespace {

// softmax(z)[i] in double.
double softmax_at(const std::vector<float>& z, int i) {
    double mx = -INFINITY, sum = 0;
    for (const float v : z) mx = std::max(mx, static_cast<double>(v));
    for (const float v : z) sum += std::exp(v - mx);
    return std::exp(z[static_cast<std::size_t>(i)] - mx) / sum;
}

const moe_gating k_softmax{};                                  // Qwen2-MoE, OLMoE
const moe_gating k_softmax_renormalized{false, true, nullptr};   // Mixtral, Qwen3-MoE

}  // namespace

TEST(MoeRouting, eachTokenKeepsItsMostProbableExpertsMostProbableFirst)
{
    // 2 tokens, 4 experts, 2 per token.
    const std::vector<float> logits = {0.5f, 3.0f, -1.0f, 2.0f,    // token 0: experts 1, 3
                                       4.0f, -2.0f, 1.0f, 0.0f};   // token 1: experts 0, 2
    moe_routes r;
    route_tokens(logits.data(), 2, 4, 2, k_softmax, r);
    EXPECT_EQ(r.expert, (std::vector<int>{1, 3, 0, 2}));
    const std::vector<float> t0(logits.begin(), logits.begin() + 4), t1(logits.begin() + 4, logits.end());
    EXPECT_NEAR(r.weight[0], softmax_at(t0, 1), 1e-6);
    EXPECT_NEAR(r.weight[1], softmax_at(t0, 3), 1e-6);
    EXPECT_NEAR(r.weight[2], softmax_at(t1, 0), 1e-6);
    EXPECT_NEAR(r.weight[3], softmax_at(t1, 2), 1e-6);
}

TEST(MoeRouting, renormalizedWeightsSumToOneInTheSameProportion)
{
    const std::vector<float> logits = {0.5f, 3.0f, -1.0f, 2.0f};
    moe_routes plain, norm;
    route_tokens(logits.data(), 1, 4, 2, k_softmax, plain);
    route_tokens(logits.data(), 1, 4, 2, k_softmax_renormalized, norm);
    EXPECT_NEAR(norm.weight[0] + norm.weight[1], 1.0f, 1e-6);
    EXPECT_NEAR(norm.weight[0] / norm.weight[1], plain.weight[0] / plain.weight[1], 1e-5);
    EXPECT_LT(plain.weight[0] + plain.weight[1], 0.99f);   // the other experts' share, left out
}

TEST(MoeRouting, tokensAreGroupedByExpertInTokenOrder)
{
    // 3 tokens, 3 experts, 2 per token: expert 0 gets tokens 0 and 2, expert 1 tokens 0, 1 and 2, expert 2 token 1.
    const std::vector<float> logits = {2.0f, 1.0f, 0.0f, 0.0f, 2.0f, 1.0f, 1.0f, 2.0f, 0.0f};
    moe_routes r;
    route_tokens(logits.data(), 3, 3, 2, k_softmax_renormalized, r);
    EXPECT_EQ(r.first, (std::vector<int>{0, 2, 5, 6}));
    EXPECT_EQ(r.token, (std::vector<int>{0, 2, 0, 1, 2, 1}));
    EXPECT_EQ(r.tokens_of(1), 3);
    // Each pair's weight is its token's weight for that expert.
    for (int e = 0; e < 3; ++e)
        for (int i = r.first[static_cast<std::size_t>(e)]; i < r.first[static_cast<std::size_t>(e) + 1]; ++i) {
            const int t = r.token[static_cast<std::size_t>(i)];
            const int slot = r.expert[static_cast<std::size_t>(t) * 2] == e ? 0 : 1;
            EXPECT_EQ(r.expert[static_cast<std::size_t>(t) * 2 + slot], e);
            EXPECT_EQ(r.token_weight[static_cast<std::size_t>(i)], r.weight[static_cast<std::size_t>(t) * 2 + slot]);
        }
}

TEST(MoeRouting, equalProbabilitiesGoToTheLowerExpert)
{
    const std::vector<float> logits = {1.0f, 1.0f, 1.0f, 1.0f};
    moe_routes r;
    route_tokens(logits.data(), 1, 4, 2, k_softmax, r);
    EXPECT_EQ(r.expert, (std::vector<int>{0, 1}));
    EXPECT_FLOAT_EQ(r.weight[0], 0.25f);
}

TEST(MoeRouting, aTokenWithoutFiniteLogitsStillGetsDistinctExperts)
{
    const std::vector<float> logits = {NAN, 1.0f, NAN, 0.0f};
    moe_routes r;
    route_tokens(logits.data(), 1, 4, 3, k_softmax, r);
    ASSERT_EQ(r.expert.size(), 3u);
    EXPECT_NE(r.expert[0], r.expert[1]);
    EXPECT_NE(r.expert[1], r.expert[2]);
    EXPECT_NE(r.expert[0], r.expert[2]);
    int grouped = 0;
    for (int e = 0; e < 4; ++e) grouped += r.tokens_of(e);
    EXPECT_EQ(grouped, 3);
}

// LFM2-MoE: each expert's probability is the sigmoid of its logit; the
// expert bias changes which experts are chosen but not their weights, which
// are the chosen sigmoids renormalized.
TEST(MoeRouting, sigmoidGatingChoosesByBiasedProbabilityAndWeighsByTheSigmoids)
{
    const std::vector<float> logits = {2.0f, 1.0f, 0.0f, -1.0f};
    const std::vector<float> bias = {0.0f, 0.0f, 0.9f, 0.0f};   // lifts expert 2 (0.5 + 0.9) above expert 1 (0.73)
    moe_gating g;
    g.sigmoid = true;
    g.renormalize = true;
    moe_routes unbiased, biased;
    route_tokens(logits.data(), 1, 4, 2, g, unbiased);
    EXPECT_EQ(unbiased.expert, (std::vector<int>{0, 1}));
    g.selection_bias = bias.data();
    route_tokens(logits.data(), 1, 4, 2, g, biased);
    EXPECT_EQ(biased.expert, (std::vector<int>{2, 0})) << "0.5 + 0.9 ranks above sigmoid(2) = 0.88";
    const double s0 = 1 / (1 + std::exp(-2.0)), s2 = 0.5;
    EXPECT_NEAR(biased.weight[0], s2 / (s0 + s2), 1e-6) << "weighed by the sigmoid, without the bias";
    EXPECT_NEAR(biased.weight[1], s0 / (s0 + s2), 1e-6);
}

// gpt-oss: the logits choose as they are, and the weights are the softmax
// of the chosen logits alone, whatever the others are.
TEST(MoeRouting, softmaxOfTheChosenWeighsOnlyTheChosenLogits)
{
    const std::vector<float> logits = {0.5f, 3.0f, -2.0f, 2.0f, 1.0f};
    moe_gating g;
    g.softmax_chosen = true;
    moe_routes r;
    route_tokens(logits.data(), 1, 5, 2, g, r);
    EXPECT_EQ(r.expert, (std::vector<int>{1, 3}));
    const double e = std::exp(1.0);   // e^(3 - 2)
    EXPECT_NEAR(r.weight[0], e / (e + 1), 1e-6);
    EXPECT_NEAR(r.weight[1], 1 / (e + 1), 1e-6);
    // The unchosen logits do not move the weights (a softmax over all five would).
    std::vector<float> other = logits;
    other[0] = 1.9f;   // still below the chosen 2
    other[4] = -40.0f;
    moe_routes r2;
    route_tokens(other.data(), 1, 5, 2, g, r2);
    EXPECT_EQ(r2.weight, r.weight);
}

TEST(MoeRouting, sharedExpertGateIsTheLogisticFunction)
{
    EXPECT_FLOAT_EQ(moe_sigmoid(0.0f), 0.5f);
    EXPECT_NEAR(moe_sigmoid(2.0f), 1.0 / (1.0 + std::exp(-2.0)), 1e-7);
    EXPECT_NEAR(moe_sigmoid(-30.0f), 0.0f, 1e-12);
}
