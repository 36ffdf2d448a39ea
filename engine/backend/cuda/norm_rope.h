// SPDX-License-Identifier: Apache-2.0
// The row-wise and element-wise operations of the forward pass on the device:
// RMSNorm, RoPE, SwiGLU, residual and bias adds. Each kernel is in its own
// .cu (rms_norm.cu, rope.cu, elementwise.cu); this header declares their
// launchers. All buffers are f32 on the device.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "common/result.h"

namespace kvlens {

// y row r (n) = x row src(r) (n) / sqrt(mean(x^2) + eps) * weight (n), for
// r < n_rows; src(r) = rows[r] when rows (device, n_rows) is given, else r.
// y may alias x when rows is null.
status launch_rms_norm(const float* x, const std::int32_t* rows, const float* weight, float* y, int n_rows, int n,
                       float eps, cudaStream_t s);
// The same rows through a LayerNorm: (x - mean) / sqrt(mean((x - mean)^2) +
// eps) * weight + bias (n; null: none, Cohere's).
status launch_layer_norm(const float* x, const std::int32_t* rows, const float* weight, const float* bias, float* y,
                         int n_rows, int n, float eps, cudaStream_t s);

struct rope_params {
    float* q = nullptr;                 // (n_tokens, n_head * head_dim), rotated in place
    float* k = nullptr;                 // (n_tokens, n_head_kv * head_dim), rotated in place
    const std::int32_t* positions = nullptr;   // (n_tokens) on the device
    int n_tokens = 0, n_head = 0, n_head_kv = 0, head_dim = 0, n_rot = 0;
    float freq_base = 10000.0f, freq_scale = 1.0f;
    const float* freq_factors = nullptr;   // (n_rot / 2) on the device, or null: each pair's angle / its factor
    float attn_factor = 1.0f;           // cos and sin times this (model_config::rope_attn_factor)
    // YaRN (ggml's rope_yarn), when ext_factor is not 0: each pair's angle
    // mixes the scaled and the original one by a ramp falling from 1 at pair
    // corr_low to 0 at corr_high (model_config::yarn_corr_dims), times
    // ext_factor; cos and sin also grow by 1 + 0.1 ln(1 / freq_scale).
    float ext_factor = 0.0f;
    float corr_low = 0.0f, corr_high = 0.0f;
    bool neox = false;                  // pairs (i, i + n_rot/2) rather than (2i, 2i+1)
};
status launch_rope(const rope_params& p, cudaStream_t s);

// y (count) += x (count)
status launch_add(float* y, const float* x, std::int64_t count, cudaStream_t s);
// x (n_rows, n) += b (n), each row
status launch_add_bias(float* x, const float* b, int n_rows, int n, cudaStream_t s);
// y (count) = silu(gate) * up; y may alias gate
status launch_silu_mul(const float* gate, const float* up, float* y, std::int64_t count, cudaStream_t s);
// y (count) = gelu_tanh(gate) * up (Gemma's GeGLU); y may alias gate
status launch_gelu_tanh_mul(const float* gate, const float* up, float* y, std::int64_t count, cudaStream_t s);
// x (count) *= a (Gemma's embedding scale)
status launch_scale(float* x, float a, std::int64_t count, cudaStream_t s);
// x = relu(x)^2 in place (Arcee's feed-forward block, which has no gate).
status launch_relu_sqr(float* x, std::int64_t count, cudaStream_t s);
// x = gelu_tanh(x) in place (GPT-2's feed-forward block, no gate).
status launch_gelu(float* x, std::int64_t count, cudaStream_t s);
// q (n_tokens, nq): each token's row times 1 + scale ln(floor(position / floor_tokens) + 1)
// (Llama 4's query temperature, Ministral 3's); positions (n_tokens) on the device.
status launch_attn_temperature(float* q, const std::int32_t* positions, int n_tokens, int nq, float scale,
                               int floor_tokens, cudaStream_t s);
// x (count) = cap * tanh(x / cap) (final logit soft-capping)
status launch_soft_cap(float* x, float cap, std::int64_t count, cudaStream_t s);

}  // namespace kvlens
