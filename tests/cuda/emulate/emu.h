// SPDX-License-Identifier: Apache-2.0
// CPU emulation of the CUDA execution model, for running the kernels of
// engine/backend/cuda on a machine without a GPU (tests/cuda/emulate/run.sh).
// A launch runs its blocks one after another, each block's threads as fibers
// (ucontext) on the calling thread: __syncthreads is a block barrier, warp
// shuffles exchange through a per-warp barrier, __shared__ becomes static (one
// block at a time).
// Under "capture", launches and copies are recorded and replayed (CUDA graphs).
// Tensor cores (nvcuda::wmma, 16x16x16 f16 -> f32) are emulated in scalar
// code: every lane holds the warp's whole tile and computes the whole
// product (the same values 32 times over), so a kernel that touches
// fragments only through fill/load/mma/store is emulated exactly; a kernel
// that indexes fragment elements (x[i]) would see a different layout.
// Slow (a context switch per barrier per thread): small shapes.
#pragma once
// Skip the CUDA toolkit's mma.h: its host declarations are replaced below.
#define __CUDA_MMA_H__
#include <cuda_runtime_api.h>
#include <cuda_fp16.h>
#include <vector_types.h>
#include <ucontext.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>
#undef __global__
#define __global__
#undef __device__
#define __device__
#undef __host__
#define __host__
#undef __forceinline__
#define __forceinline__ inline
#undef __launch_bounds__
#define __launch_bounds__(...)
#undef __shared__
#define __shared__ static

namespace emu {
// One block runs at a time, its threads as fibers on this OS thread, switched
// round-robin; a thread waiting at a barrier yields until the barrier opens.
struct fiber {
    ucontext_t ctx;
    std::vector<char> stack;
    bool done = false;
};
inline ucontext_t sched;
inline std::vector<fiber> fibers;
inline int cur = 0, n_threads = 0;
inline std::uint64_t xchg[1024];
inline long block_gen = 0;
inline int block_arrived = 0;
inline long warp_gen[32];
inline int warp_arrived[32];
inline std::function<void()> body;
inline void yield() { swapcontext(&fibers[cur].ctx, &sched); }
inline void block_barrier() {
    const long gen = block_gen;
    if (++block_arrived == n_threads) { block_arrived = 0; ++block_gen; }
    while (block_gen == gen) yield();
}
inline void warp_barrier() {
    const int w = cur / 32;
    const int lanes = std::min(32, n_threads - 32 * w);
    const long gen = warp_gen[w];
    if (++warp_arrived[w] == lanes) { warp_arrived[w] = 0; ++warp_gen[w]; }
    while (warp_gen[w] == gen) yield();
}
}  // namespace emu
inline uint3 threadIdx;
inline uint3 blockIdx;
inline dim3 blockDim;
inline dim3 gridDim;

inline void __syncthreads() { emu::block_barrier(); }
inline void __syncwarp(unsigned = 0xffffffffu) { emu::warp_barrier(); }

template <class T> T emu_shfl_xor(T v, int o) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    emu::xchg[emu::cur] = bits;
    emu::warp_barrier();
    bits = emu::xchg[(emu::cur & ~31) | ((emu::cur % 32) ^ o)];
    emu::warp_barrier();
    T r;
    std::memcpy(&r, &bits, sizeof(T));
    return r;
}
#define __shfl_xor_sync(mask, v, o) emu_shfl_xor((v), (o))

inline int __dp4a(int a, int b, int c) {
    for (int i = 0; i < 4; ++i) c += static_cast<std::int8_t>(a >> (8 * i)) * static_cast<std::int8_t>(b >> (8 * i));
    return c;
}
inline float __expf(float x) { return std::exp(x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
inline void sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }
using std::max;
using std::min;

// ---- tensor cores: the wmma fragment operations, 16 x 16 x 16 only ----------
namespace nvcuda::wmma {
struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };
// The whole tile, row-major, in every lane: a (M, K), b (K, N), accumulator (M, N).
template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment {
    static_assert(M == 16 && N == 16 && K == 16, "emu.h emulates the 16x16x16 shape only");
    static constexpr int num_elements = 256;
    T x[256];
};
template <class Use, class T, class L>
void fill_fragment(fragment<Use, 16, 16, 16, T, L>& f, const T& v) {
    for (auto& e : f.x) e = v;
}
// Loads and stores are warp-collective, as on the device: a warp barrier on
// entry and exit keeps the lanes in step, so no lane reads a tile another
// lane of its warp has already overwritten (load o, mma, store o), and no
// lane overwrites a tile before every lane has read it.
// a / b: the layout comes with the fragment's type. Every lane reads the tile.
template <class Use, class T, class L>
void load_matrix_sync(fragment<Use, 16, 16, 16, T, L>& f, const T* p, unsigned ldm) {
    emu::warp_barrier();
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c)
            f.x[r * 16 + c] = std::is_same_v<L, col_major> ? p[c * ldm + r] : p[r * ldm + c];
    emu::warp_barrier();
}
inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, float>& f, const float* p, unsigned ldm, layout_t l) {
    emu::warp_barrier();
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) f.x[r * 16 + c] = l == mem_col_major ? p[c * ldm + r] : p[r * ldm + c];
    emu::warp_barrier();
}
inline void store_matrix_sync(float* p, const fragment<accumulator, 16, 16, 16, float>& f, unsigned ldm, layout_t l) {
    emu::warp_barrier();
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) (l == mem_col_major ? p[c * ldm + r] : p[r * ldm + c]) = f.x[r * 16 + c];
    emu::warp_barrier();
}
// d = a b + c, f16 products exact in f32, accumulated in f32 along k.
template <class LA, class LB>
void mma_sync(fragment<accumulator, 16, 16, 16, float>& d, const fragment<matrix_a, 16, 16, 16, __half, LA>& a,
              const fragment<matrix_b, 16, 16, 16, __half, LB>& b, const fragment<accumulator, 16, 16, 16, float>& c) {
    float out[256];
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            float s = c.x[i * 16 + j];
            for (int k = 0; k < 16; ++k) s += __half2float(a.x[i * 16 + k]) * __half2float(b.x[k * 16 + j]);
            out[i * 16 + j] = s;
        }
    std::memcpy(d.x, out, sizeof out);
}
}  // namespace nvcuda::wmma

namespace emu {
inline bool capturing = false;
inline std::vector<std::function<void()>> captured;
template <class F> void run_launch(dim3 grid, dim3 block, F fn);
template <class F> void launch(dim3 grid, dim3 block, F fn) {
    if (capturing) { captured.push_back([=] { run_launch(grid, block, fn); }); return; }
    run_launch(grid, block, fn);
}
inline void fiber_entry() {
    emu::body();
    emu::fibers[emu::cur].done = true;
}
template <class F> void run_launch(dim3 grid, dim3 block, F fn) {
    const int nt = block.x * block.y * block.z;
    body = fn;
    if (static_cast<int>(fibers.size()) < nt) fibers.resize(nt);
    blockDim = block;
    gridDim = grid;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                n_threads = nt;
                block_arrived = 0;
                for (int w = 0; w < 32; ++w) warp_arrived[w] = 0;
                for (int t = 0; t < nt; ++t) {
                    fiber& f = fibers[t];
                    f.stack.resize(256 * 1024);
                    f.done = false;
                    getcontext(&f.ctx);
                    f.ctx.uc_stack.ss_sp = f.stack.data();
                    f.ctx.uc_stack.ss_size = f.stack.size();
                    f.ctx.uc_link = &sched;
                    makecontext(&f.ctx, fiber_entry, 0);
                }
                blockIdx = uint3{bx, by, bz};
                for (int alive = nt; alive > 0;) {
                    alive = 0;
                    for (int t = 0; t < nt; ++t) {
                        if (fibers[t].done) continue;
                        cur = t;
                        threadIdx = uint3{static_cast<unsigned>(t % block.x), static_cast<unsigned>((t / block.x) % block.y),
                                          static_cast<unsigned>(t / (block.x * block.y))};
                        swapcontext(&sched, &fibers[t].ctx);
                        alive += !fibers[t].done;
                    }
                }
            }
}
}  // namespace emu
#undef cudaGetLastError
#define cudaGetLastError() (cudaSuccess)
