// SPDX-License-Identifier: Apache-2.0
// Device and pinned host allocations with out-of-memory errors that name the
// need and what is free.
#include "engine/backend/cuda/device_buffer.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "engine/backend/cuda/cuda_device.h"

namespace kvlens {

namespace {

double mib(std::int64_t b) { return static_cast<double>(b) / (1024.0 * 1024.0); }

}  // namespace

device_buffer::~device_buffer() {
    if (p_) cudaFree(p_);
}

device_buffer& device_buffer::operator=(device_buffer&& o) noexcept {
    if (this != &o) {
        if (p_) cudaFree(p_);
        p_ = std::exchange(o.p_, nullptr);
        bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
}

result<device_buffer> device_buffer::allocate(std::size_t bytes, const char* what) {
    device_buffer b;
    if (bytes == 0) return b;
    const cudaError_t e = cudaMalloc(&b.p_, bytes);
    if (e != cudaSuccess) {
        cudaGetLastError();   // the failed allocation must not poison later calls
        b.p_ = nullptr;
        std::int64_t free_b = 0, total_b = 0;
        cuda_memory_info(free_b, total_b);
        if (e == cudaErrorMemoryAllocation)
            return make_error(fmt::format("out of GPU memory for {}: needed {:.1f} MiB, {:.1f} MiB free of {:.1f} MiB",
                                          what, mib(static_cast<std::int64_t>(bytes)), mib(free_b), mib(total_b)));
        return make_error(fmt::format("cudaMalloc of {:.1f} MiB for {} failed: {} ({} MiB free)", mib(static_cast<std::int64_t>(bytes)),
                                      what, cudaGetErrorString(e), mib(free_b)));
    }
    b.bytes_ = bytes;
    return b;
}

pinned_buffer::~pinned_buffer() {
    if (p_) cudaFreeHost(p_);
}

pinned_buffer& pinned_buffer::operator=(pinned_buffer&& o) noexcept {
    if (this != &o) {
        if (p_) cudaFreeHost(p_);
        p_ = std::exchange(o.p_, nullptr);
        bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
}

result<pinned_buffer> pinned_buffer::allocate(std::size_t bytes, const char* what) {
    pinned_buffer b;
    if (bytes == 0) return b;
    const cudaError_t e = cudaMallocHost(&b.p_, bytes);
    if (e != cudaSuccess) {
        cudaGetLastError();
        b.p_ = nullptr;
        return make_error(fmt::format("cannot allocate {:.1f} MiB of pinned host memory for {}: {}",
                                      mib(static_cast<std::int64_t>(bytes)), what, cudaGetErrorString(e)));
    }
    b.bytes_ = bytes;
    return b;
}

std::size_t device_arena::reserve(std::size_t bytes) {
    const std::size_t off = size_;
    size_ += (bytes + alignment - 1) / alignment * alignment;
    return off;
}

status device_arena::allocate(const char* what) {
    auto b = device_buffer::allocate(size_, what);
    if (!b) return b.err();
    buf_ = std::move(*b);
    return {};
}

}  // namespace kvlens
