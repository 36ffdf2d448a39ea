// SPDX-License-Identifier: Apache-2.0
// Formatting of CUDA and cuBLAS errors for CUDA_CHECK / CUBLAS_CHECK.
#include "engine/backend/cuda/cuda_check.h"

#include <cstring>

#include <fmt/format.h>

namespace kvlens {

namespace {

// The path from the project root ("engine/backend/cuda/x.cpp"), not the build machine's.
const char* project_path(const char* file) {
    for (const char* root : {"engine/", "tests/", "app/"})
        if (const char* p = std::strstr(file, root)) return p;
    return file;
}

}  // namespace

error cuda_error(cudaError_t e, const char* call, const char* file, int line) {
    return make_error(fmt::format("{}:{}: {} failed: {} ({})", project_path(file), line, call,
                                  cudaGetErrorString(e), cudaGetErrorName(e)));
}

error cublas_error(cublasStatus_t e, const char* call, const char* file, int line) {
    return make_error(fmt::format("{}:{}: {} failed: {} ({})", project_path(file), line, call,
                                  cublasGetStatusString(e), static_cast<int>(e)));
}

}  // namespace kvlens
