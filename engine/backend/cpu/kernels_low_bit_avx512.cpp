// SPDX-License-Identifier: Apache-2.0
// AVX-512 (F, BW, VL, DQ, VNNI) dot products of the low-bit types that beat
// their AVX2 kernels (kernels_low_bit_avx2.cpp); the others stay AVX2.
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
#include "engine/quant/quant_blocks_low_bit.h"

KVLENS_SIMD_BEGIN_AVX512

namespace kvlens {
namespace {

inline __m128i load128(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
inline __m256i load256(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

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

}  // namespace
}  // namespace kvlens

KVLENS_SIMD_END_AVX512

namespace kvlens {

void add_low_bit_avx512_kernels(simd_overrides& o) {
    o.vec_dot.push_back({ggml_type::mxfp4, dot_mxfp4_q8_0_avx512});
}

}  // namespace kvlens
