// SPDX-License-Identifier: Apache-2.0
// The AVX-512 vector type V that the SIMD bodies (ops_simd_body.h,
// attention_simd_body.h) are written against: loads and stores of f32, f16
// and int8 lanes, arithmetic, reductions, a transpose-and-sum and exp. One
// definition for every SIMD file: include it inside the file's own
// namespace, in its KVLENS_SIMD_BEGIN_AVX512 region (simd_target.h); no
// include guard on purpose, like the bodies.

#include "engine/backend/cpu/simd_exp_constants.h"

struct V {
    using reg = __m512;
    static constexpr int width = 16;
    static constexpr int registers = 32;   // zmm0..zmm31
    static reg zero() { return _mm512_setzero_ps(); }
    static reg set1(float x) { return _mm512_set1_ps(x); }
    static reg load(const float* p) { return _mm512_loadu_ps(p); }
    static void store(float* p, reg v) { _mm512_storeu_ps(p, v); }
    static reg load_h(const std::uint16_t* p) { return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))); }
    static reg load_q8(const std::int8_t* p) {
        return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
    }
    static reg round_h(reg v) { return _mm512_cvtph_ps(_mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT)); }
    static reg add(reg a, reg b) { return _mm512_add_ps(a, b); }
    static reg sub(reg a, reg b) { return _mm512_sub_ps(a, b); }
    static reg mul(reg a, reg b) { return _mm512_mul_ps(a, b); }
    static reg div(reg a, reg b) { return _mm512_div_ps(a, b); }
    static reg max(reg a, reg b) { return _mm512_max_ps(a, b); }
    static reg fmadd(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
    static float first(reg v) { return _mm512_cvtss_f32(v); }
    // Lane masks: a compare's result, and a choice by it.
    using mask = __mmask16;
    static mask less_equal(reg a, reg b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
    static mask equal(reg a, reg b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
    static mask both(mask a, mask b) { return static_cast<mask>(a & b); }
    static reg select(mask m, reg if_set, reg if_clear) { return _mm512_mask_blend_ps(m, if_clear, if_set); }
    static float reduce_add(reg v) { return _mm512_reduce_add_ps(v); }
    static double reduce_add_double(reg v) {
        const __m512d d = _mm512_add_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(v)),
                                        _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1))));
        return _mm512_reduce_add_pd(d);
    }
    static float reduce_max(reg v) { return _mm512_reduce_max_ps(v); }
    // Sum of the lanes' squares, each squared in double.
    static double sum_squares_double(reg v) {
        const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
        const __m512d hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
        return _mm512_reduce_add_pd(_mm512_fmadd_pd(hi, hi, _mm512_mul_pd(lo, lo)));
    }
    // Lane k of the result: the sum of v[k]'s lanes, k < 16.
    static reg sum_each(const reg v[16]) {
        reg t[8], u[4], w[2];
        for (int i = 0; i < 8; ++i)
            t[i] = _mm512_add_ps(_mm512_unpacklo_ps(v[2 * i], v[2 * i + 1]), _mm512_unpackhi_ps(v[2 * i], v[2 * i + 1]));
        for (int i = 0; i < 4; ++i)
            u[i] = _mm512_add_ps(_mm512_shuffle_ps(t[2 * i], t[2 * i + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                                 _mm512_shuffle_ps(t[2 * i], t[2 * i + 1], _MM_SHUFFLE(3, 2, 3, 2)));
        for (int i = 0; i < 2; ++i)
            w[i] = _mm512_add_ps(_mm512_shuffle_f32x4(u[2 * i], u[2 * i + 1], _MM_SHUFFLE(2, 0, 2, 0)),
                                 _mm512_shuffle_f32x4(u[2 * i], u[2 * i + 1], _MM_SHUFFLE(3, 1, 3, 1)));
        return _mm512_add_ps(_mm512_shuffle_f32x4(w[0], w[1], _MM_SHUFFLE(2, 0, 2, 0)),
                             _mm512_shuffle_f32x4(w[0], w[1], _MM_SHUFFLE(3, 1, 3, 1)));
    }
    // Lane k of the result: the sum of v[k]'s lanes, k < 4 (decode's scores, 4 keys at a time).
    static __m128 sum_each4(const reg v[4]) {
        __m256 h[4];
        for (int i = 0; i < 4; ++i) h[i] = _mm256_add_ps(_mm512_castps512_ps256(v[i]), _mm512_extractf32x8_ps(v[i], 1));
        const __m256 ab = _mm256_hadd_ps(h[0], h[1]), cd = _mm256_hadd_ps(h[2], h[3]);
        const __m256 abcd = _mm256_hadd_ps(ab, cd);
        return _mm_add_ps(_mm256_castps256_ps128(abcd), _mm256_extractf128_ps(abcd, 1));
    }
    // Integer dot products for a q8_0 cache's scores (query_i16.h): a word
    // is 2 int16 (a key's int8 widened, or the query's int16), dpwssd sums
    // 2 signed products into each int32 lane, exactly.
    using ireg = __m512i;
    static constexpr int q_word_elems = 2;
    static ireg iload(const std::int32_t* p) { return _mm512_loadu_si512(p); }
    static ireg iset1(std::int32_t x) { return _mm512_set1_epi32(x); }
    // In inline assembly, accumulating in place: GCC 12 compiles the
    // intrinsic in the lanes scores' 24-accumulator loop as a copy of each
    // accumulator, the dpwssd, a copy back and a spill to the stack.
    static ireg idot(ireg acc, ireg key_words, ireg query_words) {
#if defined(__GNUC__) && !defined(__clang__)
        __asm__("vpdpwssd %2, %1, %0" : "+v"(acc) : "v"(key_words), "vm"(query_words));
        return acc;
#else
        return _mm512_dpwssd_epi32(acc, key_words, query_words);
#endif
    }
    static reg cvt_i(ireg v) { return _mm512_cvtepi32_ps(v); }
    // For prefill's integer value sum of a q8_0 cache (attention_lanes_body.h):
    // v rounded to the nearest int32 (ties to even), the low 16 bits of lo's
    // lanes under hi's, and a store.
    static ireg round_i(reg v) { return _mm512_cvt_roundps_epi32(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
    static ireg pack_pairs(ireg lo, ireg hi) {
        return _mm512_or_si512(_mm512_and_si512(lo, _mm512_set1_epi32(0xffff)), _mm512_slli_epi32(hi, 16));
    }
    static void istore(std::int32_t* p, ireg v) { _mm512_storeu_si512(p, v); }
    // Values 0..31 of two keys' q8_0 block (b: nullptr for none, zeros) as
    // 32 words, word d = (a[d], b[d]) as int16: a key pair's row of a value tile.
    static void pair_words(const std::int8_t* a, const std::int8_t* b, std::int32_t* words) {
        const __m512i wa = _mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a)));
        const __m512i wb = b ? _mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b)))
                             : _mm512_setzero_si512();
        // Index i < 32 picks wa's element i, 32 + i wb's.
        const __m512i lo = _mm512_set_epi16(47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10, 41, 9, 40, 8,
                                            39, 7, 38, 6, 37, 5, 36, 4, 35, 3, 34, 2, 33, 1, 32, 0);
        const __m512i hi = _mm512_add_epi16(lo, _mm512_set1_epi16(16));
        _mm512_storeu_si512(words, _mm512_permutex2var_epi16(wa, lo, wb));
        _mm512_storeu_si512(words + 16, _mm512_permutex2var_epi16(wa, hi, wb));
    }
    // One block's 32 key values as 16 words.
    static void key_words(const std::int8_t* k, std::int32_t* words) {
        _mm512_storeu_si512(words, _mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(k))));
    }
    // Decode's block sums of 4 keys against NR query rows for block b:
    // out[r] lane j = the sum of block b of key j (kr[j]: the key's head in
    // its cache row, q8_0 blocks) against row r (q[r]: its int16 values).
    // Each key's block is widened once for all rows; the 16 int32 lanes of
    // each product are summed for the 4 keys together.
    template <int NR>
    static void key_isums4(const std::uint8_t* const kr[4], int b, const std::int16_t* const q[NR], __m128i out[NR]) {
        __m512i k[4];
        for (int j = 0; j < 4; ++j) k[j] = _mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(kr[j] + b * 34 + 2)));
        for (int r = 0; r < NR; ++r) {
            const __m512i qv = _mm512_loadu_si512(q[r] + b * 32);
            __m512i a[4];
            for (int j = 0; j < 4; ++j) a[j] = _mm512_dpwssd_epi32(_mm512_setzero_si512(), k[j], qv);
            const __m512i t01 = _mm512_add_epi32(_mm512_unpacklo_epi32(a[0], a[1]), _mm512_unpackhi_epi32(a[0], a[1]));
            const __m512i t23 = _mm512_add_epi32(_mm512_unpacklo_epi32(a[2], a[3]), _mm512_unpackhi_epi32(a[2], a[3]));
            // Each 128-bit lane: the 4 keys' sums of its 4 elements.
            const __m512i u = _mm512_add_epi32(_mm512_unpacklo_epi64(t01, t23), _mm512_unpackhi_epi64(t01, t23));
            out[r] = _mm_add_epi32(_mm_add_epi32(_mm512_extracti32x4_epi32(u, 0), _mm512_extracti32x4_epi32(u, 1)),
                                   _mm_add_epi32(_mm512_extracti32x4_epi32(u, 2), _mm512_extracti32x4_epi32(u, 3)));
        }
    }
    static reg exp(reg x) {
        KVLENS_SIMD_EXP_CONSTANTS
        x = _mm512_min_ps(_mm512_max_ps(x, set1(lo)), set1(hi));
        const reg n = _mm512_roundscale_ps(_mm512_mul_ps(x, set1(log2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        reg r = _mm512_fnmadd_ps(n, set1(ln2_hi), x);
        r = _mm512_fnmadd_ps(n, set1(ln2_lo), r);
        reg p;
        KVLENS_SIMD_EXP_POLY(_mm512_fmadd_ps, _mm512_mul_ps, set1, r, p);
        return _mm512_scalef_ps(p, n);
    }
};
