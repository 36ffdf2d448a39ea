// SPDX-License-Identifier: Apache-2.0
// YaRN's RoPE angles (rope_angles with a rope_yarn_ramp), checked against the
// formulas of ggml's rope_yarn worked out here in double: pair i's original
// angle pos * base^(-2i / n_rot), its scaled one freq_scale times that, a
// ramp from the original (up to corr_low) to the scaled (from corr_high on),
// and cos and sin times attn_factor (1 + 0.1 ln(1 / freq_scale)).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/backend/cpu/ops.h"

using namespace kvlens;

namespace {

constexpr int k_rot = 64;                   // 32 pairs
constexpr float k_base = 1000000.0f;
constexpr float k_scale = 0.25f;            // YaRN x4
constexpr int k_pos = 30;
const rope_yarn_ramp k_ramp{1.0f, 3.0f, 12.0f};

double original_angle(int i) { return k_pos * std::pow(static_cast<double>(k_base), -2.0 * i / k_rot); }

// The ramp's weight of the original angle at pair i: 1 up to low, 0 from high on.
double ramp(int i, const rope_yarn_ramp& r) {
    const double y = (i - static_cast<double>(r.corr_low)) / (r.corr_high - r.corr_low);
    return 1.0 - std::min(1.0, std::max(0.0, y));
}

struct angles {
    std::vector<float> cs = std::vector<float>(k_rot / 2), sn = std::vector<float>(k_rot / 2);
};

angles yarn_angles(const rope_yarn_ramp& r, float attn_factor = 1.0f) {
    angles a;
    rope_angles(k_rot, k_pos, k_base, k_scale, a.cs.data(), a.sn.data(), nullptr, attn_factor, r);
    return a;
}

}  // namespace

TEST(RopeYarn, fastPairsKeepTheirAnglesSlowOnesAreScaledAndTheRampBlendsBetween)
{
    const angles a = yarn_angles(k_ramp);
    const double mscale = 1.0 + 0.1 * std::log(4.0);
    for (int i = 0; i < k_rot / 2; ++i) {
        const double mix = ramp(i, k_ramp);
        const double angle = original_angle(i) * (k_scale * (1.0 - mix) + mix);
        EXPECT_NEAR(a.cs[i], std::cos(angle) * mscale, 2e-4) << "pair " << i << ", mix " << mix;
        EXPECT_NEAR(a.sn[i], std::sin(angle) * mscale, 2e-4) << "pair " << i << ", mix " << mix;
    }
    // The three regions are all there: pairs 0-3 unscaled, 12-31 scaled, 4-11 between.
    EXPECT_EQ(ramp(3, k_ramp), 1.0);
    EXPECT_EQ(ramp(12, k_ramp), 0.0);
    EXPECT_NEAR(ramp(6, k_ramp), 2.0 / 3.0, 1e-12);
}

// ext_factor weighs the ramp: 0.5 takes half of its share of the original angle.
TEST(RopeYarn, extFactorWeighsTheRamp)
{
    const rope_yarn_ramp half{0.5f, k_ramp.corr_low, k_ramp.corr_high};
    const angles a = yarn_angles(half);
    const double mscale = 1.0 + 0.1 * std::log(4.0);
    for (int i = 0; i < k_rot / 2; ++i) {
        const double mix = 0.5 * ramp(i, k_ramp);
        const double angle = original_angle(i) * (k_scale * (1.0 - mix) + mix);
        EXPECT_NEAR(a.cs[i], std::cos(angle) * mscale, 2e-4) << "pair " << i;
    }
}

// Every rotated pair grows by attn_factor (1 + 0.1 ln 4) = 1.1386... times it,
// so each attention score by its square.
TEST(RopeYarn, cosAndSinGrowByTheMagnitudeScaleTimesTheAttentionFactor)
{
    for (const float attn_factor : {1.0f, 1.5f}) {
        const angles a = yarn_angles(k_ramp, attn_factor);
        const double want = attn_factor * (1.0 + 0.1 * std::log(4.0));
        for (int i = 0; i < k_rot / 2; ++i)
            EXPECT_NEAR(std::hypot(a.cs[i], a.sn[i]), want, 1e-6) << "pair " << i << ", attn_factor " << attn_factor;
    }
}

// A ramp of zero width (corr_low == corr_high) is ggml's 0.001 wide: a step.
TEST(RopeYarn, aRampOfNoWidthIsAStep)
{
    const angles a = yarn_angles({1.0f, 5.0f, 5.0f});
    const double mscale = 1.0 + 0.1 * std::log(4.0);
    for (int i = 0; i < k_rot / 2; ++i) {
        const double angle = original_angle(i) * (i <= 5 ? 1.0 : k_scale);
        EXPECT_NEAR(a.cs[i], std::cos(angle) * mscale, 2e-4) << "pair " << i;
    }
}

// rope() with the ramp rotates with rope_angles' floats, in both pairings.
TEST(RopeYarn, ropeRotatesWithTheSameFloatsAsItsTwoSteps)
{
    const int n_heads = 3, head_dim = 80;
    std::vector<float> x(static_cast<std::size_t>(n_heads * head_dim));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * static_cast<float>(i) + 0.1f);
    for (const bool neox : {false, true}) {
        std::vector<float> y = x, z = x;
        rope(y.data(), n_heads, head_dim, k_rot, k_pos, k_base, k_scale, neox, nullptr, 1.0f, k_ramp);
        const angles a = yarn_angles(k_ramp);
        rope_rotate(z.data(), n_heads, head_dim, k_rot, a.cs.data(), a.sn.data(), neox);
        EXPECT_EQ(y, z) << (neox ? "neox" : "adjacent pairs");
        EXPECT_NE(y, x);
    }
}
