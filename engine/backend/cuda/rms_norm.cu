// SPDX-License-Identifier: Apache-2.0
// RMSNorm and LayerNorm: one block per row, sums reduced across the block.
#include "engine/backend/cuda/common.cuh"
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/norm_rope.h"

namespace kvlens {

namespace {

using namespace kvlens::cuda;

template <int threads>
__global__ void rms_norm_kernel(const float* x, const std::int32_t* rows, const float* weight, float* y, int n,
                                float eps) {
    const int r = blockIdx.x;
    const float* xr = x + static_cast<std::int64_t>(rows ? rows[r] : r) * n;
    float* yr = y + static_cast<std::int64_t>(r) * n;
    float sum = 0.0f;
    for (int i = threadIdx.x; i < n; i += threads) sum += xr[i] * xr[i];
    sum = warp_sum(sum);
    if constexpr (threads > warp_size) {
        __shared__ float partial[threads / warp_size];
        const int w = threadIdx.x / warp_size, lane = threadIdx.x % warp_size;
        if (lane == 0) partial[w] = sum;
        __syncthreads();
        sum = lane < threads / warp_size ? partial[lane] : 0.0f;
        sum = warp_sum(sum);
    }
    const float scale = rsqrtf(sum / static_cast<float>(n) + eps);
    for (int i = threadIdx.x; i < n; i += threads) yr[i] = xr[i] * scale * weight[i];
}

// The sum of every thread's v over the block (all threads get it).
template <int threads>
__device__ float block_sum(float v) {
    v = warp_sum(v);
    if constexpr (threads > warp_size) {
        __shared__ float partial[threads / warp_size];
        const int w = threadIdx.x / warp_size, lane = threadIdx.x % warp_size;
        __syncthreads();   // a previous call's readers are done with partial
        if (lane == 0) partial[w] = v;
        __syncthreads();
        v = lane < threads / warp_size ? partial[lane] : 0.0f;
        v = warp_sum(v);
    }
    return v;
}

template <int threads>
__global__ void layer_norm_kernel(const float* x, const std::int32_t* rows, const float* weight, const float* bias,
                                  float* y, int n, float eps) {
    const int r = blockIdx.x;
    const float* xr = x + static_cast<std::int64_t>(rows ? rows[r] : r) * n;
    float* yr = y + static_cast<std::int64_t>(r) * n;
    float sum = 0.0f;
    for (int i = threadIdx.x; i < n; i += threads) sum += xr[i];
    const float mean = block_sum<threads>(sum) / static_cast<float>(n);
    float sum2 = 0.0f;
    for (int i = threadIdx.x; i < n; i += threads) {
        const float d = xr[i] - mean;
        sum2 += d * d;
    }
    const float scale = rsqrtf(block_sum<threads>(sum2) / static_cast<float>(n) + eps);
    for (int i = threadIdx.x; i < n; i += threads) yr[i] = (xr[i] - mean) * scale * weight[i] + (bias ? bias[i] : 0.0f);
}

}  // namespace

status launch_layer_norm(const float* x, const std::int32_t* rows, const float* weight, const float* bias, float* y,
                         int n_rows, int n, float eps, cudaStream_t s) {
    if (n_rows == 0) return {};
    if (n <= 256)
        layer_norm_kernel<warp_size><<<n_rows, warp_size, 0, s>>>(x, rows, weight, bias, y, n, eps);
    else
        layer_norm_kernel<256><<<n_rows, 256, 0, s>>>(x, rows, weight, bias, y, n, eps);
    CUDA_CHECK_LAUNCH("layer_norm_kernel");
    return {};
}

status launch_rms_norm(const float* x, const std::int32_t* rows, const float* weight, float* y, int n_rows, int n,
                       float eps, cudaStream_t s) {
    if (n_rows == 0) return {};
    if (n <= 256)
        rms_norm_kernel<warp_size><<<n_rows, warp_size, 0, s>>>(x, rows, weight, y, n, eps);
    else
        rms_norm_kernel<256><<<n_rows, 256, 0, s>>>(x, rows, weight, y, n, eps);
    CUDA_CHECK_LAUNCH("rms_norm_kernel");
    return {};
}

}  // namespace kvlens
