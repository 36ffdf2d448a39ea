// SPDX-License-Identifier: Apache-2.0
// Dequantizing whole rows of a weight matrix on the device: into f16 for the
// prefill GEMM (a layer's matrix at a time, in a scratch buffer), and into
// f32 by token id for the embedding lookup.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "engine/backend/cuda/cuda_types.h"
#include "common/result.h"

namespace kvlens {

// Whether the CUDA kernels decode this weight type (and its rows are whole 32-element chunks).
bool cuda_weight_supported(ggml_type t, std::int64_t n_in);

// out (n_rows, w.n_in) f16 bits = rows [row0, row0 + n_rows) of w.
status launch_dequant_f16(const dev_matrix& w, std::int64_t row0, std::int64_t n_rows, std::uint16_t* out,
                          cudaStream_t s);

// out (n, w.n_in) f32 = rows ids[0..n) of w; ids (n) int32 on the device.
status launch_get_rows(const dev_matrix& w, const std::int32_t* ids, int n, float* out, cudaStream_t s);

}  // namespace kvlens
