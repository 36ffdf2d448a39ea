// SPDX-License-Identifier: Apache-2.0
// AVX-512 (F, BW, VL, DQ, VNNI) dot products of the low-bit types that beat
// their AVX2 kernels (kernels_low_bit_avx2.cpp); the others stay AVX2.
// The i-quants (IQ2_XXS .. IQ1_M against q8_K, below MXFP4) equal the scalar
// reference bit for bit; their single-thread dots against the AVX2 kernels'
// on Zen 5: IQ2_XXS, IQ2_XS 1.45x, IQ2_S 1.3x, IQ3_XXS 1.3x, IQ3_S 1.2x,
// IQ1_S 1.2x, IQ1_M 1.1x. AVX-512 gathers of the IQ3 codebooks (16 dwords)
// were slower than scalar lookups (IQ3_XXS 20 against 13 ns a super-block),
// and so were codebook indices stored and reloaded rather than read out of
// a register (IQ2_S: no gain over AVX2 until they were).
//
// MXFP4 against q8_0: one 512-bit register holds two blocks (64 elements,
// 128-bit lane k: elements 16 (k % 2) .. of block k / 2). The nibbles pick
// |level| by pshufb (per 128-bit lane, so each block's 16 packed bytes sit in
// two lanes, the high nibbles shifted down in the second); a nibble's bit 3
// (the level's sign) negates its activation through a mask, and dpbusd sums
// |level| times the signed activations into 16 int32 lanes, 8 per block.
// Two such pairs fold into one register of 4 lanes per block, scaled by
// 2^(e - 128) d_a in f32 (FMA): the scales of those 4 blocks are picked out
// of one load of e bytes and two of activations by shuffles (the scales,
// built block by block, had cost as much as the integer dots). 8 blocks an
// iteration into two accumulators: 1.7x the AVX2 kernel's dots. As that
// kernel's, the result equals the scalar reference within n 2^-24 sum |w a|
// (not bit for bit).
//
// Only the kernel bodies are compiled for AVX-512; the table entries at the
// end are built by plain x86-64 code.
#include <immintrin.h>

#include <cstdint>

#include "engine/backend/cpu/kernel_tables.h"
#include "engine/backend/cpu/simd_target.h"
#include "engine/quant/iq_grids.h"
#include "engine/quant/quant_blocks_low_bit.h"

KVLENS_SIMD_BEGIN_AVX512

namespace kvlens {
namespace {

// 128-bit lane p (0..3) of v. The extract's lane must be an immediate: clang
// wants it so before unrolling, as GCC does not; with p known the switch folds away.
inline __m128i lane128(__m512i v, int p) {
    switch (p) {
    case 0: return _mm512_castsi512_si128(v);
    case 1: return _mm512_extracti32x4_epi32(v, 1);
    case 2: return _mm512_extracti32x4_epi32(v, 2);
    default: return _mm512_extracti32x4_epi32(v, 3);
    }
}

inline __m128i load128(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
inline __m256i load256(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline std::uint32_t load_u32(const void* p) {
    std::uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}
inline std::uint16_t load_u16(const void* p) {
    std::uint16_t v;
    __builtin_memcpy(&v, p, 2);
    return v;
}

// ---- MXFP4 against q8_0 ------------------------------------------------------------------

// The doubled E2M1 levels without their signs, indexed by the whole nibble.
inline __m128i mxfp4_magnitudes() {
    return _mm_setr_epi8(0, 1, 2, 3, 4, 6, 8, 12, 0, 1, 2, 3, 4, 6, 8, 12);
}

inline float mxfp4_scale(const block_mxfp4& w, const block_q8_0& a) {
    return e8m0_half_to_float(w.e) * _cvtsh_ss(a.d);
}

// Blocks w[0], w[1] against a[0], a[1]: 16 int32 lanes, the first 8 summing
// to block 0's integer dot, the last 8 to block 1's.
inline __m512i mxfp4_pair_dot(const block_mxfp4* w, const block_q8_0* a, __m512i magnitudes) {
    const __m512i packed = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_broadcastsi128_si256(load128(w[0].qs))),
                                              _mm256_broadcastsi128_si256(load128(w[1].qs)), 1);
    // 128-bit lanes 1 and 3 (int16 lanes 8..15, 24..31): the high nibbles, elements 16..31.
    const __m512i nibbles = _mm512_and_si512(_mm512_mask_srli_epi16(packed, 0xFF00FF00u, packed, 4), _mm512_set1_epi8(0x0F));
    const __mmask64 negative = _mm512_test_epi8_mask(nibbles, _mm512_set1_epi8(0x08));
    const __m512i q = _mm512_inserti64x4(_mm512_castsi256_si512(load256(a[0].qs)), load256(a[1].qs), 1);
    const __m512i q_signed = _mm512_mask_sub_epi8(q, negative, _mm512_setzero_si512(), q);
    return _mm512_dpbusd_epi32(_mm512_setzero_si512(), _mm512_shuffle_epi8(magnitudes, nibbles), q_signed);
}

// The pair's scales 2^(e - 128) d_a, block 0's in lanes 0..7 and block 1's in 8..15.
inline __m512 mxfp4_pair_scales(const block_mxfp4* w, const block_q8_0* a) {
    std::uint16_t d0, d1;
    std::uint32_t e0, e1;   // e and the 3 bytes after it
    __builtin_memcpy(&d0, &a[0].d, 2);
    __builtin_memcpy(&d1, &a[1].d, 2);
    __builtin_memcpy(&e0, &w[0], 4);
    __builtin_memcpy(&e1, &w[1], 4);
    const __m256i d = _mm256_mask_set1_epi16(_mm256_set1_epi16(static_cast<short>(d0)), 0xFF00, static_cast<short>(d1));
    const __m512i e = _mm512_and_si512(_mm512_mask_set1_epi32(_mm512_set1_epi32(static_cast<int>(e0)), 0xFF00, static_cast<int>(e1)),
                                       _mm512_set1_epi32(0xFF));
    return _mm512_scalef_ps(_mm512_cvtph_ps(d), _mm512_cvtepi32_ps(_mm512_sub_epi32(e, _mm512_set1_epi32(128))));
}

// Four blocks' integer dots in 16 int32 lanes, 4 per block: pair_dot(0, 1)
// and pair_dot(2, 3) with neighbouring 64-bit halves added. Lanes 0, 1, 4, 5
// hold block 0, 2, 3, 6, 7 block 2, 8, 9, 12, 13 block 1, the rest block 3.
inline __m512i mxfp4_quad_dot(const block_mxfp4* w, const block_q8_0* a, __m512i magnitudes) {
    const __m512i p = mxfp4_pair_dot(w, a, magnitudes), q = mxfp4_pair_dot(w + 2, a + 2, magnitudes);
    return _mm512_add_epi32(_mm512_unpacklo_epi64(p, q), _mm512_unpackhi_epi64(p, q));
}

// The four blocks' scales 2^(e - 128) d_a in quad_dot's lanes. Block k's e
// is byte k of 128-bit lane k of w's first 64 bytes (sizeof(block_mxfp4) =
// 17); its d word 17 k of a's first 128 bytes (sizeof(block_q8_0) = 34).
inline __m512 mxfp4_quad_scales(const block_mxfp4* w, const block_q8_0* a) {
    static_assert(sizeof(block_mxfp4) == 17 && sizeof(block_q8_0) == 34);
    const __m512i e_bytes = _mm512_shuffle_epi8(
        _mm512_loadu_si512(w), _mm512_set_epi32(0x80808003, 0x80808003, 0x80808003, 0x80808003, 0x80808002, 0x80808002,
                                                0x80808002, 0x80808002, 0x80808001, 0x80808001, 0x80808001, 0x80808001,
                                                0x80808000, 0x80808000, 0x80808000, 0x80808000));
    const __m512i e = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 0, 8, 8, 0, 0, 8, 8, 4, 4, 12, 12, 4, 4, 12, 12), e_bytes);
    const __m512i d_words = _mm512_permutex2var_epi16(
        _mm512_loadu_si512(a),
        _mm512_setr_epi32(0x00000000, 0x00220022, 0x00000000, 0x00220022, 0x00110011, 0x00330033, 0x00110011, 0x00330033,
                          0, 0, 0, 0, 0, 0, 0, 0),
        _mm512_loadu_si512(reinterpret_cast<const std::uint8_t*>(a) + 64));
    const __m512i exponent = _mm512_sub_epi32(e, _mm512_set1_epi32(128));
    return _mm512_scalef_ps(_mm512_cvtph_ps(_mm512_castsi512_si256(d_words)), _mm512_cvtepi32_ps(exponent));
}

// One block alone (a row's odd last block), 8 int32 lanes.
inline __m256i mxfp4_block_dot(const block_mxfp4& w, const block_q8_0& a, __m512i magnitudes) {
    const __m256i packed = _mm256_broadcastsi128_si256(load128(w.qs));
    const __m256i nibbles = _mm256_and_si256(_mm256_mask_srli_epi16(packed, 0xFF00u, packed, 4), _mm256_set1_epi8(0x0F));
    const __mmask32 negative = _mm256_test_epi8_mask(nibbles, _mm256_set1_epi8(0x08));
    const __m256i q = load256(a.qs);
    const __m256i q_signed = _mm256_mask_sub_epi8(q, negative, _mm256_setzero_si256(), q);
    return _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_shuffle_epi8(_mm512_castsi512_si256(magnitudes), nibbles),
                               q_signed);
}

float dot_mxfp4_q8_0_avx512(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_mxfp4*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    const __m512i magnitudes = _mm512_broadcast_i32x4(mxfp4_magnitudes());
    const std::int64_t nb = n / QK_MXFP4;
    __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps();
    std::int64_t b = 0;
    for (; b + 8 <= nb; b += 8) {
        acc0 = _mm512_fmadd_ps(mxfp4_quad_scales(w + b, a + b),
                               _mm512_cvtepi32_ps(mxfp4_quad_dot(w + b, a + b, magnitudes)), acc0);
        acc1 = _mm512_fmadd_ps(mxfp4_quad_scales(w + b + 4, a + b + 4),
                               _mm512_cvtepi32_ps(mxfp4_quad_dot(w + b + 4, a + b + 4, magnitudes)), acc1);
    }
    if (b + 4 <= nb) {
        acc0 = _mm512_fmadd_ps(mxfp4_quad_scales(w + b, a + b),
                               _mm512_cvtepi32_ps(mxfp4_quad_dot(w + b, a + b, magnitudes)), acc0);
        b += 4;
    }
    if (b + 2 <= nb) {
        acc1 = _mm512_fmadd_ps(mxfp4_pair_scales(w + b, a + b),
                               _mm512_cvtepi32_ps(mxfp4_pair_dot(w + b, a + b, magnitudes)), acc1);
        b += 2;
    }
    if (b < nb) {
        const __m256 last = _mm256_mul_ps(_mm256_set1_ps(mxfp4_scale(w[b], a[b])),
                                          _mm256_cvtepi32_ps(mxfp4_block_dot(w[b], a[b], magnitudes)));
        acc0 = _mm512_add_ps(acc0, _mm512_zextps256_ps512(last));
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(acc0, acc1));
}

// ---- IQ2 and IQ3 against q8_K -----------------------------------------------------------
// Two sub-blocks (64 elements) per register: the codebook magnitudes looked
// up in scalar code (64-bit entries side by side; IQ3's 32-bit ones paired
// in scalar first), the weights' signs as a 64-bit mask that negates the
// activations (masked subtract), maddubs (unsigned magnitudes x signed
// activations, int16 pairs, no saturation) and dpwssd against the odd
// multipliers 2 s + 1 as int16 pairs (one per 16 elements = 128-bit lane).
// The 7-bit sign indices (IQ2_XXS, IQ2_XS, IQ3_XXS) become sign bytes for a
// whole super-block at once in vector code, the parity bit from a nibble
// table. Per super-block one int32 sum, then sum += d_w d_a bsum and the
// unit at the end, as the scalar kernel (equal to it bit for bit).

inline float h2f(std::uint16_t h) { return _cvtsh_ss(h); }

// x as the float it is (an empty asm), so the product is rounded before the
// add that follows, as in the scalar reference (no FMA).
inline float rounded(float x) {
    __asm__("" : "+x"(x));
    return x;
}

inline std::uint64_t load_u64(const void* p) {
    std::uint64_t v;
    __builtin_memcpy(&v, p, 8);
    return v;
}

// Bytes of 7-bit sign indices (one per int32 / int16 lane, upper bits 0)
// with bit 7 set where bits 0..6 hold an odd count: iq_sign_byte, lane-wise.
inline __m512i with_parity_bit(__m512i v) {
    const __m512i odd = _mm512_broadcast_i32x4(_mm_setr_epi8(0, -128, -128, 0, -128, 0, 0, -128, -128, 0, 0, -128, 0,
                                                             -128, -128, 0));
    const __m512i low = _mm512_shuffle_epi8(odd, _mm512_and_si512(v, _mm512_set1_epi8(0x0F)));
    const __m512i high = _mm512_shuffle_epi8(odd, _mm512_srli_epi32(v, 4));
    return _mm512_ternarylogic_epi32(v, low, high, 0xF6);   // v | (low ^ high)
}

// The 32 sign bytes of a super-block from its 8 sign words (4 indices of 7
// bits each, bits 0..27; word ib at dword 'stride' ib + 'first' of words).
inline void sign_bytes_from_words(__m512i words, int first, int stride, std::uint8_t out[32]) {
    const __m512i shifts = _mm512_setr_epi32(0, 7, 14, 21, 0, 7, 14, 21, 0, 7, 14, 21, 0, 7, 14, 21);
    for (int half = 0; half < 2; ++half) {
        const int w0 = first + stride * 4 * half;
        const __m512i pick = _mm512_setr_epi32(w0, w0, w0, w0, w0 + stride, w0 + stride, w0 + stride, w0 + stride,
                                               w0 + 2 * stride, w0 + 2 * stride, w0 + 2 * stride, w0 + 2 * stride,
                                               w0 + 3 * stride, w0 + 3 * stride, w0 + 3 * stride, w0 + 3 * stride);
        const __m512i index = _mm512_and_si512(_mm512_srlv_epi32(_mm512_permutexvar_epi32(pick, words), shifts),
                                               _mm512_set1_epi32(127));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * half), _mm512_cvtepi32_epi8(with_parity_bit(index)));
    }
}

// Multipliers as dpwssd takes them: int32 lane j of 'halves' (half order,
// j = 2 ib + h) holds m_j in both int16 halves; pair p's 4 in its 4 lanes.
inline __m512i pair_multipliers(__m512i halves, int p) {
    const int j = 4 * p;
    return _mm512_permutexvar_epi32(
        _mm512_setr_epi32(j, j, j, j, j + 1, j + 1, j + 1, j + 1, j + 2, j + 2, j + 2, j + 2, j + 3, j + 3, j + 3, j + 3),
        halves);
}
// 16 multipliers m = 2 s + 1 (int32 lanes in half order, each < 32) into both int16 halves.
inline __m512i doubled16(__m512i m) { return _mm512_or_si512(m, _mm512_slli_epi32(m, 16)); }
// 8 sub-block multipliers (int64 lanes) into the 4 int16 of each lane (both halves of the sub-block).
inline __m512i sub_block_halves(__m512i m64) {
    const __m512i m = _mm512_or_si512(m64, _mm512_slli_epi64(m64, 16));
    return _mm512_or_si512(m, _mm512_slli_epi64(m, 32));
}
// 4-bit sub-scales, low nibble then high per byte (IQ2_XS, IQ2_S: 8 bytes), as halves.
inline __m512i nibble_halves(const std::uint8_t* scales) {
    const __m128i s = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(scales));
    const __m128i lo = _mm_and_si128(s, _mm_set1_epi8(0x0F)), hi = _mm_and_si128(_mm_srli_epi16(s, 4), _mm_set1_epi8(0x0F));
    const __m128i nib = _mm_unpacklo_epi8(lo, hi);
    return doubled16(_mm512_cvtepu8_epi32(_mm_add_epi8(_mm_add_epi8(nib, nib), _mm_set1_epi8(1))));
}

// acc + sum over 64 elements of m * magnitude * sign * q.
inline __m512i pair_dot(__m512i acc, __m512i magnitudes, std::uint64_t negative, const std::int8_t* q, __m512i m) {
    const __m512i a = _mm512_loadu_si512(q);
    const __m512i signed_a = _mm512_mask_sub_epi8(a, _cvtu64_mask64(negative), _mm512_setzero_si512(), a);
    return _mm512_dpwssd_epi32(acc, _mm512_maddubs_epi16(magnitudes, signed_a), m);
}

// Eight 8-byte entries, elements 0..63 in order.
template <class Grid>
inline __m512i grid8(const Grid& g, unsigned i0, unsigned i1, unsigned i2, unsigned i3, unsigned i4, unsigned i5,
                     unsigned i6, unsigned i7) {
    return _mm512_set_epi64(static_cast<long long>(g[i7]), static_cast<long long>(g[i6]), static_cast<long long>(g[i5]),
                            static_cast<long long>(g[i4]), static_cast<long long>(g[i3]), static_cast<long long>(g[i2]),
                            static_cast<long long>(g[i1]), static_cast<long long>(g[i0]));
}
// Sixteen 4-byte entries (IQ3), indices idx[0..16), paired in scalar registers.
template <class Grid>
inline __m512i grid16(const Grid& g, const unsigned* idx) {
    long long e[8];
    for (int k = 0; k < 8; ++k)
        e[k] = static_cast<long long>(g[idx[2 * k]] | static_cast<std::uint64_t>(g[idx[2 * k + 1]]) << 32);
    return _mm512_set_epi64(e[7], e[6], e[5], e[4], e[3], e[2], e[1], e[0]);
}

inline float finish_block(float sum, std::uint16_t d, float d_a, __m512i acc) {
    return sum + rounded(h2f(d) * d_a * static_cast<float>(_mm512_reduce_add_epi32(acc)));
}

float dot_iq2_xxs_q8_K_avx512(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq2_xxs*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const __m512i words = _mm512_loadu_si512(w[b].qs);   // dword 2 ib: 4 grid indices, 2 ib + 1: signs and s
        alignas(16) std::uint8_t signs[32];
        sign_bytes_from_words(words, 1, 2, signs);
        const __m512i s = _mm512_shuffle_epi32(_mm512_srli_epi32(words, 28), _MM_PERM_DDBB);
        const __m512i halves = doubled16(_mm512_add_epi32(_mm512_add_epi32(s, s), _mm512_set1_epi32(1)));
        __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int p = 0; p < 4; ++p) {
            const std::uint8_t* g = reinterpret_cast<const std::uint8_t*>(w[b].qs + 8 * p);   // bytes 0..3, 8..11
            const __m512i grid = grid8(iq2xxs_grid, g[0], g[1], g[2], g[3], g[8], g[9], g[10], g[11]);
            acc = pair_dot(acc, grid, load_u64(signs + 8 * p), a[b].qs + 64 * p, pair_multipliers(halves, p));
        }
        sum = finish_block(sum, w[b].d, a[b].d, acc);
    }
    return 0.125f * sum;
}

float dot_iq2_xs_q8_K_avx512(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq2_xs*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        // qs[g]: grid index in bits 0..8, sign index in 9..15.
        const __m512i index = _mm512_srli_epi16(_mm512_loadu_si512(w[b].qs), 9);
        alignas(32) std::uint8_t signs[32];
        _mm256_store_si256(reinterpret_cast<__m256i*>(signs), _mm512_cvtepi16_epi8(with_parity_bit(index)));
        const __m512i halves = nibble_halves(w[b].scales);
        __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int p = 0; p < 4; ++p) {
            const std::uint16_t* q = w[b].qs + 8 * p;
            const __m512i grid = grid8(iq2xs_grid, q[0] & 511u, q[1] & 511u, q[2] & 511u, q[3] & 511u, q[4] & 511u,
                                       q[5] & 511u, q[6] & 511u, q[7] & 511u);
            acc = pair_dot(acc, grid, load_u64(signs + 8 * p), a[b].qs + 64 * p, pair_multipliers(halves, p));
        }
        sum = finish_block(sum, w[b].d, a[b].d, acc);
    }
    return 0.125f * sum;
}

float dot_iq2_s_q8_K_avx512(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq2_s*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const __m512i halves = nibble_halves(w[b].scales);
        // Group g's index: qs[g] | bits 2 (g % 4) .. + 1 of qh[g / 4] << 8, as 32 int16.
        const __m512i qh = _mm512_castsi128_si512(_mm_cvtepu8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(w[b].qh))));
        const __m512i group_qh = _mm512_permutexvar_epi16(
            _mm512_set_epi16(7, 7, 7, 7, 6, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0), qh);
        const __m512i high = _mm512_and_si512(
            _mm512_sllv_epi16(group_qh, _mm512_set_epi16(2, 4, 6, 8, 2, 4, 6, 8, 2, 4, 6, 8, 2, 4, 6, 8, 2, 4, 6, 8, 2, 4, 6, 8,
                                                         2, 4, 6, 8, 2, 4, 6, 8)),
            _mm512_set1_epi16(0x300));
        const __m512i index = _mm512_or_si512(_mm512_cvtepu8_epi16(load256(w[b].qs)), high);
        __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int p = 0; p < 4; ++p) {
            // The pair's 8 indices out of 128-bit lane p as two scalar words of 4 (no store and reload).
            const __m128i i = lane128(index, p);
            const auto i0 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(i)), i1 = static_cast<std::uint64_t>(_mm_extract_epi64(i, 1));
            const __m512i grid = grid8(iq2s_grid, i0 & 0x3FF, (i0 >> 16) & 0x3FF, (i0 >> 32) & 0x3FF, i0 >> 48, i1 & 0x3FF,
                                       (i1 >> 16) & 0x3FF, (i1 >> 32) & 0x3FF, i1 >> 48);
            acc = pair_dot(acc, grid, load_u64(w[b].signs + 8 * p), a[b].qs + 64 * p, pair_multipliers(halves, p));
        }
        sum = finish_block(sum, w[b].d, a[b].d, acc);
    }
    return 0.125f * sum;
}

float dot_iq3_xxs_q8_K_avx512(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq3_xxs*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const __m256i words = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w[b].scales_signs));
        alignas(16) std::uint8_t signs[32];
        sign_bytes_from_words(_mm512_castsi256_si512(words), 0, 1, signs);
        const __m256i s = _mm256_srli_epi32(words, 28);
        const __m512i halves = sub_block_halves(
            _mm512_cvtepu32_epi64(_mm256_add_epi32(_mm256_add_epi32(s, s), _mm256_set1_epi32(1))));
        __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int p = 0; p < 4; ++p) {
            const std::uint8_t* g = w[b].grid + 16 * p;
            const unsigned idx[16] = {g[0], g[1], g[2],  g[3],  g[4],  g[5],  g[6],  g[7],
                                      g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]};
            acc = pair_dot(acc, grid16(iq3xxs_grid, idx),
                           load_u64(signs + 8 * p), a[b].qs + 64 * p,
                           pair_multipliers(halves, p));
        }
        sum = finish_block(sum, w[b].d, a[b].d, acc);
    }
    return 0.25f * sum;
}

float dot_iq3_s_q8_K_avx512(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq3_s*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        // s of sub-block ib: nibble ib % 2 of scales[ib / 2].
        const __m128i sc = _mm_cvtsi32_si128(static_cast<int>(load_u32(w[b].scales)));
        const __m128i nib = _mm_unpacklo_epi8(_mm_and_si128(sc, _mm_set1_epi8(0x0F)),
                                              _mm_and_si128(_mm_srli_epi16(sc, 4), _mm_set1_epi8(0x0F)));
        const __m512i halves =
            sub_block_halves(_mm512_cvtepu8_epi64(_mm_add_epi8(_mm_add_epi8(nib, nib), _mm_set1_epi8(1))));
        __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int p = 0; p < 4; ++p) {
            // Index k: qs[k] | bit k of the pair's two qh bytes << 8, as 16 int16, read out as 4
            // scalar words (a store and reloads of the indices had cost more).
            const __m256i low = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w[b].qs + 16 * p)));
            const __mmask16 high = static_cast<__mmask16>(load_u16(w[b].qh + 2 * p));
            const __m256i index = _mm256_mask_add_epi16(low, high, low, _mm256_set1_epi16(0x100));
            const __m128i i01 = _mm256_castsi256_si128(index), i23 = _mm256_extracti128_si256(index, 1);
            const std::uint64_t words[4] = {static_cast<std::uint64_t>(_mm_cvtsi128_si64(i01)),
                                            static_cast<std::uint64_t>(_mm_extract_epi64(i01, 1)),
                                            static_cast<std::uint64_t>(_mm_cvtsi128_si64(i23)),
                                            static_cast<std::uint64_t>(_mm_extract_epi64(i23, 1))};
            unsigned idx[16];
            for (int k = 0; k < 16; ++k) idx[k] = (words[k / 4] >> (16 * (k % 4))) & 0x1FF;
            acc = pair_dot(acc, grid16(iq3s_grid, idx),
                           load_u64(w[b].signs + 8 * p), a[b].qs + 64 * p,
                           pair_multipliers(halves, p));
        }
        sum = finish_block(sum, w[b].d, a[b].d, acc);
    }
    return sum;
}

// ---- IQ1_S and IQ1_M against q8_K ------------------------------------------------------------
// The codebook values v (-1, 0, 1) made unsigned for maddubs: IQ1_S takes
// v + 1, IQ1_M 8 v + shift + 9 (0..18; shift +-1 per group of 8); the added
// constant times the activations comes back off through q8_K's bsums (one per
// 16 elements, as the multipliers), so the integer sums are the scalar
// kernel's: grid_sum and shift_sum for IQ1_S, 8 grid_sum + shift_sum for
// IQ1_M (whose eighth is exact in f32, as in the AVX2 kernel).

// The pair's 8 grid indices (int16, 128-bit lane p of index) read out as two scalar words.
template <class Grid>
inline __m512i grid8_of_lane(const Grid& g, __m512i index, int p) {
    const __m128i i = lane128(index, p);
    const auto i0 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(i)), i1 = static_cast<std::uint64_t>(_mm_extract_epi64(i, 1));
    return grid8(g, i0 & 0xFFFF, (i0 >> 16) & 0xFFFF, (i0 >> 32) & 0xFFFF, i0 >> 48, i1 & 0xFFFF, (i1 >> 16) & 0xFFFF,
                 (i1 >> 32) & 0xFFFF, i1 >> 48);
}

// 16 int16 multipliers (half order) against the 16 bsums, summed.
inline int bsums_dot(const std::int16_t* bsums, __m256i m16) {
    const __m256i p = _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(bsums)), m16);
    return _mm512_reduce_add_epi32(_mm512_zextsi256_si512(p));
}

float dot_iq1_s_q8_K_avx512(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq1_s*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m512i one = _mm512_set1_epi8(1);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        // qh[ib]: bits 3 l .. + 2 high index bits of group l, 12..14 s, 15 the shift's sign.
        const __m128i qh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w[b].qh));
        const __m128i m = _mm_or_si128(_mm_and_si128(_mm_srli_epi16(qh, 11), _mm_set1_epi16(0xE)), _mm_set1_epi16(1));
        const __m128i negative = _mm_srai_epi16(qh, 15);
        const __m128i m_shift = _mm_sub_epi16(_mm_xor_si128(m, negative), negative);
        const __m256i m16 = _mm256_set_m128i(_mm_unpackhi_epi16(m, m), _mm_unpacklo_epi16(m, m));
        const __m256i m_shift16 = _mm256_set_m128i(_mm_unpackhi_epi16(m_shift, m_shift), _mm_unpacklo_epi16(m_shift, m_shift));
        const int plus_q = bsums_dot(a[b].bsums, m16);          // sum m q: what v + 1 adds
        const int shift_sum = bsums_dot(a[b].bsums, m_shift16);
        const __m512i halves = sub_block_halves(_mm512_cvtepu16_epi64(m));
        // Group g's index: qs[g] | bits 3 (g % 4) .. + 2 of qh[g / 4] << 8, as 32 int16.
        const __m512i group_qh = _mm512_permutexvar_epi16(
            _mm512_set_epi16(7, 7, 7, 7, 6, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0),
            _mm512_castsi128_si512(qh));
        const __m512i high = _mm512_slli_epi16(
            _mm512_and_si512(_mm512_srlv_epi16(group_qh, _mm512_set_epi16(9, 6, 3, 0, 9, 6, 3, 0, 9, 6, 3, 0, 9, 6, 3, 0, 9, 6,
                                                                          3, 0, 9, 6, 3, 0, 9, 6, 3, 0, 9, 6, 3, 0)),
                             _mm512_set1_epi16(7)),
            8);
        const __m512i index = _mm512_or_si512(_mm512_cvtepu8_epi16(load256(w[b].qs)), high);
        __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int p = 0; p < 4; ++p) {
            const __m512i v1 = _mm512_add_epi8(grid8_of_lane(iq1s_grid, index, p), one);   // v + 1: 0, 1, 2
            const __m512i q = _mm512_loadu_si512(a[b].qs + 64 * p);
            acc = _mm512_dpwssd_epi32(acc, _mm512_maddubs_epi16(v1, q), pair_multipliers(halves, p));
        }
        const int grid_sum = _mm512_reduce_add_epi32(acc) - plus_q;
        sum += rounded(h2f(w[b].d) * a[b].d *
                       (static_cast<float>(grid_sum) + k_iq1_delta * static_cast<float>(shift_sum)));
    }
    return sum;
}

float dot_iq1_m_q8_K_avx512(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq1_m*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m512i one = _mm512_set1_epi8(1);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        // s of half j = 2 ib + h: bits 3 (j % 4) .. + 2 of scale word j / 4.
        const __m512i words = _mm512_castsi128_si512(_mm_cvtepu16_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(w[b].scales))));
        const __m512i s = _mm512_and_si512(
            _mm512_srlv_epi32(_mm512_permutexvar_epi32(_mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3), words),
                              _mm512_setr_epi32(0, 3, 6, 9, 0, 3, 6, 9, 0, 3, 6, 9, 0, 3, 6, 9)),
            _mm512_set1_epi32(7));
        const __m512i m = _mm512_add_epi32(_mm512_add_epi32(s, s), _mm512_set1_epi32(1));
        const int plus_q = 9 * bsums_dot(a[b].bsums, _mm512_cvtepi32_epi16(m));   // sum m 9 q: what the + 9 adds
        const __m512i halves = doubled16(m);
        // Group g's nibble (g % 2 of qh[g / 2]): 3 high index bits, bit 3 the shift's sign.
        const __m512i group_qh = _mm512_permutexvar_epi16(
            _mm512_set_epi16(15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 8, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1,
                             0, 0),
            _mm512_castsi256_si512(_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w[b].qh)))));
        const __m512i nibble = _mm512_srlv_epi16(group_qh, _mm512_set_epi16(4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0,
                                                                            4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0));
        const __m512i index = _mm512_or_si512(_mm512_cvtepu8_epi16(load256(w[b].qs)),
                                              _mm512_slli_epi16(_mm512_and_si512(nibble, _mm512_set1_epi16(7)), 8));
        // Groups with a positive shift, 8 per pair (a bit each, 32 in all).
        const auto positive = static_cast<std::uint32_t>(_mm512_testn_epi16_mask(nibble, _mm512_set1_epi16(8)));
        __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int p = 0; p < 4; ++p) {
            const __m512i v1 = _mm512_add_epi8(grid8_of_lane(iq1s_grid, index, p), one);   // v + 1: 0, 1, 2
            const __m512i shift1 = _mm512_maskz_mov_epi64(static_cast<__mmask8>(positive >> (8 * p)), _mm512_set1_epi8(2));
            const __m512i u = _mm512_add_epi8(_mm512_slli_epi16(v1, 3), shift1);   // 8 (v + 1) + shift + 1
            const __m512i q = _mm512_loadu_si512(a[b].qs + 64 * p);
            acc = _mm512_dpwssd_epi32(acc, _mm512_maddubs_epi16(u, q), pair_multipliers(halves, p));
        }
        const float total = k_iq1_delta * static_cast<float>(_mm512_reduce_add_epi32(acc) - plus_q);
        sum += rounded(h2f(iq1_m_d_bits(w[b])) * a[b].d * total);
    }
    return sum;
}

}  // namespace
}  // namespace kvlens

KVLENS_SIMD_END_AVX512

namespace kvlens {

void add_low_bit_avx512_kernels(simd_overrides& o) {
    o.vec_dot.push_back({ggml_type::mxfp4, dot_mxfp4_q8_0_avx512});
    o.vec_dot.push_back({ggml_type::iq2_xxs, dot_iq2_xxs_q8_K_avx512});
    o.vec_dot.push_back({ggml_type::iq2_xs, dot_iq2_xs_q8_K_avx512});
    o.vec_dot.push_back({ggml_type::iq2_s, dot_iq2_s_q8_K_avx512});
    o.vec_dot.push_back({ggml_type::iq3_xxs, dot_iq3_xxs_q8_K_avx512});
    o.vec_dot.push_back({ggml_type::iq3_s, dot_iq3_s_q8_K_avx512});
    o.vec_dot.push_back({ggml_type::iq1_s, dot_iq1_s_q8_K_avx512});
    o.vec_dot.push_back({ggml_type::iq1_m, dot_iq1_m_q8_K_avx512});
}

}  // namespace kvlens
