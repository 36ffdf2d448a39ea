// SPDX-License-Identifier: Apache-2.0
// LFM2's short convolution on the device, as engine/backend/cpu/short_conv.h
// computes it: each token's B*X row stored in its layer's paged rows (f32,
// the first half in the K array, the second in V, through the global block
// tables like every layer on this backend), then each token's output C times
// the depthwise causal convolution over its own row and the taps - 1 before
// it (zeros before the sequence's start).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "common/result.h"
#include "engine/backend/cuda/paged_kv.h"

namespace kvlens {

struct short_conv_params {
    const float* bcx = nullptr;      // device (n_tokens, 3 n_embd) in_proj's B, C, X
    float* out = nullptr;            // device (n_tokens, n_embd)
    const float* kernel = nullptr;   // device (n_embd, taps) each channel's taps, oldest token first
    int n_tokens = 0;
    int n_embd = 0;                  // even
    int taps = 0;
    paged_kv_view rows;              // the layer's rows: dtype f32, row_bytes n_embd / 2 * 4
};

// Two kernels on s: the rows' store, then the convolution that reads them.
status launch_short_conv(const short_conv_params& p, cudaStream_t s);

}  // namespace kvlens
