// SPDX-License-Identifier: Apache-2.0
// Causal attention of a batch of query tokens over the paged KV cache on the
// device. Token t (its sequence's table row, its position pos) sees keys
// max(0, pos - window + 1) .. pos. The keys are split along the sequence:
// each (token, KV head, split) block computes a partial softmax over its
// keys, and a combine kernel merges the splits (flash-decoding), so a long
// context keeps every SM busy even for one token.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "engine/backend/cuda/paged_kv.h"
#include "engine/common/result.h"

namespace kvlens {

inline constexpr int attention_tile = 64;   // keys scored per step of a block

struct attention_params {
    const float* q = nullptr;    // (n_tokens, n_head * head_dim) f32, RoPE applied
    float* out = nullptr;        // (n_tokens, n_head * head_dim) f32
    int n_tokens = 0;
    int n_head = 0;
    int window = 0;              // sliding window in tokens; 0: full causal
    float scale = 1.0f;          // 1 / sqrt(head_dim)
    paged_kv_view kv;            // this layer
    int n_splits = 1;            // splits per (token, head); 1: no partials
    int split_len = 1 << 30;     // keys per split, a multiple of attention_tile
    float* part_acc = nullptr;   // (n_tokens, n_head, n_splits, head_dim) f32, when n_splits > 1
    float* part_ml = nullptr;    // (n_tokens, n_head, n_splits, 2) f32 running max and sum
};

// Largest n_head / n_head_kv * head_dim a block can hold in registers.
inline constexpr int attention_max_group_dims = 2048;

status launch_attention(const attention_params& p, cudaStream_t s);

}  // namespace kvlens
