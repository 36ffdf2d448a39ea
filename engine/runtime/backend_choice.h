// SPDX-License-Identifier: Apache-2.0
// Choosing the compute backend, in one place: "cpu", "cuda" or "auto". A CUDA
// backend that cannot run (no device, no driver, the weights and the KV pool
// do not fit in the device's free memory, an allocation that fails) is never
// an error: the CPU runs instead, and the reason comes back as a sentence the
// caller shows ("cuda: 2.1 GiB of weights + 1.0 GiB KV pool do not fit in
// 0.5 GiB free of 16.0 GiB; using the CPU"). The backend comes back with its
// KV storage allocated, so an out-of-memory KV pool falls back too.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engine/backend/backend.h"
#include "common/result.h"
#include "engine/kv/kv_geometry.h"

namespace kvlens {

class model;

struct backend_request {
    std::string which = "auto";   // "cpu", "cuda" or "auto"
    backend_options options;      // options.kv_pool_bytes is filled from the pool below
    kv_geometry kv;               // the KV pool the backend will hold
    std::int32_t kv_blocks = 0;
};

struct backend_choice {
    std::unique_ptr<backend> chosen;   // KV storage initialised
    std::string fallback;              // why CUDA does not run ("" when what was asked runs;
                                       // for "auto", also "" when CUDA is simply not built)
};

// Errors only when no backend can run at all (an unknown name, the CPU
// backend failing).
result<backend_choice> choose_backend(const model& m, const backend_request& r);

}  // namespace kvlens
