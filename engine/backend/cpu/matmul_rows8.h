// SPDX-License-Identifier: Apache-2.0
// Matrix products of matrices in the rows8 or rows16 layout (rows8.h,
// rows16.h), which matmul() and matmul_group() hand over to; one kernel for
// every number of tokens.
#pragma once

#include <cstdint>

#include "engine/backend/cpu/matmul.h"

namespace kvlens {

// y_m (n_tokens, ws[m].n_out) f32 = x (n_tokens, n_in) f32 times ws[m]
// transposed, for up to 3 matrices of one type, input width and layout (rows8 or rows16).
// repack: the matrices are in the file's row layout (a model too large to
// copy, cpu_backend's place_weights): each thread regroups a group of rows
// into rows16 (or rows8, where rows16_applies / rows8_applies says so) in a
// buffer of its own, once per chunk of tokens, before the group's kernel.
void matmul_rows8(const weight_view* ws, float* const* ys, int n_mats, const float* x, std::int64_t n_tokens,
                  thread_pool& pool, matmul_scratch& scratch, bool repack = false);

// Whether prefill regroups w as it goes (repack above): w is in the row
// layout and a regrouped layout applies to it at the active level.
bool prefill_repack_applies(const weight_view& w);

// Bytes of scratch matmul_rows8 needs for n_tokens rows of n_in elements (either layout).
std::int64_t rows8_scratch_bytes(std::int64_t n_in, std::int64_t n_tokens);

}  // namespace kvlens
