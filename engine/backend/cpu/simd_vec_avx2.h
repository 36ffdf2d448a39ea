// SPDX-License-Identifier: Apache-2.0
// The AVX2 vector type V that the SIMD bodies (ops_simd_body.h,
// attention_simd_body.h) are written against: loads and stores of f32, f16
// and int8 lanes, arithmetic, reductions, a transpose-and-sum and exp. One
// definition for every SIMD file: include it inside the file's own
// namespace, in its KVLENS_SIMD_BEGIN_AVX2 region (simd_target.h); no
// include guard on purpose, like the bodies.

#include "engine/backend/cpu/simd_exp_constants.h"

struct V {
    using reg = __m256;
    static constexpr int width = 8;
    static constexpr int registers = 16;   // ymm0..ymm15
    static reg zero() { return _mm256_setzero_ps(); }
    static reg set1(float x) { return _mm256_set1_ps(x); }
    static reg load(const float* p) { return _mm256_loadu_ps(p); }
    static void store(float* p, reg v) { _mm256_storeu_ps(p, v); }
    static reg load_h(const std::uint16_t* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
    static reg load_q8(const std::int8_t* p) {
        return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
    }
    static reg round_h(reg v) { return _mm256_cvtph_ps(_mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT)); }
    static reg add(reg a, reg b) { return _mm256_add_ps(a, b); }
    static reg sub(reg a, reg b) { return _mm256_sub_ps(a, b); }
    static reg mul(reg a, reg b) { return _mm256_mul_ps(a, b); }
    static reg div(reg a, reg b) { return _mm256_div_ps(a, b); }
    static reg max(reg a, reg b) { return _mm256_max_ps(a, b); }
    static reg fmadd(reg a, reg b, reg c) { return _mm256_fmadd_ps(a, b, c); }
    static float first(reg v) { return _mm256_cvtss_f32(v); }
    // Lane masks: a compare's result, and a choice by it.
    using mask = __m256;
    static mask less_equal(reg a, reg b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
    static mask equal(reg a, reg b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
    static mask both(mask a, mask b) { return _mm256_and_ps(a, b); }
    static reg select(mask m, reg if_set, reg if_clear) { return _mm256_blendv_ps(if_clear, if_set, m); }
    static float reduce_add(reg v) {
        __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
    }
    static double reduce_add_double(reg v) {
        __m256d d = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v)), _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
        __m128d s = _mm_add_pd(_mm256_castpd256_pd128(d), _mm256_extractf128_pd(d, 1));
        return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
    }
    // Sum of the lanes' squares, each squared in double.
    static double sum_squares_double(reg v) {
        const __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(v)), hi = _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
        const __m256d d = _mm256_fmadd_pd(hi, hi, _mm256_mul_pd(lo, lo));
        const __m128d s = _mm_add_pd(_mm256_castpd256_pd128(d), _mm256_extractf128_pd(d, 1));
        return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
    }
    static float reduce_max(reg v) {
        __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        m = _mm_max_ps(m, _mm_movehl_ps(m, m));
        return _mm_cvtss_f32(_mm_max_ss(m, _mm_movehdup_ps(m)));
    }
    // Lane k of the result: the sum of v[k]'s lanes, k < 8.
    static reg sum_each(const reg v[8]) {
        reg t[4], u[2];
        for (int i = 0; i < 4; ++i)
            t[i] = _mm256_add_ps(_mm256_unpacklo_ps(v[2 * i], v[2 * i + 1]), _mm256_unpackhi_ps(v[2 * i], v[2 * i + 1]));
        for (int i = 0; i < 2; ++i)
            u[i] = _mm256_add_ps(_mm256_shuffle_ps(t[2 * i], t[2 * i + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                                 _mm256_shuffle_ps(t[2 * i], t[2 * i + 1], _MM_SHUFFLE(3, 2, 3, 2)));
        return _mm256_add_ps(_mm256_permute2f128_ps(u[0], u[1], 0x20), _mm256_permute2f128_ps(u[0], u[1], 0x31));
    }
    // Lane k of the result: the sum of v[k]'s lanes, k < 4 (decode's scores, 4 keys at a time).
    static __m128 sum_each4(const reg v[4]) {
        const reg ab = _mm256_hadd_ps(v[0], v[1]), cd = _mm256_hadd_ps(v[2], v[3]);
        const reg abcd = _mm256_hadd_ps(ab, cd);   // per 128-bit half: a, b, c, d partial sums
        return _mm_add_ps(_mm256_castps256_ps128(abcd), _mm256_extractf128_ps(abcd, 1));
    }
    // Integer dot products for a q8_0 cache's scores (query_i16.h): a word
    // is 2 int16 (a key's int8 widened, or the query's int16), madd sums 2
    // signed products into each int32 lane, exactly.
    using ireg = __m256i;
    static constexpr int q_word_elems = 2;
    static ireg iload(const std::int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
    static ireg iset1(std::int32_t x) { return _mm256_set1_epi32(x); }
    static ireg idot(ireg acc, ireg key_words, ireg query_words) {
        return _mm256_add_epi32(acc, _mm256_madd_epi16(key_words, query_words));
    }
    static reg cvt_i(ireg v) { return _mm256_cvtepi32_ps(v); }
    // One block's 32 key values as 16 words.
    static void key_words(const std::int8_t* k, std::int32_t* words) {
        const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k));
        const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k + 16));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(words), _mm256_cvtepi8_epi16(lo));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(words + 8), _mm256_cvtepi8_epi16(hi));
    }
    // Decode's block sums of 4 keys against NR query rows for block b:
    // out[r] lane j = the sum of block b of key j (kr[j]: the key's head in
    // its cache row, q8_0 blocks) against row r (q[r]: its int16 values).
    // Each key's block is widened once for all rows; the 8 int32 lanes of
    // each product are summed for the 4 keys together.
    template <int NR>
    static void key_isums4(const std::uint8_t* const kr[4], int b, const std::int16_t* const q[NR], __m128i out[NR]) {
        __m256i klo[4], khi[4];
        for (int j = 0; j < 4; ++j) {
            const std::uint8_t* p = kr[j] + b * 34 + 2;
            klo[j] = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
            khi[j] = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)));
        }
        for (int r = 0; r < NR; ++r) {
            const __m256i qlo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q[r] + b * 32));
            const __m256i qhi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q[r] + b * 32 + 16));
            __m256i a[4];
            for (int j = 0; j < 4; ++j) a[j] = _mm256_add_epi32(_mm256_madd_epi16(klo[j], qlo), _mm256_madd_epi16(khi[j], qhi));
            const __m256i t01 = _mm256_add_epi32(_mm256_unpacklo_epi32(a[0], a[1]), _mm256_unpackhi_epi32(a[0], a[1]));
            const __m256i t23 = _mm256_add_epi32(_mm256_unpacklo_epi32(a[2], a[3]), _mm256_unpackhi_epi32(a[2], a[3]));
            const __m256i u = _mm256_add_epi32(_mm256_unpacklo_epi64(t01, t23), _mm256_unpackhi_epi64(t01, t23));
            out[r] = _mm_add_epi32(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1));
        }
    }
    static reg exp(reg x) {
        KVLENS_SIMD_EXP_CONSTANTS
        x = _mm256_min_ps(_mm256_max_ps(x, set1(lo)), set1(hi));
        const reg n = _mm256_round_ps(_mm256_mul_ps(x, set1(log2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        reg r = _mm256_fnmadd_ps(n, set1(ln2_hi), x);
        r = _mm256_fnmadd_ps(n, set1(ln2_lo), r);
        reg p;
        KVLENS_SIMD_EXP_POLY(_mm256_fmadd_ps, _mm256_mul_ps, set1, r, p);
        const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
        return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
    }
};
