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

// 32 activations quantized for the dp4a kernels, with the CPU backend's
// numbers (its q8_0 / q8_1 blocks): x ~= d * qs, d = max|x| / 127 rounded to
// f16; s = d * sum(qs) rounded to f16 (the q4_1 minimum's term, as the CPU
// and llama.cpp round it); sum = sum(qs) exactly (q4_0's offset term).
struct block_q8_1_dev {
    float d;
    float s;
    std::int32_t sum;
    std::int8_t qs[32];
};
static_assert(sizeof(block_q8_1_dev) == 44);

}  // namespace kvlens
