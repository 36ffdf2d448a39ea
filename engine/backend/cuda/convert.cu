// SPDX-License-Identifier: Apache-2.0
// Activation conversion kernels: one warp per 32-value block for the 8-bit
// quantization (lane = element), one thread per pair for f16.
#include "engine/backend/cuda/convert.h"

#include <cuda_fp16.h>

#include "engine/backend/cuda/common.cuh"
#include "engine/backend/cuda/cuda_check.h"

namespace kvlens {

namespace {

using namespace kvlens::cuda;

constexpr int threads = 256;

__global__ void quantize_q8_1_kernel(const float* x, std::int64_t n_blocks, block_q8_1_dev* xq) {
    const std::int64_t b = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_size;
    const int lane = threadIdx.x % warp_size;
    if (b >= n_blocks) return;
    const float v = x[b * 32 + lane];
    const float amax = warp_max(fabsf(v));
    const float d = amax / 127.0f;
    const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
    const int q = __float2int_rn(v * id);
    const int sum = static_cast<int>(warp_sum(static_cast<float>(q)));   // |sum| <= 32 * 127: exact in f32
    xq[b].qs[lane] = static_cast<std::int8_t>(q);
    if (lane == 0) {
        xq[b].d = __half2float(__float2half_rn(d));
        xq[b].s = __half2float(__float2half_rn(d * static_cast<float>(sum)));
        xq[b].sum = sum;
    }
}

// One warp per 32-value block, as quantize_q8_1_kernel, storing d * q in f16.
__global__ void f32_to_f16_q8_kernel(const float* x, std::int64_t n_blocks, __half* y) {
    const std::int64_t b = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_size;
    const int lane = threadIdx.x % warp_size;
    if (b >= n_blocks) return;
    const float v = x[b * 32 + lane];
    const float amax = warp_max(fabsf(v));
    const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
    const float d = __half2float(__float2half_rn(amax / 127.0f));
    y[b * 32 + lane] = __float2half_rn(d * static_cast<float>(__float2int_rn(v * id)));
}

__global__ void f32_to_f16_kernel(const float* x, std::int64_t count, __half* y) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < count) y[i] = __float2half_rn(x[i]);
}

}  // namespace

status launch_quantize_q8_1(const float* x, std::int64_t n_in, int n, block_q8_1_dev* xq, cudaStream_t s) {
    if (n_in % 32 != 0) return make_error("quantize_q8_1: row length is not a multiple of 32");
    const std::int64_t n_blocks = n_in / 32 * n;
    if (n_blocks == 0) return {};
    const unsigned grid = static_cast<unsigned>((n_blocks * warp_size + threads - 1) / threads);
    quantize_q8_1_kernel<<<grid, threads, 0, s>>>(x, n_blocks, xq);
    CUDA_CHECK_LAUNCH("quantize_q8_1_kernel");
    return {};
}

status launch_f32_to_f16(const float* x, std::int64_t count, std::uint16_t* y, cudaStream_t s) {
    if (count == 0) return {};
    const unsigned grid = static_cast<unsigned>((count + threads - 1) / threads);
    f32_to_f16_kernel<<<grid, threads, 0, s>>>(x, count, reinterpret_cast<__half*>(y));
    CUDA_CHECK_LAUNCH("f32_to_f16_kernel");
    return {};
}

status launch_f32_to_f16_q8(const float* x, std::int64_t n_in, int n, std::uint16_t* y, cudaStream_t s) {
    if (n_in % 32 != 0) return make_error("f32_to_f16_q8: row length is not a multiple of 32");
    const std::int64_t n_blocks = n_in / 32 * n;
    if (n_blocks == 0) return {};
    const unsigned grid = static_cast<unsigned>((n_blocks * warp_size + threads - 1) / threads);
    f32_to_f16_q8_kernel<<<grid, threads, 0, s>>>(x, n_blocks, reinterpret_cast<__half*>(y));
    CUDA_CHECK_LAUNCH("f32_to_f16_q8_kernel");
    return {};
}

}  // namespace kvlens
