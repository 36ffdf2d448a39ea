// SPDX-License-Identifier: Apache-2.0
// The scores of a q8_0 KV cache in integers: the query head is quantized to
// blocks of 32 int16 with an f32 scale each (the cache's keys are blocks of
// 32 int8 with an f16 scale), each block's products are summed exactly in
// int32, and the blocks are combined in f32:
//   score = sum over blocks b, in order, of fma(dq_b * dk_b, isum_b, s).
// An int16 query adds about 2^-16 of its block's largest element to each
// element, below the f16 rounding an f16 cache gives the query; an int8
// query (llama.cpp's q8_0 choice) added 2^-8 and flipped clear greedy
// choices of the default model (a top-2 margin of 1.5 logits). Every CPU
// path (the scalar reference, decode, both prefill layouts) uses this
// quantizer and that combination, so they agree exactly on every score
// whatever their integer instructions (int32 sums are exact in any order,
// and each path converts the same sum to f32), and how a prompt is cut into
// blocks changes no result.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace kvlens {

constexpr int k_query_block = 32;   // elements per block, as q8_0's

// A query head of n f32 (n a multiple of 32) as int16 blocks: qs (n) values
// in -32767..32767 and d (n / 32) scales (x ~ qs * d). Rounding is to
// nearest, ties to even; an all-zero (or NaN) block is zeros.
inline void quantize_query_i16(const float* x, int n, std::int16_t* qs, float* d) {
    for (int b = 0; b < n / k_query_block; ++b) {
        const float* xb = x + b * k_query_block;
        float amax = 0.0f;
        for (int i = 0; i < k_query_block; ++i) amax = std::max(amax, std::fabs(xb[i]));
        const bool zero = !(amax >= 1e-30f);   // also NaN: 32767 / amax would not be finite
        const float inv = zero ? 0.0f : 32767.0f / amax;
        for (int i = 0; i < k_query_block; ++i) {
            float v = std::nearbyint(xb[i] * inv);
            v = v > 32767.0f ? 32767.0f : (v < -32767.0f ? -32767.0f : (v == v ? v : 0.0f));
            qs[b * k_query_block + i] = static_cast<std::int16_t>(v);
        }
        d[b] = zero ? 0.0f : amax / 32767.0f;
    }
}

// The exact int32 sum of one block's 32 products (|sum| <= 32 * 32767 * 127 < 2^31).
inline std::int32_t query_block_isum(const std::int16_t* q, const std::int8_t* k) {
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
