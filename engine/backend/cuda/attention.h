// SPDX-License-Identifier: Apache-2.0
// Causal attention of a batch of query tokens over the paged KV cache on the
// device. Token t (its sequence's table row, its position pos) sees keys
// max(0, pos - window + 1) .. pos. Two kernels, chosen by shape in one place
// (choose_attention_kernel):
// - split-K decode (attention.cu): a block per (token, KV head, split) takes
//   a partial softmax over its share of the keys and a combine kernel merges
//   the splits (flash-decoding), so one token over a long context keeps every
//   SM busy. The split count is fixed per launch (decode_attention_splits:
//   from the SM count, the KV heads and the tokens), the split length adapts
//   on the device to each token's own key count, so a captured CUDA graph
//   spreads a short and a long context alike over its splits.
// - flash prefill (flash_attention.cu): 64 query rows x 64-key tiles on the
//   tensor cores (wmma, f16 in, f32 accumulate), online softmax.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "engine/backend/cuda/paged_kv.h"
#include "common/result.h"

namespace kvlens {

inline constexpr int attention_tile = 64;   // keys scored per step of a block

struct attention_params {
    const float* q = nullptr;    // (n_tokens, n_head * head_dim) f32, RoPE applied
    float* out = nullptr;        // (n_tokens, n_head * head_dim) f32
    int n_tokens = 0;
    int n_head = 0;
    int window = 0;              // sliding window in tokens; 0: full causal
    float scale = 1.0f;          // 1 / sqrt(head_dim)
    float softcap = 0.0f;        // scaled scores = softcap * tanh(s / softcap) before the softmax (Gemma 2); 0: none
    paged_kv_view kv;            // this layer
    int n_splits = 1;            // splits per (token, head); 1: no partials
    int split_len = 0;           // keys per split, a multiple of attention_tile; 0: each token's
                                 // key count / n_splits, rounded up to attention_tile
    float* part_acc = nullptr;   // (n_tokens, n_head, n_splits, head_dim) f32, when n_splits > 1
    float* part_ml = nullptr;    // (n_tokens, n_head, n_splits, 2) f32 running max and sum
};

// Largest n_head / n_head_kv * head_dim a block can hold in registers.
inline constexpr int attention_max_group_dims = 2048;

inline constexpr int flash_max_head_dim = 256;
inline constexpr int flash_min_rows = 64;     // query rows (tokens x group) from which prefill uses the tensor cores
inline constexpr int flash_min_tokens = 16;   // and tokens: decode steps (up to 8) stay split-K

enum class attention_kernel { split_k, flash };

// The dispatcher: flash for prefill batches (at least 16 tokens and one
// block of 64 query rows, tokens x heads per KV head) with a head_dim the
// tensor-core tiles take; split-K otherwise (decode steps, odd head sizes).
attention_kernel choose_attention_kernel(int n_tokens, int n_head, int n_kv_heads, int head_dim);

// Splits for a split-K launch: enough (token, KV head, split) blocks to fill
// the device twice over, never more than a context of max_ctx keys has tiles.
int decode_attention_splits(int sm_count, int n_kv_heads, int n_tokens, int max_ctx);

// Runs the kernel the dispatcher chooses (n_splits > 1 requires the partials).
status launch_attention(const attention_params& p, cudaStream_t s);
// The kernels themselves, for the kernel test and the profile.
status launch_split_k_attention(const attention_params& p, cudaStream_t s);
status launch_flash_attention(const attention_params& p, cudaStream_t s);
std::size_t flash_attention_smem_bytes(int head_dim);

}  // namespace kvlens
