// SPDX-License-Identifier: Apache-2.0
// Element-wise operations. Sums that set a scale are accumulated in double, as
// the reference implementation does, so norms agree to the last bits.
#include "engine/backend/cpu/ops.h"

#include <cmath>

namespace kvlens {

void rms_norm(const float* x, const float* weight, float* y, std::int64_t n, float eps) {
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]) * x[i];
    const float mean = static_cast<float>(sum / static_cast<double>(n));
    const float scale = 1.0f / std::sqrt(mean + eps);
    for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] * scale * weight[i];
}

void rope(float* x, int n_heads, int head_dim, int n_rot, int pos, float freq_base, float freq_scale,
          bool neox) {
    const float theta_scale = std::pow(freq_base, -2.0f / static_cast<float>(n_rot));
    for (int h = 0; h < n_heads; ++h) {
        float* v = x + static_cast<std::int64_t>(h) * head_dim;
        float theta = static_cast<float>(pos) * freq_scale;
        for (int i = 0; i < n_rot / 2; ++i) {
            const float c = std::cos(theta), s = std::sin(theta);
            const int a = neox ? i : 2 * i;
            const int b = neox ? i + n_rot / 2 : 2 * i + 1;
            const float x0 = v[a], x1 = v[b];
            v[a] = x0 * c - x1 * s;
            v[b] = x0 * s + x1 * c;
            theta *= theta_scale;
        }
    }
}

void silu_mul(const float* gate, const float* up, float* y, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) {
        const float g = gate[i];
        y[i] = g / (1.0f + std::exp(-g)) * up[i];
    }
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

}  // namespace kvlens
