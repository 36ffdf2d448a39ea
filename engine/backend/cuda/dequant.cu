// SPDX-License-Identifier: Apache-2.0
// Row dequantization kernels: one thread per 32-element chunk, decoded by the
// per-type functions of dequant.cuh, stored as f16 (GEMM input) or f32
// (embedding rows).
#include "engine/backend/cuda/dequant.h"

#include <cuda_fp16.h>

#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/dequant.cuh"

namespace kvlens {

namespace {

using namespace kvlens::cuda;

constexpr int threads = 256;

// out (n_rows, n_chunks * 32) f16; thread = (row, chunk).
template <ggml_type T>
__global__ void dequant_f16_kernel(const std::uint8_t* w, std::int64_t row_bytes, int n_chunks, std::int64_t n_items,
                                   __half* out) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n_items) return;
    const std::int64_t row = i / n_chunks;
    const int c = static_cast<int>(i % n_chunks);
    float v[32];
    dequant32<T>(w + row * row_bytes, c, v);
    uint4* o = reinterpret_cast<uint4*>(out + row * n_chunks * 32 + 32 * c);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        uint4 u;
        __half2 h0 = __floats2half2_rn(v[8 * k + 0], v[8 * k + 1]);
        __half2 h1 = __floats2half2_rn(v[8 * k + 2], v[8 * k + 3]);
        __half2 h2 = __floats2half2_rn(v[8 * k + 4], v[8 * k + 5]);
        __half2 h3 = __floats2half2_rn(v[8 * k + 6], v[8 * k + 7]);
        u.x = *reinterpret_cast<std::uint32_t*>(&h0);
        u.y = *reinterpret_cast<std::uint32_t*>(&h1);
        u.z = *reinterpret_cast<std::uint32_t*>(&h2);
        u.w = *reinterpret_cast<std::uint32_t*>(&h3);
        o[k] = u;
    }
}

// out (n, n_chunks * 32) f32; thread = (token, chunk).
template <ggml_type T>
__global__ void get_rows_kernel(const std::uint8_t* w, std::int64_t row_bytes, int n_chunks, const std::int32_t* ids,
                                int n, float* out) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= static_cast<std::int64_t>(n) * n_chunks) return;
    const int t = static_cast<int>(i / n_chunks);
    const int c = static_cast<int>(i % n_chunks);
    float v[32];
    dequant32<T>(w + static_cast<std::int64_t>(ids[t]) * row_bytes, c, v);
    float4* o = reinterpret_cast<float4*>(out + static_cast<std::int64_t>(t) * n_chunks * 32 + 32 * c);
#pragma unroll
    for (int k = 0; k < 8; ++k) o[k] = make_float4(v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
}

}  // namespace

bool cuda_weight_supported(ggml_type t, std::int64_t n_in) {
    int block = 0;
    KVLENS_WEIGHT_TYPE_SWITCH(t, block = wtype<T>::block);
    const int chunk = block > 32 ? block : 32;
    return block > 0 && n_in > 0 && n_in % chunk == 0;
}

status launch_dequant_f16(const dev_matrix& w, std::int64_t row0, std::int64_t n_rows, std::uint16_t* out,
                          cudaStream_t s) {
    if (!cuda_weight_supported(w.type, w.n_in) || row0 < 0 || row0 + n_rows > w.n_out)
        return make_error("dequant_f16: unsupported type or rows out of range");
    const int n_chunks = static_cast<int>(w.n_in / 32);
    const std::int64_t n_items = n_rows * n_chunks;
    if (n_items == 0) return {};
    const unsigned blocks = static_cast<unsigned>((n_items + threads - 1) / threads);
    const std::uint8_t* base = w.data + row0 * w.row_bytes;
    KVLENS_WEIGHT_TYPE_SWITCH(w.type, (dequant_f16_kernel<T><<<blocks, threads, 0, s>>>(
                                          base, w.row_bytes, n_chunks, n_items, reinterpret_cast<__half*>(out))));
    CUDA_CHECK_LAUNCH("dequant_f16_kernel");
    return {};
}

status launch_get_rows(const dev_matrix& w, const std::int32_t* ids, int n, float* out, cudaStream_t s) {
    if (!cuda_weight_supported(w.type, w.n_in)) return make_error("get_rows: unsupported weight type");
    const int n_chunks = static_cast<int>(w.n_in / 32);
    const std::int64_t n_items = static_cast<std::int64_t>(n) * n_chunks;
    if (n_items == 0) return {};
    const unsigned blocks = static_cast<unsigned>((n_items + threads - 1) / threads);
    KVLENS_WEIGHT_TYPE_SWITCH(w.type, (get_rows_kernel<T><<<blocks, threads, 0, s>>>(w.data, w.row_bytes, n_chunks, ids, n, out)));
    CUDA_CHECK_LAUNCH("get_rows_kernel");
    return {};
}

}  // namespace kvlens
