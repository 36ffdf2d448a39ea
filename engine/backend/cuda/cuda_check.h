// SPDX-License-Identifier: Apache-2.0
// CUDA and cuBLAS errors as values: CUDA_CHECK / CUBLAS_CHECK evaluate a call
// and, when it fails, return an error naming the file, line, the call and the
// runtime's reason from the enclosing function (which returns status or
// result<T>). Nothing in the CUDA backend aborts.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "common/result.h"

namespace kvlens {

// "engine/backend/cuda/x.cpp:12: cudaMalloc(&p, n) failed: out of memory (cudaErrorMemoryAllocation)"
error cuda_error(cudaError_t e, const char* call, const char* file, int line);
error cublas_error(cublasStatus_t e, const char* call, const char* file, int line);

}  // namespace kvlens

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        const cudaError_t kvlens_e_ = (call);                                             \
        if (kvlens_e_ != cudaSuccess) return ::kvlens::cuda_error(kvlens_e_, #call, __FILE__, __LINE__); \
    } while (0)

#define CUBLAS_CHECK(call)                                                                \
    do {                                                                                  \
        const cublasStatus_t kvlens_e_ = (call);                                          \
        if (kvlens_e_ != CUBLAS_STATUS_SUCCESS)                                           \
            return ::kvlens::cublas_error(kvlens_e_, #call, __FILE__, __LINE__);          \
    } while (0)

// After a kernel launch (name: a string literal): launch-configuration errors surface here.
#define CUDA_CHECK_LAUNCH(name)                                                           \
    do {                                                                                  \
        const cudaError_t kvlens_e_ = cudaGetLastError();                                 \
        if (kvlens_e_ != cudaSuccess)                                                     \
            return ::kvlens::cuda_error(kvlens_e_, "launch of " name, __FILE__, __LINE__); \
    } while (0)
