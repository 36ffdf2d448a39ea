// SPDX-License-Identifier: Apache-2.0
// Split-K paged attention (decode), and the dispatcher between it and the
// tensor-core prefill kernel (flash_attention.cu). A block serves one (token,
// KV head, split): the query heads of the group share every key read. Keys
// are taken in tiles: warps score keys (lanes over head_dim), then an online
// softmax update per query head, then threads over (head, dim) accumulate the
// values. As the CPU backend does, an f16 cache meets the query rounded to
// f16 and a q8_0 cache meets the f32 query (keys dequantized exactly), so
// both backends multiply the same numbers. A split's length adapts to the
// token's own key count (split_len 0), so the split count chosen at launch
// (decode_attention_splits) spreads any context over every split.
#include <algorithm>

#include <cuda_fp16.h>

#include "engine/backend/cuda/attention.h"
#include "engine/backend/cuda/common.cuh"
#include "engine/backend/cuda/cuda_check.h"

namespace kvlens {

namespace {

using namespace kvlens::cuda;

constexpr int threads = 256;
constexpr int n_warps = threads / warp_size;
constexpr int max_pairs = attention_max_group_dims / threads;   // (head, dim) pairs per thread
constexpr int max_head_dim = 256;

template <kv_dtype D>
__device__ __forceinline__ float kv_elem(const std::uint8_t* row, int e) {
    if constexpr (D == kv_dtype::f16) {
        return __half2float(reinterpret_cast<const __half*>(row)[e]);
    } else {
        const std::uint8_t* b = row + 34 * (e / 32);
        return load_f16(b) * static_cast<float>(static_cast<std::int8_t>(b[2 + e % 32]));
    }
}

template <kv_dtype D>
__global__ void __launch_bounds__(threads) split_k_attention_kernel(attention_params p) {
    extern __shared__ float smem[];
    const paged_kv_view& kv = p.kv;
    const int hd = kv.head_dim;
    const int group = p.n_head / kv.n_kv_heads;
    const int gd = group * hd;
    const int kvh = blockIdx.x, t = blockIdx.y, split = blockIdx.z;
    const int tid = threadIdx.x, lane = tid % warp_size, warp = tid / warp_size;

    float* q_s = smem;                                   // (group, hd) queries in the K format
    float* s_s = q_s + gd;                               // (group, tile) scores, then probabilities
    float* m_s = s_s + group * attention_tile;           // (group) running max
    float* l_s = m_s + group;                            // (group) running sum
    float* f_s = l_s + group;                            // (group) rescale of this tile
    std::int64_t* off_s = reinterpret_cast<std::int64_t*>(f_s + group + (group & 1));   // (tile) row offsets

    const int pos = kv.positions[t];
    const int first = p.window > 0 ? max(0, pos - p.window + 1) : 0;
    const int split_len = p.split_len > 0 ? p.split_len
                                          : ceil_div(ceil_div(pos + 1 - first, p.n_splits), attention_tile) * attention_tile;
    const long long begin_ll = static_cast<long long>(first) + static_cast<long long>(split) * split_len;
    const int begin = static_cast<int>(min(begin_ll, static_cast<long long>(pos + 1)));
    const int end = static_cast<int>(min(begin_ll + split_len, static_cast<long long>(pos + 1)));
    const std::int32_t* table = kv.tables + static_cast<std::int64_t>(kv.tok_row[t]) * kv.table_stride;
    const std::int64_t head_off = D == kv_dtype::f16 ? static_cast<std::int64_t>(kvh) * hd * 2
                                                     : static_cast<std::int64_t>(kvh) * hd / 32 * 34;

    // Queries of the group: rounded to f16 for an f16 cache, f32 for q8_0.
    const float* qg = p.q + (static_cast<std::int64_t>(t) * p.n_head + static_cast<std::int64_t>(kvh) * group) * hd;
    for (int i = tid; i < gd; i += threads) {
        const float x = qg[i];
        q_s[i] = D == kv_dtype::f16 ? __half2float(__float2half_rn(x)) : x;
    }
    if (tid < group) {
        m_s[tid] = -INFINITY;
        l_s[tid] = 0.0f;
    }
    float acc[max_pairs];
#pragma unroll
    for (int i = 0; i < max_pairs; ++i) acc[i] = 0.0f;
    __syncthreads();

    for (int j0 = begin; j0 < end; j0 += attention_tile) {
        const int n_valid = min(attention_tile, end - j0);
        // Scores: warp per key, lanes over the head's dimensions.
        for (int jj = warp; jj < n_valid; jj += n_warps) {
            const int key = j0 + jj;
            const std::int64_t off =
                (static_cast<std::int64_t>(table[key / kv.block_size]) * kv.block_size + key % kv.block_size) *
                kv.row_bytes + head_off;
            const std::uint8_t* krow = kv.k + off;
            float kr[max_head_dim / warp_size];
#pragma unroll
            for (int i = 0; i < max_head_dim / warp_size; ++i)
                kr[i] = lane + 32 * i < hd ? kv_elem<D>(krow, lane + 32 * i) : 0.0f;
            for (int g = 0; g < group; ++g) {
                float sdot = 0.0f;
#pragma unroll
                for (int i = 0; i < max_head_dim / warp_size; ++i)
                    if (lane + 32 * i < hd) sdot += q_s[g * hd + lane + 32 * i] * kr[i];
                sdot = warp_sum(sdot);
                if (lane == 0) {
                    float sc = sdot * p.scale;
                    if (p.softcap > 0) sc = p.softcap * tanhf(sc / p.softcap);   // Gemma 2
                    s_s[g * attention_tile + jj] = sc;
                }
            }
            if (lane == 0) off_s[jj] = off;
        }
        __syncthreads();
        // Online softmax update: warp per query head.
        for (int g = warp; g < group; g += n_warps) {
            float* sg = s_s + g * attention_tile;
            float tmax = -INFINITY;
            for (int jj = lane; jj < n_valid; jj += warp_size) tmax = fmaxf(tmax, sg[jj]);
            tmax = warp_max(tmax);
            const float m_new = fmaxf(m_s[g], tmax);
            float psum = 0.0f;
            for (int jj = lane; jj < n_valid; jj += warp_size) {
                const float e = __expf(sg[jj] - m_new);
                sg[jj] = e;
                psum += e;
            }
            psum = warp_sum(psum);
            if (lane == 0) {
                const float f = __expf(m_s[g] - m_new);   // 0 on the first tile (m = -inf)
                f_s[g] = f;
                l_s[g] = l_s[g] * f + psum;
                m_s[g] = m_new;
            }
        }
        __syncthreads();
        // Values: thread per (query head, dimension) pairs.
#pragma unroll
        for (int i = 0; i < max_pairs; ++i) {
            const int idx = tid + i * threads;
            if (idx < gd) {
                const int g = idx / hd, d = idx % hd;
                const float* pg = s_s + g * attention_tile;
                float a = acc[i] * f_s[g];
                for (int jj = 0; jj < n_valid; ++jj) a += pg[jj] * kv_elem<D>(kv.v + off_s[jj], d);
                acc[i] = a;
            }
        }
        __syncthreads();
    }

    // Output: normalized directly, or a partial for the combine kernel.
    const std::int64_t head0 = static_cast<std::int64_t>(t) * p.n_head + static_cast<std::int64_t>(kvh) * group;
#pragma unroll
    for (int i = 0; i < max_pairs; ++i) {
        const int idx = tid + i * threads;
        if (idx < gd) {
            const int g = idx / hd, d = idx % hd;
            if (p.n_splits == 1) {
                p.out[(head0 + g) * hd + d] = l_s[g] > 0.0f ? acc[i] / l_s[g] : 0.0f;
            } else {
                const std::int64_t slot = (head0 + g) * p.n_splits + split;
                p.part_acc[slot * hd + d] = acc[i];
                if (d == 0) {
                    p.part_ml[2 * slot] = m_s[g];
                    p.part_ml[2 * slot + 1] = l_s[g];
                }
            }
        }
    }
}

// Merges the splits of one (token, head): out = sum_s e^(m_s - M) acc_s / sum_s e^(m_s - M) l_s.
__global__ void attention_combine_kernel(const float* part_acc, const float* part_ml, float* out, int n_splits,
                                         int hd) {
    const std::int64_t th = blockIdx.x;   // token * n_head + head
    const float* ml = part_ml + th * n_splits * 2;
    float m = -INFINITY;
    for (int s = 0; s < n_splits; ++s)
        if (ml[2 * s + 1] > 0.0f) m = fmaxf(m, ml[2 * s]);
    for (int d = threadIdx.x; d < hd; d += blockDim.x) {
        float num = 0.0f, den = 0.0f;
        for (int s = 0; s < n_splits; ++s) {
            if (ml[2 * s + 1] <= 0.0f) continue;   // a split with no keys
            const float w = __expf(ml[2 * s] - m);
            num += w * part_acc[(th * n_splits + s) * hd + d];
            den += w * ml[2 * s + 1];
        }
        out[th * hd + d] = den > 0.0f ? num / den : 0.0f;
    }
}

}  // namespace

attention_kernel choose_attention_kernel(int n_tokens, int n_head, int n_kv_heads, int head_dim) {
    const long long rows = n_kv_heads > 0 ? static_cast<long long>(n_tokens) * (n_head / n_kv_heads) : 0;
    const bool tiles_fit = head_dim % 32 == 0 && head_dim <= flash_max_head_dim;   // % 32: q8_0 blocks too
    return n_tokens >= flash_min_tokens && rows >= flash_min_rows && tiles_fit ? attention_kernel::flash : attention_kernel::split_k;
}

int decode_attention_splits(int sm_count, int n_kv_heads, int n_tokens, int max_ctx) {
    const long long blocks = std::max(1LL, static_cast<long long>(n_kv_heads) * std::max(1, n_tokens));
    const long long want = (2LL * std::max(1, sm_count) + blocks - 1) / blocks;
    const long long tiles = std::max(1, ceil_div(std::max(1, max_ctx), attention_tile));
    return static_cast<int>(std::clamp(want, 1LL, tiles));
}

status launch_attention(const attention_params& p, cudaStream_t s) {
    if (choose_attention_kernel(p.n_tokens, p.n_head, p.kv.n_kv_heads, p.kv.head_dim) == attention_kernel::flash)
        return launch_flash_attention(p, s);
    return launch_split_k_attention(p, s);
}

status launch_split_k_attention(const attention_params& p, cudaStream_t s) {
    const int hd = p.kv.head_dim;
    if (p.n_tokens == 0) return {};
    if (p.kv.n_kv_heads <= 0 || p.n_head % p.kv.n_kv_heads != 0) return make_error("attention: heads not a multiple of KV heads");
    const int group = p.n_head / p.kv.n_kv_heads;
    if (hd > max_head_dim || group * hd > attention_max_group_dims)
        return make_error("attention: head_dim or query group too large for the CUDA kernel");
    if (p.kv.dtype == kv_dtype::q8_0 && hd % 32 != 0) return make_error("attention: q8_0 KV needs head_dim % 32 == 0");
    if (p.n_splits < 1 || p.split_len < 0 || p.split_len % attention_tile != 0) return make_error("attention: bad split");
    const std::size_t smem = sizeof(float) * (static_cast<std::size_t>(group) * hd + group * attention_tile + 3 * group + 1) +
                             sizeof(std::int64_t) * (attention_tile + 1);
    const dim3 grid(p.kv.n_kv_heads, p.n_tokens, p.n_splits);
    if (p.kv.dtype == kv_dtype::f16)
        split_k_attention_kernel<kv_dtype::f16><<<grid, threads, smem, s>>>(p);
    else
        split_k_attention_kernel<kv_dtype::q8_0><<<grid, threads, smem, s>>>(p);
    CUDA_CHECK_LAUNCH("split_k_attention_kernel");
    if (p.n_splits > 1) {
        attention_combine_kernel<<<p.n_tokens * p.n_head, hd < 128 ? 64 : 128, 0, s>>>(p.part_acc, p.part_ml, p.out,
                                                                                       p.n_splits, hd);
        CUDA_CHECK_LAUNCH("attention_combine_kernel");
    }
    return {};
}

}  // namespace kvlens
