// SPDX-License-Identifier: Apache-2.0
// AVX2 kernels of the K-quant rows8 groups (k_quant_groups.h, G = 8): one
// group of 8 q4_K / q5_K / q6_K / iq4_xs rows against up to 4 tokens, the tokens'
// q8_K quants read in place. Per sub-block of 32, the 8 rows' quants are
// unpacked once (4 loads to low and high nibbles; q5_K ORs in its fifth-bit
// plane, q6_K its bits 4 and 5) and their scales made once; per token,
// 8 maddubs against the token's quants broadcast 4 at a time add up in int16
// as far as they cannot overflow (q4_K: all 8, 8 x 2 x 15 x 127 < 2^15; q5_K:
// 4; q6_K: 2), one madd per run widens them to a block sum per row (lane r =
// row r), and a multiply-add or two per (token, sub-block) scale all 8 rows.
// Before these, AVX2 ran K-quants through 4 x 4 tiles that unpack each
// super-block per 4 tokens (q5_K through its dot per row and token).
// Compiled for AVX2 by a target pragma only, like kernels_rows8_avx2.cpp;
// called only where rows8_applies() said AVX2 is active.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/backend/cpu/rows8.h"
#include "engine/quant/quant_blocks.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")

namespace kvlens {
namespace {

constexpr int G = k_rows8_group;

inline __m256i load256(const std::uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline __m256 load_f16x8(const std::uint8_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
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

// A sub-block's 8 rows' quants (4 loads at q): [0, 4) the low nibbles
// (elements 4 i .. 4 i + 3 of every row), [4, 8) the high ones (16 + 4 i ..).
inline void unpack_nibbles(const std::uint8_t* q, __m256i wq[8]) {
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    for (int i = 0; i < 4; ++i) {
        const __m256i v = load256(q + 32 * i);
        wq[i] = _mm256_and_si256(v, low4);
        wq[4 + i] = _mm256_and_si256(_mm256_srli_epi16(v, 4), low4);
    }
}

// ORs q5_K's fifth bits into every element from a plane of 8 transposed
// words (row r's: bit i of byte k is element 4 i + k's): register i's bits
// moved to bit 4 of their own byte by one shift within 32-bit lanes (at most
// 4 places: no neighbouring byte's bit lands there), then masked.
inline void or_fifth_bits(__m256i wq[8], __m256i plane) {
    const __m256i mask = _mm256_set1_epi8(0x10);
    for (int i = 0; i < 8; ++i) {
        const __m256i at = i <= 4 ? _mm256_slli_epi32(plane, 4 - i) : _mm256_srli_epi32(plane, i - 4);
        wq[i] = _mm256_or_si256(wq[i], _mm256_and_si256(at, mask));
    }
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
    __m256i s = _mm256_maddubs_epi16(wq[from], quad(a + offset(from)));
    for (int i = from + 1; i < from + n; ++i) s = _mm256_add_epi16(s, _mm256_maddubs_epi16(wq[i], quad(a + offset(i))));
    return _mm256_madd_epi16(s, _mm256_set1_epi16(1));
}

// Fetch a sub-block's lines two group super-blocks ahead (decode streams each once).
template <int bytes>
[[gnu::always_inline]] inline void prefetch_ahead(const std::uint8_t* q, int ahead) {
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
            prefetch_ahead<sub_bytes>(q, 2 * sb_bytes);
            const __m256 sc = _mm256_mul_ps(d8, u8x8_to_f32(blk + 4 * G + G * j));
            const __m256 mn = _mm256_mul_ps(dmin8, u8x8_to_f32(blk + 12 * G + G * j));
            __m256i wq[8];
            unpack_nibbles(q, wq);
            if constexpr (Q5) or_fifth_bits(wq, load256(q + 16 * G));
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

// q6_K: 16-element scales, so elements 0-15 (registers 0-3) and 16-31 (4-7)
// sum apart, each started at -32 x its 16 activations' quant sum (q8_K's
// bsums); 6-bit quants, so 2 maddubs per widening (2 x 2 x 63 x 127 < 2^15).
template <int NT>
void rows8_q6_K(const row_group_args& g) {
    constexpr int sb_bytes = G * static_cast<int>(sizeof(block_q6_K));   // 1680
    __m256 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm256_setzero_ps();
    const std::uint8_t* blk = g.w;
    const std::int64_t nsb = g.nb / 8;
    for (std::int64_t s = 0; s < nsb; ++s, blk += sb_bytes) {
        const __m256 d8 = load_f16x8(blk);
        for (int j = 0; j < 8; ++j) {
            const std::uint8_t* sub = blk + 18 * G + 24 * G * j;
            prefetch_ahead<24 * G>(sub, 2 * sb_bytes);
            const __m256 sc_lo = _mm256_mul_ps(d8, i8x8_to_f32(blk + 2 * G + G * (2 * j)));
            const __m256 sc_hi = _mm256_mul_ps(d8, i8x8_to_f32(blk + 2 * G + G * (2 * j + 1)));
            __m256i wq[8];
            unpack_nibbles(sub, wq);
            or_crumbs(wq, load256(sub + 16 * G));       // elements 0-15
            or_crumbs(wq + 4, load256(sub + 20 * G));   // 16-31
            for (int t = 0; t < NT; ++t) {
                const auto* ab = reinterpret_cast<const block_q8_K*>(g.a + t * g.a_stride) + s;
                const std::uint8_t* a = token_quants(g, t, s, j);
                const __m256i lo = _mm256_add_epi32(_mm256_set1_epi32(-32 * ab->bsums[2 * j]),
                                                    _mm256_add_epi32(run_sum<0, 2>(wq, a), run_sum<2, 2>(wq, a)));
                const __m256i hi = _mm256_add_epi32(_mm256_set1_epi32(-32 * ab->bsums[2 * j + 1]),
                                                    _mm256_add_epi32(run_sum<4, 2>(wq, a), run_sum<6, 2>(wq, a)));
                const __m256 da = _mm256_set1_ps(ab->d);
                acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(lo), _mm256_mul_ps(sc_lo, da), acc[t]);
                acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(hi), _mm256_mul_ps(sc_hi, da), acc[t]);
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
            prefetch_ahead<16 * G>(q, 2 * sb_bytes);
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
                    const __m256i p = _mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(a, level));
                    sum[t] = _mm256_add_epi32(sum[t], _mm256_madd_epi16(p, ones));
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
void rows8_q6_K_dispatch(const row_group_args& g) {
    with_token_count(g, [&](auto nt) { rows8_q6_K<decltype(nt)::value>(g); });
}

}  // namespace

row_group_fn rows8_k_quant_kernel_for(ggml_type t) {
    switch (t) {
    case ggml_type::q4_K: return rows8_q4_K_dispatch;
    case ggml_type::q5_K: return rows8_q5_K_dispatch;
    case ggml_type::q6_K: return rows8_q6_K_dispatch;
    case ggml_type::iq4_xs: return rows8_iq4_xs_dispatch;
    default: return nullptr;
    }
}

}  // namespace kvlens

#pragma GCC pop_options
