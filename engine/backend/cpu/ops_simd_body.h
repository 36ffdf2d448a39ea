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

// Row of key position p in a layer array, at this item's KV head.
inline const std::uint16_t* kv_row(const attn_item_f16& a, const std::uint8_t* layer, int p) {
    const std::int64_t r = static_cast<std::int64_t>(a.table[p / a.block_size]) * a.block_size + p % a.block_size;
    return reinterpret_cast<const std::uint16_t*>(layer + r * a.row_bytes + a.head_offset);
}

// Keys ahead whose rows are prefetched: the cache is read once per item, far
// from the core, and the block table hides the addresses from the prefetcher.
constexpr int k_prefetch_keys = 24;

inline void prefetch_row(const std::uint16_t* p, int head_dim) {
    for (int off = 0; off < head_dim * 2; off += 64) _mm_prefetch(reinterpret_cast<const char*>(p) + off, _MM_HINT_T0);
}

// One (token, KV head) attention item over an f16 cache (see ops_simd.h), for
// G query heads per KV head: the G scores of a key, and the G output heads in
// chunks of 4 registers, stay in registers.
template <int G>
void attn_item_g(const attn_item_f16& a) {
    const int D = a.head_dim, n = a.n_keys;
    for (int g = 0; g < G; ++g)
        for (int d = 0; d < D; d += V::width)
            V::store(a.q16 + g * D + d, V::round_h(V::load(a.q + g * D + d)));

    // Scores (G, n): q . k * scale, V::width keys at a time: their rows go to
    // f32 once (kbuf), then each query head's V::width dot products are
    // reduced together (one transposing sum instead of one reduction per key).
    constexpr int W = V::width;
    alignas(64) float kbuf[W * k_attn_max_head_dim];   // (W, D) f32 keys of the batch
    for (int j0 = 0; j0 < n; j0 += W) {
        const int nk = std::min(W, n - j0);
        for (int kk = 0; kk < nk; ++kk) {
            const int j = j0 + kk;
            if (j + k_prefetch_keys < n) prefetch_row(kv_row(a, a.k_layer, a.first + j + k_prefetch_keys), D);
            const std::uint16_t* k = kv_row(a, a.k_layer, a.first + j);
            for (int d = 0; d < D; d += W) V::store(kbuf + kk * D + d, V::load_h(k + d));
        }
        for (int kk = nk; kk < W; ++kk)
            for (int d = 0; d < D; d += W) V::store(kbuf + kk * D + d, V::zero());
        for (int g = 0; g < G; ++g) {
            V::reg acc[W];
            for (int kk = 0; kk < W; ++kk) acc[kk] = V::zero();
            for (int d0 = 0; d0 < D; d0 += 4 * W) {   // 4 registers of the query head stay loaded
                const V::reg q0 = V::load(a.q16 + g * D + d0), q1 = V::load(a.q16 + g * D + d0 + W);
                const V::reg q2 = V::load(a.q16 + g * D + d0 + 2 * W), q3 = V::load(a.q16 + g * D + d0 + 3 * W);
                for (int kk = 0; kk < W; ++kk) {
                    const float* kr = kbuf + kk * D + d0;
                    acc[kk] = V::fmadd(V::load(kr), q0, acc[kk]);
                    acc[kk] = V::fmadd(V::load(kr + W), q1, acc[kk]);
                    acc[kk] = V::fmadd(V::load(kr + 2 * W), q2, acc[kk]);
                    acc[kk] = V::fmadd(V::load(kr + 3 * W), q3, acc[kk]);
                }
            }
            const V::reg sc = V::mul(V::sum_each(acc), V::set1(a.scale));
            if (nk == W) {
                V::store(a.scores + g * n + j0, sc);
            } else {
                alignas(64) float tmp[W];
                V::store(tmp, sc);
                for (int kk = 0; kk < nk; ++kk) a.scores[g * n + j0 + kk] = tmp[kk];
            }
        }
    }
    for (int g = 0; g < G; ++g) softmax_round(a.scores + g * n, n);

    // Outputs (G, D): the probability-weighted sum of the values, 4 registers of each head at a time.
    constexpr int C = 4;
    for (int d0 = 0; d0 < D; d0 += C * V::width) {
        V::reg o[G][C];
        for (int g = 0; g < G; ++g)
            for (int c = 0; c < C; ++c) o[g][c] = V::zero();
        for (int j = 0; j < n; ++j) {
            if (d0 == 0 && j + k_prefetch_keys < n) prefetch_row(kv_row(a, a.v_layer, a.first + j + k_prefetch_keys), D);
            const std::uint16_t* v = kv_row(a, a.v_layer, a.first + j) + d0;
            V::reg vv[C];
            for (int c = 0; c < C; ++c) vv[c] = V::load_h(v + c * V::width);
            for (int g = 0; g < G; ++g) {
                const V::reg p = V::set1(a.scores[g * n + j]);
                for (int c = 0; c < C; ++c) o[g][c] = V::fmadd(p, vv[c], o[g][c]);
            }
        }
        for (int g = 0; g < G; ++g)
            for (int c = 0; c < C; ++c) V::store(a.out + g * D + d0 + c * V::width, o[g][c]);
    }
}

// Any group size up to k_attn_max_group (head_dim a multiple of 4 registers, at most k_attn_max_head_dim).
void attn_item(const attn_item_f16& a) {
    switch (a.group) {
    case 1: attn_item_g<1>(a); break;
    case 2: attn_item_g<2>(a); break;
    case 3: attn_item_g<3>(a); break;
    case 4: attn_item_g<4>(a); break;
    case 5: attn_item_g<5>(a); break;
    case 6: attn_item_g<6>(a); break;
    case 7: attn_item_g<7>(a); break;
    case 8: attn_item_g<8>(a); break;
    default:
        // Larger groups: 8 query heads at a time, each pass its own item.
        for (int g0 = 0; g0 < a.group; g0 += 8) {
            attn_item_f16 part = a;
            part.group = std::min(8, a.group - g0);
            part.q = a.q + static_cast<std::int64_t>(g0) * a.head_dim;
            part.out = a.out + static_cast<std::int64_t>(g0) * a.head_dim;
            attn_item(part);
        }
    }
}
