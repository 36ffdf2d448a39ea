// SPDX-License-Identifier: Apache-2.0
// The CUDA runtime and cuBLAS calls the backend makes, emulated on the host for
// tests/cuda/emulate: host memory, synchronous copies, recorded graphs, a
// double-precision reference GEMM. Linked instead of libcudart / libcublas.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include "common/fp16.h"
#include "emu.h"

extern "C" {
cudaError_t cudaMalloc(void** p, size_t n) { *p = std::aligned_alloc(256, (n + 255) / 256 * 256); return cudaSuccess; }
cudaError_t cudaFree(void* p) { std::free(p); return cudaSuccess; }
cudaError_t cudaMemcpy(void* d, const void* s, size_t n, cudaMemcpyKind) { std::memcpy(d, s, n); return cudaSuccess; }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
const char* cudaGetErrorString(cudaError_t) { return "emulated error"; }
const char* cudaGetErrorName(cudaError_t) { return "cudaErrorEmulated"; }
cublasStatus_t cublasCreate_v2(cublasHandle_t* h) { *h = reinterpret_cast<cublasHandle_t>(1); return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasDestroy_v2(cublasHandle_t) { return CUBLAS_STATUS_SUCCESS; }
const char* cublasGetStatusString(cublasStatus_t) { return "emulated"; }
cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const void* alpha, const void* A, cudaDataType, int lda, const void* B, cudaDataType, int ldb,
                            const void* beta, void* C, cudaDataType, int ldc, cublasComputeType_t, cublasGemmAlgo_t) {
    if (ta != CUBLAS_OP_T || tb != CUBLAS_OP_N) return CUBLAS_STATUS_NOT_SUPPORTED;
    auto a = static_cast<const std::uint16_t*>(A);
    auto b = static_cast<const std::uint16_t*>(B);
    auto c = static_cast<float*>(C);
    const float al = *static_cast<const float*>(alpha), be = *static_cast<const float*>(beta);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double s = 0;
            for (int p = 0; p < k; ++p) s += double(kvlens::fp16_to_fp32(a[i * lda + p])) * kvlens::fp16_to_fp32(b[j * ldb + p]);
            c[j * ldc + i] = al * float(s) + (be != 0 ? be * c[j * ldc + i] : 0.0f);
        }
    return CUBLAS_STATUS_SUCCESS;
}
}
#undef cudaGetLastError
struct fake_graph { std::vector<std::function<void()>> ops; };
extern "C" {
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaDriverGetVersion(int* v) { *v = 13000; return cudaSuccess; }
cudaError_t cudaRuntimeGetVersion(int* v) { *v = 13000; return cudaSuccess; }
cudaError_t cudaGetDeviceCount(int* c) { *c = 1; return cudaSuccess; }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int) {
    std::memset(p, 0, sizeof(*p)); std::strcpy(p->name, "Emulated GPU"); p->major = 9; p->minor = 0;
    p->multiProcessorCount = 4; p->totalGlobalMem = size_t(16) << 30; return cudaSuccess; }
cudaError_t cudaSetDevice(int) { return cudaSuccess; }
// KVLENS_EMU_FREE_MIB: the free memory the emulated device reports (default 8 GiB of 16).
cudaError_t cudaMemGetInfo(size_t* f, size_t* t) {
    const char* e = std::getenv("KVLENS_EMU_FREE_MIB");
    *f = e ? size_t(std::strtoull(e, nullptr, 10)) << 20 : size_t(8) << 30;
    *t = size_t(16) << 30;
    return cudaSuccess;
}
cudaError_t cudaMallocHost(void** p, size_t n) { return cudaMalloc(p, n); }
cudaError_t cudaFreeHost(void* p) { return cudaFree(p); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned) { *s = reinterpret_cast<cudaStream_t>(new int(0)); return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t s) { delete reinterpret_cast<int*>(s); return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return emu::capturing ? cudaErrorStreamCaptureUnsupported : cudaSuccess; }
cudaError_t cudaMemcpyAsync(void* d, const void* s, size_t n, cudaMemcpyKind, cudaStream_t) {
    if (emu::capturing) { emu::captured.push_back([=] { std::memcpy(d, s, n); }); return cudaSuccess; }
    std::memcpy(d, s, n); return cudaSuccess; }
// An event holds the host time it was recorded at: the emulated stream runs
// synchronously, so that is when the work before it finished.
double host_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { *e = reinterpret_cast<cudaEvent_t>(new double(0)); return cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
    if (emu::capturing) return cudaSuccess;
    *reinterpret_cast<double*>(e) = host_ms(); return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
    *ms = static_cast<float>(*reinterpret_cast<double*>(b) - *reinterpret_cast<double*>(a)); return cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t e) { delete reinterpret_cast<double*>(e); return cudaSuccess; }
cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) { emu::capturing = true; emu::captured.clear(); return cudaSuccess; }
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t* g) {
    emu::capturing = false; *g = reinterpret_cast<cudaGraph_t>(new fake_graph{std::move(emu::captured)}); emu::captured.clear(); return cudaSuccess; }
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* e, cudaGraph_t g, unsigned long long) {
    *e = reinterpret_cast<cudaGraphExec_t>(new fake_graph(*reinterpret_cast<fake_graph*>(g))); return cudaSuccess; }
cudaError_t cudaGraphDestroy(cudaGraph_t g) { delete reinterpret_cast<fake_graph*>(g); return cudaSuccess; }
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e) { delete reinterpret_cast<fake_graph*>(e); return cudaSuccess; }
int g_graph_launches = 0;
cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t) { ++g_graph_launches; for (auto& op : reinterpret_cast<fake_graph*>(e)->ops) op(); return cudaSuccess; }
cudaError_t cudaFuncSetAttribute(const void*, cudaFuncAttribute, int) { return cudaSuccess; }
cublasStatus_t cublasSetStream_v2(cublasHandle_t, cudaStream_t) { return CUBLAS_STATUS_SUCCESS; }
}
