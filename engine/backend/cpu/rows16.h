// SPDX-License-Identifier: Apache-2.0
// The rows16 weight layout: q4_0, q4_1, q5_0, q8_0 and q4_K matrices regrouped, when the
// CPU backend copies the weights in, so that one 64-byte load holds four
// quants of each of 16 rows, one per 32-bit lane. One VNNI dpbusd of such a
// register against four activation quants broadcast from memory then adds
// every row's partial dot product in its own lane: a block of 16 rows costs
// 8 dpbusd (q4: after an and / shift-and unpack of 4 loads; q8_0: 8 loads),
// one convert and one multiply-add per token, and no horizontal sums, where
// the file's row order costs about 12 instructions per row and block
// (unpacking, gathering each row's scales, a sum per row at the end). That
// bounded decode on AVX-512 below the memory's read rate (Zen 5: the q4_1
// tiles streamed 17-18 GB/s per thread against a 24 GB/s probe). Decode and
// prefill run the same kernel, so a row's numbers never depend on how many
// tokens are computed with it.
//
// A group of 16 rows (rows 16g .. 16g + 15) stores its blocks one after
// another; group block b (16 x the file's block bytes, the same total) is
//   q4_0: d[16] f16 (32 bytes), qs (256 bytes)
//   q4_1: d[16] f16 (32 bytes), m[16] f16 (32 bytes), qs (256 bytes)
//   q8_0: d[16] f16 (32 bytes), qs (512 bytes)
//   q5_0: d[16] f16 (32 bytes), planes[16] u32 (64 bytes), qs (256 bytes), the
//         fifth bits transposed as rows8's (bit j of byte k: element 4 j + k),
//         ORed into bit 4 of the unpacked nibbles by one shift and mask per register
// with row r's d (and m) of block b at index r, and qs byte 64 j + 4 r + i
// (i < 4) = byte 4 j + i of row r's block b (j < 4 for q4, j < 8 for q8_0).
// q4 bytes keep the file's nibbles (low: elements 4 j + i, high: 16 + 4 j +
// i); q8_0 bytes are stored plus 128 (the quant xor 0x80) so that they are
// dpbusd's unsigned operand; the kernel takes 128 x sum(activation) back out.
//
// q4_K, q5_K and q6_K (the types of the Q4_K_M and Q5_K_M files people
// download) are regrouped as k_quant_groups.h describes, with G = 16.
// K-quant activations are q8_K (one scale per 256, as llama.cpp quantizes
// them for q4_K and q6_K), read in place, with the f32 scale of each 32 in ad and
// d * sum(quants) in as. Prefill went through 4 x 4 tiles that unpack each
// super-block per 4 tokens: 206 GFLOP/s on LFM2-350M's shape against 915
// for the same shape in q4_1's rows16 (Zen 5, 2 threads).
#pragma once

#include <cstdint>

#include "engine/backend/cpu/rows8.h"
#include "engine/model/weight_view.h"

namespace kvlens {

constexpr int k_rows16_group = 16;   // rows per group

// The matrix is q4_0, q4_1, q5_0, q8_0 or (n_in a multiple of 256) q4_K, q5_K or q6_K in the
// file's layout, n_out a multiple of 16, the active kernel level AVX-512
// (with VNNI) and AMX not in use (its prefill reads the file's rows); false
// when KVLENS_NO_ROWS16 is set (to compare layouts).
bool rows16_applies(const weight_view& w);

// Bytes per row of w in the rows16 layout: the file's, but the K-quants' k_quant_group_row_bytes.
std::int64_t rows16_row_bytes(const weight_view& w);

// Writes w in the rows16 layout to dst (n_out * rows16_row_bytes(w) bytes).
void repack_rows16(const weight_view& w, std::uint8_t* dst);

// The AVX-512 VNNI kernel for a rows16 matrix of this type
// (kernels_rows16_avx512.cpp). Its row_group_args read the activation quants in
// place: a = token 0's quantized row, a_stride bytes per token, a_block bytes
// per block, the quants a_qs bytes into each block.
row_group_fn rows16_kernel_for(ggml_type weight_type);

}  // namespace kvlens
