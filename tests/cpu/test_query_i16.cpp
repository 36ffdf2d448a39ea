// SPDX-License-Identifier: Apache-2.0
// The integer scores of a q8_0 KV cache (engine/backend/cpu/query_i16.h),
// which every CPU attention path uses: how a query head becomes int16
// blocks, and how close the integer scores come to the exact product of the
// query with the dequantized keys (far closer than an int8 query would).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "engine/backend/cpu/query_i16.h"

using namespace kvlens;

namespace {

struct quantized {
    std::vector<std::int16_t> qs;
    std::vector<float> d;
};

quantized quantize(const std::vector<float>& x) {
    quantized q;
    q.qs.resize(x.size());
    q.d.resize(x.size() / k_query_block);
    quantize_query_i16(x.data(), static_cast<int>(x.size()), q.qs.data(), q.d.data());
    return q;
}

// A q8_0 key as the cache holds it: int8 values and a scale per block.
struct key_blocks {
    std::vector<std::int8_t> qs;
    std::vector<float> d;
};

// The score as every path computes it: block sums in int32, blocks combined in order.
float integer_score(const quantized& q, const key_blocks& k) {
    float s = 0.0f;
    for (std::size_t b = 0; b < q.d.size(); ++b)
        s = query_score_step(q.d[b], k.d[b], query_block_isum(&q.qs[b * k_query_block], &k.qs[b * k_query_block]), s);
    return s;
}

}  // namespace

TEST(QueryI16, eachBlocksLargestElementBecomesFullScale)
{
    std::vector<float> x(64, 0.25f);
    x[5] = -3.0f;    // block 0's largest magnitude
    x[40] = 0.5f;    // block 1's
    const quantized q = quantize(x);
    EXPECT_EQ(q.qs[5], -32767);
    EXPECT_EQ(q.qs[40], 32767);
    EXPECT_FLOAT_EQ(q.d[0], 3.0f / 32767.0f);
    EXPECT_FLOAT_EQ(q.d[1], 0.5f / 32767.0f);
    EXPECT_EQ(q.qs[0], static_cast<std::int16_t>(std::nearbyint(0.25f * 32767.0f / 3.0f)));
    EXPECT_EQ(q.qs[33], 16384);   // 0.25 / 0.5 * 32767 = 16383.5: ties go to even
}

TEST(QueryI16, everyElementIsWithinHalfAStepOfItsValue)
{
    std::mt19937 rng(3);
    std::normal_distribution<float> n(0.0f, 2.0f);
    std::vector<float> x(256);
    for (float& v : x) v = n(rng);
    const quantized q = quantize(x);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const float d = q.d[i / k_query_block];
        ASSERT_LE(std::fabs(q.qs[i] * d - x[i]), 0.5f * d * 1.0001f) << i;
    }
}

TEST(QueryI16, zeroAndNotANumberBlocksBecomeZeros)
{
    std::vector<float> x(96, 0.0f);
    for (int i = 32; i < 64; ++i) x[static_cast<std::size_t>(i)] = std::numeric_limits<float>::quiet_NaN();
    for (int i = 64; i < 96; ++i) x[static_cast<std::size_t>(i)] = 1e-35f;   // below the smallest scale taken
    const quantized q = quantize(x);
    for (float d : q.d) EXPECT_EQ(d, 0.0f);
    for (std::int16_t v : q.qs) EXPECT_EQ(v, 0);
}

// Against the exact (double) product of the f32 query with the dequantized
// keys: the int16 query stays within 2^-14 of sum |q_i k_i| on every score,
// where an int8 query (127 levels, llama.cpp's choice for a q8_0 cache) is
// off by more than that on most of them.
TEST(QueryI16, scoresStayCloseToTheExactProductWithTheCachedKeys)
{
    std::mt19937 rng(11);
    std::normal_distribution<float> n(0.0f, 1.0f);
    std::uniform_int_distribution<int> byte(-127, 127);
    const int D = 128;
    int int8_worse = 0;
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<float> x(D);
        for (int i = 0; i < D; ++i) x[static_cast<std::size_t>(i)] = n(rng) * (i % 37 == 0 ? 8.0f : 1.0f);   // a few outliers
        key_blocks k;
        for (int i = 0; i < D; ++i) k.qs.push_back(static_cast<std::int8_t>(byte(rng)));
        for (int b = 0; b < D / k_query_block; ++b) k.d.push_back(0.01f * static_cast<float>(b + 1));
        double exact = 0, magnitude = 0;
        for (int i = 0; i < D; ++i) {
            const double kv = static_cast<double>(k.qs[static_cast<std::size_t>(i)]) * k.d[static_cast<std::size_t>(i / k_query_block)];
            exact += x[static_cast<std::size_t>(i)] * kv;
            magnitude += std::fabs(x[static_cast<std::size_t>(i)] * kv);
        }
        const double err = std::fabs(integer_score(quantize(x), k) - exact);
        ASSERT_LE(err, magnitude / 16384.0) << "trial " << trial;

        double int8 = 0;   // the same query rounded to 127 levels per block
        for (int b = 0; b < D / k_query_block; ++b) {
            float amax = 0;
            for (int i = 0; i < k_query_block; ++i) amax = std::max(amax, std::fabs(x[static_cast<std::size_t>(b * k_query_block + i)]));
            for (int i = 0; i < k_query_block; ++i) {
                const std::size_t at = static_cast<std::size_t>(b * k_query_block + i);
                int8 += std::nearbyint(x[at] * 127.0f / amax) * (amax / 127.0f) * (static_cast<double>(k.qs[at]) * k.d[static_cast<std::size_t>(b)]);
            }
        }
        int8_worse += std::fabs(int8 - exact) > magnitude / 16384.0;
    }
    EXPECT_GT(int8_worse, 150);   // the bound above really tells the two apart
}
