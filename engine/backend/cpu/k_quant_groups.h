// SPDX-License-Identifier: Apache-2.0
// The K-quant matrices (q2_K .. q6_K: the types of the Q4_K_M, Q5_K_M, Q3_K_M
// and Q2_K files people download; iq4_xs's super-blocks too) regrouped for the grouped kernels: G = 16 rows a
// group for AVX-512 (rows16.h), G = 8 for AVX2 (rows8.h). One register load
// then holds four quants of each of the G rows, one row per 32-bit lane, and
// one multiply against four broadcast activation quants adds every row's
// partial sum in its own lane. Each group super-block (256 elements of G
// rows) is, with every per-row field of row r at index r:
//   q4_K / q5_K (148 / 180 bytes per row against the file's 144 / 176):
//     d[G] f16 at 0, dmin[G] f16 at 2G, sc[8][G] u8 at 4G and m[8][G] u8 at
//     12G (sub-block j's of row r at G j + r: the 6-bit scales and minimums
//     unpacked), then per sub-block j of 32 at 20G + j * (16G, q5_K 20G):
//     the quants, element k and k + 16 of row r (k < 16) the low and high
//     nibble of byte 4G (k / 4) + 4 r + k % 4; q5_K's fifth bits after them,
//     a plane of G words (row r's at 16G + 4 r: bit i of byte k is element
//     4 i + k's fifth bit).
//   q6_K (the file's 210 bytes per row): d[G] f16 at 0, the 16-element
//     scales int8 at 2G (scale k of row r at 2G + G k + r), then per
//     sub-block j at 18G + 24G j: the low nibbles as q4_K's, then bits 4
//     and 5 of each element in two vectors of 4G bytes laid out as the
//     nibbles' registers (at 16G: elements 0-15, at 20G: 16-31): bits 2 i
//     and 2 i + 1 of byte 4 r + k hold element 4 i + k's (16 + 4 i + k's),
//     so that one shift and one mask per register put them in place.
//   q3_K (114 bytes per row against the file's 110): d[G] f16 at 0, the
//     16-element scales - 32 as int8 at 2G (as q6_K's), then per sub-block j
//     at 18G + 12G j: the quants' low two bits as two crumb vectors laid out
//     as q6_K's bits 4 and 5 (at 0 and 4G), and their third bit (the file's
//     hmask) as a plane of G words laid out as q5_K's (at 8G): the stored
//     value is the quant plus 4 (0..7).
//   q2_K (the file's 84 bytes per row): d[G] f16 at 0, dmin[G] f16 at 2G,
//     the file's 16 scale bytes (low nibble the scale, high the minimum) at
//     4G (byte k of row r at 4G + G k + r), then per sub-block j at
//     20G + 8G j the quants (0..3) as two crumb vectors.
//   iq4_xs (138 bytes per row against the file's 136): d[G] f16 at 0, the
//     sub-blocks' scales ls - 32 as int8 at 2G (sub-block j's of row r at
//     2G + G j + r), then per sub-block j at 10G + 16G j the 4-bit indices
//     as q4_K's quants.
// A value is d * sc_j * q - dmin * m_j (q4_K, q5_K; q2_K per 16 elements),
// d * scale_k * (q - 32) (q6_K), d * (scale_k - 32) * (q - 4) (q3_K) or d * (ls_j - 32) * k_iq4_values[q] (iq4_xs, whose super-blocks
// count as K-quants here). The activations are q8_K rows (one scale per 256, 16-element sums),
// read in place by the kernels.
#pragma once

#include <cstdint>

#include "engine/gguf/gguf_types.h"
#include "engine/model/weight_view.h"

namespace kvlens {

// Whether w is a matrix these groups take: q2_K .. q6_K or iq4_xs with n_in a multiple of 256.
bool is_groupable_k_quant(const weight_view& w);

// Bytes per row of a K-quant type in the grouped layout (either G), per
// n_in elements: per 256, q2_K 84, q3_K 114, q4_K 148, q5_K 180, q6_K 210, iq4_xs 138.
std::int64_t k_quant_group_row_bytes(ggml_type t, std::int64_t n_in);

// Writes the K-quant matrix w (n_out a multiple of group, 8 or 16) regrouped
// to dst (n_out * k_quant_group_row_bytes(w.type, w.n_in) bytes).
void repack_k_quant_groups(const weight_view& w, int group, std::uint8_t* dst);

}  // namespace kvlens
