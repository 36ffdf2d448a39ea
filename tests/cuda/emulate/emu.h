// SPDX-License-Identifier: Apache-2.0
// CPU emulation of the CUDA execution model, for running the kernels of
// engine/backend/cuda on a machine without a GPU (tests/cuda/emulate/run.sh).
// A launch runs its blocks one after another, each block's threads as fibers
// (ucontext) on the calling thread: __syncthreads is a block barrier, warp
// shuffles exchange through a per-warp barrier, __shared__ becomes static (one
// block at a time).
// Under "capture", launches and copies are recorded and replayed (CUDA graphs).
// Slow (a context switch per barrier per thread): small shapes.
#pragma once
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
