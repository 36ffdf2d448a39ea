// SPDX-License-Identifier: Apache-2.0
// The AVX2 kernels of the K-quant rows8 groups (k_quant_groups.h, G = 8): one
// group of 8 q2_K .. q6_K / iq4_xs rows against up to 4 tokens, the tokens'
// q8_K quants read in place. Per sub-block of 32, the 8 rows' quants are
// unpacked once (4 loads to low and high nibbles; q5_K ORs in its fifth-bit
// plane, q6_K its bits 4 and 5; q3_K and q2_K from 2-bit crumbs) and their
// scales made once; per token, 8 byte multiplies against the token's quants
// broadcast 4 at a time give a block sum per row (lane r = row r), and a
// multiply-add or two per (token, sub-block) scale all 8 rows. With maddubs
// (k_vnni false) the products add up in int16 as far as they cannot
// overflow (q4_K: all 8, 8 x 2 x 15 x 127 < 2^15; q5_K, q3_K, q2_K: 4; q6_K:
// 2) before one madd widens them; with AVX-VNNI's vpdpbusd (k_vnni true)
// each 4 go straight into the int32 lanes. Before these, AVX2 ran q4_K, q6_K,
// q3_K and q2_K through 4 x 4 tiles that unpack each super-block per 4
// tokens (q5_K through its dot per row and token). Included by
// kernels_rows8_avx2.cpp and kernels_rows8_avxvnni.cpp right after
// rows8_kernels_body.h, in the same namespace (it uses that file's loads,
// unpack_nibbles and or_plane_bits). No include guard on purpose.

constexpr int G = k_rows8_group;

// 8 bytes at p widened to 8 f32 lanes: unsigned (q4_K's scales and minimums) or signed (q6_K's scales).
inline __m256 u8x8_to_f32(const std::uint8_t* p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}
inline __m256 i8x8_to_f32(const std::uint8_t* p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}
// Four activation quants (bytes p .. p + 3) in every 32-bit lane.
[[gnu::always_inline]] inline __m256i quad(const std::uint8_t* p) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return _mm256_set1_epi32(v);
}

// ORs q6_K's bits 4 and 5 into registers wq[0..4) from a vector of crumbs
// (k_quant_groups.h: bits 2 i, 2 i + 1 of each byte are register i's): one
// shift within 16-bit lanes (at most 4 places: the bits that land in bits 4
// and 5 of a byte come from the same byte) and one mask per register.
inline void or_crumbs(__m256i wq[4], __m256i crumbs) {
    const __m256i mask = _mm256_set1_epi8(0x30);
    wq[0] = _mm256_or_si256(wq[0], _mm256_and_si256(_mm256_slli_epi16(crumbs, 4), mask));
    wq[1] = _mm256_or_si256(wq[1], _mm256_and_si256(_mm256_slli_epi16(crumbs, 2), mask));
    wq[2] = _mm256_or_si256(wq[2], _mm256_and_si256(crumbs, mask));
    wq[3] = _mm256_or_si256(wq[3], _mm256_and_si256(_mm256_srli_epi16(crumbs, 2), mask));
}

// Token quants a (32 of a sub-block) times registers wq[from .. from + n) in
// int16 (n maddubs, wq[i] against bytes 4 (i % 4) + 16 (i / 4)), widened once.
template <int from, int n>
[[gnu::always_inline]] inline __m256i run_sum(const __m256i wq[8], const std::uint8_t* a) {
    const auto offset = [](int i) { return 4 * (i % 4) + 16 * (i / 4); };
    if constexpr (k_vnni) {   // each 4 products straight into the int32 lanes: no run to bound
        __m256i s = _mm256_setzero_si256();
        for (int i = from; i < from + n; ++i) s = _mm256_dpbusd_avx_epi32(s, wq[i], quad(a + offset(i)));
        return s;
    }
    __m256i s = _mm256_maddubs_epi16(wq[from], quad(a + offset(from)));
    for (int i = from + 1; i < from + n; ++i) s = _mm256_add_epi16(s, _mm256_maddubs_epi16(wq[i], quad(a + offset(i))));
    return _mm256_madd_epi16(s, _mm256_set1_epi16(1));
}

// Fetch a sub-block's lines two group super-blocks ahead (decode streams each once).
template <int bytes>
[[gnu::always_inline]] inline void prefetch_sub_ahead(const std::uint8_t* q, int ahead) {
    for (int i = 0; i < (bytes + 63) / 64; ++i) _mm_prefetch(reinterpret_cast<const char*>(q) + ahead + 64 * i, _MM_HINT_T0);
}

// The token's q8_K quants of sub-block j of super-block s.
inline const std::uint8_t* token_quants(const row_group_args& g, int t, std::int64_t s, int j) {
    return g.a + t * g.a_stride + s * static_cast<std::int64_t>(sizeof(block_q8_K)) + offsetof(block_q8_K, qs) + 32 * j;
}

// q4_K and q5_K: y[t][r] += (d sc_j)_r (d_a sum q a) - (dmin m_j)_r (d_a sum a) per sub-block j.
template <int NT, bool Q5>
void rows8_q4_K(const row_group_args& g) {
    constexpr int sub_bytes = (Q5 ? 20 : 16) * G;   // the quants (and q5_K's fifth-bit plane)
    constexpr int sb_bytes = 20 * G + 8 * sub_bytes;   // 1184 / 1440
    __m256 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm256_setzero_ps();
    const std::uint8_t* blk = g.w;
    const std::int64_t nsb = g.nb / 8;
    for (std::int64_t s = 0; s < nsb; ++s, blk += sb_bytes) {
        const __m256 d8 = load_f16x8(blk), dmin8 = load_f16x8(blk + 2 * G);
        for (int j = 0; j < 8; ++j) {
            const std::uint8_t* q = blk + 20 * G + sub_bytes * j;
            prefetch_sub_ahead<sub_bytes>(q, 2 * sb_bytes);
            const __m256 sc = _mm256_mul_ps(d8, u8x8_to_f32(blk + 4 * G + G * j));
            const __m256 mn = _mm256_mul_ps(dmin8, u8x8_to_f32(blk + 12 * G + G * j));
            __m256i wq[8];
            unpack_nibbles(q, wq);
            if constexpr (Q5) or_plane_bits<4>(wq, load256(q + 16 * G));
            for (int t = 0; t < NT; ++t) {
                const std::int64_t at = t * g.a_scalars + 8 * s + j;
                const std::uint8_t* a = token_quants(g, t, s, j);
                __m256i sum;
                if constexpr (Q5) {   // 5-bit quants: 4 maddubs per widening (4 x 2 x 31 x 127 < 2^15)
                    sum = _mm256_add_epi32(run_sum<0, 4>(wq, a), run_sum<4, 4>(wq, a));
                } else {
                    sum = run_sum<0, 8>(wq, a);
                }
                acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sum), _mm256_mul_ps(sc, _mm256_set1_ps(g.ad[at])), acc[t]);
                acc[t] = _mm256_fnmadd_ps(mn, _mm256_set1_ps(g.as[at]), acc[t]);
            }
        }
    }
    for (int t = 0; t < NT; ++t) _mm256_storeu_ps(g.y + t * g.ldy, acc[t]);
}

// The K-quants whose scales change every 16 elements (k_quant_groups.h).
enum class k16 { q6_K, q3_K, q2_K };

template <k16 K>
struct k16_shape {
    static constexpr int scales_at = K == k16::q2_K ? 4 * G : 2 * G;   // after d (and q2_K's dmin)
    static constexpr int subs_at = K == k16::q2_K ? 20 * G : 18 * G;
    static constexpr int sub_bytes = K == k16::q6_K ? 24 * G : K == k16::q3_K ? 12 * G : 8 * G;
    static constexpr int sb_bytes = subs_at + 8 * sub_bytes;   // 1680, 912, 672: 210, 114, 84 per row
    static constexpr int offset = K == k16::q6_K ? 32 : K == k16::q3_K ? 4 : 0;   // stored value - quant
    // maddubs added in int16 before each widening: 6-bit values 2 (2 x 2 x 63 x 127 < 2^15), 3-bit and 2-bit 4.
    static constexpr int run = K == k16::q6_K ? 2 : 4;
};

// The crumbs (2-bit values) of registers wq[0..4) from a crumb vector
// (bits 2 i, 2 i + 1 of each byte are register i's): one shift within
// 16-bit lanes and one mask per register.
inline void crumbs_to(__m256i wq[4], __m256i crumbs) {
    const __m256i mask = _mm256_set1_epi8(3);
    wq[0] = _mm256_and_si256(crumbs, mask);
    for (int i = 1; i < 4; ++i) wq[i] = _mm256_and_si256(_mm256_srli_epi16(crumbs, 2 * i), mask);
}

// A sub-block's 8 rows' stored values (quant + offset) in registers wq: q6_K
// the nibbles and bits 4 and 5 from two crumb vectors; q3_K the low two bits
// from two crumb vectors and the third from a plane; q2_K the crumbs.
template <k16 K>
inline void unpack_k16(const std::uint8_t* sub, __m256i wq[8]) {
    if constexpr (K == k16::q6_K) {
        unpack_nibbles(sub, wq);
        or_crumbs(wq, load256(sub + 16 * G));       // elements 0-15
        or_crumbs(wq + 4, load256(sub + 20 * G));   // 16-31
    } else {
        crumbs_to(wq, load256(sub));
        crumbs_to(wq + 4, load256(sub + 4 * G));
        if constexpr (K == k16::q3_K) or_plane_bits<2>(wq, load256(sub + 8 * G));
    }
}

// q6_K, q3_K and q2_K: elements 0-15 (registers 0-3) and 16-31 (4-7) sum
// apart, each started at -offset x its 16 activations' quant sum (q8_K's
// bsums), then a multiply-add each with the 8 rows' scales d sc (q2_K: and
// one with its minimums dmin m times d_a x the bsum).
template <k16 K, int NT>
void rows8_k16(const row_group_args& g) {
    using shape = k16_shape<K>;
    constexpr int run = shape::run;
    __m256 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm256_setzero_ps();
    const std::uint8_t* blk = g.w;
    const std::int64_t nsb = g.nb / 8;
    for (std::int64_t s = 0; s < nsb; ++s, blk += shape::sb_bytes) {
        const __m256 d8 = load_f16x8(blk);
        const __m256 dmin8 = K == k16::q2_K ? load_f16x8(blk + 2 * G) : _mm256_setzero_ps();
        for (int j = 0; j < 8; ++j) {
            const std::uint8_t* sub = blk + shape::subs_at + shape::sub_bytes * j;
            prefetch_sub_ahead<shape::sub_bytes>(sub, 2 * shape::sb_bytes);
            __m256 sc[2], mn[2];   // elements 0-15, 16-31
            for (int h = 0; h < 2; ++h) {
                const std::uint8_t* bytes = blk + shape::scales_at + G * (2 * j + h);
                if constexpr (K == k16::q2_K) {   // low nibble the scale, high the minimum
                    const __m256i b32 = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes)));
                    sc[h] = _mm256_mul_ps(d8, _mm256_cvtepi32_ps(_mm256_and_si256(b32, _mm256_set1_epi32(0xF))));
                    mn[h] = _mm256_mul_ps(dmin8, _mm256_cvtepi32_ps(_mm256_srli_epi32(b32, 4)));
                } else {
                    sc[h] = _mm256_mul_ps(d8, i8x8_to_f32(bytes));
                    mn[h] = _mm256_setzero_ps();
                }
            }
            __m256i wq[8];
            unpack_k16<K>(sub, wq);
            for (int t = 0; t < NT; ++t) {
                const auto* ab = reinterpret_cast<const block_q8_K*>(g.a + t * g.a_stride) + s;
                const std::uint8_t* a = token_quants(g, t, s, j);
                __m256i lo = _mm256_set1_epi32(-shape::offset * ab->bsums[2 * j]);
                __m256i hi = _mm256_set1_epi32(-shape::offset * ab->bsums[2 * j + 1]);
                lo = _mm256_add_epi32(lo, run_sum<0, run>(wq, a));
                hi = _mm256_add_epi32(hi, run_sum<4, run>(wq, a));
                if constexpr (run == 2) {
                    lo = _mm256_add_epi32(lo, run_sum<2, 2>(wq, a));
                    hi = _mm256_add_epi32(hi, run_sum<6, 2>(wq, a));
                }
                const __m256 da = _mm256_set1_ps(ab->d);
                acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(lo), _mm256_mul_ps(sc[0], da), acc[t]);
                acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(hi), _mm256_mul_ps(sc[1], da), acc[t]);
                if constexpr (K == k16::q2_K) {
                    acc[t] = _mm256_fnmadd_ps(mn[0], _mm256_set1_ps(ab->d * ab->bsums[2 * j]), acc[t]);
                    acc[t] = _mm256_fnmadd_ps(mn[1], _mm256_set1_ps(ab->d * ab->bsums[2 * j + 1]), acc[t]);
                }
            }
        }
    }
    for (int t = 0; t < NT; ++t) _mm256_storeu_ps(g.y + t * g.ldy, acc[t]);
}

// iq4_xs: per sub-block, the levels k_iq4_values of the 8 rows' indices by
// one byte shuffle per register and the scales d (ls - 32) made once; per
// token, each register as |level| against the activation with the level's
// sign, widened at once (a pair reaches 2 x 127 x 127), then one multiply-add.
template <int NT>
void rows8_iq4_xs(const row_group_args& g) {
    constexpr int sb_bytes = 10 * G + 8 * 16 * G;   // 1104: 138 per row
    const __m256i ones = _mm256_set1_epi16(1);
    const __m256i table = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(k_iq4_values)));
    __m256 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm256_setzero_ps();
    const std::uint8_t* blk = g.w;
    const std::int64_t nsb = g.nb / 8;
    for (std::int64_t s = 0; s < nsb; ++s, blk += sb_bytes) {
        const __m256 d8 = load_f16x8(blk);
        for (int j = 0; j < 8; ++j) {
            const std::uint8_t* q = blk + 10 * G + 16 * G * j;
            prefetch_sub_ahead<16 * G>(q, 2 * sb_bytes);
            const __m256 sc = _mm256_mul_ps(d8, i8x8_to_f32(blk + 2 * G + G * j));
            __m256i wq[8];
            unpack_nibbles(q, wq);
            __m256i sum[NT];
            for (int t = 0; t < NT; ++t) sum[t] = _mm256_setzero_si256();
            for (int i = 0; i < 8; ++i) {
                const __m256i level = _mm256_shuffle_epi8(table, wq[i]);
                const __m256i magnitude = _mm256_abs_epi8(level);
                const int at = 4 * (i % 4) + 16 * (i / 4);   // register i's activation bytes
                for (int t = 0; t < NT; ++t) {
                    const __m256i a = quad(token_quants(g, t, s, j) + at);
                    if constexpr (k_vnni) {
                        sum[t] = _mm256_dpbusd_avx_epi32(sum[t], magnitude, _mm256_sign_epi8(a, level));
                    } else {
                        const __m256i p = _mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(a, level));
                        sum[t] = _mm256_add_epi32(sum[t], _mm256_madd_epi16(p, ones));
                    }
                }
            }
            for (int t = 0; t < NT; ++t)
                acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sum[t]), _mm256_mul_ps(sc, _mm256_set1_ps(g.ad[t * g.a_scalars + 8 * s + j])),
                                         acc[t]);
        }
    }
    for (int t = 0; t < NT; ++t) _mm256_storeu_ps(g.y + t * g.ldy, acc[t]);
}

void rows8_iq4_xs_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows8_iq4_xs<decltype(nt)::value>(g); });
}

void rows8_q4_K_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows8_q4_K<decltype(nt)::value, false>(g); });
}
void rows8_q5_K_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows8_q4_K<decltype(nt)::value, true>(g); });
}
template <k16 K>
void rows8_k16_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows8_k16<K, decltype(nt)::value>(g); });
}

// This file's kernel for weight type t; nullptr for other types.
row_group_fn k_quant_kernel_for(ggml_type t) {
    switch (t) {
    case ggml_type::q4_K: return rows8_q4_K_dispatch;
    case ggml_type::q5_K: return rows8_q5_K_dispatch;
    case ggml_type::q6_K: return rows8_k16_dispatch<k16::q6_K>;
    case ggml_type::q3_K: return rows8_k16_dispatch<k16::q3_K>;
    case ggml_type::q2_K: return rows8_k16_dispatch<k16::q2_K>;
    case ggml_type::iq4_xs: return rows8_iq4_xs_dispatch;
    default: return nullptr;
    }
}
