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
// q4_K (the most common type of the files people download: Q4_K_M) is a
// super-block of 256 elements per row, 8 sub-blocks of 32 whose values are
// d * sc_j * q - dmin * m_j (6-bit sc_j, m_j). Its group super-block
// (2368 bytes, 148 per row against the file's 144: rows16_row_bytes) is
//   d[16] f16, dmin[16] f16 (64 bytes), sc[8][16] u8, m[8][16] u8 (256
//   bytes: sub-block j's of row r at 16 j + r), then per sub-block j the
//   256 quant bytes of q4_1's group block (element k and k + 16 of row r's
//   sub-block in byte 64 (k / 4) + 4 r + k % 4, low and high nibble);
// q5_K's is q4_K's with each sub-block's fifth bits after its quants, a
// plane of 16 words laid out as q5_0's (2880 bytes, 180 per row against 176).
// q6_K's group super-block (3360 bytes: the file's 210 per row) is d[16]
// f16 (32 bytes), the 16-element scales (int8, scale k of row r at 16 k +
// r: 256 bytes), then per sub-block of 32 the nibbles as q4's (256 bytes)
// and bits 4 and 5 as two planes of 16 words (128 bytes) laid out as q5_0's.
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
constexpr int k_rows16_q4_K_row_bytes = 148;   // a q4_K group super-block's bytes per row (2368 / 16)
constexpr int k_rows16_q5_K_row_bytes = 180;   // q5_K's (2880 / 16): each sub-block 64 bytes more

// The matrix is q4_0, q4_1, q5_0, q8_0 or (n_in a multiple of 256) q4_K, q5_K or q6_K in the
// file's layout, n_out a multiple of 16, the active kernel level AVX-512
// (with VNNI) and AMX not in use (its prefill reads the file's rows); false
// when KVLENS_NO_ROWS16 is set (to compare layouts).
bool rows16_applies(const weight_view& w);

// Bytes per row of w in the rows16 layout: the file's, but q4_K's 148 and q5_K's 180 per 256 elements.
std::int64_t rows16_row_bytes(const weight_view& w);

// Writes w in the rows16 layout to dst (n_out * rows16_row_bytes(w) bytes).
void repack_rows16(const weight_view& w, std::uint8_t* dst);

// The AVX-512 VNNI kernel for a rows16 matrix of this type
// (kernels_rows16_avx512.cpp). Its row_group_args read the activation quants in
// place: a = token 0's quantized row, a_stride bytes per token, a_block bytes
// per block, the quants a_qs bytes into each block.
row_group_fn rows16_kernel_for(ggml_type weight_type);

}  // namespace kvlens
