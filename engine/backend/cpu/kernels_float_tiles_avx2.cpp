// SPDX-License-Identifier: Apache-2.0
// f16 / bf16 weights' tiles on AVX2 + FMA + F16C (matmul_simd.h): NR weight
// rows against the tokens' f32 activation rows (rounded to the weights' type
// first, as vec_dot's are). Prefill's class widens each row's 8 weights to
// f32 once for the tile's tokens and reads each token's 8 activations once for
// its rows, 2 tokens per pass (4 rows x 2 tokens: 8 accumulators, 4 widened
// weights and an activation in 13 of the 16 registers); each pair sums in
// one chain of 8 lanes, whatever the tile's size, so a token's numbers do not
// depend on its neighbours. Decode's class (rows_alone) sums each pair as
// dot_f16_avx2 / dot_bf16_avx2 do, a row at a time, and equals them bit for bit.
#include <immintrin.h>

#include <cstdint>

#include "engine/backend/cpu/matmul_simd.h"
#include "engine/backend/cpu/simd_target.h"

KVLENS_SIMD_BEGIN_AVX2

namespace kvlens {
namespace {

template <bool bf16>
inline __m256 widen8(const std::uint16_t* p) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    if constexpr (bf16) return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
    else return _mm256_cvtph_ps(h);
}

// The kernel table's horizontal sum (quant_simd.h's hsum_ps), in its order.
inline float sum8(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

template <bool bf16, int NR, int NT>
void tile_loop(const tile_args& g) {
    const std::int64_t n = g.nb * 32;
    __m256 acc[NT][NR];
    for (int t = 0; t < NT; ++t)
        for (int r = 0; r < NR; ++r) acc[t][r] = _mm256_setzero_ps();
    for (std::int64_t i = 0; i < n; i += 8) {
        __m256 w[NR];
        for (int r = 0; r < NR; ++r) w[r] = widen8<bf16>(reinterpret_cast<const std::uint16_t*>(g.w + r * g.w_stride) + i);
        for (int t = 0; t < NT; ++t) {
            const __m256 a = _mm256_loadu_ps(reinterpret_cast<const float*>(g.a + t * g.a_stride) + i);
            for (int r = 0; r < NR; ++r) acc[t][r] = _mm256_fmadd_ps(w[r], a, acc[t][r]);
        }
    }
    for (int t = 0; t < NT; ++t)
        for (int r = 0; r < NR; ++r) g.y[t * g.ldy + r] = sum8(acc[t][r]);
}

template <bool bf16, int NR>
void tile_rows(const tile_args& g) {
    tile_args pass = g;
    for (int t0 = 0; t0 < g.nt; t0 += 2) {
        pass.a = g.a + t0 * g.a_stride;
        pass.y = g.y + t0 * g.ldy;
        if (g.nt - t0 >= 2) tile_loop<bf16, NR, 2>(pass);
        else tile_loop<bf16, NR, 1>(pass);
    }
}

// Two chains of 8 lanes over 16 elements a step, as the table's vec_dot
// (n is a multiple of 32 here, so it has no tail).
template <bool bf16>
void tile_rows_alone(const tile_args& g) {
    const std::int64_t n = g.nb * 32;
    for (int r = 0; r < g.nr; ++r) {
        const auto* w = reinterpret_cast<const std::uint16_t*>(g.w + r * g.w_stride);
        for (int t = 0; t < g.nt; ++t) {
            const auto* a = reinterpret_cast<const float*>(g.a + t * g.a_stride);
            __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
            for (std::int64_t i = 0; i < n; i += 16) {
                acc0 = _mm256_fmadd_ps(widen8<bf16>(w + i), _mm256_loadu_ps(a + i), acc0);
                acc1 = _mm256_fmadd_ps(widen8<bf16>(w + i + 8), _mm256_loadu_ps(a + i + 8), acc1);
            }
            g.y[t * g.ldy + r] = sum8(_mm256_add_ps(acc0, acc1));
        }
    }
}

template <bool bf16>
void float_tile(const tile_args& g) {
    if (g.rows_alone) {
        tile_rows_alone<bf16>(g);
        return;
    }
    switch (g.nr) {
    case 4: tile_rows<bf16, 4>(g); break;
    case 3: tile_rows<bf16, 3>(g); break;
    case 2: tile_rows<bf16, 2>(g); break;
    default: tile_rows<bf16, 1>(g); break;
    }
}

}  // namespace
}  // namespace kvlens

KVLENS_SIMD_END_AVX2

namespace kvlens {

tile_fn avx2_float_tile(ggml_type t) {
    switch (t) {
    case ggml_type::f16: return float_tile<false>;
    case ggml_type::bf16: return float_tile<true>;
    default: return nullptr;
    }
}

}  // namespace kvlens
