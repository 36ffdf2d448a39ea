// SPDX-License-Identifier: Apache-2.0
// Matrix products of weights (any supported type, possibly quantized) with
// f32 activations: the activations are first quantized to the weights'
// vec-dot format, then each output is one quantized dot product.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/backend/cpu/thread_pool.h"
#include "engine/gguf/gguf_types.h"
#include "engine/model/weight_view.h"

namespace kvlens {

// Reusable buffer for quantized activations; grows only, so steady-state
// decode allocates nothing.
struct matmul_scratch {
    std::vector<std::uint8_t> act;   // bytes: quantized activation rows, their f32 block scales, and the AMX repack
};

// Which kernel computes the rows (one dot product at a time, 4 x 4 tiles with
// the weight scales converted as they stream, tiles with pre-converted scales,
// AMX tiles) is chosen from kernel_tokens, the number of rows the caller
// computes together (0: n_tokens). The kernels round differently, but a row's
// result depends only on its own input and on that choice, never on the
// other rows of the call; so a caller that passes the length of the row's own
// sequence run, not the batch size, gets the same numbers for a sequence alone
// and batched with others (cpu_backend.cpp, "row groups").
// Rows whose kernel_tokens have the same matmul_kernel_class() go through the
// same kernels for every weight.
int matmul_kernel_class(std::int64_t kernel_tokens);
// The kernel_tokens of a prefill run (prompt tokens, however few): at least
// the smallest count past the streaming tiles, so every prefill row goes
// through the kernels of a long chunk (on a CPU without AMX) and a prompt's
// rows round the same whatever its chunks (a prefix-cache hit leaves a short
// last chunk, possibly of one token). A decode step passes 1 and keeps the
// streaming kernels.
std::int64_t prefill_kernel_tokens(std::int64_t run_length);

// y (n_tokens, w.n_out) f32 = x (n_tokens, w.n_in) f32 times w transposed.
// The weight type must have kernels (checked at model load).
void matmul(const weight_view& w, const float* x, std::int64_t n_tokens, float* y,
            thread_pool& pool, matmul_scratch& scratch, std::int64_t kernel_tokens = 0);

// The same input against up to 3 matrices (Q, K, V; gate, up): y_m = x w_m^T.
// Matrices of one type and input width share one quantization of x and one
// pool job; otherwise this is matmul() for each.
void matmul_group(const weight_view* ws, float* const* ys, int n_mats, const float* x, std::int64_t n_tokens,
                  thread_pool& pool, matmul_scratch& scratch, std::int64_t kernel_tokens = 0);

// Prefill (matmul_kernel_class >= 1) of the 1- to 3-bit i-quants, TQ1_0 and
// MXFP4 (bf16 rows): rows decoded to f16 once per chunk of tokens, then the f16 tiles
// (matmul_dequant.cpp). False (nothing done) for other types, or without
// the f16 tiles at the active level, or with KVLENS_NO_DEQUANT_PREFILL set.
bool dequant_prefill_type(ggml_type t);
bool matmul_dequant(const weight_view& w, const float* x, std::int64_t n_tokens, float* y, thread_pool& pool,
                    matmul_scratch& scratch);
std::int64_t matmul_dequant_scratch_bytes(std::int64_t n_in, std::int64_t n_tokens, int n_threads);

// Bytes of scratch matmul needs for n_tokens rows against w (to reserve up front).
std::int64_t matmul_scratch_bytes(const weight_view& w, std::int64_t n_tokens);

}  // namespace kvlens
