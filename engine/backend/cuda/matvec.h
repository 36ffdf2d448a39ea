// SPDX-License-Identifier: Apache-2.0
// Decode's matrix products: y = x W^T for a few tokens, reading every
// quantized weight byte once and decoding it in registers. q4_0, q4_1 and
// q8_0 weights meet 8-bit activations in integer dot products (dp4a); the
// other types are decoded to f32 and meet f32 activations.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "engine/backend/cuda/cuda_types.h"
#include "common/result.h"

namespace kvlens {

inline constexpr int mv_max_tokens = 8;   // tokens one matvec launch handles

// Whether w's kernel reads the activations as q8_1 blocks (launch_quantize_q8_1 first).
bool matvec_takes_q8_1(ggml_type t);

// y (n, w.n_out) f32 = x (n, w.n_in) times w transposed, 1 <= n <= mv_max_tokens.
// x is f32 on the device; xq its q8_1 blocks (n, w.n_in / 32), needed when
// matvec_takes_q8_1(w.type), otherwise ignored.
status launch_matvec(const dev_matrix& w, const float* x, const block_q8_1_dev* xq, int n, float* y,
                     cudaStream_t s);

}  // namespace kvlens
