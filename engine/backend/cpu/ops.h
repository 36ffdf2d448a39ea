// SPDX-License-Identifier: Apache-2.0
// Element-wise and row-wise operations of the forward pass, on f32 rows.
#pragma once

#include <cstdint>

namespace kvlens {

// y (n) = x (n) / sqrt(mean(x^2) + eps) * weight (n). y may alias x.
void rms_norm(const float* x, const float* weight, float* y, std::int64_t n, float eps);

// LayerNorm: y (n) = (x - mean(x)) / sqrt(mean((x - mean)^2) + eps) *
// weight (n) + bias (n; null: none, Cohere's), the sums in double as
// ggml_norm takes them. y may alias x.
void layer_norm(const float* x, const float* weight, const float* bias, float* y, std::int64_t n, float eps);

// Rotary position embedding in place on n_heads heads of head_dim floats.
// neox = false: pairs (2i, 2i+1) (GGUF llama); true: pairs (i, i + n_rot/2).
// Only the first n_rot dimensions of each head rotate.
// freq_factors: (n_rot / 2) or nullptr; each pair's angle is divided by its
// factor (Llama 3.1's scaling, phi3's LongRoPE: model::rope_factors_for).
// attn_factor multiplies each cos and sin (model_config::rope_attn_factor,
// ggml_rope_ext's attn_factor), so the rotated dimensions scale by it.
// YaRN's blend (ggml's rope_yarn), when ext_factor is not 0: each pair's
// angle mixes the scaled one (freq_scale times the original) and the
// original one by ramp(i) * ext_factor, ramp(i) falling from 1 at pair
// corr_low to 0 at corr_high (model_config::yarn_corr_dims), and cos and
// sin are multiplied by 1 + 0.1 ln(1 / freq_scale) as well as attn_factor.
struct rope_yarn_ramp {
    float ext_factor = 0.0f;   // 0: no YaRN, the scaled angle in every pair
    float corr_low = 0.0f;
    float corr_high = 0.0f;
};
void rope(float* x, int n_heads, int head_dim, int n_rot, int pos, float freq_base,
          float freq_scale, bool neox, const float* freq_factors = nullptr, float attn_factor = 1.0f,
          const rope_yarn_ramp& yarn = {});

// rope() in two steps, for callers that rotate many heads (every layer's Q
// and K of a token) at one position: the cos and sin of each pair's angle
// (k_rope_max_pairs at most: pairs past it do not rotate), then the rotation
// with them; the same floats as rope().
constexpr int k_rope_max_pairs = 512;
int rope_pairs(int n_rot);   // pairs rope_angles writes: min(n_rot / 2, k_rope_max_pairs)
void rope_angles(int n_rot, int pos, float freq_base, float freq_scale, float* cos_out, float* sin_out,
                 const float* freq_factors = nullptr, float attn_factor = 1.0f, const rope_yarn_ramp& yarn = {});
void rope_rotate(float* x, int n_heads, int head_dim, int n_rot, const float* cs, const float* sn, bool neox);

// y (n) = silu(gate) * up, element-wise. y may alias gate.
void silu_mul(const float* gate, const float* up, float* y, std::int64_t n);

// y (n) = gelu_tanh(gate) * up (GeGLU); gate and up are overwritten (scratch).
void gelu_tanh_mul(float* gate, float* up, float* y, std::int64_t n);
// x (n) = gelu_tanh(x) in place (GPT-2's GELU); scratch: n floats.
void gelu_inplace(float* x, float* scratch, std::int64_t n);
// gpt-oss's experts (ggml_swiglu_oai, alpha 1.702, limit 7): with g =
// min(gate, 7) and u = clamp(up, -7, 7), y = g / (1 + e^(-1.702 g)) (u + 1),
// element-wise, in llama.cpp's order of operations. y may alias gate.
void swiglu_oai(const float* gate, const float* up, float* y, std::int64_t n);

// x (n) = cap * tanh(x / cap): Gemma's soft-capping of the logits, and of the
// attention scores in the scalar reference path (Gemma 2), with tanhf as
// llama.cpp's ggml_tanh. The SIMD attention paths cap in registers
// (attention_simd_body.h, soft_cap_scores).
void soft_cap(float* x, std::int64_t n, float cap);

// y (n) += x (n).
void add_inplace(float* y, const float* x, std::int64_t n);

// In-place softmax of n scores; returns nothing, scores sum to 1.
void softmax(float* x, std::int64_t n);

}  // namespace kvlens
