// SPDX-License-Identifier: Apache-2.0
// Activation conversions before a matrix product: f32 rows to 8-bit blocks
// (the integer dot products of matvec) or to f16 (the cuBLAS GEMM).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "engine/backend/cuda/cuda_types.h"
#include "common/result.h"

namespace kvlens {

// xq (n, n_in / 32) blocks = x (n, n_in) f32, per 32: q = round(x * 127 / max|x|)
// (ties to even), d, s and sum as block_q8_1_dev says. n_in % 32 == 0.
status launch_quantize_q8_1(const float* x, std::int64_t n_in, int n, block_q8_1_dev* xq, cudaStream_t s);

// y (count) f16 bits = x (count) f32, round to nearest even.
status launch_f32_to_f16(const float* x, std::int64_t count, std::uint16_t* y, cudaStream_t s);

// y (n, n_in) f16 bits = x's 8-bit blocks decoded: per 32, d * q with d and q
// as launch_quantize_q8_1 makes them. The prefill GEMM then multiplies the
// same activation values as the matvec kernels and the CPU backend do.
status launch_f32_to_f16_q8(const float* x, std::int64_t n_in, int n, std::uint16_t* y, cudaStream_t s);

}  // namespace kvlens
