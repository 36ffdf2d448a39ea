// SPDX-License-Identifier: Apache-2.0
// The emulator's tensor-core operations (emu.h, nvcuda::wmma) against a plain
// double-precision product, so the flash-attention kernel's emulated runs
// rest on checked ground: a and b in both layouts, an accumulator loaded from
// and stored to shared memory by two warps at once (the read-modify-write the
// kernel does on its output rows), ld strides wider than the tile.
// Built and run by run.sh (compiled with -include emu.h), not by CMake.
#include <cmath>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include <cuda_fp16.h>
#include <mma.h>

namespace wm = nvcuda::wmma;

constexpr int K = 48, lda = K + 8, ldc = 16 + 4;

// Warp w: C_w += A_w (16 x K) B (K x 16), C_w read from and written back to
// shared memory. B in memory: row-major (k, n) at b[k * ldb + n], or
// col-major at b[n * ldb + k].
template <bool b_col>
__global__ void product(const __half* a, const __half* b, int ldb, float* c) {
    __shared__ float c_s[2 * 16 * ldc];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int i = lane; i < 16 * ldc; i += 32) c_s[warp * 16 * ldc + i] = c[warp * 16 * ldc + i];
    __syncwarp();
    using lb = std::conditional_t<b_col, wm::col_major, wm::row_major>;
    wm::fragment<wm::accumulator, 16, 16, 16, float> acc;
    wm::load_matrix_sync(acc, c_s + warp * 16 * ldc, ldc, wm::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wm::fragment<wm::matrix_a, 16, 16, 16, __half, wm::row_major> fa;
        wm::fragment<wm::matrix_b, 16, 16, 16, __half, lb> fb;
        wm::load_matrix_sync(fa, a + warp * 16 * lda + k, lda);
        wm::load_matrix_sync(fb, b_col ? b + k : b + k * ldb, ldb);
        wm::mma_sync(acc, fa, fb, acc);
    }
    wm::store_matrix_sync(c_s + warp * 16 * ldc, acc, ldc, wm::mem_row_major);
    __syncwarp();
    for (int i = lane; i < 16 * ldc; i += 32) c[warp * 16 * ldc + i] = c_s[warp * 16 * ldc + i];
}

int main() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int failures = 0;
    for (bool b_col : {false, true}) {
        const int ldb = b_col ? K + 8 : 16 + 8;
        std::vector<__half> a(32 * lda), b(static_cast<std::size_t>(b_col ? 16 * ldb : K * ldb));
        std::vector<float> c(2 * 16 * ldc), want(c.size());
        for (auto& x : a) x = __float2half_rn(u(rng));
        for (auto& x : b) x = __float2half_rn(u(rng));
        for (auto& x : c) x = u(rng);
        for (int w = 0; w < 2; ++w)
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 16; ++j) {
                    double s = c[(w * 16 + i) * ldc + j];
                    for (int k = 0; k < K; ++k) {
                        const float bk = __half2float(b_col ? b[j * ldb + k] : b[k * ldb + j]);
                        s += static_cast<double>(__half2float(a[(w * 16 + i) * lda + k])) * bk;
                    }
                    want[(w * 16 + i) * ldc + j] = static_cast<float>(s);
                }
        std::vector<float> got = c;
        const __half *pa = a.data(), *pb = b.data();
        float* pc = got.data();
        if (b_col) emu::launch(dim3(1), dim3(64), [=] { product<true>(pa, pb, ldb, pc); });
        else emu::launch(dim3(1), dim3(64), [=] { product<false>(pa, pb, ldb, pc); });
        double err = 0, den = 0;
        for (int w = 0; w < 2; ++w)
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 16; ++j) {
                    const std::size_t at = static_cast<std::size_t>((w * 16 + i) * ldc + j);
                    err = std::fmax(err, std::fabs(static_cast<double>(got[at]) - want[at]));
                    den = std::fmax(den, std::fabs(static_cast<double>(want[at])));
                }
        const double rel = err / den;
        const bool ok = rel < 1e-5;
        failures += !ok;
        std::printf("%-4s emulated wmma 16x16x16 f16 -> f32, b %s, accumulator through shared memory: rel %.2e\n",
                    ok ? "ok" : "FAIL", b_col ? "col-major" : "row-major", rel);
    }
    return failures == 0 ? 0 : 1;
}
