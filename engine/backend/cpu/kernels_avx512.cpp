// SPDX-License-Identifier: Apache-2.0
// AVX-512 kernels (F, BW, VL, DQ and VNNI). The 8-bit dot products use VNNI's
// dpbusd (unsigned x signed bytes summed straight into int32, no saturation),
// the float rows 512-bit registers. The level needs VNNI: CPUs with AVX-512
// but no VNNI (Skylake-X) use the AVX2 level. The K-quant dot products are
// inherited from the AVX2 level (the avx512 table is applied on top of it).
// As in kernels_avx2.cpp, only the kernel bodies are compiled for the target.
#include <immintrin.h>

#include <cmath>
#include <cstdint>

#include "engine/backend/cpu/kernel_tables.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/backend/cpu/quant_blocks.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx2,fma,f16c")
// GCC 12's avx512fintrin.h reductions and conversions trip these on _mm512_undefined_*.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace kvlens {
namespace {

// The 8-bit integer dot step: dpbusd sums 4 u8 x s8 products into each int32 lane.
struct isa_vnni {
    static constexpr bool exact_u8 = true;
    static __m256i dot_u8s8(__m256i u, __m256i s) { return _mm256_dpbusd_epi32(_mm256_setzero_si256(), u, s); }
    static __m256i dot_u8s8_acc(__m256i acc, __m256i u, __m256i s) { return _mm256_dpbusd_epi32(acc, u, s); }
};

}  // namespace
}  // namespace kvlens

#include "engine/backend/cpu/quant_simd.h"

namespace kvlens {
namespace {

// ---- activation quantizers, 512-bit -------------------------------------------------------

// round-half-even(v * id) as int32 lanes.
inline __m512i round_mul_512(__m512 v, __m512 id) {
    return _mm512_cvtps_epi32(_mm512_roundscale_ps(_mm512_mul_ps(v, id), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

void q8_0_from_float_512(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q8_0*>(vy);
    for (std::int64_t b = 0; b < n / QK8_0; ++b, x += QK8_0) {
        const __m512 v0 = _mm512_loadu_ps(x), v1 = _mm512_loadu_ps(x + 16);
        const float amax = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(v0), _mm512_abs_ps(v1)));
        const __m512 id = _mm512_set1_ps(amax != 0 ? 127.0f / amax : 0.0f);
        y[b].d = f2h(amax / 127.0f);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y[b].qs), _mm512_cvtsepi32_epi8(round_mul_512(v0, id)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y[b].qs + 16), _mm512_cvtsepi32_epi8(round_mul_512(v1, id)));
    }
}

void q8_1_from_float_512(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q8_1*>(vy);
    for (std::int64_t b = 0; b < n / QK8_1; ++b, x += QK8_1) {
        const __m512 v0 = _mm512_loadu_ps(x), v1 = _mm512_loadu_ps(x + 16);
        const float amax = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(v0), _mm512_abs_ps(v1)));
        const float d = amax / 127.0f;
        const __m512 id = _mm512_set1_ps(amax != 0 ? 127.0f / amax : 0.0f);
        const __m512i i0 = round_mul_512(v0, id), i1 = round_mul_512(v1, id);
        const int sum = _mm512_reduce_add_epi32(_mm512_add_epi32(i0, i1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y[b].qs), _mm512_cvtsepi32_epi8(i0));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y[b].qs + 16), _mm512_cvtsepi32_epi8(i1));
        y[b].d = f2h(d);
        y[b].s = f2h(d * static_cast<float>(sum));
    }
}

void f16_from_float_512(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<std::uint16_t*>(vy);
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), _mm512_cvtps_ph(_mm512_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; ++i) y[i] = f2h(x[i]);
}

// ---- float rows, 512-bit with a masked tail ------------------------------------------------

inline __mmask16 tail_mask(std::int64_t left) { return static_cast<__mmask16>((1u << left) - 1); }

float dot_f32_512(std::int64_t n, const void* vw, const void* va) {
    auto* x = static_cast<const float*>(vw);
    auto* y = static_cast<const float*>(va);
    __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps();
    std::int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        acc0 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i), acc0);
        acc1 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(y + i + 16), acc1);
    }
    for (; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? static_cast<__mmask16>(0xFFFF) : tail_mask(n - i);
        acc0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + i), _mm512_maskz_loadu_ps(m, y + i), acc0);
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(acc0, acc1));
}

inline __m512 load_f16x16(const std::uint16_t* p, __mmask16 m) {
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
}

float dot_f16_512(std::int64_t n, const void* vw, const void* va) {
    auto* x = static_cast<const std::uint16_t*>(vw);
    auto* y = static_cast<const std::uint16_t*>(va);
    const __mmask16 all = 0xFFFF;
    __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps();
    std::int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        acc0 = _mm512_fmadd_ps(load_f16x16(x + i, all), load_f16x16(y + i, all), acc0);
        acc1 = _mm512_fmadd_ps(load_f16x16(x + i + 16, all), load_f16x16(y + i + 16, all), acc1);
    }
    for (; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? all : tail_mask(n - i);
        acc0 = _mm512_fmadd_ps(load_f16x16(x + i, m), load_f16x16(y + i, m), acc0);
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(acc0, acc1));
}

inline __m512 load_bf16x16(const std::uint16_t* p, __mmask16 m) {
    const __m512i w = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(w, 16));
}

float dot_bf16_512(std::int64_t n, const void* vw, const void* va) {
    auto* x = static_cast<const std::uint16_t*>(vw);
    auto* y = static_cast<const std::uint16_t*>(va);
    const __mmask16 all = 0xFFFF;
    __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps();
    std::int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        acc0 = _mm512_fmadd_ps(load_bf16x16(x + i, all), load_bf16x16(y + i, all), acc0);
        acc1 = _mm512_fmadd_ps(load_bf16x16(x + i + 16, all), load_bf16x16(y + i + 16, all), acc1);
    }
    for (; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? all : tail_mask(n - i);
        acc0 = _mm512_fmadd_ps(load_bf16x16(x + i, m), load_bf16x16(y + i, m), acc0);
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(acc0, acc1));
}

tile_fn tile_for(ggml_type t) {
    switch (t) {
    case ggml_type::q4_0: return tile_simd<isa_vnni, q4_0_weights>;
    case ggml_type::q4_1: return tile_simd<isa_vnni, q4_1_weights>;
    case ggml_type::q8_0: return tile_simd<isa_vnni, q8_0_weights>;
    default: return nullptr;
    }
}

}  // namespace

tile_fn avx512_tile_kernel(ggml_type t) { return tile_for(t); }

}  // namespace kvlens

#pragma GCC diagnostic pop
#pragma GCC pop_options

namespace kvlens {

bool have_avx512_kernels() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("f16c");
}

simd_overrides avx512_overrides() {
    simd_overrides o;
    o.from_float = {
        {ggml_type::q8_0, q8_0_from_float_512},
        {ggml_type::q8_1, q8_1_from_float_512},
        {ggml_type::q8_K, q8_K_from_float_simd},
        {ggml_type::f16, f16_from_float_512},
    };
    o.to_float = {{ggml_type::f16, f16_to_float_simd}};
    o.vec_dot = {
        {ggml_type::f32, dot_f32_512},
        {ggml_type::f16, dot_f16_512},
        {ggml_type::bf16, dot_bf16_512},
        {ggml_type::q4_0, dot_q4_0_q8_0_simd<isa_vnni>},
        {ggml_type::q4_1, dot_q4_1_q8_1_simd<isa_vnni>},
        {ggml_type::q8_0, dot_q8_0_q8_0_simd<isa_vnni>},
    };
    return o;
}

}  // namespace kvlens
