// SPDX-License-Identifier: Apache-2.0
// Tiled quantized products for matmul: one call computes the dot products of
// up to 4 weight rows with up to 4 activation rows, sharing every load of a
// weight block across the tokens and every activation block across the rows.
// Activation block scales come pre-converted to f32 (once per quantization);
// weight block scales too when many tokens share them (prefill), else the
// kernel converts them as it goes (decode: one pass over the weights). The
// inner loop does integer dots and one multiply-add per pair and block.
// Numerics are those of the kernel table's vec_dot for the type. f16 and
// bf16 tiles (AVX-512, AVX2) take the activations rounded to the weights' type and
// back in f32 rows, and sum each pair in one chain of 16 lanes (AVX2: 8). The K-quant
// tiles (AVX2: q4_K, q6_K) read every scale from the blocks and equal vec_dot
// bit for bit.
#pragma once

#include <cstdint>

#include "engine/gguf/gguf_types.h"

namespace kvlens {

struct tile_args {
    std::int64_t nb = 0;               // 32-element blocks per row (K-quants: super-blocks of 256)
    const std::uint8_t* w = nullptr;   // first weight row (q4_0, q4_1, q5_0, q5_1, q8_0, q4_K or q6_K blocks; f16, bf16)
    std::int64_t w_stride = 0;         // bytes between weight rows
    const float* wd = nullptr;         // (nr, nb) f32 weight block scales d; nullptr: read from the blocks
    const float* wm = nullptr;         // (nr, nb) f32 weight block minimums m (q4_1, q5_1, with wd)
    const std::uint8_t* a = nullptr;   // first activation row (q8_0, q8_1 or q8_K blocks; f16 / bf16 weights: f32)
    std::int64_t a_stride = 0;         // bytes between activation rows
    std::int64_t a_block = 0;          // bytes per activation block (34 q8_0, 36 q8_1)
    std::int64_t a_qs = 0;             // byte offset of the quants in an activation block (2, 4)
    const float* ad = nullptr;         // (nt, nb) f32 activation block scales d
    const float* as = nullptr;         // (nt, nb) f32 activation block sums s (q8_1), else nullptr
    float* y = nullptr;                // output: y[t * ldy + r], f32
    std::int64_t ldy = 0;              // floats between output rows (tokens)
    int nr = 0;                        // weight rows in this tile, 1..4
    int nt = 0;                        // activation rows (tokens) in this tile, 1..4
    // f16 / bf16, decode's kernel class (kernel_tokens <= 4): each pair summed
    // as vec_dot sums it, a row at a time (one stream through the weights)
    bool rows_alone = false;
};

using tile_fn = void (*)(const tile_args&);

constexpr int k_tile_rows = 4;    // largest nr a tile_fn takes
constexpr int k_tile_tokens = 4;  // largest nt a tile_fn takes

// The tiled kernel for a weight type at the active kernel level
// (cpu_kernel_level()); nullptr: matmul uses the table's vec_dot per pair.
// The f32 scale d (and, for q8_1, the f32 sum s) of each of nb blocks of a
// quantized activation row (q8_0 or q8_1); matmul.cpp.
void act_scales(ggml_type t, const std::uint8_t* row, std::int64_t nb, float* d, float* s);

tile_fn tile_kernel_for(ggml_type weight_type);

tile_fn avx2_tile_kernel(ggml_type weight_type);     // kernels_avx2.cpp
tile_fn avx2_float_tile(ggml_type weight_type);      // f16, bf16: kernels_float_tiles_avx2.cpp
tile_fn avx512_tile_kernel(ggml_type weight_type);   // kernels_avx512.cpp
// bf16 weights' prefill tiles on bf16 activation rows with vdpbf16ps
// (kernels_bf16_avx512.cpp); nullptr where the CPU has no AVX512_BF16 or
// KVLENS_NO_BF16_PAIRS is set (then the f32 tiles serve).
tile_fn avx512_bf16_pair_tile();

// ---- AMX-INT8 prefill (amx_simd.cpp) ---------------------------------------------------
// 16 weight rows x 16 tokens x one 32-element block per tile instruction, the
// exact int32 block sums scaled and accumulated in f32 as the tiles do.
struct amx_job {
    ggml_type type = ggml_type::q4_1;     // weights: q4_0, q4_1 or q8_0
    const std::uint8_t* w = nullptr;      // first weight row
    std::int64_t w_stride = 0;            // bytes between weight rows
    std::int64_t n_in = 0;                // elements per row, a multiple of 32
    std::int64_t n_out = 0;               // weight rows
    ggml_type act_type = ggml_type::q8_1; // activation blocks: q8_0 or q8_1
    const std::uint8_t* act = nullptr;    // (n_tokens, act_row) quantized activation rows
    std::int64_t act_row = 0;             // bytes per activation row
    std::int64_t n_tokens = 0;
    float* y = nullptr;                   // y[t * ldy + r], f32
    std::int64_t ldy = 0;
    std::uint8_t* scratch = nullptr;      // amx_scratch_bytes() bytes, 64-byte aligned
};

// The CPU has AMX-INT8 and AVX-512 and the OS granted the tile state (asked once);
// false when the environment variable KVLENS_NO_AMX is set (to compare paths).
bool amx_usable();
std::int64_t amx_scratch_bytes(std::int64_t n_in, std::int64_t n_tokens, int n_threads);
// Repacks the quantized activations of token groups [g0, g1) (16 tokens each) into the scratch.
void amx_prepare(const amx_job& j, std::int64_t g0, std::int64_t g1);
// Row tiles [tile0, tile1) of 16 rows, with thread slot ith's buffers.
void amx_rows(const amx_job& j, int ith, std::int64_t tile0, std::int64_t tile1);

}  // namespace kvlens
