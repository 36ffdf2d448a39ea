// SPDX-License-Identifier: Apache-2.0
// A compute backend: runs forward passes of a loaded model against a KV cache
// that lives on its device. The runtime (scheduler, block tables, sampling)
// is the same for every backend.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "engine/backend/memory_figures.h"
#include "common/result.h"
#include "engine/kv/kv_geometry.h"
#include "engine/model/forward_batch.h"

namespace kvlens {

class model;

class backend {
public:
    virtual ~backend() = default;
    virtual std::string name() const = 0;          // "cpu", "cuda"
    virtual std::string description() const = 0;  // "cpu: 2 threads, avx512 kernels"

    // Allocates the KV pool's storage: n_blocks blocks of the geometry.
    virtual status init_kv(const kv_geometry& g, std::int32_t n_blocks) = 0;
    // Runs the batch; writes (batch.logit_rows.size(), n_vocab) f32 logits.
    virtual status forward(const forward_batch& batch, float* logits, forward_counts* counts) = 0;

    virtual std::int64_t weight_bytes() const = 0;   // on the device
    virtual std::int64_t kv_bytes() const = 0;       // the KV pool's storage
    virtual std::int64_t scratch_bytes() const = 0;  // activations and buffers
    // The three above with the device's free and total bytes (queried now).
    virtual memory_figures memory() const {
        memory_figures f;
        f.device = "host memory";
        f.weight_bytes = weight_bytes();
        f.kv_bytes = kv_bytes();
        f.scratch_bytes = scratch_bytes();
        return f;
    }
};

struct backend_options {
    int n_threads = 0;        // CPU: 0 = one per core
    int max_batch = 512;      // tokens in one forward pass at most
    int max_ctx = 2048;       // positions a sequence can reach
    std::int64_t kv_pool_bytes = 0;  // the KV pool init_kv will allocate, if known: a device
                                     // checks weights + pool against its free memory first
};

// The fit check of a device before anything is allocated on it: nullopt when
// weights + KV pool fit in the free bytes, else "2.1 GiB of weights + 1.0 GiB
// KV pool do not fit in 0.5 GiB free of 16.0 GiB" (engine/runtime/backend_choice.cpp).
std::optional<std::string> device_misfit(std::int64_t weight_bytes, std::int64_t kv_bytes, std::int64_t free_bytes,
                                         std::int64_t total_bytes);

result<std::unique_ptr<backend>> make_cpu_backend(const model& m, const backend_options& o);
#if KVLENS_HAVE_CUDA
result<std::unique_ptr<backend>> make_cuda_backend(const model& m, const backend_options& o);
#endif

}  // namespace kvlens
