// SPDX-License-Identifier: Apache-2.0
// Prefill attention on the tensor cores, flash-attention style, over the
// paged KV cache. A block holds 64 query rows (4 warps x 16) of one KV head:
// row r of the batch is (token r / group, query head r % group of the group),
// so the heads of a GQA group share every K/V tile the block loads. Per tile
// of 64 keys: K and V go to shared memory as f16 (a q8_0 cache dequantized),
// each warp computes its 16 x 64 scores with wmma (f16 in, f32 accumulate),
// an online softmax turns them into f16 probabilities (the CPU backend also
// rounds probabilities to f16), and the warp adds P.V to its f32 output rows,
// which live in shared memory (so the softmax rescale never needs to know the
// accumulator fragment's register layout). Rows from different sequences
// (a batch mixing a prefill chunk with decode tokens) are served one table
// row after the other, the others masked. Numerics: queries rounded to f16
// (the CPU's f16-cache path does the same; for a q8_0 cache the CPU keeps the
// f32 query and exact d*q keys, here both meet as f16).
#include <cuda_fp16.h>
#include <mma.h>

#include "engine/backend/cuda/attention.h"
#include "engine/backend/cuda/common.cuh"
#include "engine/backend/cuda/cuda_check.h"

namespace kvlens {

namespace {

using namespace kvlens::cuda;
namespace wm = nvcuda::wmma;

constexpr int fa_rows = 64;                 // query rows per block
constexpr int fa_keys = 64;                 // keys per tile
constexpr int fa_warps = fa_rows / 16;
constexpr int fa_threads = fa_warps * warp_size;
constexpr int s_ld = fa_keys + 4;           // f32 scores row stride (floats)
constexpr int p_ld = fa_keys + 8;           // f16 probabilities row stride (halves)

struct fa_layout {
    int hd, kv_ld, o_ld;
    std::size_t q, k, v, s, pr, o, ml, rows, offs, total;   // byte offsets into shared memory
};

__host__ __device__ inline std::size_t align_up(std::size_t x) { return (x + 127) / 128 * 128; }

__host__ __device__ inline fa_layout make_layout(int hd) {
    fa_layout L{};
    L.hd = hd;
    L.kv_ld = hd + 8;   // halves; keeps rows 16-byte aligned and spreads banks
    L.o_ld = hd + 4;    // floats
    std::size_t at = 0;
    L.q = at;    at = align_up(at + sizeof(__half) * fa_rows * L.kv_ld);   // (64, hd) f16 queries
    L.k = at;    at = align_up(at + sizeof(__half) * fa_keys * L.kv_ld);   // (64 keys, hd) f16
    L.v = at;    at = align_up(at + sizeof(__half) * fa_keys * L.kv_ld);   // (64 keys, hd) f16
    L.s = at;    at = align_up(at + sizeof(float) * fa_rows * s_ld);       // (64, 64) f32 scores
    L.pr = at;   at = align_up(at + sizeof(__half) * fa_rows * p_ld);      // (64, 64) f16 probabilities
    L.o = at;    at = align_up(at + sizeof(float) * fa_rows * L.o_ld);     // (64, hd) f32 outputs
    L.ml = at;   at = align_up(at + sizeof(float) * 3 * fa_rows);          // running max, sum, rescale
    L.rows = at; at = align_up(at + sizeof(int) * 5 * fa_rows + 4 * sizeof(int));  // row info, loop state
    L.offs = at; at = align_up(at + sizeof(std::int64_t) * fa_keys);       // the tile's row offsets
    L.total = at;
    return L;
}

// Eight consecutive elements of a head row as f16 (f16: one 16-byte load;
// q8_0: d * q rounded to f16).
template <kv_dtype D>
__device__ __forceinline__ void load8(const std::uint8_t* head, int e0, __half* dst) {
    if constexpr (D == kv_dtype::f16) {
        *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(head + 2 * e0);
    } else {
        const std::uint8_t* b = head + 34 * (e0 / 32);
        const float d = load_f16(b);
        const std::uint8_t* qs = b + 2 + e0 % 32;
#pragma unroll
        for (int i = 0; i < 8; ++i) dst[i] = __float2half_rn(d * static_cast<float>(static_cast<std::int8_t>(qs[i])));
    }
}

template <kv_dtype D>
__global__ void __launch_bounds__(fa_threads) flash_attention_kernel(attention_params p) {
    extern __shared__ __align__(128) unsigned char fa_smem[];
    const paged_kv_view& kv = p.kv;
    const int hd = kv.head_dim;
    const fa_layout L = make_layout(hd);
    const int group = p.n_head / kv.n_kv_heads;
    const int n_rows = p.n_tokens * group;
    const int row0 = blockIdx.x * fa_rows, kvh = blockIdx.y;
    const int tid = threadIdx.x, lane = tid % warp_size, warp = tid / warp_size;

    __half* q_s = reinterpret_cast<__half*>(fa_smem + L.q);
    __half* k_s = reinterpret_cast<__half*>(fa_smem + L.k);
    __half* v_s = reinterpret_cast<__half*>(fa_smem + L.v);
    float* s_s = reinterpret_cast<float*>(fa_smem + L.s);
    __half* p_s = reinterpret_cast<__half*>(fa_smem + L.pr);
    float* o_s = reinterpret_cast<float*>(fa_smem + L.o);
    float* m_s = reinterpret_cast<float*>(fa_smem + L.ml);
    float* l_s = m_s + fa_rows;
    float* f_s = l_s + fa_rows;
    int* pos_s = reinterpret_cast<int*>(fa_smem + L.rows);   // (64) position, -1: no row
    int* first_s = pos_s + fa_rows;                          // (64) first visible key
    int* trow_s = first_s + fa_rows;                         // (64) block-table row
    int* done_s = trow_s + fa_rows;                          // (64) served already
    int* state = done_s + 2 * fa_rows;                       // table row now served, key range
    std::int64_t* off_s = reinterpret_cast<std::int64_t*>(fa_smem + L.offs);

    // Row info, queries (f16), zeroed outputs.
    if (tid < fa_rows) {
        const int r = row0 + tid;
        if (r < n_rows) {
            const int t = r / group;
            const int pos = kv.positions[t];
            pos_s[tid] = pos;
            first_s[tid] = p.window > 0 ? max(0, pos - p.window + 1) : 0;
            trow_s[tid] = kv.tok_row[t];
            done_s[tid] = 0;
        } else {
            pos_s[tid] = -1;
            done_s[tid] = 1;
        }
        m_s[tid] = -INFINITY;
        l_s[tid] = 0.0f;
    }
    for (int i = tid; i < fa_rows * hd; i += fa_threads) {
        const int rr = i / hd, d = i % hd, r = row0 + rr;
        float x = 0.0f;
        if (r < n_rows) {
            const int t = r / group, g = r % group;
            x = p.q[(static_cast<std::int64_t>(t) * p.n_head + static_cast<std::int64_t>(kvh) * group + g) * hd + d];
        }
        q_s[rr * L.kv_ld + d] = __float2half_rn(x);
        o_s[rr * L.o_ld + d] = 0.0f;
    }
    __syncthreads();

    const std::int64_t head_off = D == kv_dtype::f16 ? static_cast<std::int64_t>(kvh) * hd * 2
                                                     : static_cast<std::int64_t>(kvh) * hd / 32 * 34;
    const int n_chunks = hd / 8;
    for (;;) {
        // The next table row with rows left, and the key range its rows see.
        if (tid == 0) {
            int R = -1, lo = 1 << 30, hi = -1;
            for (int r = 0; r < fa_rows; ++r)
                if (!done_s[r] && (R < 0 || trow_s[r] == R)) {
                    R = trow_s[r];
                    lo = min(lo, first_s[r]);
                    hi = max(hi, pos_s[r]);
                    done_s[r] = 1;
                }
            state[0] = R;
            state[1] = lo;
            state[2] = hi;
        }
        __syncthreads();
        const int R = state[0], lo = state[1], hi = state[2];
        if (R < 0) break;
        const std::int32_t* table = kv.tables + static_cast<std::int64_t>(R) * kv.table_stride;

        for (int j0 = lo; j0 <= hi; j0 += fa_keys) {
            // K and V tile into shared memory; keys past hi are zeros (masked below).
            if (tid < fa_keys) {
                const int key = j0 + tid;
                off_s[tid] = key <= hi ? (static_cast<std::int64_t>(table[key / kv.block_size]) * kv.block_size +
                                          key % kv.block_size) * kv.row_bytes + head_off
                                       : -1;
            }
            __syncthreads();
            for (int i = tid; i < fa_keys * n_chunks; i += fa_threads) {
                const int kk = i / n_chunks, e0 = (i % n_chunks) * 8;
                __half* kd = k_s + kk * L.kv_ld + e0;
                __half* vd = v_s + kk * L.kv_ld + e0;
                if (off_s[kk] >= 0) {
                    load8<D>(kv.k + off_s[kk], e0, kd);
                    load8<D>(kv.v + off_s[kk], e0, vd);
                } else {
#pragma unroll
                    for (int e = 0; e < 8; ++e) kd[e] = vd[e] = __float2half_rn(0.0f);
                }
            }
            __syncthreads();

            // Scores of this warp's 16 rows: S = Q K^T (16 x 64), f32.
            float* s_w = s_s + warp * 16 * s_ld;
            for (int n = 0; n < fa_keys / 16; ++n) {
                wm::fragment<wm::accumulator, 16, 16, 16, float> acc;
                wm::fill_fragment(acc, 0.0f);
                for (int kd = 0; kd < hd; kd += 16) {
                    wm::fragment<wm::matrix_a, 16, 16, 16, __half, wm::row_major> a;
                    wm::fragment<wm::matrix_b, 16, 16, 16, __half, wm::col_major> b;
                    wm::load_matrix_sync(a, q_s + warp * 16 * L.kv_ld + kd, L.kv_ld);
                    wm::load_matrix_sync(b, k_s + n * 16 * L.kv_ld + kd, L.kv_ld);
                    wm::mma_sync(acc, a, b, acc);
                }
                wm::store_matrix_sync(s_w + n * 16, acc, s_ld, wm::mem_row_major);
            }
            __syncwarp();

            // Online softmax: two lanes per row, 32 keys each.
            {
                const int rr = lane / 2, half_i = lane % 2, r = warp * 16 + rr;
                const bool serve = pos_s[r] >= 0 && trow_s[r] == R;
                const int first = first_s[r], pos = pos_s[r];
                float* srow = s_w + rr * s_ld + 32 * half_i;
                __half* prow = p_s + r * p_ld + 32 * half_i;
                float tmax = -INFINITY;
                for (int c = 0; c < 32; ++c) {
                    const int key = j0 + 32 * half_i + c;
                    const bool vis = serve && key >= first && key <= pos;
                    float sc = vis ? srow[c] * p.scale : -INFINITY;
                    if (vis && p.softcap > 0) sc = p.softcap * tanhf(sc / p.softcap);   // Gemma 2
                    srow[c] = sc;
                    tmax = fmaxf(tmax, sc);
                }
                tmax = fmaxf(tmax, __shfl_xor_sync(0xffffffffu, tmax, 1));
                const float m_old = m_s[r];
                const float m_new = fmaxf(m_old, tmax);
                float psum = 0.0f;
                for (int c = 0; c < 32; ++c) {
                    const float e = m_new == -INFINITY ? 0.0f : __expf(srow[c] - m_new);
                    const __half h = __float2half_rn(e);
                    prow[c] = h;
                    psum += __half2float(h);
                }
                psum += __shfl_xor_sync(0xffffffffu, psum, 1);
                __syncwarp();
                if (half_i == 0) {
                    const float f = m_new == -INFINITY ? 1.0f : __expf(m_old - m_new);
                    f_s[r] = f;
                    l_s[r] = l_s[r] * f + psum;
                    m_s[r] = m_new;
                }
            }
            __syncwarp();
            // Rescale this warp's output rows, then O += P V.
            for (int i = lane; i < 16 * hd; i += warp_size) {
                const int r = warp * 16 + i / hd;
                o_s[r * L.o_ld + i % hd] *= f_s[r];
            }
            __syncwarp();
            for (int n = 0; n < hd; n += 16) {
                wm::fragment<wm::accumulator, 16, 16, 16, float> acc;
                float* o_tile = o_s + warp * 16 * L.o_ld + n;
                wm::load_matrix_sync(acc, o_tile, L.o_ld, wm::mem_row_major);
                for (int kk = 0; kk < fa_keys; kk += 16) {
                    wm::fragment<wm::matrix_a, 16, 16, 16, __half, wm::row_major> a;
                    wm::fragment<wm::matrix_b, 16, 16, 16, __half, wm::row_major> b;
                    wm::load_matrix_sync(a, p_s + warp * 16 * p_ld + kk, p_ld);
                    wm::load_matrix_sync(b, v_s + kk * L.kv_ld + n, L.kv_ld);
                    wm::mma_sync(acc, a, b, acc);
                }
                wm::store_matrix_sync(o_tile, acc, L.o_ld, wm::mem_row_major);
            }
            __syncthreads();   // k_s / v_s are refilled next
        }
    }

    // Normalized outputs.
    for (int i = tid; i < fa_rows * hd; i += fa_threads) {
        const int rr = i / hd, d = i % hd, r = row0 + rr;
        if (r >= n_rows) continue;
        const int t = r / group, g = r % group;
        const float l = l_s[rr];
        p.out[(static_cast<std::int64_t>(t) * p.n_head + static_cast<std::int64_t>(kvh) * group + g) * hd + d] =
            l > 0.0f ? o_s[rr * L.o_ld + d] / l : 0.0f;
    }
}

// Above 48 KiB of dynamic shared memory a kernel must opt in.
template <kv_dtype D>
status launch_typed(const attention_params& p, dim3 grid, std::size_t smem, cudaStream_t s) {
    const void* fn = reinterpret_cast<const void*>(&flash_attention_kernel<D>);
    CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    flash_attention_kernel<D><<<grid, fa_threads, smem, s>>>(p);
    return {};
}

}  // namespace

std::size_t flash_attention_smem_bytes(int head_dim) { return make_layout(head_dim).total; }

status launch_flash_attention(const attention_params& p, cudaStream_t s) {
    const int hd = p.kv.head_dim;
    if (p.n_tokens == 0) return {};
    if (p.kv.n_kv_heads <= 0 || p.n_head % p.kv.n_kv_heads != 0) return make_error("flash attention: heads not a multiple of KV heads");
    if (hd % 16 != 0 || hd > flash_max_head_dim) return make_error("flash attention: head_dim must be a multiple of 16, at most 256");
    if (p.kv.dtype == kv_dtype::q8_0 && hd % 32 != 0) return make_error("flash attention: q8_0 KV needs head_dim % 32 == 0");
    const int group = p.n_head / p.kv.n_kv_heads;
    const std::int64_t n_rows = static_cast<std::int64_t>(p.n_tokens) * group;
    const std::size_t smem = flash_attention_smem_bytes(hd);
    const dim3 grid(static_cast<unsigned>((n_rows + fa_rows - 1) / fa_rows), static_cast<unsigned>(p.kv.n_kv_heads));
    if (p.kv.dtype == kv_dtype::f16) {
        if (auto st = launch_typed<kv_dtype::f16>(p, grid, smem, s); !st) return st;
    } else {
        if (auto st = launch_typed<kv_dtype::q8_0>(p, grid, smem, s); !st) return st;
    }
    CUDA_CHECK_LAUNCH("flash_attention_kernel");
    return {};
}

}  // namespace kvlens
