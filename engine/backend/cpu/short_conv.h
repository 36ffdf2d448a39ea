// SPDX-License-Identifier: Apache-2.0
// LFM2's short convolution on the CPU, between its two products (in_proj
// before, out_proj after; cpu_backend.cpp): each token's B*X row is kept in
// the KV cache's local group, and its output is C times a depthwise causal
// convolution over its own row and the taps - 1 rows before it (zeros before
// the sequence's start), as llama.cpp's ggml_ssm_conv computes it.
#pragma once

#include <cstdint>

#include "engine/kv/kv_storage.h"

namespace kvlens {

struct short_conv_args {
    const float* bcx = nullptr;        // (n_tokens, 3 n_embd) in_proj's output: B, C, X of each token
    float* out = nullptr;              // (n_tokens, n_embd) C * conv(B*X)
    const float* kernel = nullptr;     // (n_embd, taps) each channel's taps, oldest token first
    int n_tokens = 0;
    int n_embd = 0;                    // even: a row's first half goes in the K slot, the second in V
    int taps = 0;
    int layer = 0;                     // the layer's index in the storage (its group's)
    kv_storage* state = nullptr;       // f32 rows of n_embd / 2
    const std::int32_t* const* block_tables = nullptr;   // (n_tokens) each token's table in `state`
    const std::int32_t* positions = nullptr;             // (n_tokens)
};

// Stores every token's B*X row, then computes every token's output from the
// stored rows, so a token's result is the same in any batch or chunk.
void short_conv(const short_conv_args& a);

}  // namespace kvlens
