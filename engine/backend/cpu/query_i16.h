// SPDX-License-Identifier: Apache-2.0
// Attention scores in integers. The query head is quantized to blocks of 32
// int16 with an f32 scale each; a q8_0 cache's keys are already blocks of 32
// int8 with an f16 scale, an f16 cache's keys are quantized to int16 blocks
// the same way as they are read. Each block's products are summed exactly
// in int32, and the blocks are combined in f32:
//   score = sum over blocks b, in order, of fma(dq_b * dk_b, isum_b, s).
// An int16 block adds at most half a step (2^-15 to 2^-14 of the block's
// largest element) to each element, less than the f16 rounding of the
// query that the f32 path had; an int8 query (llama.cpp's choice for a q8_0
// cache) added 2^-8 and flipped clear greedy choices of the default model (a
// top-2 margin of 1.5 logits). The scalar reference and every SIMD prefill
// layout use this quantizer and that combination, so they agree exactly on
// every score whatever their integer instructions (int32 sums are exact in
// any order, and each path converts the same sum to f32), and how a prompt
// is cut into blocks changes no result.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace kvlens {

constexpr int k_query_block = 32;   // elements per block, as q8_0's

// Levels of a block's largest magnitude. Against a q8_0 cache's int8 keys
// the query takes the whole int16 range; for an f16 cache both the query
// and the key are quantized, to 8191 so that a block's 32 products stay
// exact in int32 (32 * 8191^2 < 2^31).
constexpr float k_levels_q8_query = 32767.0f;
constexpr float k_levels_f16 = 8191.0f;

// n f32 (n a multiple of 32) as int16 blocks: qs (n) values in -levels..levels
// and d (n / 32) scales (x ~ qs * d). Rounding is to nearest, ties to even;
// an all-zero (or NaN) block is zeros.
inline void quantize_i16(const float* x, int n, float levels, std::int16_t* qs, float* d) {
    for (int b = 0; b < n / k_query_block; ++b) {
        const float* xb = x + b * k_query_block;
        float amax = 0.0f;
        for (int i = 0; i < k_query_block; ++i) amax = std::max(amax, std::fabs(xb[i]));
        const bool zero = !(amax >= 1e-30f);   // also NaN: levels / amax would not be finite
        const float inv = zero ? 0.0f : levels / amax;
        for (int i = 0; i < k_query_block; ++i) {
            float v = std::nearbyint(xb[i] * inv);
            v = v > levels ? levels : (v < -levels ? -levels : (v == v ? v : 0.0f));
            qs[b * k_query_block + i] = static_cast<std::int16_t>(v);
        }
        d[b] = zero ? 0.0f : amax / levels;
    }
}

// A query head against a q8_0 cache.
inline void quantize_query_i16(const float* x, int n, std::int16_t* qs, float* d) {
    quantize_i16(x, n, k_levels_q8_query, qs, d);
}

// The exact int32 sum of one block's 32 products of the int16 query with a
// key: a q8_0 cache's int8 (|sum| <= 32 * 32767 * 127 < 2^31) or an f16
// cache's quantized int16 (|sum| <= 32 * 8191^2 < 2^31).
template <class KeyInt>
inline std::int32_t block_isum(const std::int16_t* q, const KeyInt* k) {
    static_assert(sizeof(KeyInt) <= 2, "int8 or int16 keys");
    std::int32_t s = 0;
    for (int i = 0; i < k_query_block; ++i) s += static_cast<std::int32_t>(q[i]) * k[i];
    return s;
}

// One block's contribution added to a score: fma(dq * dk, isum, s), isum
// converted to f32 rounding to nearest as every path converts it.
inline float query_score_step(float dq, float dk, std::int32_t isum, float s) {
    return std::fma(dq * dk, static_cast<float>(isum), s);
}

}  // namespace kvlens
