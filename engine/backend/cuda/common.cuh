// SPDX-License-Identifier: Apache-2.0
// Device helpers shared by the kernels: half/bfloat16 loads from 2-byte
// aligned bytes, warp reductions, 32-bit loads from 2-byte aligned blocks.
#pragma once

#include <cstdint>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace kvlens::cuda {

constexpr int warp_size = 32;

__device__ __forceinline__ float load_f16(const std::uint8_t* p) {
    return __half2float(__ushort_as_half(*reinterpret_cast<const std::uint16_t*>(p)));
}

__device__ __forceinline__ float bf16_bits_to_float(std::uint16_t b) {
    return __uint_as_float(static_cast<std::uint32_t>(b) << 16);
}

// The i-th 32-bit word of bytes that are only 2-byte aligned.
__device__ __forceinline__ int load_int_b2(const std::uint8_t* p, int i) {
    const std::uint16_t* h = reinterpret_cast<const std::uint16_t*>(p) + 2 * i;
    return static_cast<int>(static_cast<std::uint32_t>(h[0]) | (static_cast<std::uint32_t>(h[1]) << 16));
}

__device__ __forceinline__ int load_int_b4(const std::uint8_t* p, int i) {
    return reinterpret_cast<const int*>(p)[i];
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = warp_size / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
    for (int o = warp_size / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__host__ __device__ constexpr int ceil_div(long long a, long long b) { return static_cast<int>((a + b - 1) / b); }

}  // namespace kvlens::cuda
