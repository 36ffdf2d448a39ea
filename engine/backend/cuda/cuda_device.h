// SPDX-License-Identifier: Apache-2.0
// Finding and describing the CUDA device: the probe behind `--backend auto`
// and `kvlens-cli info`, and the memory figures an out-of-memory error names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/result.h"

namespace kvlens {

struct cuda_device_info {
    int index = 0;
    std::string name;              // "NVIDIA H200"
    int cc_major = 0, cc_minor = 0;  // compute capability
    int sm_count = 0;
    std::int64_t total_bytes = 0;  // device memory, bytes
    std::int64_t free_bytes = 0;   // free when probed, bytes
};

// Device 0, if a driver and a usable device are present; otherwise an error
// saying why (no driver, driver too old, no device, compute capability below
// 8.0, ...).
result<cuda_device_info> cuda_open_device();

// "NVIDIA H200, 140 GiB, sm_90", or nullopt with the reason in `why`.
std::optional<std::string> cuda_probe_device(std::string& why);

// "NVIDIA H200, 140 GiB, sm_90"
std::string describe(const cuda_device_info& d);

// Free and total device memory now, bytes (0, 0 when the query fails).
void cuda_memory_info(std::int64_t& free_bytes, std::int64_t& total_bytes);

}  // namespace kvlens
