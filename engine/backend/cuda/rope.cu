// SPDX-License-Identifier: Apache-2.0
// Rotary position embedding of Q and K in one launch: one thread per rotated
// pair of one head of one token (Q heads first, then K heads); YaRN's blend
// of angles and magnitude scale as ggml's rope_yarn computes them.
#include <cmath>

#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/norm_rope.h"

namespace kvlens {

namespace {

__global__ void rope_kernel(rope_params p) {
    const int half = p.n_rot / 2;
    const int heads = p.n_head + p.n_head_kv;
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= static_cast<std::int64_t>(p.n_tokens) * heads * half) return;
    const int pair = static_cast<int>(i % half);
    const int h = static_cast<int>((i / half) % heads);
    const int t = static_cast<int>(i / (static_cast<std::int64_t>(half) * heads));
    float* v = h < p.n_head ? p.q + (static_cast<std::int64_t>(t) * p.n_head + h) * p.head_dim
                            : p.k + (static_cast<std::int64_t>(t) * p.n_head_kv + (h - p.n_head)) * p.head_dim;
    float theta;
    if (p.ext_factor != 0.0f) {   // YaRN: the original angle and the scaled one, mixed by the ramp
        float original = static_cast<float>(p.positions[t]) *
                         powf(p.freq_base, -2.0f * static_cast<float>(pair) / static_cast<float>(p.n_rot));
        if (p.freq_factors) original /= p.freq_factors[pair];
        const float scaled = p.freq_scale * original;
        const float ramp =
            1.0f - fminf(1.0f, fmaxf(0.0f, (static_cast<float>(pair) - p.corr_low) / fmaxf(0.001f, p.corr_high - p.corr_low)));
        const float mix = ramp * p.ext_factor;
        theta = scaled * (1.0f - mix) + original * mix;
    } else {
        theta = static_cast<float>(p.positions[t]) * p.freq_scale *
                powf(p.freq_base, -2.0f * static_cast<float>(pair) / static_cast<float>(p.n_rot));
        if (p.freq_factors) theta /= p.freq_factors[pair];   // Llama 3.1's scaling, phi3's LongRoPE
    }
    float s, c;
    sincosf(theta, &s, &c);
    s *= p.attn_factor;   // the launcher folded YaRN's magnitude into it
    c *= p.attn_factor;
    const int a = p.neox ? pair : 2 * pair;
    const int b = p.neox ? pair + half : 2 * pair + 1;
    const float x0 = v[a], x1 = v[b];
    v[a] = x0 * c - x1 * s;
    v[b] = x0 * s + x1 * c;
}

}  // namespace

status launch_rope(const rope_params& p, cudaStream_t s) {
    if (p.n_rot <= 0 || p.n_rot > p.head_dim || p.n_rot % 2 != 0) return make_error("rope: bad n_rot");
    const std::int64_t n = static_cast<std::int64_t>(p.n_tokens) * (p.n_head + p.n_head_kv) * (p.n_rot / 2);
    if (n == 0) return {};
    if (p.ext_factor != 0.0f && !(p.freq_scale > 0.0f)) return make_error("rope: YaRN needs a positive freq_scale");
    // YaRN's magnitude scale, folded into the factor on cos and sin once
    // rather than per thread: ggml's mscale, attn_factor * (1 + 0.1 ln(1 / freq_scale)).
    rope_params k = p;
    if (p.ext_factor != 0.0f) k.attn_factor = p.attn_factor * (1.0f + 0.1f * logf(1.0f / p.freq_scale));
    constexpr int threads = 256;
    rope_kernel<<<static_cast<unsigned>((n + threads - 1) / threads), threads, 0, s>>>(k);
    CUDA_CHECK_LAUNCH("rope_kernel");
    return {};
}

}  // namespace kvlens
