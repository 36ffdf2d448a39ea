// SPDX-License-Identifier: Apache-2.0
// bf16 weights' prefill tiles with AVX512-BF16's vdpbf16ps (Zen 4 and
// later, Intel since Cooper Lake): 32 products of bf16 pairs added into 16
// f32 lanes per instruction, against the activations rounded to bf16 (the
// kernel table's vec_dot rounds them so too), where the f32 tiles widen both
// and take two multiply-adds. As llama.cpp's bf16 dot, the instruction
// treats denormal inputs as zero. Compiled for AVX-512 + BF16 by a target
// pragma only; matmul uses it only where avx512_bf16_pair_tile() says the
// CPU has it.
#include <immintrin.h>

#include <cstdint>
#include <cstdlib>

#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul_simd.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16,fma,f16c")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace kvlens {
namespace {

// NR rows x NT tokens (NT <= 2: 8 accumulators stay in registers), each
// pair one chain of 16 lanes, 32 elements per step.
template <int NR, int NT>
void bf16_pair_loop(const tile_args& g) {
    const std::int64_t n = g.nb * 32;
    __m512 acc[NT][NR];
    for (int t = 0; t < NT; ++t)
        for (int r = 0; r < NR; ++r) acc[t][r] = _mm512_setzero_ps();
    for (std::int64_t i = 0; i < n; i += 32) {
        __m512bh w[NR];
        for (int r = 0; r < NR; ++r)
            w[r] = reinterpret_cast<__m512bh>(_mm512_loadu_si512(reinterpret_cast<const std::uint16_t*>(g.w + r * g.w_stride) + i));
        for (int t = 0; t < NT; ++t) {
            const __m512bh a =
                reinterpret_cast<__m512bh>(_mm512_loadu_si512(reinterpret_cast<const std::uint16_t*>(g.a + t * g.a_stride) + i));
            for (int r = 0; r < NR; ++r) acc[t][r] = _mm512_dpbf16_ps(acc[t][r], w[r], a);
        }
    }
    for (int t = 0; t < NT; ++t)
        for (int r = 0; r < NR; ++r) g.y[t * g.ldy + r] = _mm512_reduce_add_ps(acc[t][r]);
}

template <int NR>
void bf16_pair_rows(const tile_args& g) {
    tile_args half = g;
    for (int t0 = 0; t0 < g.nt; t0 += 2) {
        half.a = g.a + t0 * g.a_stride;
        half.y = g.y + t0 * g.ldy;
        if (g.nt - t0 >= 2) bf16_pair_loop<NR, 2>(half);
        else bf16_pair_loop<NR, 1>(half);
    }
}

void bf16_pair_tile(const tile_args& g) {
    switch (g.nr) {
    case 4: bf16_pair_rows<4>(g); break;
    case 3: bf16_pair_rows<3>(g); break;
    case 2: bf16_pair_rows<2>(g); break;
    default: bf16_pair_rows<1>(g); break;
    }
}

}  // namespace

tile_fn avx512_bf16_pair_tile() {
    static const bool usable = cpuid_7_1_eax_bit(5) && std::getenv("KVLENS_NO_BF16_PAIRS") == nullptr;   // AVX512_BF16
    return usable ? bf16_pair_tile : nullptr;
}

}  // namespace kvlens

#pragma GCC diagnostic pop
#pragma GCC pop_options
