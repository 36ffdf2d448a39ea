// SPDX-License-Identifier: Apache-2.0
// The bodies of ops_simd.cpp's kernels, written once against a vector type V
// (width, loads, f16 conversions, exp). ops_simd.cpp includes this file twice,
// inside a namespace per instruction set and under that set's target pragma,
// so each copy is compiled for its own CPU. No include guard on purpose.

// y = silu(gate) * up = gate / (1 + exp(-gate)) * up.
void silu_mul(const float* gate, const float* up, float* y, std::int64_t n) {
    const V::reg one = V::set1(1.0f);
    std::int64_t i = 0;
    for (; i + V::width <= n; i += V::width) {
        const V::reg g = V::load(gate + i);
        const V::reg e = V::exp(V::sub(V::zero(), g));
        V::store(y + i, V::mul(V::div(g, V::add(one, e)), V::load(up + i)));
    }
    for (; i < n; ++i) {
        const float g = gate[i];
        y[i] = g / (1.0f + V::first(V::exp(V::set1(-g)))) * up[i];
    }
}

// y = x / sqrt(mean(x^2) + eps) * weight, the sum of squares in double.
void rms_norm(const float* x, const float* weight, float* y, std::int64_t n, float eps) {
    double sum = 0;
    std::int64_t i = 0;
    for (; i + V::width <= n; i += V::width) {
        sum += V::sum_squares_double(V::load(x + i));
    }
    for (; i < n; ++i) sum += static_cast<double>(x[i]) * x[i];
    const float mean = static_cast<float>(sum / static_cast<double>(n));
    const float scale = 1.0f / std::sqrt(mean + eps);
    const V::reg vs = V::set1(scale);
    for (i = 0; i + V::width <= n; i += V::width) V::store(y + i, V::mul(V::mul(V::load(x + i), vs), V::load(weight + i)));
    for (; i < n; ++i) y[i] = x[i] * scale * weight[i];
}
