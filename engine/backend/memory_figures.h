// SPDX-License-Identifier: Apache-2.0
// Where a backend's bytes live, for the memory chart: weights, KV pool and
// scratch, with the device's free and total memory. The CPU backend fills
// the three parts (host memory) and leaves free and total at 0 (not tracked).
#pragma once

#include <cstdint>
#include <string>

namespace kvlens {

struct memory_figures {
    std::string device;              // "NVIDIA H200, 140 GiB, sm_90"; "host memory" for the CPU
    bool on_device = false;          // false: host memory
    std::int64_t weight_bytes = 0;
    std::int64_t kv_bytes = 0;       // the KV pool's storage
    std::int64_t scratch_bytes = 0;  // activations and buffers
    std::int64_t free_bytes = 0;     // the device's free memory when asked (other processes' use included)
    std::int64_t total_bytes = 0;    // the device's memory
};

}  // namespace kvlens
