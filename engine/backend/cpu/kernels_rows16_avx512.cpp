// SPDX-License-Identifier: Apache-2.0
// AVX-512 VNNI kernels of the rows16 layout (rows16.h): one group of 16
// q4_0 / q4_1 / q5_0 / q8_0 / iq4_nl / q2_K .. q6_K / iq4_xs rows against up to 4 tokens. Per group block, the 16
// rows' quants are loaded once (q4: 4 loads unpacked to low and high
// nibbles; q8_0: 8 loads); per token, 8 dpbusd against the token's quants
// broadcast 4 at a time from its quantized row (two chains, added) give
// every row's exact block sum in int32 lane r, and one convert and one
// multiply-add per (token, block) scale all 16 rows. Compiled for AVX-512 by
// a target pragma only, like kernels_avx512.cpp; called only where
// rows16_applies() said that level is active.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/backend/cpu/rows16.h"
#include "engine/quant/quant_blocks.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx2,fma,f16c")
// GCC 12's avx512fintrin.h conversions trip these on _mm512_undefined_*.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace kvlens {
namespace {

inline __m512i load512(const std::uint8_t* p) { return _mm512_loadu_si512(p); }
inline __m512 load_f16x16(const std::uint8_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
// Four activation quants (bytes p .. p + 3) in every 32-bit lane; dpbusd takes it as a memory broadcast.
inline __m512i quad(const std::uint8_t* p) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return _mm512_set1_epi32(v);
}

// The 16 rows' quants of a 32-element block in q4's group order (4 loads
// at q): registers 0-3 the low nibbles (elements 4 i ..), 4-7 the high ones
// (16 + 4 i ..), register i holding elements 4 i .. 4 i + 3 of every row.
inline void unpack_nibbles(const std::uint8_t* q, __m512i wq[8]) {
    const __m512i low4 = _mm512_set1_epi8(0x0F);
    for (int i = 0; i < 4; ++i) {
        const __m512i v = load512(q + 64 * i);
        wq[i] = _mm512_and_si512(v, low4);
        wq[4 + i] = _mm512_and_si512(_mm512_srli_epi16(v, 4), low4);
    }
}

// ORs bit `bit` (q5's fifth: 4, q3_K's third: 2) into every element from a
// plane of 16 transposed words (row r's word: bit i of byte k is element 4 i
// + k's): one shift of the words (at most 5 places within 32-bit lanes: no
// neighbouring byte's bit lands there) and one mask per register.
template <int bit>
inline void or_plane_bits(__m512i wq[8], __m512i plane) {
    const __m512i mask = _mm512_set1_epi8(1 << bit);
    for (int i = 0; i < 8; ++i) {
        const __m512i at = i <= bit ? _mm512_slli_epi32(plane, static_cast<unsigned>(bit - i))
                                    : _mm512_srli_epi32(plane, static_cast<unsigned>(i - bit));
        wq[i] = _mm512_or_si512(wq[i], _mm512_and_si512(at, mask));
    }
}

// ORs q6_K's bits 4 and 5 into registers wq[0..4) from a vector of crumbs
// (k_quant_groups.h: bits 2 i, 2 i + 1 of each byte are register i's): one
// shift within 16-bit lanes (at most 4 places: the bits that land in bits 4
// and 5 of a byte come from the same byte) and one mask per register.
inline void or_crumbs(__m512i wq[4], __m512i crumbs) {
    const __m512i mask = _mm512_set1_epi8(0x30);
    wq[0] = _mm512_or_si512(wq[0], _mm512_and_si512(_mm512_slli_epi16(crumbs, 4), mask));
    wq[1] = _mm512_or_si512(wq[1], _mm512_and_si512(_mm512_slli_epi16(crumbs, 2), mask));
    wq[2] = _mm512_or_si512(wq[2], _mm512_and_si512(crumbs, mask));
    wq[3] = _mm512_or_si512(wq[3], _mm512_and_si512(_mm512_srli_epi16(crumbs, 2), mask));
}

// iq4_nl / iq4_xs indices (0-15 per byte) to their levels k_iq4_values plus
// 128 (1..241: dpbusd's unsigned operand; the kernels take 128 x the
// activation's quant sum back out): one byte shuffle per register.
inline void iq4_levels(__m512i wq[8]) {
    const __m512i table =
        _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(k_iq4_values_plus_128.bytes)));
    for (int i = 0; i < 8; ++i) wq[i] = _mm512_shuffle_epi8(table, wq[i]);
}

enum class weights { q4_0, q4_1, q8_0, q5_0, iq4_nl };

template <weights W>
struct group_block_shape {
    static constexpr bool q8 = W == weights::q8_0;
    static constexpr bool has_min = W == weights::q4_1;
    static constexpr bool q5 = W == weights::q5_0;             // fifth bits: 16 transposed words after d
    static constexpr bool iq4 = W == weights::iq4_nl;          // q4_0's bytes, the nibbles indices of levels
    static constexpr int quads = q8 ? 8 : 4;                   // 64-byte quant registers per group block
    static constexpr int scale_bytes = has_min ? 64 : q5 ? 96 : 32;
    static constexpr int bytes = scale_bytes + 64 * quads;     // 288, 320, 544, 352
    // What the stored quants' offset adds per unit of sum(activation quants):
    // q4_0's nibble is q + 8, q5_0's five bits q + 16, q8_0's byte and iq4_nl's level q + 128; q4_1's min is its own term.
    static constexpr int offset = W == weights::q4_0   ? 8
                                  : W == weights::q5_0 ? 16
                                  : W == weights::q8_0 || W == weights::iq4_nl ? 128
                                                       : 0;
};

// y[t][r] = sum over blocks of d_r * d_t * (sum q a) (+ m_r * s_t for q4_1).
template <weights W, int NT>
void rows16_loop(const row_group_args& g) {
    using shape = group_block_shape<W>;
    constexpr int lines = (shape::bytes + 63) / 64;
    __m512 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm512_setzero_ps();
    const std::uint8_t* blk = g.w;
    for (std::int64_t b = 0; b < g.nb; ++b, blk += shape::bytes) {
        // Decode streams each group block once: fetch its lines 4 group blocks ahead.
        for (int i = 0; i < lines; ++i) _mm_prefetch(reinterpret_cast<const char*>(blk) + 4 * shape::bytes + 64 * i, _MM_HINT_T0);
        const __m512 d16 = load_f16x16(blk);
        const __m512 m16 = shape::has_min ? load_f16x16(blk + 32) : _mm512_setzero_ps();   // q4_1: the rows' minimums
        __m512i wq[8];   // q4: [0, 4) low nibbles (elements 4 j ..), [4, 8) high (16 + 4 j ..); q8_0: the 8 registers
        if constexpr (shape::q8) {
            for (int j = 0; j < 8; ++j) wq[j] = load512(blk + shape::scale_bytes + 64 * j);
        } else {
            unpack_nibbles(blk + shape::scale_bytes, wq);
            if constexpr (shape::q5) or_plane_bits<4>(wq, load512(blk + 32));
            if constexpr (shape::iq4) iq4_levels(wq);   // the fifth bits
        }
        for (int t = 0; t < NT; ++t) {
            const std::int64_t at = t * g.a_scalars + b;
            const std::uint8_t* a = g.a + t * g.a_stride + b * g.a_block + g.a_qs;
            // q4: wq[j] meets activation bytes 4 j (j < 4) and 16 + 4 (j - 4); q8_0: 4 j. Either way 4 j.
            __m512i s0 = shape::offset ? _mm512_set1_epi32(-shape::offset * g.aq_sum[at]) : _mm512_setzero_si512();
            __m512i s1 = _mm512_setzero_si512();
            for (int j = 0; j < 8; j += 2) {
                s0 = _mm512_dpbusd_epi32(s0, wq[j], quad(a + 4 * j));
                s1 = _mm512_dpbusd_epi32(s1, wq[j + 1], quad(a + 4 * j + 4));
            }
            const __m512i s = _mm512_add_epi32(s0, s1);
            acc[t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s), _mm512_mul_ps(d16, _mm512_set1_ps(g.ad[at])), acc[t]);
            if constexpr (shape::has_min) acc[t] = _mm512_fmadd_ps(m16, _mm512_set1_ps(g.as[at]), acc[t]);
        }
    }
    for (int t = 0; t < NT; ++t) _mm512_storeu_ps(g.y + t * g.ldy, acc[t]);
}

template <weights W>
void rows16_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows16_loop<W, decltype(nt)::value>(g); });
}

// q4_K and q5_K (rows16.h): per group super-block, each sub-block's 16 row scales
// d * sc_j and minimums dmin * m_j are made once for the call's tokens; per
// token and sub-block, q4_1's 8 dpbusd against the token's q8_K quants in
// place, then y += (d sc_j) (d_a sum q a) - (dmin m_j) (d_a sum a).
template <int NT, bool Q5>
void rows16_q4_K_loop(const row_group_args& g) {
    // q5_K: each sub-block's fifth-bit plane after its quants, as q5_0's.
    constexpr int sb_bytes = k_rows16_group * (Q5 ? 180 : 148);   // k_quant_groups.h
    constexpr int sub_bytes = Q5 ? 320 : 256;
    __m512 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm512_setzero_ps();
    const std::uint8_t* blk = g.w;
    const std::int64_t nsb = g.nb / 8;
    for (std::int64_t s = 0; s < nsb; ++s, blk += sb_bytes) {
        const __m512 d16 = load_f16x16(blk);
        const __m512 dmin16 = load_f16x16(blk + 32);
        for (int j = 0; j < 8; ++j) {
            const std::uint8_t* q = blk + 320 + sub_bytes * j;
            for (int i = 0; i < sub_bytes / 64; ++i)
                _mm_prefetch(reinterpret_cast<const char*>(q) + 2 * sb_bytes + 64 * i, _MM_HINT_T0);
            const __m512 sc = _mm512_mul_ps(
                d16, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blk + 64 + 16 * j)))));
            const __m512 mn = _mm512_mul_ps(
                dmin16, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blk + 192 + 16 * j)))));
            __m512i wq[8];
            unpack_nibbles(q, wq);
            if constexpr (Q5) or_plane_bits<4>(wq, load512(q + 256));   // the fifth bits
            for (int t = 0; t < NT; ++t) {
                const std::int64_t at = t * g.a_scalars + 8 * s + j;
                const std::uint8_t* a = g.a + t * g.a_stride + s * sizeof(block_q8_K) + offsetof(block_q8_K, qs) + 32 * j;
                __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
                for (int i = 0; i < 8; i += 2) {
                    s0 = _mm512_dpbusd_epi32(s0, wq[i], quad(a + 4 * i));
                    s1 = _mm512_dpbusd_epi32(s1, wq[i + 1], quad(a + 4 * i + 4));
                }
                const __m512i sum = _mm512_add_epi32(s0, s1);
                acc[t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum), _mm512_mul_ps(sc, _mm512_set1_ps(g.ad[at])), acc[t]);
                acc[t] = _mm512_fnmadd_ps(mn, _mm512_set1_ps(g.as[at]), acc[t]);
            }
        }
    }
    for (int t = 0; t < NT; ++t) _mm512_storeu_ps(g.y + t * g.ldy, acc[t]);
}

// The K-quants whose scales change every 16 elements (k_quant_groups.h).
enum class k16 { q6_K, q3_K, q2_K };

template <k16 K>
struct k16_shape {
    static constexpr int G = k_rows16_group;
    static constexpr int scales_at = K == k16::q2_K ? 4 * G : 2 * G;   // after d (and q2_K's dmin)
    static constexpr int subs_at = K == k16::q2_K ? 20 * G : 18 * G;
    static constexpr int sub_bytes = K == k16::q6_K ? 24 * G : K == k16::q3_K ? 12 * G : 8 * G;
    static constexpr int sb_bytes = subs_at + 8 * sub_bytes;   // 3360, 1824, 1344: 210, 114, 84 per row
    static constexpr int offset = K == k16::q6_K ? 32 : K == k16::q3_K ? 4 : 0;   // stored value - quant
};

// The crumbs (2-bit values) of registers wq[0..4) from a crumb vector
// (bits 2 i, 2 i + 1 of each byte are register i's): one shift within
// 16-bit lanes and one mask per register.
inline void crumbs_to(__m512i wq[4], __m512i crumbs) {
    const __m512i mask = _mm512_set1_epi8(3);
    wq[0] = _mm512_and_si512(crumbs, mask);
    for (int i = 1; i < 4; ++i) wq[i] = _mm512_and_si512(_mm512_srli_epi16(crumbs, static_cast<unsigned>(2 * i)), mask);
}

// A sub-block's 16 rows' stored values (quant + offset) in registers wq: q6_K
// the nibbles as q4's and bits 4 and 5 from two crumb vectors; q3_K the low
// two bits from two crumb vectors and the third from a plane; q2_K the crumbs.
template <k16 K>
inline void unpack_k16(const std::uint8_t* sub, __m512i wq[8]) {
    constexpr int G = k_rows16_group;
    if constexpr (K == k16::q6_K) {
        unpack_nibbles(sub, wq);
        or_crumbs(wq, load512(sub + 16 * G));       // elements 0-15
        or_crumbs(wq + 4, load512(sub + 20 * G));   // 16-31
    } else {
        crumbs_to(wq, load512(sub));
        crumbs_to(wq + 4, load512(sub + 4 * G));
        if constexpr (K == k16::q3_K) or_plane_bits<2>(wq, load512(sub + 8 * G));
    }
}

// q6_K, q3_K and q2_K: registers 0-3 (elements 0-15) and 4-7 (16-31) sum
// apart, each started at -offset x its 16 activations' quant sum (q8_K's
// bsums), then a multiply-add each with the 16 rows' scales d sc (q2_K: and
// a multiply-add with its minimums dmin m times d_a x the bsum).
template <k16 K, int NT>
void rows16_k16_loop(const row_group_args& g) {
    using shape = k16_shape<K>;
    constexpr int G = shape::G;
    __m512 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm512_setzero_ps();
    const std::uint8_t* blk = g.w;
    const std::int64_t nsb = g.nb / 8;
    for (std::int64_t s = 0; s < nsb; ++s, blk += shape::sb_bytes) {
        const __m512 d16 = load_f16x16(blk);
        const __m512 dmin16 = K == k16::q2_K ? load_f16x16(blk + 2 * G) : _mm512_setzero_ps();
        for (int j = 0; j < 8; ++j) {
            const std::uint8_t* sub = blk + shape::subs_at + shape::sub_bytes * j;
            for (int i = 0; i < shape::sub_bytes / 64; ++i)
                _mm_prefetch(reinterpret_cast<const char*>(sub) + 2 * shape::sb_bytes + 64 * i, _MM_HINT_T0);
            __m512 sc[2], mn[2];   // elements 0-15, 16-31
            for (int h = 0; h < 2; ++h) {
                const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(blk + shape::scales_at + G * (2 * j + h)));
                if constexpr (K == k16::q2_K) {   // low nibble the scale, high the minimum
                    const __m512i b32 = _mm512_cvtepu8_epi32(bytes);
                    sc[h] = _mm512_mul_ps(d16, _mm512_cvtepi32_ps(_mm512_and_si512(b32, _mm512_set1_epi32(0xF))));
                    mn[h] = _mm512_mul_ps(dmin16, _mm512_cvtepi32_ps(_mm512_srli_epi32(b32, 4)));
                } else {
                    sc[h] = _mm512_mul_ps(d16, _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(bytes)));
                    mn[h] = _mm512_setzero_ps();
                }
            }
            __m512i wq[8];
            unpack_k16<K>(sub, wq);
            for (int t = 0; t < NT; ++t) {
                const auto* ab = reinterpret_cast<const block_q8_K*>(g.a + t * g.a_stride) + s;
                const std::uint8_t* a = reinterpret_cast<const std::uint8_t*>(ab->qs) + 32 * j;
                __m512i lo = _mm512_set1_epi32(-shape::offset * ab->bsums[2 * j]);
                __m512i hi = _mm512_set1_epi32(-shape::offset * ab->bsums[2 * j + 1]);
                for (int i = 0; i < 4; ++i) {
                    lo = _mm512_dpbusd_epi32(lo, wq[i], quad(a + 4 * i));
                    hi = _mm512_dpbusd_epi32(hi, wq[4 + i], quad(a + 16 + 4 * i));
                }
                const __m512 da = _mm512_set1_ps(ab->d);
                acc[t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(lo), _mm512_mul_ps(sc[0], da), acc[t]);
                acc[t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(hi), _mm512_mul_ps(sc[1], da), acc[t]);
                if constexpr (K == k16::q2_K) {
                    acc[t] = _mm512_fnmadd_ps(mn[0], _mm512_set1_ps(ab->d * ab->bsums[2 * j]), acc[t]);
                    acc[t] = _mm512_fnmadd_ps(mn[1], _mm512_set1_ps(ab->d * ab->bsums[2 * j + 1]), acc[t]);
                }
            }
        }
    }
    for (int t = 0; t < NT; ++t) _mm512_storeu_ps(g.y + t * g.ldy, acc[t]);
}

template <k16 K>
void rows16_k16_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows16_k16_loop<K, decltype(nt)::value>(g); });
}

// iq4_xs (k_quant_groups.h): per sub-block, the 16 rows' scales d (ls - 32)
// made once per call and the indices turned into levels plus 128; per token,
// 8 dpbusd started at -128 x the sub-block's activation quant sum (q8_K's two
// bsums), then one multiply-add.
template <int NT>
void rows16_iq4_xs_loop(const row_group_args& g) {
    constexpr int G = k_rows16_group;
    constexpr int sb_bytes = 10 * G + 8 * 16 * G;   // 2208: 138 per row
    __m512 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm512_setzero_ps();
    const std::uint8_t* blk = g.w;
    const std::int64_t nsb = g.nb / 8;
    for (std::int64_t s = 0; s < nsb; ++s, blk += sb_bytes) {
        const __m512 d16 = load_f16x16(blk);
        for (int j = 0; j < 8; ++j) {
            const std::uint8_t* q = blk + 10 * G + 16 * G * j;
            for (int i = 0; i < 4; ++i) _mm_prefetch(reinterpret_cast<const char*>(q) + 2 * sb_bytes + 64 * i, _MM_HINT_T0);
            const __m512 sc = _mm512_mul_ps(
                d16, _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blk + 2 * G + G * j)))));
            __m512i wq[8];
            unpack_nibbles(q, wq);
            iq4_levels(wq);
            for (int t = 0; t < NT; ++t) {
                const auto* ab = reinterpret_cast<const block_q8_K*>(g.a + t * g.a_stride) + s;
                const std::uint8_t* a = reinterpret_cast<const std::uint8_t*>(ab->qs) + 32 * j;
                __m512i s0 = _mm512_set1_epi32(-128 * (ab->bsums[2 * j] + ab->bsums[2 * j + 1]));
                __m512i s1 = _mm512_setzero_si512();
                for (int i = 0; i < 8; i += 2) {
                    s0 = _mm512_dpbusd_epi32(s0, wq[i], quad(a + 4 * i));
                    s1 = _mm512_dpbusd_epi32(s1, wq[i + 1], quad(a + 4 * i + 4));
                }
                acc[t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(s0, s1)), _mm512_mul_ps(sc, _mm512_set1_ps(ab->d)), acc[t]);
            }
        }
    }
    for (int t = 0; t < NT; ++t) _mm512_storeu_ps(g.y + t * g.ldy, acc[t]);
}

void rows16_iq4_xs_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows16_iq4_xs_loop<decltype(nt)::value>(g); });
}

void rows16_q4_K_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows16_q4_K_loop<decltype(nt)::value, false>(g); });
}

void rows16_q5_K_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows16_q4_K_loop<decltype(nt)::value, true>(g); });
}

}  // namespace

row_group_fn rows16_kernel_for(ggml_type t) {
    switch (t) {
    case ggml_type::q4_0: return rows16_dispatch<weights::q4_0>;
    case ggml_type::q4_1: return rows16_dispatch<weights::q4_1>;
    case ggml_type::q8_0: return rows16_dispatch<weights::q8_0>;
    case ggml_type::q5_0: return rows16_dispatch<weights::q5_0>;
    case ggml_type::q4_K: return rows16_q4_K_dispatch;
    case ggml_type::q5_K: return rows16_q5_K_dispatch;
    case ggml_type::q6_K: return rows16_k16_dispatch<k16::q6_K>;
    case ggml_type::q3_K: return rows16_k16_dispatch<k16::q3_K>;
    case ggml_type::q2_K: return rows16_k16_dispatch<k16::q2_K>;
    case ggml_type::iq4_nl: return rows16_dispatch<weights::iq4_nl>;
    case ggml_type::iq4_xs: return rows16_iq4_xs_dispatch;
    default: return nullptr;
    }
}
}  // namespace kvlens

#pragma GCC diagnostic pop
#pragma GCC pop_options
