// SPDX-License-Identifier: Apache-2.0
// CPU emulation of the CUDA execution model, for running the kernels of
// engine/backend/cuda on a machine without a GPU (tests/cuda/emulate/run.sh).
// A launch runs its blocks one after another, each block as one std::thread
// per CUDA thread: __syncthreads is a block barrier, warp shuffles exchange
// through a per-warp barrier, __shared__ becomes static (one block at a time).
// Under "capture", launches and copies are recorded and replayed (CUDA graphs).
// Slow (a thread per CUDA thread): only for small shapes.
#pragma once
#include <cuda_runtime_api.h>
#include <cuda_fp16.h>
#include <vector_types.h>
#include <barrier>
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
struct block_ctx {
    std::unique_ptr<std::barrier<>> block_bar;
    std::vector<std::unique_ptr<std::barrier<>>> warp_bar;
    std::vector<std::uint64_t> xchg;   // per thread
};
inline thread_local block_ctx* ctx = nullptr;
inline thread_local int tlinear = 0;
}
inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;

inline void __syncthreads() { emu::ctx->block_bar->arrive_and_wait(); }

template <class T> T emu_shfl_xor(T v, int o) {
    auto& c = *emu::ctx;
    const int lane = emu::tlinear % 32, w = emu::tlinear / 32;
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    c.xchg[emu::tlinear] = bits;
    c.warp_bar[w]->arrive_and_wait();
    bits = c.xchg[w * 32 + (lane ^ o)];
    c.warp_bar[w]->arrive_and_wait();
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
template <class F> void run_launch(dim3 grid, dim3 block, F fn) {
    const int nt = block.x * block.y * block.z;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                block_ctx c;
                c.block_bar = std::make_unique<std::barrier<>>(nt);
                for (int w = 0; w < (nt + 31) / 32; ++w) c.warp_bar.push_back(std::make_unique<std::barrier<>>(std::min(32, nt - 32 * w)));
                c.xchg.resize(nt);
                std::vector<std::thread> ts;
                for (int t = 0; t < nt; ++t)
                    ts.emplace_back([&, t] {
                        ctx = &c;
                        tlinear = t;
                        threadIdx = uint3{static_cast<unsigned>(t % block.x), static_cast<unsigned>((t / block.x) % block.y),
                                          static_cast<unsigned>(t / (block.x * block.y))};
                        blockIdx = uint3{bx, by, bz};
                        blockDim = block;
                        gridDim = grid;
                        fn();
                    });
                for (auto& t : ts) t.join();
            }
}
}
#undef cudaGetLastError
#define cudaGetLastError() (cudaSuccess)
