// SPDX-License-Identifier: Apache-2.0
// AVX2 + FMA + F16C kernels. Only the kernel bodies are compiled for AVX2 (a
// target pragma, not file-wide -m flags), so the table-building code at the
// end, which instantiates std::vector, stays plain x86-64 and can never leak
// AVX2 instructions into code a pre-AVX2 CPU runs.
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "engine/backend/cpu/kernel_tables.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/quant/quant_blocks.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")

namespace kvlens {
namespace {

// The 8-bit integer dot step on AVX2: unsigned x signed byte pairs summed to
// int16 (cannot saturate for |u| <= 128, |s| <= 127), then pairs of int16 to int32.
struct isa_avx2 {
    static constexpr bool exact_u8 = false;   // u up to 255 would saturate maddubs
    static __m256i dot_u8s8(__m256i u, __m256i s) {
        return _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1));
    }
    static __m256i dot_u8s8_acc(__m256i acc, __m256i u, __m256i s) { return _mm256_add_epi32(acc, dot_u8s8(u, s)); }
};

}  // namespace
}  // namespace kvlens

#include "engine/backend/cpu/quant_simd.h"

namespace kvlens {
namespace {

// ---- float rows ------------------------------------------------------------------------

float dot_f32_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* x = static_cast<const float*>(vw);
    auto* y = static_cast<const float*>(va);
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), acc0);
        acc1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(y + i + 8), acc1);
    }
    for (; i + 8 <= n; i += 8) acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), acc0);
    float sum = hsum_ps(_mm256_add_ps(acc0, acc1));
    for (; i < n; ++i) sum += x[i] * y[i];
    return sum;
}

inline __m256 load_f16x8(const std::uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

float dot_f16_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* x = static_cast<const std::uint16_t*>(vw);
    auto* y = static_cast<const std::uint16_t*>(va);
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        acc0 = _mm256_fmadd_ps(load_f16x8(x + i), load_f16x8(y + i), acc0);
        acc1 = _mm256_fmadd_ps(load_f16x8(x + i + 8), load_f16x8(y + i + 8), acc1);
    }
    for (; i + 8 <= n; i += 8) acc0 = _mm256_fmadd_ps(load_f16x8(x + i), load_f16x8(y + i), acc0);
    float sum = hsum_ps(_mm256_add_ps(acc0, acc1));
    for (; i < n; ++i) sum += h2f(x[i]) * h2f(y[i]);
    return sum;
}

inline __m256 load_bf16x8(const std::uint16_t* p) {
    const __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(w, 16));
}

inline float bf16_to_f32(std::uint16_t h) {
    const std::uint32_t u = static_cast<std::uint32_t>(h) << 16;
    return _mm_cvtss_f32(_mm_castsi128_ps(_mm_cvtsi32_si128(static_cast<int>(u))));
}

float dot_bf16_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* x = static_cast<const std::uint16_t*>(vw);
    auto* y = static_cast<const std::uint16_t*>(va);
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        acc0 = _mm256_fmadd_ps(load_bf16x8(x + i), load_bf16x8(y + i), acc0);
        acc1 = _mm256_fmadd_ps(load_bf16x8(x + i + 8), load_bf16x8(y + i + 8), acc1);
    }
    for (; i + 8 <= n; i += 8) acc0 = _mm256_fmadd_ps(load_bf16x8(x + i), load_bf16x8(y + i), acc0);
    float sum = hsum_ps(_mm256_add_ps(acc0, acc1));
    for (; i < n; ++i) sum += bf16_to_f32(x[i]) * bf16_to_f32(y[i]);
    return sum;
}

// ---- K-quants against q8_K ----------------------------------------------------------------
// Integer sums per sub-block times its 6-bit scale; the minimums fold in
// through the activations' 16-element sums (bsums). Same value as the scalar
// dequantize-then-dot, up to float rounding.

// The 8 six-bit scales and 8 six-bit minimums of a q4_K / q5_K super-block
// from its 12 bytes, read as 32-bit words: w0 (bytes 0-3), w1 (4-7), w2
// (8-11); bytes 0-7 of the result are sc[0..7], bytes 8-15 mn[0..7].
// sc[0..3] = w0's low 6 bits per byte, mn[0..3] = w1's; sc[4..7] = w2's low
// nibbles with w0's top 2 bits above them, mn[4..7] = w2's high nibbles with w1's.
inline __m128i unpack_scales_k4_words(const std::uint8_t* q) {
    std::uint32_t w0, w1, w2;
    std::memcpy(&w0, q, 4);
    std::memcpy(&w1, q + 4, 4);
    std::memcpy(&w2, q + 8, 4);
    const std::uint32_t sc_lo = w0 & 0x3F3F3F3Fu, mn_lo = w1 & 0x3F3F3F3Fu;
    const std::uint32_t sc_hi = (w2 & 0x0F0F0F0Fu) | (((w0 >> 6) & 0x03030303u) << 4);
    const std::uint32_t mn_hi = ((w2 >> 4) & 0x0F0F0F0Fu) | (((w1 >> 6) & 0x03030303u) << 4);
    return _mm_setr_epi32(static_cast<int>(sc_lo), static_cast<int>(sc_hi), static_cast<int>(mn_lo), static_cast<int>(mn_hi));
}

// The same as arrays, for the dot products that use the scales one at a time.
inline void unpack_scales_k4(const std::uint8_t* q, std::uint8_t sc[8], std::uint8_t mn[8]) {
    alignas(16) std::uint8_t both[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(both), unpack_scales_k4_words(q));
    std::memcpy(sc, both, 8);
    std::memcpy(mn, both + 8, 8);
}

// sum over the 8 sub-blocks of 32 of mn[j] * (sum of the activations in sub-block j).
inline int mins_dot(const std::uint8_t mn[8], const std::int16_t* bsums) {
    int s = 0;
    for (int j = 0; j < 8; ++j) s += mn[j] * (bsums[2 * j] + bsums[2 * j + 1]);
    return s;
}

// q2_K against q8_K: per super-block, the 2-bit quants times the activations
// in int16 pairs (a pair never straddles two 16-element sub-blocks), weighted
// by the sub-blocks' 4-bit scales in int32; the minimums fold in through the
// activations' 16-element sums.
float dot_q2_K_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q2_K*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m256i low2 = _mm256_set1_epi8(3);
    __m256 acc = _mm256_setzero_ps();
    float acc_m = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        int mins = 0;
        for (int j = 0; j < QK_K / 16; ++j) mins += (w[b].scales[j] >> 4) * a[b].bsums[j];
        acc_m += a[b].d * h2f(w[b].dmin) * static_cast<float>(mins);
        __m256i sumi = _mm256_setzero_si256();
        for (int h = 0; h < 2; ++h) {
            const __m256i q = load256(w[b].qs + 32 * h);
            for (int s = 0; s < 4; ++s) {
                const int sb = 8 * h + 2 * s;   // sub-blocks of elements 0..15 and 16..31 of this group
                const __m256i qv = _mm256_and_si256(_mm256_srli_epi16(q, 2 * s), low2);
                const __m256i p = _mm256_maddubs_epi16(qv, load256(a[b].qs + 128 * h + 32 * s));
                const __m256i sc = _mm256_set_m128i(_mm_set1_epi16(static_cast<short>(w[b].scales[sb + 1] & 0xF)),
                                                    _mm_set1_epi16(static_cast<short>(w[b].scales[sb] & 0xF)));
                sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, sc));
            }
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(a[b].d * h2f(w[b].d)), _mm256_cvtepi32_ps(sumi), acc);
    }
    return hsum_ps(acc) - acc_m;
}

// q3_K against q8_K: q = low 2 bits - 4 where the hmask bit is clear, as two
// unsigned x signed products (low, and 4 where clear) subtracted in int16,
// weighted by the signed 6-bit sub-block scales in int32.
float dot_q3_K_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q3_K*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m256i low2 = _mm256_set1_epi8(3);
    const __m256i four = _mm256_set1_epi8(4);
    __m256 acc = _mm256_setzero_ps();
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        short sc[QK_K / 16];
        for (int j = 0; j < QK_K / 16; ++j) sc[j] = static_cast<short>(q3_K_scale(w[b].scales, j));
        const __m256i hm = load256(w[b].hmask);
        __m256i sumi = _mm256_setzero_si256();
        for (int h = 0; h < 2; ++h) {
            const __m256i q = load256(w[b].qs + 32 * h);
            for (int s = 0; s < 4; ++s) {
                const int sb = 8 * h + 2 * s;
                const __m256i bit = _mm256_set1_epi8(static_cast<char>(1 << (4 * h + s)));
                const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(hm, bit), bit);
                const __m256i minus = _mm256_andnot_si256(set, four);
                const __m256i av = load256(a[b].qs + 128 * h + 32 * s);
                const __m256i qv = _mm256_and_si256(_mm256_srli_epi16(q, 2 * s), low2);
                const __m256i p = _mm256_sub_epi16(_mm256_maddubs_epi16(qv, av), _mm256_maddubs_epi16(minus, av));
                const __m256i scv = _mm256_set_m128i(_mm_set1_epi16(sc[sb + 1]), _mm_set1_epi16(sc[sb]));
                sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, scv));
            }
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(a[b].d * h2f(w[b].d)), _mm256_cvtepi32_ps(sumi), acc);
    }
    return hsum_ps(acc);
}

float dot_q4_K_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q4_K*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    __m256 acc = _mm256_setzero_ps();
    float acc_m = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        std::uint8_t sc[8], mn[8];
        unpack_scales_k4(w[b].scales, sc, mn);
        acc_m += a[b].d * h2f(w[b].dmin) * static_cast<float>(mins_dot(mn, a[b].bsums));
        __m256i sumi = _mm256_setzero_si256();
        for (int j = 0; j < 4; ++j) {
            const __m256i q = load256(w[b].qs + 32 * j);
            const __m256i p0 = _mm256_maddubs_epi16(_mm256_and_si256(q, low4), load256(a[b].qs + 64 * j));
            const __m256i p1 = _mm256_maddubs_epi16(_mm256_and_si256(_mm256_srli_epi16(q, 4), low4), load256(a[b].qs + 64 * j + 32));
            sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p0, _mm256_set1_epi16(sc[2 * j])));
            sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p1, _mm256_set1_epi16(sc[2 * j + 1])));
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(a[b].d * h2f(w[b].d)), _mm256_cvtepi32_ps(sumi), acc);
    }
    return hsum_ps(acc) - acc_m;
}

float dot_q5_K_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q5_K*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    const __m256i one = _mm256_set1_epi8(1);
    __m256 acc = _mm256_setzero_ps();
    float acc_m = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        std::uint8_t sc[8], mn[8];
        unpack_scales_k4(w[b].scales, sc, mn);
        acc_m += a[b].d * h2f(w[b].dmin) * static_cast<float>(mins_dot(mn, a[b].bsums));
        __m256i hb = load256(w[b].qh);   // bit 2j: element l of chunk j's low half; bit 2j+1: high half
        __m256i sumi = _mm256_setzero_si256();
        for (int j = 0; j < 4; ++j) {
            const __m256i q = load256(w[b].qs + 32 * j);
            const __m256i h0 = _mm256_slli_epi16(_mm256_and_si256(hb, one), 4);
            const __m256i h1 = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hb, 1), one), 4);
            hb = _mm256_srli_epi16(hb, 2);
            const __m256i q0 = _mm256_or_si256(_mm256_and_si256(q, low4), h0);
            const __m256i q1 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(q, 4), low4), h1);
            const __m256i p0 = _mm256_maddubs_epi16(q0, load256(a[b].qs + 64 * j));
            const __m256i p1 = _mm256_maddubs_epi16(q1, load256(a[b].qs + 64 * j + 32));
            sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p0, _mm256_set1_epi16(sc[2 * j])));
            sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p1, _mm256_set1_epi16(sc[2 * j + 1])));
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(a[b].d * h2f(w[b].d)), _mm256_cvtepi32_ps(sumi), acc);
    }
    return hsum_ps(acc) - acc_m;
}

// q6_K: 6-bit quants q in 0..63 meaning q - 32; sum sc * (q . a) - 32 * sum sc * bsum.
float dot_q6_K_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q6_K*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    const __m256i three = _mm256_set1_epi8(3);
    __m256 acc = _mm256_setzero_ps();
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const std::int8_t* sc = w[b].scales;
        int bias = 0;
        for (int j = 0; j < QK_K / 16; ++j) bias += sc[j] * a[b].bsums[j];
        __m256i sumi = _mm256_setzero_si256();
        for (int half = 0; half < 2; ++half) {
            const std::uint8_t* ql = w[b].ql + 64 * half;
            const __m256i qh = load256(w[b].qh + 32 * half);
            const __m256i l0 = load256(ql), l1 = load256(ql + 32);
            const __m256i q[4] = {
                _mm256_or_si256(_mm256_and_si256(l0, low4), _mm256_slli_epi16(_mm256_and_si256(qh, three), 4)),
                _mm256_or_si256(_mm256_and_si256(l1, low4), _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2), three), 4)),
                _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), low4), _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 4), three), 4)),
                _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), low4), _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 6), three), 4)),
            };
            for (int k = 0; k < 4; ++k) {
                const std::int8_t* s = sc + 8 * half + 2 * k;
                const __m256i p = _mm256_maddubs_epi16(q[k], load256(a[b].qs + 128 * half + 32 * k));
                const __m256i scale = _mm256_set_m128i(_mm_set1_epi16(s[1]), _mm_set1_epi16(s[0]));
                sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, scale));
            }
        }
        sumi = _mm256_sub_epi32(sumi, _mm256_setr_epi32(32 * bias, 0, 0, 0, 0, 0, 0, 0));
        acc = _mm256_fmadd_ps(_mm256_set1_ps(a[b].d * h2f(w[b].d)), _mm256_cvtepi32_ps(sumi), acc);
    }
    return hsum_ps(acc);
}

// ---- K-quant tiles: nr weight rows x nt tokens ---------------------------------------------
// Each (row, token) pair runs exactly the steps of the dot above (the same
// integer sums, the same f32 accumulation in block order), so a tile equals
// vec_dot bit for bit; what it saves is unpacking a row's quants and 6-bit
// scales once per super-block for nt tokens instead of once per token. The
// nt activation rows of a tile (a few KB) stay in L1 while the rows pass.
// g.nb counts super-blocks of 256; weight and activation scales are read from
// the blocks (g.wd, g.ad are not used).

// Per super-block, once for the tile's tokens: the quants unpacked, each
// sub-block's scale broadcast to int16 lanes, and the minimums as int16 pairs
// (mn[j] twice), so a token's minimum term is one madd over its 16 bsums
// (mn[j] * (bsums[2j] + bsums[2j + 1]) in lane j) and a lane sum: the same
// integer as mins_dot. Every float step is vec_dot's, in its order.
template <int NT>
void tile_q4_K_avx2(const tile_args& g) {
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    for (int r = 0; r < g.nr; ++r) {
        auto* w = reinterpret_cast<const block_q4_K*>(g.w + r * g.w_stride);
        __m256 acc[NT];
        float acc_m[NT];
        for (int t = 0; t < NT; ++t) {
            acc[t] = _mm256_setzero_ps();
            acc_m[t] = 0;
        }
        for (std::int64_t b = 0; b < g.nb; ++b) {
            const __m128i sc_mn = unpack_scales_k4_words(w[b].scales);   // bytes 0-7: the scales, 8-15: the minimums
            const __m256i sc16 = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(sc_mn));   // 8 int16 scales, twice
            __m256i q[8], scale[8];   // sub-blocks of 32: 2j low nibbles, 2j + 1 high nibbles of qs[32 j ..]
            for (int j = 0; j < 4; ++j) {
                const __m256i v = load256(w[b].qs + 32 * j);
                q[2 * j] = _mm256_and_si256(v, low4);
                q[2 * j + 1] = _mm256_and_si256(_mm256_srli_epi16(v, 4), low4);
            }
            for (int j = 0; j < 8; ++j)   // int16 lane j everywhere: bytes 2j, 2j + 1 of each 128-bit lane
                scale[j] = _mm256_shuffle_epi8(sc16, _mm256_set1_epi16(static_cast<short>(0x0100 * (2 * j + 1) + 2 * j)));
            const __m128i mn = _mm_unpackhi_epi64(sc_mn, sc_mn);
            const __m256i mins = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(mn, mn));
            const float wd = h2f(w[b].d), wm = h2f(w[b].dmin);
            for (int t = 0; t < NT; ++t) {
                const block_q8_K& a = reinterpret_cast<const block_q8_K*>(g.a + t * g.a_stride)[b];
                const int min_sum = hsum_epi32(_mm256_madd_epi16(load256(a.bsums), mins));
                acc_m[t] += a.d * wm * static_cast<float>(min_sum);
                __m256i sumi = _mm256_setzero_si256();
                for (int j = 0; j < 4; ++j) {
                    const __m256i p0 = _mm256_maddubs_epi16(q[2 * j], load256(a.qs + 64 * j));
                    const __m256i p1 = _mm256_maddubs_epi16(q[2 * j + 1], load256(a.qs + 64 * j + 32));
                    sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p0, scale[2 * j]));
                    sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p1, scale[2 * j + 1]));
                }
                acc[t] = _mm256_fmadd_ps(_mm256_set1_ps(a.d * wd), _mm256_cvtepi32_ps(sumi), acc[t]);
            }
        }
        for (int t = 0; t < NT; ++t) g.y[t * g.ldy + r] = hsum_ps(acc[t]) - acc_m[t];
    }
}

// As tile_q4_K_avx2: per super-block the quants, the scale vectors (a pair
// of 16-element sub-blocks' scales, one per 128-bit lane) and the 16 scales
// as int16 once for the tile's tokens; a token's bias sum(sc[j] * bsums[j])
// is one madd and a lane sum, the same integer as vec_dot's loop.
template <int NT>
void tile_q6_K_avx2(const tile_args& g) {
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    const __m256i three = _mm256_set1_epi8(3);
    for (int r = 0; r < g.nr; ++r) {
        auto* w = reinterpret_cast<const block_q6_K*>(g.w + r * g.w_stride);
        __m256 acc[NT];
        for (int t = 0; t < NT; ++t) acc[t] = _mm256_setzero_ps();
        for (std::int64_t b = 0; b < g.nb; ++b) {
            const std::int8_t* sc = w[b].scales;
            __m256i q[8], scale[8];   // 4 half + k: the 6-bit quants (0..63) of elements 128 half + 32 k ..
            for (int half = 0; half < 2; ++half) {
                const std::uint8_t* ql = w[b].ql + 64 * half;
                const __m256i qh = load256(w[b].qh + 32 * half);
                const __m256i l0 = load256(ql), l1 = load256(ql + 32);
                __m256i* o = q + 4 * half;
                o[0] = _mm256_or_si256(_mm256_and_si256(l0, low4), _mm256_slli_epi16(_mm256_and_si256(qh, three), 4));
                o[1] = _mm256_or_si256(_mm256_and_si256(l1, low4),
                                       _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2), three), 4));
                o[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), low4),
                                       _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 4), three), 4));
                o[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), low4),
                                       _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 6), three), 4));
            }
            const __m256i scales16 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sc)));
            for (int half = 0; half < 2; ++half) {
                // This half's 8 scales as int16 in both 128-bit lanes; scale 2k in every
                // int16 of the low lane and 2k + 1 in every int16 of the high one.
                const __m256i h16 = _mm256_broadcastsi128_si256(half == 0 ? _mm256_castsi256_si128(scales16)
                                                                          : _mm256_extracti128_si256(scales16, 1));
                for (int k = 0; k < 4; ++k) {
                    const short lo = static_cast<short>(0x0100 * (4 * k + 1) + 4 * k);
                    const short hi = static_cast<short>(0x0100 * (4 * k + 3) + 4 * k + 2);
                    scale[4 * half + k] = _mm256_shuffle_epi8(h16, _mm256_set_m128i(_mm_set1_epi16(hi), _mm_set1_epi16(lo)));
                }
            }
            const float wd = h2f(w[b].d);
            for (int t = 0; t < NT; ++t) {
                const block_q8_K& a = reinterpret_cast<const block_q8_K*>(g.a + t * g.a_stride)[b];
                const int bias = hsum_epi32(_mm256_madd_epi16(load256(a.bsums), scales16));
                __m256i sumi = _mm256_setzero_si256();
                for (int i = 0; i < 8; ++i) {   // i = 4 half + k
                    const __m256i p = _mm256_maddubs_epi16(q[i], load256(a.qs + 32 * i));
                    sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, scale[i]));
                }
                sumi = _mm256_sub_epi32(sumi, _mm256_setr_epi32(32 * bias, 0, 0, 0, 0, 0, 0, 0));
                acc[t] = _mm256_fmadd_ps(_mm256_set1_ps(a.d * wd), _mm256_cvtepi32_ps(sumi), acc[t]);
            }
        }
        for (int t = 0; t < NT; ++t) g.y[t * g.ldy + r] = hsum_ps(acc[t]);
    }
}

// Dispatch on the tile's token count to a fixed-size loop.
template <template <int> class kernel>
void k_tile(const tile_args& g) {
    switch (g.nt) {
    case 4: kernel<4>::run(g); break;
    case 3: kernel<3>::run(g); break;
    case 2: kernel<2>::run(g); break;
    default: kernel<1>::run(g); break;
    }
}
template <int NT> struct q4_K_tile { static void run(const tile_args& g) { tile_q4_K_avx2<NT>(g); } };
template <int NT> struct q6_K_tile { static void run(const tile_args& g) { tile_q6_K_avx2<NT>(g); } };

tile_fn tile_for(ggml_type t) {
    switch (t) {
    case ggml_type::q4_0: return tile_simd<isa_avx2, q4_0_weights>;
    case ggml_type::q4_1: return tile_simd<isa_avx2, q4_1_weights>;
    case ggml_type::q5_0: return tile_simd<isa_avx2, q5_0_weights>;
    case ggml_type::q5_1: return tile_simd<isa_avx2, q5_1_weights>;
    case ggml_type::q8_0: return tile_simd<isa_avx2, q8_0_weights>;
    case ggml_type::q4_K: return k_tile<q4_K_tile>;
    case ggml_type::q6_K: return k_tile<q6_K_tile>;
    default: return nullptr;
    }
}

}  // namespace

tile_fn avx2_tile_kernel(ggml_type t) { return tile_for(t); }

}  // namespace kvlens

#pragma GCC pop_options

namespace kvlens {

simd_overrides avx2_overrides() {
    simd_overrides o;
    o.from_float = {
        {ggml_type::q8_0, q8_0_from_float_simd},
        {ggml_type::q8_1, q8_1_from_float_simd},
        {ggml_type::q8_K, q8_K_from_float_simd},
        {ggml_type::f16, f16_from_float_simd},
    };
    o.to_float = {{ggml_type::f16, f16_to_float_simd}};
    o.vec_dot = {
        {ggml_type::f32, dot_f32_avx2},
        {ggml_type::f16, dot_f16_avx2},
        {ggml_type::bf16, dot_bf16_avx2},
        {ggml_type::q4_0, dot_q4_0_q8_0_simd<isa_avx2>},
        {ggml_type::q4_1, dot_q4_1_q8_1_simd<isa_avx2>},
        {ggml_type::q5_0, dot_q5_0_q8_0_simd<isa_avx2>},
        {ggml_type::q5_1, dot_q5_1_q8_1_simd<isa_avx2>},
        {ggml_type::q8_0, dot_q8_0_q8_0_simd<isa_avx2>},
        {ggml_type::q4_K, dot_q4_K_q8_K_avx2},
        {ggml_type::q5_K, dot_q5_K_q8_K_avx2},
        {ggml_type::q6_K, dot_q6_K_q8_K_avx2},
        {ggml_type::q2_K, dot_q2_K_q8_K_avx2},
        {ggml_type::q3_K, dot_q3_K_q8_K_avx2},
        {ggml_type::iq4_nl, dot_iq4_nl_q8_0_simd<isa_avx2>},
        {ggml_type::iq4_xs, dot_iq4_xs_q8_K_simd<isa_avx2>},
    };
    add_low_bit_avx2_kernels(o);
    return o;
}

}  // namespace kvlens
