// SPDX-License-Identifier: Apache-2.0
// LFM2's short convolution (short_conv.h): one thread per (token, channel)
// in both kernels; the store finishes before the convolution reads, so a
// token sees the rows of the tokens before it in the same batch.
#include "engine/backend/cuda/common.cuh"
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/short_conv.h"

namespace kvlens {

namespace {

// Element i of the row of the token at pos (>= 0) through table row `row`.
__device__ float* state_at(const paged_kv_view& kv, int row, int pos, int i, int half) {
    const std::int32_t block = kv.tables[static_cast<std::int64_t>(row) * kv.table_stride + pos / kv.block_size];
    std::uint8_t* base = (i < half ? kv.k : kv.v) +
                         (static_cast<std::int64_t>(block) * kv.block_size + pos % kv.block_size) * kv.row_bytes;
    return reinterpret_cast<float*>(base) + (i < half ? i : i - half);
}

__global__ void short_conv_store_kernel(short_conv_params p) {
    const std::int64_t id = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (id >= static_cast<std::int64_t>(p.n_tokens) * p.n_embd) return;
    const int t = static_cast<int>(id / p.n_embd), i = static_cast<int>(id % p.n_embd);
    const float* b = p.bcx + static_cast<std::int64_t>(t) * 3 * p.n_embd;
    *state_at(p.rows, p.rows.tok_row[t], p.rows.positions[t], i, p.n_embd / 2) = b[i] * b[2 * p.n_embd + i];
}

__global__ void short_conv_kernel(short_conv_params p) {
    const std::int64_t id = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (id >= static_cast<std::int64_t>(p.n_tokens) * p.n_embd) return;
    const int t = static_cast<int>(id / p.n_embd), i = static_cast<int>(id % p.n_embd);
    const int pos = p.rows.positions[t], row = p.rows.tok_row[t];
    float y = 0.0f;
    for (int j = max(0, p.taps - 1 - pos); j < p.taps; ++j)
        y += *state_at(p.rows, row, pos - (p.taps - 1) + j, i, p.n_embd / 2) * p.kernel[static_cast<std::int64_t>(i) * p.taps + j];
    p.out[static_cast<std::int64_t>(t) * p.n_embd + i] = y * p.bcx[static_cast<std::int64_t>(t) * 3 * p.n_embd + p.n_embd + i];
}

}  // namespace

status launch_short_conv(const short_conv_params& p, cudaStream_t s) {
    if (p.rows.dtype != kv_dtype::f32 || p.n_embd % 2 != 0 || p.rows.row_bytes != static_cast<std::int64_t>(p.n_embd / 2) * 4)
        return make_error("short_conv: the layer's rows are not n_embd / 2 f32 each");
    const std::int64_t n = static_cast<std::int64_t>(p.n_tokens) * p.n_embd;
    if (n == 0) return {};
    constexpr int threads = 256;
    const unsigned grid = static_cast<unsigned>((n + threads - 1) / threads);
    short_conv_store_kernel<<<grid, threads, 0, s>>>(p);
    CUDA_CHECK_LAUNCH("short_conv_store_kernel");
    short_conv_kernel<<<grid, threads, 0, s>>>(p);
    CUDA_CHECK_LAUNCH("short_conv_kernel");
    return {};
}

}  // namespace kvlens
