// SPDX-License-Identifier: Apache-2.0
// A compute backend: runs forward passes of a loaded model against a KV cache
// that lives on its device. The runtime (scheduler, block tables, sampling)
// is the same for every backend.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engine/common/result.h"
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
};

struct backend_options {
    int n_threads = 0;        // CPU: 0 = one per core
    int max_batch = 512;      // tokens in one forward pass at most
    int max_ctx = 2048;       // positions a sequence can reach
};

result<std::unique_ptr<backend>> make_cpu_backend(const model& m, const backend_options& o);
#if KVLENS_HAVE_CUDA
result<std::unique_ptr<backend>> make_cuda_backend(const model& m, const backend_options& o);
#endif

// The backend choice, in one place: `choice` is "cpu", "cuda" or "auto".
// "cuda" fails when CUDA cannot start (or the build has none); "auto" takes
// CUDA when it starts and else the CPU, saying why in `description`.
struct chosen_backend {
    std::unique_ptr<backend> b;
    std::string description;   // b->description(), plus the reason for the CPU under "auto"
};
result<chosen_backend> make_backend(const model& m, const backend_options& o, const std::string& choice);
// (defined in engine/runtime/backend_choice.cpp)

}  // namespace kvlens
