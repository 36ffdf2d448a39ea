// SPDX-License-Identifier: Apache-2.0
// The tile-streaming attention job (attention_simd.h) for AVX2 and AVX-512:
// one body (attention_simd_body.h) compiled twice against a vector type per
// instruction set, each under its own target pragma, like ops_simd.cpp.
#include "engine/backend/cpu/attention_simd.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "engine/backend/cpu/kernels.h"
#include "common/fp16.h"

// exp(x) for x clamped to [-87.3, 88.3]: x = n ln2 + r, |r| <= ln2 / 2, e^r by
// its degree-7 Taylor polynomial (error below 1.5e-7 relative), times 2^n.
#define KVLENS_FLASH_EXP_CONSTANTS                                              \
    constexpr float lo = -87.3f, hi = 88.3f, log2e = 1.44269504088896341f;      \
    constexpr float ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;            \
    constexpr float c[8] = {1.0f, 1.0f, 0.5f, 1.0f / 6, 1.0f / 24, 1.0f / 120, \
                            1.0f / 720, 1.0f / 5040};

#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")

namespace kvlens::flash_avx2 {

struct V {
    using reg = __m256;
    static constexpr int width = 8;
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
    static reg max(reg a, reg b) { return _mm256_max_ps(a, b); }
    static reg fmadd(reg a, reg b, reg c) { return _mm256_fmadd_ps(a, b, c); }
    static float first(reg v) { return _mm256_cvtss_f32(v); }
    static float reduce_add(reg v) {
        __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
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
    static reg exp(reg x) {
        KVLENS_FLASH_EXP_CONSTANTS
        x = _mm256_min_ps(_mm256_max_ps(x, set1(lo)), set1(hi));
        const reg n = _mm256_round_ps(_mm256_mul_ps(x, set1(log2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        reg r = _mm256_fnmadd_ps(n, set1(ln2_hi), x);
        r = _mm256_fnmadd_ps(n, set1(ln2_lo), r);
        reg p = set1(c[7]);
        for (int i = 6; i >= 0; --i) p = _mm256_fmadd_ps(p, r, set1(c[i]));
        const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
        return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
    }
};

#include "engine/backend/cpu/attention_simd_body.h"

}  // namespace kvlens::flash_avx2

#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace kvlens::flash_avx512 {

struct V {
    using reg = __m512;
    static constexpr int width = 16;
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
    static reg max(reg a, reg b) { return _mm512_max_ps(a, b); }
    static reg fmadd(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
    static float first(reg v) { return _mm512_cvtss_f32(v); }
    static float reduce_add(reg v) { return _mm512_reduce_add_ps(v); }
    static float reduce_max(reg v) { return _mm512_reduce_max_ps(v); }
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
    static reg exp(reg x) {
        KVLENS_FLASH_EXP_CONSTANTS
        x = _mm512_min_ps(_mm512_max_ps(x, set1(lo)), set1(hi));
        const reg n = _mm512_roundscale_ps(_mm512_mul_ps(x, set1(log2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        reg r = _mm512_fnmadd_ps(n, set1(ln2_hi), x);
        r = _mm512_fnmadd_ps(n, set1(ln2_lo), r);
        reg p = set1(c[7]);
        for (int i = 6; i >= 0; --i) p = _mm512_fmadd_ps(p, r, set1(c[i]));
        return _mm512_scalef_ps(p, n);
    }
};

#include "engine/backend/cpu/attention_simd_body.h"

}  // namespace kvlens::flash_avx512

#pragma GCC diagnostic pop
#pragma GCC pop_options

namespace kvlens {

flash_job_fn flash_job_kernel(int head_dim) {
    const char* level = cpu_kernel_level();
    if (std::strcmp(level, "avx512") == 0 && head_dim % 64 == 0) return flash_avx512::flash_job_any;
    if (std::strcmp(level, "avx2") == 0 && head_dim % 32 == 0) return flash_avx2::flash_job_any;
    return nullptr;
}

}  // namespace kvlens
