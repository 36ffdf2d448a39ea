// SPDX-License-Identifier: Apache-2.0
// Dequantizing matrix-vector kernels. One warp per output row; its lanes walk
// the row's blocks so that a warp reads the row's bytes once, contiguously,
// and every token of the batch reuses what was read. Sums are reduced across
// the warp at the end.
#include "engine/backend/cuda/matvec.h"

#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/dequant.cuh"

namespace kvlens {

namespace {

using namespace kvlens::cuda;

constexpr int rows_per_cta = 4;   // warps per block, one row each

// ---- integer path: q4_0, q4_1, q8_0 against q8_1 activations --------------------
// A unit is half a 32-element block; lane u takes units u, u + 32, ...

// Partial dot of half h of weight block `blk` with activation block `a`.
template <ggml_type T> __device__ float dot_half(const std::uint8_t* blk, int h, const block_q8_1_dev& a);

template <> __device__ __forceinline__ float dot_half<ggml_type::q4_0>(const std::uint8_t* blk, int h,
                                                                       const block_q8_1_dev& a) {
    const int* aq = reinterpret_cast<const int*>(a.qs);
    const int v0 = load_int_b2(blk + 2, 2 * h), v1 = load_int_b2(blk + 2, 2 * h + 1);
    int s = __dp4a(v0 & 0x0F0F0F0F, aq[2 * h], 0);
    s = __dp4a(v1 & 0x0F0F0F0F, aq[2 * h + 1], s);
    s = __dp4a((v0 >> 4) & 0x0F0F0F0F, aq[4 + 2 * h], s);
    s = __dp4a((v1 >> 4) & 0x0F0F0F0F, aq[4 + 2 * h + 1], s);
    // value = d_w * (q - 8): the -8 folds in once per block through the exact sum of the activation quants.
    return load_f16(blk) * a.d * static_cast<float>(h == 0 ? s - 8 * a.sum : s);
}

template <> __device__ __forceinline__ float dot_half<ggml_type::q4_1>(const std::uint8_t* blk, int h,
                                                                       const block_q8_1_dev& a) {
    const int* aq = reinterpret_cast<const int*>(a.qs);
    const int v0 = load_int_b4(blk + 4, 2 * h), v1 = load_int_b4(blk + 4, 2 * h + 1);
    int s = __dp4a(v0 & 0x0F0F0F0F, aq[2 * h], 0);
    s = __dp4a(v1 & 0x0F0F0F0F, aq[2 * h + 1], s);
    s = __dp4a((v0 >> 4) & 0x0F0F0F0F, aq[4 + 2 * h], s);
    s = __dp4a((v1 >> 4) & 0x0F0F0F0F, aq[4 + 2 * h + 1], s);
    float r = load_f16(blk) * a.d * static_cast<float>(s);
    if (h == 0) r += load_f16(blk + 2) * a.s;   // value = d * q + m
    return r;
}

template <> __device__ __forceinline__ float dot_half<ggml_type::q8_0>(const std::uint8_t* blk, int h,
                                                                       const block_q8_1_dev& a) {
    const int* aq = reinterpret_cast<const int*>(a.qs);
    int s = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) s = __dp4a(load_int_b2(blk + 2, 4 * h + i), aq[4 * h + i], s);
    return load_f16(blk) * a.d * static_cast<float>(s);
}

template <ggml_type T>
__global__ void __launch_bounds__(rows_per_cta * warp_size)
matvec_q8_kernel(const std::uint8_t* w, std::int64_t row_bytes, int n_blocks, std::int64_t n_out,
                 const block_q8_1_dev* xq, int n, float* y) {
    const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * rows_per_cta + threadIdx.y;
    if (row >= n_out) return;
    const int lane = threadIdx.x;
    const std::uint8_t* wr = w + row * row_bytes;
    float acc[mv_max_tokens] = {};
#pragma unroll 4   // several blocks' loads in flight per lane
    for (int u = lane; u < 2 * n_blocks; u += warp_size) {
        const int b = u >> 1, h = u & 1;
        const std::uint8_t* blk = wr + static_cast<std::int64_t>(b) * wtype<T>::bytes;
#pragma unroll
        for (int j = 0; j < mv_max_tokens; ++j)
            if (j < n) acc[j] += dot_half<T>(blk, h, xq[static_cast<std::int64_t>(j) * n_blocks + b]);
    }
#pragma unroll
    for (int j = 0; j < mv_max_tokens; ++j) {
        if (j >= n) break;
        const float v = warp_sum(acc[j]);
        if (lane == 0) y[j * n_out + row] = v;
    }
}

// ---- float path: f32, f16, bf16 and the K-quants against f32 activations -----------
// Lane c takes 32-element chunks c, c + 32, ...

template <ggml_type T>
__global__ void __launch_bounds__(rows_per_cta * warp_size)
matvec_f32_kernel(const std::uint8_t* w, std::int64_t row_bytes, int n_chunks, std::int64_t n_out, const float* x,
                  int n, float* y) {
    const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * rows_per_cta + threadIdx.y;
    if (row >= n_out) return;
    const int lane = threadIdx.x;
    const std::uint8_t* wr = w + row * row_bytes;
    const std::int64_t n_in = static_cast<std::int64_t>(n_chunks) * 32;
    float acc[mv_max_tokens] = {};
    for (int c = lane; c < n_chunks; c += warp_size) {
        float wv[32];
        dequant32<T>(wr, c, wv);
#pragma unroll
        for (int j = 0; j < mv_max_tokens; ++j) {
            if (j >= n) break;
            const float4* xv = reinterpret_cast<const float4*>(x + j * n_in + 32 * c);
            float s = 0.0f;
#pragma unroll
            for (int k = 0; k < 8; ++k) {
                const float4 v = xv[k];
                s += wv[4 * k] * v.x + wv[4 * k + 1] * v.y + wv[4 * k + 2] * v.z + wv[4 * k + 3] * v.w;
            }
            acc[j] += s;
        }
    }
#pragma unroll
    for (int j = 0; j < mv_max_tokens; ++j) {
        if (j >= n) break;
        const float v = warp_sum(acc[j]);
        if (lane == 0) y[j * n_out + row] = v;
    }
}

}  // namespace

bool matvec_takes_q8_1(ggml_type t) {
    return t == ggml_type::q4_0 || t == ggml_type::q4_1 || t == ggml_type::q8_0;
}

status launch_matvec(const dev_matrix& w, const float* x, const block_q8_1_dev* xq, int n, float* y,
                     cudaStream_t s) {
    if (n < 1 || n > mv_max_tokens) return make_error("matvec: batch outside 1..8 tokens");
    if (w.n_in % 32 != 0) return make_error("matvec: row length is not a multiple of 32");
    const dim3 block(warp_size, rows_per_cta);
    const unsigned grid = static_cast<unsigned>((w.n_out + rows_per_cta - 1) / rows_per_cta);
    const int n_chunks = static_cast<int>(w.n_in / 32);
    switch (w.type) {
    case ggml_type::q4_0:
        matvec_q8_kernel<ggml_type::q4_0><<<grid, block, 0, s>>>(w.data, w.row_bytes, n_chunks, w.n_out, xq, n, y);
        break;
    case ggml_type::q4_1:
        matvec_q8_kernel<ggml_type::q4_1><<<grid, block, 0, s>>>(w.data, w.row_bytes, n_chunks, w.n_out, xq, n, y);
        break;
    case ggml_type::q8_0:
        matvec_q8_kernel<ggml_type::q8_0><<<grid, block, 0, s>>>(w.data, w.row_bytes, n_chunks, w.n_out, xq, n, y);
        break;
    case ggml_type::f32:
    case ggml_type::f16:
    case ggml_type::bf16:
    case ggml_type::q4_K:
    case ggml_type::q5_K:
    case ggml_type::q6_K:
    case ggml_type::q5_0:
    case ggml_type::q5_1:
    case ggml_type::q2_K:
    case ggml_type::q3_K:
    case ggml_type::iq4_nl:
    case ggml_type::iq4_xs:
        if (traits_of(w.type).block_size == 256 && w.n_in % 256 != 0)
            return make_error("matvec: K-quant row length is not a multiple of 256");
        KVLENS_WEIGHT_TYPE_SWITCH(w.type, (matvec_f32_kernel<T><<<grid, block, 0, s>>>(w.data, w.row_bytes, n_chunks,
                                                                                     w.n_out, x, n, y)));
        break;
    default:
        return make_error(std::string("matvec: no CUDA kernel for ") + type_name(w.type));
    }
    CUDA_CHECK_LAUNCH("matvec kernel");
    return {};
}

}  // namespace kvlens
