// SPDX-License-Identifier: Apache-2.0
// Plain structs shared by the CUDA launchers and the backend: a weight matrix
// on the device and the activation block the integer dot products read.
// Includable from host C++ (no device code).
#pragma once

#include <cstdint>

#include "engine/gguf/gguf_types.h"

namespace kvlens {

// A weight matrix on the device, as GGUF stores it: n_out rows of n_in
// elements in `type` (quantized blocks stay quantized).
struct dev_matrix {
    ggml_type type = ggml_type::f32;
    std::int64_t n_in = 0;        // elements per row
    std::int64_t n_out = 0;       // rows
    std::int64_t row_bytes = 0;   // bytes per row
    const std::uint8_t* data = nullptr;   // device, (n_out, row_bytes) bytes
};

// 32 activations quantized for the dp4a kernels: x ~= d * qs; s = sum(qs)
// (the integer sum, so the weights' offset term is exact).
struct block_q8_1_dev {
    float d;
    float s;
    std::int8_t qs[32];
};
static_assert(sizeof(block_q8_1_dev) == 40);

}  // namespace kvlens
