// SPDX-License-Identifier: Apache-2.0
// KV store kernel: one warp per 32-element chunk of one token's K or V row
// (lane = element), encoded as f16 or q8_0 into the paged layout.
#include <cuda_fp16.h>

#include "engine/backend/cuda/common.cuh"
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/paged_kv.h"

namespace kvlens {

namespace {

using namespace kvlens::cuda;

template <kv_dtype D>
__global__ void kv_store_kernel(paged_kv_view kv, const float* k, const float* v, int n_tokens) {
    const int row_elems = kv.n_kv_heads * kv.head_dim;
    const int n_chunks = row_elems / 32;
    const std::int64_t item = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_size;
    const int lane = threadIdx.x % warp_size;
    if (item >= 2LL * n_tokens * n_chunks) return;
    const int c = static_cast<int>(item % n_chunks);
    const int t = static_cast<int>((item / n_chunks) % n_tokens);
    const bool is_v = item >= static_cast<std::int64_t>(n_tokens) * n_chunks;
    const int pos = kv.positions[t];
    const std::int32_t block = kv.tables[static_cast<std::int64_t>(kv.tok_row[t]) * kv.table_stride + pos / kv.block_size];
    std::uint8_t* row = (is_v ? kv.v : kv.k) +
                        (static_cast<std::int64_t>(block) * kv.block_size + pos % kv.block_size) * kv.row_bytes;
    const float x = (is_v ? v : k)[static_cast<std::int64_t>(t) * row_elems + 32 * c + lane];
    if constexpr (D == kv_dtype::f16) {
        reinterpret_cast<__half*>(row)[32 * c + lane] = __float2half_rn(x);
    } else {
        const float amax = warp_max(fabsf(x));
        const __half d16 = __float2half_rn(fminf(amax / 127.0f, 65504.0f));
        const float dq = __half2float(d16);
        const float id = dq != 0.0f ? 1.0f / dq : 0.0f;
        const int q = max(-127, min(127, static_cast<int>(roundf(x * id))));
        std::uint8_t* b = row + 34 * c;
        b[2 + lane] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q));
        if (lane == 0) *reinterpret_cast<__half*>(b) = d16;
    }
}

}  // namespace

status launch_kv_store(const paged_kv_view& kv, const float* k, const float* v, int n_tokens, cudaStream_t s) {
    const int row_elems = kv.n_kv_heads * kv.head_dim;
    if (row_elems % 32 != 0) return make_error("kv_store: K/V row is not a multiple of 32 elements");
    const std::int64_t warps = 2LL * n_tokens * (row_elems / 32);
    if (warps == 0) return {};
    constexpr int threads = 256;
    const unsigned grid = static_cast<unsigned>((warps * warp_size + threads - 1) / threads);
    if (kv.dtype == kv_dtype::f16)
        kv_store_kernel<kv_dtype::f16><<<grid, threads, 0, s>>>(kv, k, v, n_tokens);
    else
        kv_store_kernel<kv_dtype::q8_0><<<grid, threads, 0, s>>>(kv, k, v, n_tokens);
    CUDA_CHECK_LAUNCH("kv_store_kernel");
    return {};
}

}  // namespace kvlens
