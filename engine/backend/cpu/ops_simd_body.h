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

// Softmax of n scores in place (sum in double), then each rounded to f16.
void softmax_round(float* s, int n) {
    int i = 0;
    V::reg mv = V::set1(-INFINITY);
    for (; i + V::width <= n; i += V::width) mv = V::max(mv, V::load(s + i));
    float max = V::reduce_max(mv);
    for (; i < n; ++i) max = s[i] > max ? s[i] : max;
    const V::reg vmax = V::set1(max);
    double sum = 0;
    for (i = 0; i + V::width <= n; i += V::width) {
        const V::reg e = V::exp(V::sub(V::load(s + i), vmax));
        V::store(s + i, e);
        sum += V::reduce_add_double(e);
    }
    for (; i < n; ++i) {
        s[i] = V::first(V::exp(V::set1(s[i] - max)));
        sum += s[i];
    }
    const float inv = static_cast<float>(1.0 / sum);
    const V::reg vinv = V::set1(inv);
    for (i = 0; i + V::width <= n; i += V::width) V::store(s + i, V::round_h(V::mul(V::load(s + i), vinv)));
    for (; i < n; ++i) s[i] = V::first(V::round_h(V::set1(s[i] * inv)));
}

// One (token, KV head) attention item over an f16 cache (see ops_simd.h).
void attn_item(const attn_item_f16& a) {
    const int G = a.group, D = a.head_dim, n = a.n_keys;
    for (int g = 0; g < G; ++g)
        for (int d = 0; d < D; d += V::width)
            V::store(a.q16 + g * D + d, V::round_h(V::load(a.q + g * D + d)));

    auto row = [&](const std::uint8_t* layer, int p) {
        const std::int64_t r = static_cast<std::int64_t>(a.table[p / a.block_size]) * a.block_size + p % a.block_size;
        return reinterpret_cast<const std::uint16_t*>(layer + r * a.row_bytes + a.head_offset);
    };

    // Scores (G, n): q . k * scale.
    V::reg acc[k_attn_max_group];
    for (int j = 0; j < n; ++j) {
        const std::uint16_t* k = row(a.k_layer, a.first + j);
        for (int g = 0; g < G; ++g) acc[g] = V::zero();
        for (int d = 0; d < D; d += V::width) {
            const V::reg kv = V::load_h(k + d);
            for (int g = 0; g < G; ++g) acc[g] = V::fmadd(kv, V::load(a.q16 + g * D + d), acc[g]);
        }
        for (int g = 0; g < G; ++g) a.scores[g * n + j] = V::reduce_add(acc[g]) * a.scale;
    }
    for (int g = 0; g < G; ++g) softmax_round(a.scores + g * n, n);

    // Outputs (G, D): the probability-weighted sum of the values.
    for (int g = 0; g < G; ++g)
        for (int d = 0; d < D; d += V::width) V::store(a.out + g * D + d, V::zero());
    for (int j = 0; j < n; ++j) {
        const std::uint16_t* v = row(a.v_layer, a.first + j);
        V::reg p[k_attn_max_group];
        for (int g = 0; g < G; ++g) p[g] = V::set1(a.scores[g * n + j]);
        for (int d = 0; d < D; d += V::width) {
            const V::reg vv = V::load_h(v + d);
            for (int g = 0; g < G; ++g) {
                float* o = a.out + g * D + d;
                V::store(o, V::fmadd(p[g], vv, V::load(o)));
            }
        }
    }
}
