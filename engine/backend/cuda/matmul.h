// SPDX-License-Identifier: Apache-2.0
// The one place that chooses how a weight matrix meets activations on the
// device: up to mv_max_tokens tokens go to the dequantizing matvec kernels
// (decode, bandwidth-bound); more go to dequantize-into-f16 + cuBLAS GEMM on
// tensor cores (prefill, compute-bound). Matrices that read the same input
// (Q, K, V; gate, up) are multiplied as a group so the input is converted once.
#pragma once

#include <cstdint>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "engine/backend/cuda/cuda_types.h"
#include "common/result.h"

namespace kvlens {

// Device scratch the products use, sized once by the backend.
struct matmul_workspace {
    cublasHandle_t cublas = nullptr;      // bound to the backend's stream
    block_q8_1_dev* xq = nullptr;         // (mv_max_tokens, max_n_in / 32) quantized activations
    std::uint16_t* x_f16 = nullptr;       // (max_batch, max_n_in) f16 activations
    std::uint16_t* w_f16 = nullptr;       // (w_f16_elems) a dequantized weight matrix, or a slice of rows
    std::int64_t w_f16_elems = 0;
};

// ys[i] (n, ws[i]->n_out) f32 = x (n, n_in) times ws[i] transposed, for
// every matrix of the group (all with the same n_in).
status matmul_group(const dev_matrix* const* ws, float* const* ys, int count, const float* x, int n,
                    const matmul_workspace& wk, cudaStream_t s);

inline status matmul(const dev_matrix& w, const float* x, int n, float* y, const matmul_workspace& wk,
                     cudaStream_t s) {
    const dev_matrix* ws[1] = {&w};
    float* ys[1] = {y};
    return matmul_group(ws, ys, 1, x, n, wk, s);
}

// y (n, n_out) f32 = x (n, k) f16 times w (n_out, k) f16 transposed, with
// y's rows ldy apart: one cublasGemmEx, f32 accumulation on tensor cores.
status gemm_f16(cublasHandle_t h, const std::uint16_t* w, std::int64_t n_out, const std::uint16_t* x, int n,
                std::int64_t k, float* y, std::int64_t ldy);

}  // namespace kvlens
