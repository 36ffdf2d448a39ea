// SPDX-License-Identifier: Apache-2.0
// SIMD versions of the forward pass's hot non-matmul work: RMS norm, SwiGLU's silu, and
// one attention item (one token's query heads sharing one KV head) over an f16
// KV cache. Chosen by the active kernel level; nullptr at the scalar level.
// Numerics as the scalar code: exp is a polynomial accurate to about 1 ulp;
// the query is rounded to f16 values before it meets the keys (the scalar
// path converts it to the cache's f16 format), softmax sums in double, and the
// probabilities are rounded to f16 before they weight the values.
#pragma once

#include <cstdint>

namespace kvlens {

// y (n) = silu(gate) * up; y may alias gate.
using silu_mul_fn = void (*)(const float* gate, const float* up, float* y, std::int64_t n);

constexpr int k_attn_max_group = 16;
constexpr int k_attn_max_head_dim = 256;

// One attention item over an f16 cache.
struct attn_item_f16 {
    const float* q = nullptr;          // (group, head_dim) f32 query heads, RoPE applied, head_dim apart
    float* out = nullptr;              // (group, head_dim) f32 outputs, head_dim apart
    int group = 0;                     // query heads sharing the KV head, 1..k_attn_max_group
    int head_dim = 0;                  // a multiple of 64, at most k_attn_max_head_dim
    int first = 0;                     // first key position
    int n_keys = 0;                    // keys first .. first + n_keys - 1
    const std::uint8_t* k_layer = nullptr;  // (n_blocks, block_size, row) f16 K rows of the layer
    const std::uint8_t* v_layer = nullptr;  // same for V
    std::int64_t row_bytes = 0;        // bytes of one token's row
    std::int64_t head_offset = 0;      // bytes from a row's start to this KV head
    int block_size = 0;                // tokens per cache block
    const std::int32_t* table = nullptr;  // the sequence's block ids
    float scale = 1.0f;                // applied to each score
    float* scores = nullptr;           // scratch: (group, n_keys) f32
    float* q16 = nullptr;              // scratch: (group, head_dim) f32, q rounded to f16 values
};
using attn_item_f16_fn = void (*)(const attn_item_f16&);



// y (n) = x / sqrt(mean(x^2) + eps) * weight (n); y may alias x.
using rms_norm_fn = void (*)(const float* x, const float* weight, float* y, std::int64_t n, float eps);

silu_mul_fn silu_mul_kernel();          // nullptr: use the scalar loop
rms_norm_fn rms_norm_kernel();          // nullptr: use the scalar loop
attn_item_f16_fn attn_item_f16_kernel(); // nullptr: use the generic path

}  // namespace kvlens
