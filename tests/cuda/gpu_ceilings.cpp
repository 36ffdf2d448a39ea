// SPDX-License-Identifier: Apache-2.0
// kvlens-gpu-ceilings: the device's measured ceilings, the denominators of
// the roofline figures scripts/gpu-check prints: memory bandwidth from
// device-to-device copies (bytes read + written per second) and the bf16
// tensor-core peak from a loop of square cublasGemmEx calls. Prints
// "bandwidth_gb_s X" and "bf16_tflop_s Y" lines (or one JSON object with --json).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "engine/backend/cuda/cuda_device.h"

namespace {

bool ok(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "kvlens-gpu-ceilings: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

// Best of several timed rounds of `reps` copies of `bytes`, GB/s counting read + write.
double measure_bandwidth(std::size_t bytes, int reps) {
    void *a = nullptr, *b = nullptr;
    if (!ok(cudaMalloc(&a, bytes), "cudaMalloc") || !ok(cudaMalloc(&b, bytes), "cudaMalloc")) return 0;
    cudaMemset(a, 1, bytes);
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    double best = 0;
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);   // warm-up
    for (int round = 0; round < 3; ++round) {
        cudaEventRecord(t0);
        for (int i = 0; i < reps; ++i) cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(t1);
        cudaEventSynchronize(t1);
        float ms = 0;
        cudaEventElapsedTime(&ms, t0, t1);
        best = std::max(best, 2.0 * static_cast<double>(bytes) * reps / (ms * 1e-3) / 1e9);
    }
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    cudaFree(a);
    cudaFree(b);
    return best;
}

// Best TFLOP/s of `reps` n x n x n bf16 GEMMs with f32 accumulation.
double measure_bf16(int n, int reps) {
    const std::size_t elems = static_cast<std::size_t>(n) * n;
    void *a = nullptr, *b = nullptr, *c = nullptr;
    if (!ok(cudaMalloc(&a, elems * 2), "cudaMalloc") || !ok(cudaMalloc(&b, elems * 2), "cudaMalloc") ||
        !ok(cudaMalloc(&c, elems * 4), "cudaMalloc"))
        return 0;
    cudaMemset(a, 0x3c, elems * 2);   // bf16 0x3c3c ~ 0.0115: finite, nonzero
    cudaMemset(b, 0x3c, elems * 2);
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "kvlens-gpu-ceilings: cublasCreate failed\n");
        return 0;
    }
    const float alpha = 1.0f, beta = 0.0f;
    auto gemm = [&] {
        return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16BF, n, b, CUDA_R_16BF, n, &beta,
                            c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    if (gemm() != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "kvlens-gpu-ceilings: cublasGemmEx (bf16) failed\n");
        return 0;
    }
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    double best = 0;
    for (int round = 0; round < 3; ++round) {
        cudaEventRecord(t0);
        for (int i = 0; i < reps; ++i) gemm();
        cudaEventRecord(t1);
        cudaEventSynchronize(t1);
        float ms = 0;
        cudaEventElapsedTime(&ms, t0, t1);
        best = std::max(best, 2.0 * n * static_cast<double>(n) * n * reps / (ms * 1e-3) / 1e12);
    }
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    cublasDestroy(h);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
    std::string why;
    const auto dev = kvlens::cuda_probe_device(why);
    if (!dev) {
        std::fprintf(stderr, "kvlens-gpu-ceilings: no CUDA device (%s)\n", why.c_str());
        return 1;
    }
    const double gbs = measure_bandwidth(std::size_t{1} << 30, 10);
    const double tflops = measure_bf16(8192, 20);
    if (gbs <= 0 || tflops <= 0) return 1;
    if (json)
        std::printf("{\"device\": \"%s\", \"bandwidth_gb_s\": %.1f, \"bf16_tflop_s\": %.1f}\n", dev->c_str(), gbs, tflops);
    else
        std::printf("device %s\nbandwidth_gb_s %.1f\nbf16_tflop_s %.1f\n", dev->c_str(), gbs, tflops);
    return 0;
}
