// SPDX-License-Identifier: Apache-2.0
// Element-wise kernels: residual add, bias add, SwiGLU (silu(gate) * up).
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/norm_rope.h"

namespace kvlens {

namespace {

constexpr int threads = 256;

unsigned grid_for(std::int64_t n) { return static_cast<unsigned>((n + threads - 1) / threads); }

__global__ void add_kernel(float* y, const float* x, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}

__global__ void add_bias_kernel(float* x, const float* b, std::int64_t total, int n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < total) x[i] += b[i % n];
}

__global__ void silu_mul_kernel(const float* gate, const float* up, float* y, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        const float g = gate[i];
        y[i] = g / (1.0f + expf(-g)) * up[i];
    }
}

}  // namespace

status launch_add(float* y, const float* x, std::int64_t count, cudaStream_t s) {
    if (count == 0) return {};
    add_kernel<<<grid_for(count), threads, 0, s>>>(y, x, count);
    CUDA_CHECK_LAUNCH("add_kernel");
    return {};
}

status launch_add_bias(float* x, const float* b, int n_rows, int n, cudaStream_t s) {
    const std::int64_t total = static_cast<std::int64_t>(n_rows) * n;
    if (total == 0) return {};
    add_bias_kernel<<<grid_for(total), threads, 0, s>>>(x, b, total, n);
    CUDA_CHECK_LAUNCH("add_bias_kernel");
    return {};
}

status launch_silu_mul(const float* gate, const float* up, float* y, std::int64_t count, cudaStream_t s) {
    if (count == 0) return {};
    silu_mul_kernel<<<grid_for(count), threads, 0, s>>>(gate, up, y, count);
    CUDA_CHECK_LAUNCH("silu_mul_kernel");
    return {};
}

}  // namespace kvlens
