// SPDX-License-Identifier: Apache-2.0
// The rows8 weight layout: q4_0, q4_1, q5_0, q5_1 and q8_0 matrices regrouped, when the CPU
// backend copies the weights in, so that one 32-byte load holds four quants of
// each of 8 rows. One unsigned x signed byte multiply (maddubs) against four
// activation quants broadcast to all 8 rows then gives every row's partial sum
// in its own lanes: a block of 8 rows costs 8 multiplies, int16 adds (no
// overflow: 8 x 2 x 15 x 127 < 2^15) and one widening per token, where the file's
// row order costs a multiply and a widening per row and block, and no
// horizontal sums are left at the end. On AVX2 without VNNI (Zen 1 runs both
// multiplies on one pipe) that halves the work of the products, which bounds
// decode on the weights and prefill. Decode and prefill run the same kernel,
// so a row's numbers never depend on how many tokens are computed with it.
// q8_0's signed quants multiply as |w| against the activation with w's sign
// (maddubs takes one unsigned operand), each product pair widened at once
// (two pairs could pass 2^15). The file-order q8_0 kernel, 4 rows at a time
// with a horizontal sum per row, decoded SmolLM2's tied output (30 MB, a
// third of its bytes) at about 0.6 of rows8 q4_1's bytes per second (Zen 2).
//
// A group of 8 rows (rows 8g .. 8g + 7) stores its blocks one after another;
// group block b (8 x the file's block bytes, the same total) is
//   q4_1: d[8] f16 (16 bytes), m[8] f16 (16 bytes), qs (128 bytes)
//   q4_0: d[8] f16 (16 bytes), qs (128 bytes)
//   q5_0: d[8] f16 (16 bytes), qh[8] u32 (32 bytes), qs (128 bytes)
//   q5_1: d[8] f16 (16 bytes), m[8] f16 (16 bytes), qh[8] u32 (32 bytes), qs (128 bytes)
//   q8_0: d[8] f16 (16 bytes), qs (256 bytes)
// with row r's d (and m, qh) of block b at index r, and qs byte 32 j + 4 r + i
// (i < 4) = byte 4 j + i of row r's block b: for q4 / q5 (j < 4) low nibbles
// are elements 4 j + i, high nibbles elements 16 + 4 j + i, as in the file's
// blocks (q5: element e's fifth bit is bit e of qh); for q8_0 (j < 8) the byte
// is element 4 j + i.
//
// q5's fifth bits are stored transposed (rows8_fifth_bit_planes): byte k of
// a row's word holds, in bit j, the fifth bit of element 4 j + k, the
// element of byte k in the row's lane of unpacked register j (lo[0..3], then
// hi[0..3]). One shift of the word by 4 - j bits and a mask of 0x10 per byte
// then give register j's fifth bits, once per group block for all tokens
// (the file's order took a shuffle, a mask, a compare and a mask). Its
// quants reach 31, so 4 maddubs (not 8) add up in int16 before each widening.
//
// q2_K .. q6_K and iq4_xs are regrouped as k_quant_groups.h describes, with
// G = 8 (rows8_k_quant_kernels_body.h), their q8_K activations read in place.
#pragma once

#include <cstdint>
#include <type_traits>

#include "engine/gguf/gguf_types.h"
#include "engine/model/weight_view.h"

namespace kvlens {

constexpr int k_rows8_group = 8;            // rows per group
constexpr int k_rows8_tokens = 4;           // largest token tile a kernel call takes
constexpr int k_rows8_act_block_bytes = 256;  // broadcast activation quants per 32-element block

// The matrix is q4_0, q4_1, q5_0, q5_1, q8_0 or (n_in a multiple of 256) q4_K, q5_K or
// q6_K in the file's layout, n_out a multiple of 8, and the active kernel level is AVX2
// (where the rows8 kernel is the faster one); false when the environment variable
// KVLENS_NO_ROWS8 is set (to compare layouts).
bool rows8_applies(const weight_view& w);

// Bytes per row of w in the rows8 layout: the file's, but the K-quants'
// k_quant_group_row_bytes (their groups are k_quant_groups.h's, G = 8).
std::int64_t rows8_row_bytes(const weight_view& w);

// Where a group block's fields start (bytes; 0: the type has none): d[8] at 0.
struct rows8_header {
    int m_at = 0, qh_at = 0, qs_at = 16;
};
constexpr rows8_header rows8_header_of(ggml_type t) {
    const bool has_min = t == ggml_type::q4_1 || t == ggml_type::q5_1;
    const bool has_qh = t == ggml_type::q5_0 || t == ggml_type::q5_1;
    rows8_header h;
    h.m_at = has_min ? 16 : 0;
    h.qh_at = has_qh ? (has_min ? 32 : 16) : 0;
    h.qs_at = 16 + (has_min ? 16 : 0) + (has_qh ? 32 : 0);
    return h;
}

// A q5 block's 32 fifth bits (qh, the file's 4 bytes: bit e is element e's)
// transposed as the rows8 kernels read them: bit j of byte k = bit 4 j + k.
constexpr std::uint32_t rows8_fifth_bit_planes(const std::uint8_t qh[4]) {
    const std::uint32_t bits = qh[0] | (std::uint32_t{qh[1]} << 8) | (std::uint32_t{qh[2]} << 16) | (std::uint32_t{qh[3]} << 24);
    std::uint32_t planes = 0;
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 8; ++j) planes |= ((bits >> (4 * j + k)) & 1u) << (8 * k + j);
    return planes;
}

// Writes w in the rows8 layout to dst (n_out * rows8_row_bytes(w) bytes).
void repack_rows8(const weight_view& w, std::uint8_t* dst);

// One kernel call of either grouped layout: one group of rows (8 here, 16 in
// rows16.h) against nt tokens.
struct row_group_args {
    std::int64_t nb = 0;                     // 32-element blocks per row
    const std::uint8_t* w = nullptr;         // the group's nb group blocks
    const std::uint8_t* a = nullptr;         // rows8: (nt, nb, 8, 32) activation quants, 4 at a time broadcast to
                                             // 32 bytes, or (a_rows) the quantized activation row, broadcast as
                                             // the kernel reads it; rows16: the nt quantized activation rows
    std::int64_t a_stride = 0;               // bytes between tokens in a (rows8 expanded: nb * 256)
    std::int64_t a_block = 0;                // rows16 and rows8 a_rows: bytes between blocks of a token in a
    std::int64_t a_qs = 0;                   // rows16 and rows8 a_rows: bytes from a block's start to its quants
    bool a_rows = false;                     // rows8, one token (nt = 1): a is its quantized row, not an expansion
    const float* ad = nullptr;               // (nt, nb) f32 activation block scales d
    const float* as = nullptr;               // q4_1: (nt, nb) f32 activation block sums s = d * sum(q)
    const std::int32_t* aq_sum = nullptr;    // q4_0: (nt, nb) the sum of each activation block's quants
    std::int64_t a_scalars = 0;              // elements between tokens in ad, as and aq_sum
    float* y = nullptr;                      // y[t * ldy + r], r < 8, f32
    std::int64_t ldy = 0;
    int nt = 0;                              // tokens, 1 .. k_rows8_tokens
};

using row_group_fn = void (*)(const row_group_args&);

// Calls kernel(std::integral_constant<int, NT>) for the call's token count
// NT = g.nt (1 .. k_rows8_tokens), so a kernel templated on NT keeps its
// accumulators in registers: one switch for every grouped kernel.
template <class Kernel>
inline void with_token_count(const row_group_args& g, Kernel kernel) {
    switch (g.nt) {
    case 4: kernel(std::integral_constant<int, 4>{}); break;
    case 3: kernel(std::integral_constant<int, 3>{}); break;
    case 2: kernel(std::integral_constant<int, 2>{}); break;
    default: kernel(std::integral_constant<int, 1>{}); break;
    }
}

// The AVX2 kernel for a rows8 matrix of this type (kernels_rows8_avx2.cpp):
// with AVX-VNNI's vpdpbusd where avx_vnni_usable(), else with maddubs.
// K-quant kernels read q8_K activation rows in place.
row_group_fn rows8_kernel_for(ggml_type weight_type);

// The AVX2 + AVX-VNNI kernel for a rows8 matrix of this type (kernels_rows8_avxvnni.cpp),
// which rows8_kernel_for hands out where avx_vnni_usable().
row_group_fn rows8_vnni_kernel_for(ggml_type weight_type);

// One quantized activation row (q8_1 blocks for q4_1, q8_0 for q4_0) of nb
// blocks expanded for the kernel: each block's quants 4 at a time broadcast
// to 32 bytes (nb * 256 bytes at a).
void rows8_expand_activations(ggml_type act_type, const std::uint8_t* q, std::int64_t nb, std::uint8_t* a);

// The integer sum of each of nb blocks' 32 quants of a q8_0 activation row
// (what a stored offset times the activation takes back out); matmul_rows8.cpp.
void act_quant_sums(const std::uint8_t* q, std::int64_t nb, std::int32_t* sums);

}  // namespace kvlens
