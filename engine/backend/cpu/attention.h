// SPDX-License-Identifier: Apache-2.0
// Causal attention of a batch of query tokens over the paged KV cache. Each
// token belongs to a sequence (its block table) and sits at a position; it sees
// that sequence's keys from max(0, pos - window + 1) to pos, inclusive.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/backend/cpu/share_claims.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/kv/kv_storage.h"
#include "engine/kv/kv_types.h"

namespace kvlens {

struct attention_args {
    const float* q = nullptr;          // (n_tokens, n_head * head_dim) f32, RoPE applied
    float* out = nullptr;              // (n_tokens, n_head * head_dim) f32
    int n_tokens = 0;
    int n_head = 0;
    int n_head_kv = 0;
    int head_dim = 0;
    int layer = 0;
    int window = 0;                    // sliding window in tokens; 0: full causal
    float scale = 1.0f;                // usually 1/sqrt(head_dim)
    float softcap = 0.0f;              // scaled scores become softcap * tanh(s / softcap) before the softmax
                                       // (Gemma 2's attention logit soft-capping); 0: none
    // (n_head) or nullptr: each query head's sink logit (gpt-oss), which
    // joins its softmax's denominator (exp(sink - max), the max taken over
    // the scores and the sink) and weighs no value.
    const float* sinks = nullptr;
    kv_dtype dtype = kv_dtype::f16;
    const kv_storage* kv = nullptr;
    const std::int32_t* const* block_tables = nullptr;  // (n_tokens) each its sequence's block ids
    const std::int32_t* positions = nullptr;            // (n_tokens) position of each token
    // (n_tokens) or nullptr: 1 where a token is a decode step, attended as
    // its decode step alone would be (its own item, split as a lone decode
    // token's), so its output is that step's bit for bit whatever else the
    // call holds (batched sequences, speculative verification); 0 where it
    // is a prompt token (prefill blocks, never split, even of one token).
    // nullptr: a run of one token (its sequence's, consecutive positions) is
    // a decode step.
    const std::uint8_t* steps = nullptr;
};

// One unit of the SIMD path: a block of tokens of one sequence, one or more
// consecutive KV heads (decode: all), one chunk of the block's keys. part < 0:
// the whole range, written straight to the output; else the index of its
// partial result (o, m, l) to merge.
struct attention_item {
    int t0 = 0, n_tok = 0;        // tokens t0 .. t0 + n_tok - 1 of the batch
    int kv_head = 0, n_heads = 1; // KV heads kv_head .. kv_head + n_heads - 1
    int key_begin = 0, key_end = 0;
    int part = -1;
    int key_held = 0;             // keys before it are masked for every row and not read (flash_job::key_held)
    bool step = false;            // a decode step's item (all KV heads, may be split); else a prefill block's
};

// Buffers, sized once for the longest context (the SIMD path's item list and
// partial results grow to the largest batch seen, then stay).
struct attention_scratch {
    // Scalar reference path.
    std::vector<std::vector<float>> scores;   // (n_threads) x (heads per kv head * n_ctx) f32
    std::vector<std::vector<std::uint8_t>> q_conv;  // (n_threads) x group x head_dim x 4 bytes: query heads in the K row format
    std::vector<std::vector<float>> v_row;    // (n_threads) x head_dim f32, a decoded V head
    // SIMD path (attention_simd.h).
    std::vector<std::vector<float>> work;     // (n_threads) x flash_work_floats + rows x (head_dim + 2): kernel scratch, o, m, l
                                              // (grown on the first decode with more KV heads than a prefill block's rows)
    std::vector<int> first, last;             // (n_tokens) each token's visible key range
    std::vector<attention_item> items;        // this call's work
    std::vector<attention_item> split;        // the items with decode steps' ranges split (swapped with items)
    share_claims claims;                      // how the items go to the threads
    std::vector<float> parts;                 // (n_parts, rows, head_dim + 2) partial o, m, l of split ranges
                                              // (rows: the most of any item, n_heads * n_tok * group)
    void reserve(int n_threads, int group, int n_ctx, int head_dim);
};

// The SIMD path where the kernel level and head size allow it (decode and
// prefill alike: blocks of tokens against tiles of keys, online softmax, long
// ranges split across threads), else the scalar reference.
void attention(const attention_args& a, thread_pool& pool, attention_scratch& s);

// The scalar reference path, whatever the kernel level (tests compare against it).
void attention_reference(const attention_args& a, thread_pool& pool, attention_scratch& s);

// Writes the K and V rows (n_tokens, n_head_kv * head_dim) f32 of a batch into
// the cache at each token's (block, slot).
void store_kv(kv_storage& kv, kv_dtype dtype, int layer, const float* k, const float* v, int n_tokens,
              int row_elems, const std::int32_t* const* block_tables, const std::int32_t* positions);

}  // namespace kvlens
