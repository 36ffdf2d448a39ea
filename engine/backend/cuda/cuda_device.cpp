// SPDX-License-Identifier: Apache-2.0
// The CUDA device probe: driver, device count, properties, each failure named.
#include "engine/backend/cuda/cuda_device.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

namespace kvlens {

namespace {

constexpr int min_cc_major = 8;   // the build targets sm_80 and newer

std::string cuda_version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

}  // namespace

result<cuda_device_info> cuda_open_device() {
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    if (driver == 0) return make_error("no NVIDIA driver found (libcuda is not installed or not loadable)");
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver)
        return make_error(fmt::format("the NVIDIA driver supports CUDA {}, older than this build's runtime {}",
                                      cuda_version_text(driver), cuda_version_text(runtime)));
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) return make_error("no CUDA device found");
    if (e != cudaSuccess)
        return make_error(fmt::format("CUDA initialisation failed: {} ({})", cudaGetErrorString(e), cudaGetErrorName(e)));

    cuda_device_info d;
    cudaDeviceProp p{};
    if (const cudaError_t pe = cudaGetDeviceProperties(&p, 0); pe != cudaSuccess)
        return make_error(fmt::format("cannot read CUDA device 0: {}", cudaGetErrorString(pe)));
    d.name = p.name;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.sm_count = p.multiProcessorCount;
    d.total_bytes = static_cast<std::int64_t>(p.totalGlobalMem);
    if (p.major < min_cc_major)
        return make_error(fmt::format("{} has compute capability {}.{}; kvlens needs {}.0 or newer", d.name, p.major,
                                      p.minor, min_cc_major));
    if (const cudaError_t se = cudaSetDevice(0); se != cudaSuccess)
        return make_error(fmt::format("cannot use CUDA device 0 ({}): {}", d.name, cudaGetErrorString(se)));
    std::size_t free_b = 0, total_b = 0;
    if (const cudaError_t me = cudaMemGetInfo(&free_b, &total_b); me != cudaSuccess)
        return make_error(fmt::format("cannot create a CUDA context on {}: {}", d.name, cudaGetErrorString(me)));
    d.free_bytes = static_cast<std::int64_t>(free_b);
    return d;
}

std::string describe(const cuda_device_info& d) {
    return fmt::format("{}, {:.0f} GiB, sm_{}{}", d.name, static_cast<double>(d.total_bytes) / (1024.0 * 1024.0 * 1024.0), d.cc_major,
                       d.cc_minor);
}

std::optional<std::string> cuda_probe_device(std::string& why) {
    auto d = cuda_open_device();
    if (!d) {
        why = d.message();
        return std::nullopt;
    }
    why.clear();
    return describe(*d);
}

void cuda_memory_info(std::int64_t& free_bytes, std::int64_t& total_bytes) {
    std::size_t f = 0, t = 0;
    if (cudaMemGetInfo(&f, &t) != cudaSuccess) {
        cudaGetLastError();  // clear it: the caller only wanted figures
        f = t = 0;
    }
    free_bytes = static_cast<std::int64_t>(f);
    total_bytes = static_cast<std::int64_t>(t);
}

}  // namespace kvlens
