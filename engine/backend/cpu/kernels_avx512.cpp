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
#include <cstring>
#include <type_traits>

#include "engine/backend/cpu/kernel_tables.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/quant/quant_blocks.h"

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
        // Clamped to what the int8 stores keep (they saturate): a NaN or an
        // overflowing activation converts to INT_MIN, and summing those in
        // int32 lanes would overflow (undefined behaviour); finite inputs are
        // within [-127, 127] already, so their sum is unchanged.
        const __m512i lo = _mm512_set1_epi32(-128), hi = _mm512_set1_epi32(127);
        const __m512i i0 = _mm512_min_epi32(_mm512_max_epi32(round_mul_512(v0, id), lo), hi);
        const __m512i i1 = _mm512_min_epi32(_mm512_max_epi32(round_mul_512(v1, id), lo), hi);
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

// ---- 512-bit tiles: two blocks per register --------------------------------------------
// Lanes 0..7 of a dpbusd result sum block b, lanes 8..15 block b + 1, so each
// pair costs dpbusd, convert, multiply and fma per two blocks; for prefill
// (scales pre-converted, tile512_loop) and decode (tile512_streamed_loop).

// Quants of blocks b and b + 1 (both = false: b only, the upper half zero),
// bytes in element order per block, made unsigned as in quant_simd.h.
template <class wt>
inline __m512i quants2(const typename wt::block* blk, bool both) {
    if constexpr (std::is_same_v<typename wt::block, block_q5_0> || std::is_same_v<typename wt::block, block_q5_1>) {
        const __m256i lo = wt::quants(blk[0]);
        if (!both) return _mm512_zextsi256_si512(lo);
        return _mm512_inserti64x4(_mm512_castsi256_si512(lo), wt::quants(blk[1]), 1);
    } else if constexpr (wt::offset == 128) {
        const __m256i lo = _mm256_xor_si256(load256(blk[0].qs), _mm256_set1_epi8(-128));
        if (!both) return _mm512_zextsi256_si512(lo);
        const __m256i hi = _mm256_xor_si256(load256(blk[1].qs), _mm256_set1_epi8(-128));
        return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
    } else {
        if (!both) return _mm512_zextsi256_si512(unpack_nibbles(blk[0].qs));
        const __m256i q = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blk[0].qs))),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(blk[1].qs)), 1);
        // [qs_b, qs_b1, qs_b >> 4, qs_b1 >> 4] -> [qs_b, qs_b >> 4, qs_b1, qs_b1 >> 4], low nibbles
        const __m512i z = _mm512_inserti64x4(_mm512_castsi256_si512(q), _mm256_srli_epi16(q, 4), 1);
        return _mm512_and_si512(_mm512_shuffle_i64x2(z, z, _MM_SHUFFLE(3, 1, 2, 0)), _mm512_set1_epi8(0x0F));
    }
}

// [s[0] x 8, s[1] x 8] (both = false: [s[0] x 8, 0 x 8]).
inline __m512 scales2(const float* s, bool both) {
    const __m512i idx = _mm512_set_epi32(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    // Two floats by an unaligned 64-bit load (s need not be 8-byte aligned; _mm_load_sd's double would).
    const __m128 v = both ? _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(s))) : _mm_load_ss(s);
    return _mm512_permutexvar_ps(idx, _mm512_castps128_ps512(v));
}

// Floats s[0], s[1] in lanes 0, 1 (both = false: s[0], 0), by an unaligned 64-bit load.
inline __m512 scales2_128(const float* s, bool both) {
    const __m128 v = both ? _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(s))) : _mm_load_ss(s);
    return _mm512_castps128_ps512(v);
}

// Token t's activation quants of blocks b and b + 1 (both = false: b only, the upper half zero).
[[gnu::always_inline]] inline __m512i activation_quants2(const tile_args& g, int t, std::int64_t b, bool both) {
    const std::uint8_t* ab = g.a + t * g.a_stride + b * g.a_block + g.a_qs;
    const __m256i a0 = load256(ab);
    return both ? _mm512_inserti64x4(_mm512_castsi256_si512(a0), load256(ab + g.a_block), 1) : _mm512_zextsi256_si512(a0);
}

// The dpbusd start that takes a weight type's offset back out: -offset * (sum
// of each lane's four activation bytes); zero for types without an offset.
template <class wt>
[[gnu::always_inline]] inline __m512i offset_start(__m512i aq) {
    if constexpr (wt::offset == 0) return _mm512_setzero_si512();
    else
        return _mm512_sub_epi32(_mm512_setzero_si512(),
                                _mm512_dpbusd_epi32(_mm512_setzero_si512(), _mm512_set1_epi8(static_cast<char>(wt::offset)), aq));
}

template <class wt, int NR, int NT>
void tile512_loop(const tile_args& g) {
    using wblock = typename wt::block;
    __m512 acc[NT][NR];
    for (int t = 0; t < NT; ++t)
        for (int r = 0; r < NR; ++r) acc[t][r] = _mm512_setzero_ps();
    const wblock* wrow[NR];
    for (int r = 0; r < NR; ++r) wrow[r] = reinterpret_cast<const wblock*>(g.w + r * g.w_stride);
    for (std::int64_t b = 0; b < g.nb; b += 2) {
        const bool both = b + 1 < g.nb;
        __m512i wq[NR];
        __m512 wd[NR];
        for (int r = 0; r < NR; ++r) {
            wq[r] = quants2<wt>(wrow[r] + b, both);
            wd[r] = scales2(g.wd + r * g.nb + b, both);
        }
        for (int t = 0; t < NT; ++t) {
            const __m512i aq = activation_quants2(g, t, b, both);
            const __m512 ad = scales2(g.ad + t * g.nb + b, both);
            const __m512i start = offset_start<wt>(aq);
            for (int r = 0; r < NR; ++r) {
                const __m512i sum = _mm512_dpbusd_epi32(start, wq[r], aq);
                acc[t][r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum), _mm512_mul_ps(wd[r], ad), acc[t][r]);
            }
        }
    }
    for (int t = 0; t < NT; ++t)
        for (int r = 0; r < NR; ++r) g.y[t * g.ldy + r] = _mm512_reduce_add_ps(acc[t][r]);
    if constexpr (wt::has_min) {
        for (int t = 0; t < NT; ++t)
            for (int r = 0; r < NR; ++r) {
                const float* m = g.wm + r * g.nb;
                const float* s = g.as + t * g.nb;
                __m512 v = _mm512_setzero_ps();
                std::int64_t b = 0;
                for (; b + 16 <= g.nb; b += 16) v = _mm512_fmadd_ps(_mm512_loadu_ps(m + b), _mm512_loadu_ps(s + b), v);
                if (b < g.nb) {
                    const __mmask16 k = static_cast<__mmask16>((1u << (g.nb - b)) - 1);
                    v = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, m + b), _mm512_maskz_loadu_ps(k, s + b), v);
                }
                g.y[t * g.ldy + r] += _mm512_reduce_add_ps(v);
            }
    }
}

// The decode form (scales read from the blocks as they stream, each weight
// byte touched once), two blocks per register like tile512_loop: per pair of
// blocks the NR rows' first four bytes of both (d, then m for q4_1 / q5_1)
// are converted from f16 in one instruction, times the two activation
// scales; each row's dpbusd sums of the pair are converted and added, times
// its two scales picked by one permute, to 16 lanes. Against the 256-bit
// streamed loop (quant_simd.h) this halves the instructions per block, which
// bound decode there. Each (token, row) pair's arithmetic is the same
// whatever NT, so decode rows batched together give what they give alone.
template <class wt, int NR, int NT>
void tile512_streamed_loop(const tile_args& g) {
    // Row tiles the prefetch runs ahead. SmolLM2's rows are short (360 and
    // 960 bytes): on Zen 5, tg128 @ d0 one thread 182-197 tok/s at 4-10 tiles
    // against 164-167 at 2 (the 256-bit loop's distance), alternated.
    constexpr int k_prefetch_tiles = 6;
    using wblock = typename wt::block;
    constexpr bool has_min = wt::has_min;
    __m512 acc[NT][NR];
    __m512 msum[NT];   // lane 4r + 2j + 1: the sum over pairs of m_r * s of block b + j (q4_1, q5_1)
    for (int t = 0; t < NT; ++t) {
        msum[t] = _mm512_setzero_ps();
        for (int r = 0; r < NR; ++r) acc[t][r] = _mm512_setzero_ps();
    }
    const wblock* wrow[NR];
    for (int r = 0; r < NR; ++r) wrow[r] = reinterpret_cast<const wblock*>(g.w + r * g.w_stride);
    // Lanes 4r + 2j of the converted heads hold d_r of block b + j: each row's two scales to its 8 + 8 lanes.
    __m512i pick[NR];
    for (int r = 0; r < NR; ++r)
        pick[r] = _mm512_set_epi32(4 * r + 2, 4 * r + 2, 4 * r + 2, 4 * r + 2, 4 * r + 2, 4 * r + 2, 4 * r + 2, 4 * r + 2,
                                   4 * r, 4 * r, 4 * r, 4 * r, 4 * r, 4 * r, 4 * r, 4 * r);
    // Lanes 4r + 2j and 4r + 2j + 1 take float j of a pair (the activation's scales or sums of blocks b, b + 1).
    const __m512i spread = _mm512_set_epi32(1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0);
    for (std::int64_t b = 0; b < g.nb; b += 2) {
        const bool both = b + 1 < g.nb;
        std::int32_t head[8] = {0, 0, 0, 0, 0, 0, 0, 0};   // int32 2r + j: row r's first four bytes of block b + j
        __m512i wq[NR];
        for (int r = 0; r < NR; ++r) {
            // decode streams the weights once: fetch the pair k_prefetch_tiles row tiles ahead
            _mm_prefetch(reinterpret_cast<const char*>(wrow[r] + b) + k_prefetch_tiles * NR * g.w_stride, _MM_HINT_T0);
            std::memcpy(&head[2 * r], &wrow[r][b], 4);
            if (both) std::memcpy(&head[2 * r + 1], &wrow[r][b + 1], 4);
            wq[r] = quants2<wt>(wrow[r] + b, both);
        }
        // lanes 4r + 2j: d_r of block b + j, 4r + 2j + 1: m_r (types with a min; otherwise unused)
        // (built from registers: a 32-byte load of the eight 4-byte stores would miss store forwarding)
        const __m512 dm = _mm512_cvtph_ps(
            _mm256_set_epi32(head[7], head[6], head[5], head[4], head[3], head[2], head[1], head[0]));
        for (int t = 0; t < NT; ++t) {
            const __m512i aq = activation_quants2(g, t, b, both);
            const __m512 sc = _mm512_mul_ps(dm, _mm512_permutexvar_ps(spread, scales2_128(g.ad + t * g.nb + b, both)));
            if constexpr (has_min)
                msum[t] = _mm512_fmadd_ps(dm, _mm512_permutexvar_ps(spread, scales2_128(g.as + t * g.nb + b, both)), msum[t]);
            const __m512i start = offset_start<wt>(aq);
            for (int r = 0; r < NR; ++r) {
                const __m512i sum = _mm512_dpbusd_epi32(start, wq[r], aq);
                acc[t][r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum), _mm512_permutexvar_ps(pick[r], sc), acc[t][r]);
            }
        }
    }
    for (int t = 0; t < NT; ++t) {
        alignas(64) float mins[16];
        if constexpr (has_min) _mm512_store_ps(mins, msum[t]);
        for (int r = 0; r < NR; ++r) {
            float y = _mm512_reduce_add_ps(acc[t][r]);
            if constexpr (has_min) y += mins[4 * r + 1] + mins[4 * r + 3];
            g.y[t * g.ldy + r] = y;
        }
    }
}

template <class wt, int NR>
void tile512_streamed_rows(const tile_args& g) {
    switch (g.nt) {
    case 4: tile512_streamed_loop<wt, NR, 4>(g); break;
    case 3: tile512_streamed_loop<wt, NR, 3>(g); break;
    case 2: tile512_streamed_loop<wt, NR, 2>(g); break;
    default: tile512_streamed_loop<wt, NR, 1>(g); break;
    }
}

template <class wt, int NR>
void tile512_rows(const tile_args& g) {
    switch (g.nt) {
    case 4: tile512_loop<wt, NR, 4>(g); break;
    case 3: tile512_loop<wt, NR, 3>(g); break;
    case 2: tile512_loop<wt, NR, 2>(g); break;
    default: tile512_loop<wt, NR, 1>(g); break;
    }
}

template <class wt>
void tile512(const tile_args& g) {
    if (!g.wd) {   // decode: scales read from the blocks
        switch (g.nr) {
        case 4: tile512_streamed_rows<wt, 4>(g); break;
        case 3: tile512_streamed_rows<wt, 3>(g); break;
        case 2: tile512_streamed_rows<wt, 2>(g); break;
        default: tile512_streamed_rows<wt, 1>(g); break;
        }
        return;
    }
    switch (g.nr) {
    case 4: tile512_rows<wt, 4>(g); break;
    case 3: tile512_rows<wt, 3>(g); break;
    case 2: tile512_rows<wt, 2>(g); break;
    default: tile512_rows<wt, 1>(g); break;
    }
}

// f16 / bf16 weights: NR rows against NT tokens' f32 activation rows (the
// activations rounded to the weights' type, as vec_dot's are). Per 16
// elements, each row's weights are widened to f32 once for all the tokens
// and each token's activations are read once for all the rows: NR x NT
// multiply-adds per NR + NT loads, where vec_dot reads both per pair. Each
// pair sums in one chain of 16 lanes, the same whatever the tile's size.
template <bool bf16, int NR, int NT>
void tile_float_loop(const tile_args& g) {
    const __mmask16 all = 0xFFFF;
    const std::int64_t n = g.nb * 32;
    __m512 acc[NT][NR];
    for (int t = 0; t < NT; ++t)
        for (int r = 0; r < NR; ++r) acc[t][r] = _mm512_setzero_ps();
    for (std::int64_t i = 0; i < n; i += 16) {
        __m512 w[NR];
        for (int r = 0; r < NR; ++r) {
            const auto* row = reinterpret_cast<const std::uint16_t*>(g.w + r * g.w_stride) + i;
            w[r] = bf16 ? load_bf16x16(row, all) : load_f16x16(row, all);
        }
        for (int t = 0; t < NT; ++t) {
            const __m512 a = _mm512_loadu_ps(reinterpret_cast<const float*>(g.a + t * g.a_stride) + i);
            for (int r = 0; r < NR; ++r) acc[t][r] = _mm512_fmadd_ps(w[r], a, acc[t][r]);
        }
    }
    for (int t = 0; t < NT; ++t)
        for (int r = 0; r < NR; ++r) g.y[t * g.ldy + r] = _mm512_reduce_add_ps(acc[t][r]);
}

// At most 2 tokens per pass: GCC keeps the 8 accumulators of 4 rows x 2
// tokens in registers, but stored and reloaded 16 (4 x 4) on every step
// (pp512 ran at 29 % of the FMA peak); the second pass re-reads the 4 rows
// from L1. (2 rows x 4 tokens per pass, which widens each weight once per 4
// multiply-adds, ran pp512 at 0.7x of this.)
template <bool bf16, int NR>
void tile_float_rows(const tile_args& g) {
    tile_args half = g;
    for (int t0 = 0; t0 < g.nt; t0 += 2) {
        half.a = g.a + t0 * g.a_stride;
        half.y = g.y + t0 * g.ldy;
        if (g.nt - t0 >= 2) tile_float_loop<bf16, NR, 2>(half);
        else tile_float_loop<bf16, NR, 1>(half);
    }
}

// Decode's kernel class: each pair as dot_f16_512 / dot_bf16_512 sum it
// (two chains of 16 lanes), a row at a time, so the weights stream as one
// run of addresses (4 rows at once, each its own 2-9 KiB stream, decoded
// at 0.55-0.85x of this).
template <bool bf16>
void tile_float_rows_alone(const tile_args& g) {
    const __mmask16 all = 0xFFFF;
    const std::int64_t n = g.nb * 32;
    for (int r = 0; r < g.nr; ++r) {
        const auto* w = reinterpret_cast<const std::uint16_t*>(g.w + r * g.w_stride);
        for (int t = 0; t < g.nt; ++t) {
            const auto* a = reinterpret_cast<const float*>(g.a + t * g.a_stride);
            __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps();
            for (std::int64_t i = 0; i < n; i += 32) {
                const __m512 w0 = bf16 ? load_bf16x16(w + i, all) : load_f16x16(w + i, all);
                const __m512 w1 = bf16 ? load_bf16x16(w + i + 16, all) : load_f16x16(w + i + 16, all);
                acc0 = _mm512_fmadd_ps(w0, _mm512_loadu_ps(a + i), acc0);
                acc1 = _mm512_fmadd_ps(w1, _mm512_loadu_ps(a + i + 16), acc1);
            }
            g.y[t * g.ldy + r] = _mm512_reduce_add_ps(_mm512_add_ps(acc0, acc1));
        }
    }
}

template <bool bf16>
void tile_float(const tile_args& g) {
    if (g.rows_alone) {
        tile_float_rows_alone<bf16>(g);
        return;
    }
    switch (g.nr) {
    case 4: tile_float_rows<bf16, 4>(g); break;
    case 3: tile_float_rows<bf16, 3>(g); break;
    case 2: tile_float_rows<bf16, 2>(g); break;
    default: tile_float_rows<bf16, 1>(g); break;
    }
}

tile_fn tile_for(ggml_type t) {
    switch (t) {
    case ggml_type::f16: return tile_float<false>;
    case ggml_type::bf16: return tile_float<true>;
    case ggml_type::q4_0: return tile512<q4_0_weights>;
    case ggml_type::q4_1: return tile512<q4_1_weights>;
    case ggml_type::q5_0: return tile512<q5_0_weights>;
    case ggml_type::q5_1: return tile512<q5_1_weights>;
    case ggml_type::q8_0: return tile512<q8_0_weights>;
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
           __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("fma")
#if !(defined(__clang__) && __clang_major__ < 15)  // clang 14 (the fuzz build) knows no "f16c"; AVX-512 implies it
           && __builtin_cpu_supports("f16c")
#endif
        ;
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
        {ggml_type::q5_0, dot_q5_0_q8_0_simd<isa_vnni>},
        {ggml_type::q5_1, dot_q5_1_q8_1_simd<isa_vnni>},
        {ggml_type::q8_0, dot_q8_0_q8_0_simd<isa_vnni>},
        {ggml_type::iq4_nl, dot_iq4_nl_q8_0_simd<isa_vnni>},
        {ggml_type::iq4_xs, dot_iq4_xs_q8_K_simd<isa_vnni>},
    };
    add_low_bit_avx512_kernels(o);
    return o;
}

}  // namespace kvlens
