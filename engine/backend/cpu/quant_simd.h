// SPDX-License-Identifier: Apache-2.0
// SIMD kernel bodies shared by kernels_avx2.cpp and kernels_avx512.cpp. Each of
// those files includes this one under its own `#pragma GCC target`, with an
// `isa` type giving the 8-bit integer dot step (AVX2: maddubs + madd; AVX-512
// VNNI: dpbusd). Everything here has internal linkage, so the two compiled
// copies never mix at link time (an inline function shared across files built
// for different CPUs could otherwise run AVX code on a CPU without it).
//
// Numerics follow quants_scalar.cpp: quantizers produce bit-identical blocks
// (round half to even, d = max|x| / 127, id = 127 / max|x|, d stored as f16);
// dot products equal the scalar ones up to float summation order.
#pragma once

#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "engine/backend/cpu/matmul_simd.h"
#include "engine/quant/quant_blocks.h"

namespace kvlens {
namespace {

// ---- small helpers ---------------------------------------------------------------

inline float h2f(std::uint16_t h) { return _cvtsh_ss(h); }
inline std::uint16_t f2h(float f) { return static_cast<std::uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT)); }

inline float hsum_ps(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

inline int hsum_epi32(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(s);
}

inline float hmax_ps(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}

inline __m256i load256(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

// 16 bytes of packed nibbles -> 32 bytes 0..15: low nibbles (elements 0..15),
// then high nibbles (elements 16..31), the q4_0 / q4_1 element order.
inline __m256i unpack_nibbles(const std::uint8_t* qs) {
    const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    return _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(q, 4), q), _mm256_set1_epi8(0x0F));
}

// The 32 high bits of a q5 block (bit j of qh, a little-endian uint32, for
// element j) as bytes 0x10 (set) or 0x00, in element order.
inline __m256i q5_high_bits(const std::uint8_t* qh) {
    std::uint32_t bits;
    __builtin_memcpy(&bits, qh, 4);
    // Byte i takes byte i / 8 of the word, then keeps bit i % 8 of it.
    const __m256i which = _mm256_setr_epi64x(0, 0x0101010101010101LL, 0x0202020202020202LL, 0x0303030303030303LL);
    const __m256i spread = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(bits)), which);
    const __m256i mask = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ULL));
    const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, mask), mask);
    return _mm256_and_si256(set, _mm256_set1_epi8(0x10));
}

// The 32 quants 0..31 of a q5_0 / q5_1 block, in element order.
template <class block>
inline __m256i unpack_q5(const block& b) {
    return _mm256_or_si256(unpack_nibbles(b.qs), q5_high_bits(b.qh));
}

// ---- activation quantizers ------------------------------------------------------------

// |x| maximum of 32 floats, which are left in v.
inline float load_amax32(const float* x, __m256 v[4]) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 m = _mm256_setzero_ps();
    for (int i = 0; i < 4; ++i) {
        v[i] = _mm256_loadu_ps(x + 8 * i);
        m = _mm256_max_ps(m, _mm256_andnot_ps(sign, v[i]));
    }
    return hmax_ps(m);
}

// round-half-even(v * id) as int32 lanes.
inline __m256i round_mul(__m256 v, __m256 id) {
    return _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v, id), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

// 32 int32 (in 4 vectors, values in -128..127) -> 32 int8 in order.
inline __m256i pack32(__m256i i0, __m256i i1, __m256i i2, __m256i i3) {
    const __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(i0, i1), _mm256_packs_epi32(i2, i3));
    return _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

[[maybe_unused]] void q8_0_from_float_simd(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q8_0*>(vy);
    for (std::int64_t b = 0; b < n / QK8_0; ++b, x += QK8_0) {
        __m256 v[4];
        const float amax = load_amax32(x, v);
        const float d = amax / 127.0f;
        const __m256 id = _mm256_set1_ps(amax != 0 ? 127.0f / amax : 0.0f);
        y[b].d = f2h(d);
        const __m256i q = pack32(round_mul(v[0], id), round_mul(v[1], id), round_mul(v[2], id), round_mul(v[3], id));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[b].qs), q);
    }
}

[[maybe_unused]] void q8_1_from_float_simd(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q8_1*>(vy);
    for (std::int64_t b = 0; b < n / QK8_1; ++b, x += QK8_1) {
        __m256 v[4];
        const float amax = load_amax32(x, v);
        const float d = amax / 127.0f;
        const __m256 id = _mm256_set1_ps(amax != 0 ? 127.0f / amax : 0.0f);
        const __m256i i0 = round_mul(v[0], id), i1 = round_mul(v[1], id);
        const __m256i i2 = round_mul(v[2], id), i3 = round_mul(v[3], id);
        const int sum = hsum_epi32(_mm256_add_epi32(_mm256_add_epi32(i0, i1), _mm256_add_epi32(i2, i3)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[b].qs), pack32(i0, i1, i2, i3));
        y[b].d = f2h(d);
        y[b].s = f2h(d * static_cast<float>(sum));
    }
}

// q8_K: scale from the signed value of largest magnitude (the first one, as
// the scalar loop finds it), quants clamped to 127, sums of 16.
[[maybe_unused]] void q8_K_from_float_simd(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q8_K*>(vy);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (std::int64_t b = 0; b < n / QK_K; ++b, x += QK_K) {
        __m256 m = _mm256_setzero_ps();
        for (int i = 0; i < QK_K; i += 8) m = _mm256_max_ps(m, _mm256_andnot_ps(sign, _mm256_loadu_ps(x + i)));
        const float amax = hmax_ps(m);
        block_q8_K& out = y[b];
        if (amax == 0) {
            out.d = 0;
            for (int j = 0; j < QK_K; ++j) out.qs[j] = 0;
            for (int j = 0; j < QK_K / 16; ++j) out.bsums[j] = 0;
            continue;
        }
        float max = 0;
        for (int j = 0; j < QK_K; ++j)
            if (std::fabs(x[j]) == amax) { max = x[j]; break; }
        const float iscale = -127.0f / max;
        const __m256 is = _mm256_set1_ps(iscale);
        const __m256i top = _mm256_set1_epi32(127);
        for (int g = 0; g < QK_K / 32; ++g) {
            __m256i i[4];
            for (int k = 0; k < 4; ++k) i[k] = _mm256_min_epi32(round_mul(_mm256_loadu_ps(x + 32 * g + 8 * k), is), top);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.qs + 32 * g), pack32(i[0], i[1], i[2], i[3]));
            out.bsums[2 * g] = static_cast<std::int16_t>(hsum_epi32(_mm256_add_epi32(i[0], i[1])));
            out.bsums[2 * g + 1] = static_cast<std::int16_t>(hsum_epi32(_mm256_add_epi32(i[2], i[3])));
        }
        out.d = 1 / iscale;
    }
}

[[maybe_unused]] void f16_from_float_simd(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<std::uint16_t*>(vy);
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; ++i) y[i] = f2h(x[i]);
}

[[maybe_unused]] void f16_to_float_simd(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const std::uint16_t*>(vx);
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))));
    for (; i < n; ++i) y[i] = h2f(x[i]);
}

// ---- dot products of 32-element blocks ------------------------------------------------

// Signed x signed bytes through the unsigned x signed step: |x| times y with x's sign.
template <class isa>
inline __m256i dot_s8s8(__m256i x, __m256i y) {
    return isa::dot_u8s8(_mm256_abs_epi8(x), _mm256_sign_epi8(y, x));
}

template <class isa>
float dot_q8_0_q8_0_simd(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q8_0*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    const std::int64_t nb = n / QK8_0;
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    std::int64_t b = 0;
    for (; b + 1 < nb; b += 2) {
        const __m256i s0 = dot_s8s8<isa>(load256(w[b].qs), load256(a[b].qs));
        const __m256i s1 = dot_s8s8<isa>(load256(w[b + 1].qs), load256(a[b + 1].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
        acc1 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s1), _mm256_set1_ps(h2f(w[b + 1].d) * h2f(a[b + 1].d)), acc1);
    }
    if (b < nb) {
        const __m256i s0 = dot_s8s8<isa>(load256(w[b].qs), load256(a[b].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
    }
    return hsum_ps(_mm256_add_ps(acc0, acc1));
}

template <class isa>
float dot_q4_0_q8_0_simd(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q4_0*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    const std::int64_t nb = n / QK8_0;
    const __m256i eight = _mm256_set1_epi8(8);
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    std::int64_t b = 0;
    for (; b + 1 < nb; b += 2) {
        const __m256i s0 = dot_s8s8<isa>(_mm256_sub_epi8(unpack_nibbles(w[b].qs), eight), load256(a[b].qs));
        const __m256i s1 = dot_s8s8<isa>(_mm256_sub_epi8(unpack_nibbles(w[b + 1].qs), eight), load256(a[b + 1].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
        acc1 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s1), _mm256_set1_ps(h2f(w[b + 1].d) * h2f(a[b + 1].d)), acc1);
    }
    if (b < nb) {
        const __m256i s0 = dot_s8s8<isa>(_mm256_sub_epi8(unpack_nibbles(w[b].qs), eight), load256(a[b].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
    }
    return hsum_ps(_mm256_add_ps(acc0, acc1));
}

template <class isa>
float dot_q4_1_q8_1_simd(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q4_1*>(vw);
    auto* a = static_cast<const block_q8_1*>(va);
    const std::int64_t nb = n / QK8_1;
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    float mins = 0;   // sum of m * s: the weights' minimum times the activations' sum
    std::int64_t b = 0;
    for (; b + 1 < nb; b += 2) {
        const __m256i s0 = isa::dot_u8s8(unpack_nibbles(w[b].qs), load256(a[b].qs));
        const __m256i s1 = isa::dot_u8s8(unpack_nibbles(w[b + 1].qs), load256(a[b + 1].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
        acc1 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s1), _mm256_set1_ps(h2f(w[b + 1].d) * h2f(a[b + 1].d)), acc1);
        mins += h2f(w[b].m) * h2f(a[b].s) + h2f(w[b + 1].m) * h2f(a[b + 1].s);
    }
    if (b < nb) {
        const __m256i s0 = isa::dot_u8s8(unpack_nibbles(w[b].qs), load256(a[b].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
        mins += h2f(w[b].m) * h2f(a[b].s);
    }
    return hsum_ps(_mm256_add_ps(acc0, acc1)) + mins;
}

template <class isa>
float dot_q5_0_q8_0_simd(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q5_0*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    const std::int64_t nb = n / QK8_0;
    const __m256i sixteen = _mm256_set1_epi8(16);
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    std::int64_t b = 0;
    for (; b + 1 < nb; b += 2) {
        const __m256i s0 = dot_s8s8<isa>(_mm256_sub_epi8(unpack_q5(w[b]), sixteen), load256(a[b].qs));
        const __m256i s1 = dot_s8s8<isa>(_mm256_sub_epi8(unpack_q5(w[b + 1]), sixteen), load256(a[b + 1].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
        acc1 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s1), _mm256_set1_ps(h2f(w[b + 1].d) * h2f(a[b + 1].d)), acc1);
    }
    if (b < nb) {
        const __m256i s0 = dot_s8s8<isa>(_mm256_sub_epi8(unpack_q5(w[b]), sixteen), load256(a[b].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
    }
    return hsum_ps(_mm256_add_ps(acc0, acc1));
}

template <class isa>
float dot_q5_1_q8_1_simd(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q5_1*>(vw);
    auto* a = static_cast<const block_q8_1*>(va);
    const std::int64_t nb = n / QK8_1;
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    float mins = 0;   // sum of m * s, as for q4_1
    std::int64_t b = 0;
    for (; b + 1 < nb; b += 2) {
        const __m256i s0 = isa::dot_u8s8(unpack_q5(w[b]), load256(a[b].qs));
        const __m256i s1 = isa::dot_u8s8(unpack_q5(w[b + 1]), load256(a[b + 1].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
        acc1 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s1), _mm256_set1_ps(h2f(w[b + 1].d) * h2f(a[b + 1].d)), acc1);
        mins += h2f(w[b].m) * h2f(a[b].s) + h2f(w[b + 1].m) * h2f(a[b + 1].s);
    }
    if (b < nb) {
        const __m256i s0 = isa::dot_u8s8(unpack_q5(w[b]), load256(a[b].qs));
        acc0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s0), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc0);
        mins += h2f(w[b].m) * h2f(a[b].s);
    }
    return hsum_ps(_mm256_add_ps(acc0, acc1)) + mins;
}

// ---- non-linear 4-bit (iq4_nl, iq4_xs) ------------------------------------------------

// 16 bytes of packed nibbles -> 32 signed levels of k_iq4_values, in element order.
inline __m256i iq4_levels(const std::uint8_t* qs) {
    const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k_iq4_values));
    return _mm256_shuffle_epi8(_mm256_set_m128i(t, t), unpack_nibbles(qs));
}

template <class isa>
float dot_iq4_nl_q8_0_simd(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq4_nl*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    const std::int64_t nb = n / QK4_NL;
    __m256 acc = _mm256_setzero_ps();
    for (std::int64_t b = 0; b < nb; ++b) {
        const __m256i s = dot_s8s8<isa>(iq4_levels(w[b].qs), load256(a[b].qs));
        acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), _mm256_set1_ps(h2f(w[b].d) * h2f(a[b].d)), acc);
    }
    return hsum_ps(acc);
}

// Per super-block: the eight sub-block sums weighted by their integer scales
// in int32 (|sum| <= 8 * 32 * 32 * 127 * 127, far inside int32), then one
// float scale d * a.d.
template <class isa>
float dot_iq4_xs_q8_K_simd(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq4_xs*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const std::int64_t nb = n / QK_K;
    __m256 acc = _mm256_setzero_ps();
    for (std::int64_t b = 0; b < nb; ++b) {
        __m256i sum = _mm256_setzero_si256();
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const __m256i s = dot_s8s8<isa>(iq4_levels(w[b].qs + 16 * ib), load256(a[b].qs + 32 * ib));
            sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(s, _mm256_set1_epi32(iq4_xs_scale(w[b], ib))));
        }
        acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sum), _mm256_set1_ps(h2f(w[b].d) * a[b].d), acc);
    }
    return hsum_ps(acc);
}

// ---- tiled products: nr weight rows x nt activation rows ------------------------------

// Per weight type, the 32 quant bytes of a block for the integer step, and the
// step itself. The "bias" form (VNNI) makes signed weights unsigned by adding
// an offset and subtracts offset * sum(a), which the caller precomputes per
// activation block; the AVX2 form uses the sign trick where it must.
struct q4_1_weights {
    using block = block_q4_1;
    static constexpr int offset = 0;   // nibbles are already unsigned
    static constexpr bool has_min = true;
    static __m256i quants(const block& b) { return unpack_nibbles(b.qs); }
};
struct q4_0_weights {
    using block = block_q4_0;
    static constexpr int offset = 8;   // stored nibble = q + 8
    static constexpr bool has_min = false;
    static __m256i quants(const block& b) { return unpack_nibbles(b.qs); }
};
struct q5_1_weights {
    using block = block_q5_1;
    static constexpr int offset = 0;   // 5-bit quants, unsigned
    static constexpr bool has_min = true;
    static __m256i quants(const block& b) { return unpack_q5(b); }
};
struct q5_0_weights {
    using block = block_q5_0;
    static constexpr int offset = 16;  // stored quant = q + 16
    static constexpr bool has_min = false;
    static __m256i quants(const block& b) { return unpack_q5(b); }
};
struct q8_0_weights {
    using block = block_q8_0;
    static constexpr int offset = 128; // q ^ 0x80 = q + 128 as unsigned
    static constexpr bool has_min = false;
    static __m256i quants(const block& b) { return _mm256_xor_si256(load256(b.qs), _mm256_set1_epi8(-128)); }
};

// -offset * sum(a) per lane for one activation block: the start value of
// every row's integer sum where the weight quants are stored with an offset
// (zero where there is none, or where the sign trick below replaces it).
template <class isa, class wt>
__m256i activation_bias(__m256i aq) {
    if constexpr (wt::offset != 0 && !(wt::offset == 128 && !isa::exact_u8))
        return _mm256_sub_epi32(_mm256_setzero_si256(),
                                isa::dot_u8s8(_mm256_set1_epi8(static_cast<char>(wt::offset)), aq));
    return _mm256_setzero_si256();
}

// One weight block's quants against one activation block: eight int32 lane
// sums of q * a (the offset taken out through neg_bias from activation_bias).
template <class isa, class wt>
__m256i block_int_dot(__m256i wq, __m256i aq, __m256i neg_bias) {
    if constexpr (wt::offset == 128 && !isa::exact_u8) {
        // maddubs would saturate on q + 128: sign trick instead.
        return dot_s8s8<isa>(_mm256_xor_si256(wq, _mm256_set1_epi8(-128)), aq);
    } else if constexpr (wt::offset != 0) {
        return isa::dot_u8s8_acc(neg_bias, wq, aq);
    } else {
        return isa::dot_u8s8(wq, aq);
    }
}

// y[t][r] = dot of weight rows r < NR with activation rows t < NT over every
// block, the weight scales pre-converted in g.wd / g.wm (prefill, where a row
// tile meets many tokens; decode converts them as they stream:
// tile_block_loop_streamed below).
template <class isa, class wt, int NR, int NT>
void tile_block_loop(const tile_args& g) {
    using wblock = typename wt::block;
    __m256 acc[NT][NR];
    for (int t = 0; t < NT; ++t)
        for (int r = 0; r < NR; ++r) acc[t][r] = _mm256_setzero_ps();
    const wblock* wrow[NR];
    for (int r = 0; r < NR; ++r) wrow[r] = reinterpret_cast<const wblock*>(g.w + r * g.w_stride);
    for (std::int64_t b = 0; b < g.nb; ++b) {
        __m256i wq[NR];
        __m256 wd[NR];
        for (int r = 0; r < NR; ++r) {
            wq[r] = wt::quants(wrow[r][b]);
            wd[r] = _mm256_broadcast_ss(g.wd + r * g.nb + b);
        }
        for (int t = 0; t < NT; ++t) {
            const std::uint8_t* ab = g.a + t * g.a_stride + b * g.a_block + g.a_qs;
            const __m256i aq = load256(ab);
            const __m256 ad = _mm256_broadcast_ss(g.ad + t * g.nb + b);
            const __m256i neg_bias = activation_bias<isa, wt>(aq);
            for (int r = 0; r < NR; ++r) {
                const __m256i s = block_int_dot<isa, wt>(wq[r], aq, neg_bias);
                acc[t][r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), _mm256_mul_ps(wd[r], ad), acc[t][r]);
            }
        }
    }
    for (int t = 0; t < NT; ++t) {
        float* yt = g.y + t * g.ldy;
        if constexpr (NR == 4) {
            // Four horizontal sums at once.
            const __m256 s01 = _mm256_hadd_ps(acc[t][0], acc[t][1]);
            const __m256 s23 = _mm256_hadd_ps(acc[t][2], acc[t][3]);
            const __m256 s = _mm256_hadd_ps(s01, s23);
            const __m128 r4 = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
            _mm_storeu_ps(yt, r4);
        } else {
            for (int r = 0; r < NR; ++r) yt[r] = hsum_ps(acc[t][r]);
        }
    }
    if constexpr (wt::has_min) {
        // The sum over blocks of m * s for each pair, a short f32 dot.
        for (int t = 0; t < NT; ++t)
            for (int r = 0; r < NR; ++r) {
                const float* m = g.wm + r * g.nb;
                const float* s = g.as + t * g.nb;
                __m256 v = _mm256_setzero_ps();
                std::int64_t b = 0;
                for (; b + 8 <= g.nb; b += 8) v = _mm256_fmadd_ps(_mm256_loadu_ps(m + b), _mm256_loadu_ps(s + b), v);
                float sum = hsum_ps(v);
                for (; b < g.nb; ++b) sum += m[b] * s[b];
                g.y[t * g.ldy + r] += sum;
            }
    }
}

// The decode form of tile_block_loop (weight scales converted as the blocks
// stream, each weight byte touched once): per block, the NR rows' first four
// bytes (d, then m for q4_1 / q5_1; d and two quant bytes otherwise) are
// converted from f16 in one instruction; each row's eight int32 lane sums are
// folded to four (exact) before the float conversion, and four-lane sums
// accumulate per pair. Fewer instructions per block than converting each
// scale alone and scaling eight lanes (decode is bound by them on AVX2).
// Each (token, row) pair's arithmetic is the same whatever NT, so decode rows
// batched together give the results they give alone.
template <class isa, class wt, int NR, int NT>
void tile_block_loop_streamed(const tile_args& g) {
    using wblock = typename wt::block;
    constexpr bool has_min = wt::has_min;
    __m128 acc[NT][NR];
    __m256 msum[NT];   // lane 2r + 1: the sum over blocks of m_r * s (q4_1, q5_1)
    for (int t = 0; t < NT; ++t) {
        msum[t] = _mm256_setzero_ps();
        for (int r = 0; r < NR; ++r) acc[t][r] = _mm_setzero_ps();
    }
    const wblock* wrow[NR];
    for (int r = 0; r < NR; ++r) wrow[r] = reinterpret_cast<const wblock*>(g.w + r * g.w_stride);
    for (std::int64_t b = 0; b < g.nb; ++b) {
        std::int32_t head[4] = {0, 0, 0, 0};   // each row's first four bytes of block b
        __m256i wq[NR];
        for (int r = 0; r < NR; ++r) {
            // decode streams the weights once: fetch the block two row tiles ahead
            _mm_prefetch(reinterpret_cast<const char*>(wrow[r] + b) + 2 * NR * g.w_stride, _MM_HINT_T0);
            std::memcpy(&head[r], &wrow[r][b], 4);
            wq[r] = wt::quants(wrow[r][b]);
        }
        // lanes 2r: d_r, 2r + 1: m_r (types with a min; otherwise unused)
        const __m256 dm = _mm256_cvtph_ps(_mm_set_epi32(head[3], head[2], head[1], head[0]));
        for (int t = 0; t < NT; ++t) {
            const __m256i aq = load256(g.a + t * g.a_stride + b * g.a_block + g.a_qs);
            const __m256 sc = _mm256_mul_ps(dm, _mm256_broadcast_ss(g.ad + t * g.nb + b));   // lanes 2r: d_r * a.d
            if constexpr (has_min) msum[t] = _mm256_fmadd_ps(dm, _mm256_broadcast_ss(g.as + t * g.nb + b), msum[t]);
            const __m128 sc_lo = _mm256_castps256_ps128(sc), sc_hi = _mm256_extractf128_ps(sc, 1);
            const __m256i neg_bias = activation_bias<isa, wt>(aq);
            for (int r = 0; r < NR; ++r) {
                const __m256i s = block_int_dot<isa, wt>(wq[r], aq, neg_bias);
                const __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
                const __m128 half = r < 2 ? sc_lo : sc_hi;
                const __m128 scale = r % 2 == 0 ? _mm_permute_ps(half, 0x00) : _mm_permute_ps(half, 0xAA);
                acc[t][r] = _mm_fmadd_ps(_mm_cvtepi32_ps(s4), scale, acc[t][r]);
            }
        }
    }
    for (int t = 0; t < NT; ++t) {
        float* yt = g.y + t * g.ldy;
        alignas(32) float mins[8];
        if constexpr (has_min) _mm256_store_ps(mins, msum[t]);
        if constexpr (NR == 4) {
            const __m128 s = _mm_hadd_ps(_mm_hadd_ps(acc[t][0], acc[t][1]), _mm_hadd_ps(acc[t][2], acc[t][3]));
            _mm_storeu_ps(yt, s);
        } else {
            for (int r = 0; r < NR; ++r) {
                const __m128 h = _mm_hadd_ps(acc[t][r], acc[t][r]);
                yt[r] = _mm_cvtss_f32(_mm_hadd_ps(h, h));
            }
        }
        if constexpr (has_min)
            for (int r = 0; r < NR; ++r) yt[r] += mins[2 * r + 1];
    }
}

// Dispatch on the tile's actual size to a fixed-size loop.
template <class isa, class wt, int NR, bool pre>
void tile_rows(const tile_args& g) {
    if constexpr (pre) {
        switch (g.nt) {
        case 4: tile_block_loop<isa, wt, NR, 4>(g); break;
        case 3: tile_block_loop<isa, wt, NR, 3>(g); break;
        case 2: tile_block_loop<isa, wt, NR, 2>(g); break;
        default: tile_block_loop<isa, wt, NR, 1>(g); break;
        }
    } else {
        switch (g.nt) {
        case 4: tile_block_loop_streamed<isa, wt, NR, 4>(g); break;
        case 3: tile_block_loop_streamed<isa, wt, NR, 3>(g); break;
        case 2: tile_block_loop_streamed<isa, wt, NR, 2>(g); break;
        default: tile_block_loop_streamed<isa, wt, NR, 1>(g); break;
        }
    }
}

template <class isa, class wt, bool pre>
void tile_pre(const tile_args& g) {
    switch (g.nr) {
    case 4: tile_rows<isa, wt, 4, pre>(g); break;
    case 3: tile_rows<isa, wt, 3, pre>(g); break;
    case 2: tile_rows<isa, wt, 2, pre>(g); break;
    default: tile_rows<isa, wt, 1, pre>(g); break;
    }
}

template <class isa, class wt>
void tile_simd(const tile_args& g) {
    if (g.wd) tile_pre<isa, wt, true>(g);
    else tile_pre<isa, wt, false>(g);
}

}  // namespace
}  // namespace kvlens
