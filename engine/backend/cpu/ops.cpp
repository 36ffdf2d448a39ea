// SPDX-License-Identifier: Apache-2.0
// Element-wise and row-wise operations (RMS norm, LayerNorm, RoPE, SwiGLU,
// GeGLU and GELU, ...). Sums that set a scale are accumulated in double, as
// the reference implementation does, so norms agree to the last bits. RMS
// norm and silu run as SIMD kernels at the AVX2 / AVX-512 levels (ops_simd.h).
#include "engine/backend/cpu/ops.h"

#include <algorithm>
#include <cmath>

#include "engine/backend/cpu/ops_simd.h"

namespace kvlens {

void rms_norm(const float* x, const float* weight, float* y, std::int64_t n, float eps) {
    if (const rms_norm_fn simd = rms_norm_kernel()) {
        simd(x, weight, y, n, eps);
        return;
    }
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]) * x[i];
    const float mean = static_cast<float>(sum / static_cast<double>(n));
    const float scale = 1.0f / std::sqrt(mean + eps);
    for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] * scale * weight[i];
}

void layer_norm(const float* x, const float* weight, const float* bias, float* y, std::int64_t n, float eps) {
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) sum += x[i];
    const auto mean = static_cast<float>(sum / static_cast<double>(n));
    double sum2 = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const float d = x[i] - mean;
        y[i] = d;
        sum2 += static_cast<double>(d * d);
    }
    const auto variance = static_cast<float>(sum2 / static_cast<double>(n));
    const float scale = 1.0f / std::sqrt(variance + eps);
    for (std::int64_t i = 0; i < n; ++i) y[i] = y[i] * scale * weight[i];
    if (bias)
        for (std::int64_t i = 0; i < n; ++i) y[i] += bias[i];
}

int rope_pairs(int n_rot) { return std::min(n_rot / 2, k_rope_max_pairs); }

namespace {

// YaRN's angles, in ggml's order of operations (the original angle first,
// the scaled one from it) so each float is llama.cpp's: pairs below
// corr_low keep the original angle, pairs from corr_high on take the scaled
// one, a linear ramp between (the ramp's width at least 0.001).
void rope_angles_yarn(int n_rot, int pos, float freq_base, float freq_scale, float* cs, float* sn,
                      const float* freq_factors, float attn_factor, const rope_yarn_ramp& yarn) {
    const int n_pairs = rope_pairs(n_rot);
    const float theta_scale = std::pow(freq_base, -2.0f / static_cast<float>(n_rot));
    const float mscale = attn_factor * (1.0f + 0.1f * std::log(1.0f / freq_scale));
    const float width = std::max(0.001f, yarn.corr_high - yarn.corr_low);
    float theta = static_cast<float>(pos);
    for (int i = 0; i < n_pairs; ++i) {
        const float original = freq_factors ? theta / freq_factors[i] : theta;
        const float scaled = freq_scale * original;
        const float ramp = 1.0f - std::min(1.0f, std::max(0.0f, (static_cast<float>(i) - yarn.corr_low) / width));
        const float mix = ramp * yarn.ext_factor;
        const float angle = scaled * (1.0f - mix) + original * mix;
        cs[i] = std::cos(angle) * mscale;
        sn[i] = std::sin(angle) * mscale;
        theta *= theta_scale;
    }
}

}  // namespace

void rope_angles(int n_rot, int pos, float freq_base, float freq_scale, float* cs, float* sn,
                 const float* freq_factors, float attn_factor, const rope_yarn_ramp& yarn) {
    if (yarn.ext_factor != 0.0f) {
        rope_angles_yarn(n_rot, pos, freq_base, freq_scale, cs, sn, freq_factors, attn_factor, yarn);
        return;
    }
    // The angles depend on the pair index only; theta advances by repeated
    // multiplication, the same sequence of floats as a per-head loop.
    const int n_pairs = rope_pairs(n_rot);
    const float theta_scale = std::pow(freq_base, -2.0f / static_cast<float>(n_rot));
    float theta = static_cast<float>(pos) * freq_scale;
    for (int i = 0; i < n_pairs; ++i) {
        const float angle = freq_factors ? theta / freq_factors[i] : theta;
        cs[i] = std::cos(angle) * attn_factor;
        sn[i] = std::sin(angle) * attn_factor;
        theta *= theta_scale;
    }
}

void rope_rotate(float* x, int n_heads, int head_dim, int n_rot, const float* cs, const float* sn, bool neox) {
    const int n_pairs = rope_pairs(n_rot);
    const int half = n_rot / 2;
    for (int h = 0; h < n_heads; ++h) {
        float* v = x + static_cast<std::int64_t>(h) * head_dim;
        if (neox) {
            for (int i = 0; i < n_pairs; ++i) {
                const float x0 = v[i], x1 = v[i + half];
                v[i] = x0 * cs[i] - x1 * sn[i];
                v[i + half] = x0 * sn[i] + x1 * cs[i];
            }
        } else {
            for (int i = 0; i < n_pairs; ++i) {
                const float x0 = v[2 * i], x1 = v[2 * i + 1];
                v[2 * i] = x0 * cs[i] - x1 * sn[i];
                v[2 * i + 1] = x0 * sn[i] + x1 * cs[i];
            }
        }
    }
}

void rope(float* x, int n_heads, int head_dim, int n_rot, int pos, float freq_base, float freq_scale,
          bool neox, const float* freq_factors, float attn_factor, const rope_yarn_ramp& yarn) {
    float cs[k_rope_max_pairs], sn[k_rope_max_pairs];   // (rope_pairs) cos and sin of each pair's angle
    rope_angles(n_rot, pos, freq_base, freq_scale, cs, sn, freq_factors, attn_factor, yarn);
    rope_rotate(x, n_heads, head_dim, n_rot, cs, sn, neox);
}

void silu_mul(const float* gate, const float* up, float* y, std::int64_t n) {
    if (const silu_mul_fn simd = silu_mul_kernel()) {
        simd(gate, up, y, n);
        return;
    }
    for (std::int64_t i = 0; i < n; ++i) {
        const float g = gate[i];
        y[i] = g / (1.0f + std::exp(-g)) * up[i];
    }
}

void swiglu_oai(const float* gate, const float* up, float* y, std::int64_t n) {
    constexpr float alpha = 1.702f, limit = 7.0f;
    for (std::int64_t i = 0; i < n; ++i) {
        const float g = std::min(gate[i], limit);
        const float u = std::clamp(up[i], -limit, limit);
        y[i] = g / (1.0f + std::exp(alpha * (-g))) * (u + 1.0f);
    }
}

void soft_cap(float* x, std::int64_t n, float cap) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = cap * std::tanh(x[i] / cap);
}

void add_inplace(float* y, const float* x, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) y[i] += x[i];
}

void softmax(float* x, std::int64_t n) {
    float max = -INFINITY;
    for (std::int64_t i = 0; i < n; ++i) max = std::max(max, x[i]);
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        x[i] = std::exp(x[i] - max);
        sum += x[i];
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (std::int64_t i = 0; i < n; ++i) x[i] *= inv;
}

// gelu_tanh(g) = g * sigmoid(2u), u = sqrt(2/pi) * (g + 0.044715 g^3), so with
// z = 2u and up' = up * g / z = up / (2 sqrt(2/pi) (1 + 0.044715 g^2)) it is
// silu(z) * up', and the SIMD silu kernel does the exponentials.
void gelu_tanh_mul(float* gate, float* up, float* y, std::int64_t n) {
    constexpr float c = 0.7978845608028654f;   // sqrt(2 / pi)
    for (std::int64_t i = 0; i < n; ++i) {
        const float g = gate[i];
        const float s = 2.0f * c * (1.0f + 0.044715f * g * g);
        gate[i] = s * g;
        up[i] = up[i] / s;
    }
    silu_mul(gate, up, y, n);
}

// x (n) = gelu_tanh(x) in place, through gelu_tanh_mul with an up of ones
// (scratch: n floats).
void gelu_inplace(float* x, float* scratch, std::int64_t n) {
    std::fill_n(scratch, n, 1.0f);
    gelu_tanh_mul(x, scratch, x, n);
}

}  // namespace kvlens
