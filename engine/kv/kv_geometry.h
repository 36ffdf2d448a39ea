// SPDX-License-Identifier: Apache-2.0
// The shape of a KV cache and every size derived from it: row and block
// bytes, the logical / allocated byte figures of docs/design.md, and pool sizing.
// How many tokens a layer holds is decided in one place, layer_tokens(), so
// sliding-window layers (Gemma 3) change only that function's inputs.
//
// Layer groups: layers with a sliding window (local) and the others (global).
// A geometry with local layers keeps each group in its own block pool and
// storage (kv_pool.h), so the local layers' blocks can be released as they
// slide out of the window while the global layers' blocks stay.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "engine/kv/kv_types.h"

namespace kvlens {

struct model_info;

enum class layer_group { global, local };

struct kv_geometry {
    int n_layer = 0;
    int n_kv_heads = 0;
    int head_dim = 0;
    kv_dtype dtype = kv_dtype::f16;
    int block_size = 16;             // tokens per block
    std::vector<int> layer_window;   // (n_layer) sliding window in tokens, 0: full attention; empty: all full
    // Short-convolution layers (LFM2, model_config::layer_conv) have no K or
    // V: each keeps the B*x rows of its last layer_window[il] tokens (the
    // convolution's inputs; conv_row_elems f32 each, the first half in the K
    // slot, the second in V), and they are the local group. Empty: none.
    std::vector<char> layer_conv;    // (n_layer) 1: a short-convolution layer
    int conv_row_elems = 0;          // a convolution layer's row (n_embd); even
    // Blocks of the local group's pool and storage; 0: as many as the global
    // group's. A sequence holds local blocks only for the window before its
    // end and the chunk being written, so the engine sizes them for its
    // active sequences (local_pool_blocks_for) rather than for the context.
    std::int32_t local_pool_blocks = 0;

    int row_elems() const { return n_kv_heads * head_dim; }   // elements of one token's K (or V) row
    std::int64_t row_bytes() const;                           // bytes of that row in dtype
    std::int64_t block_layer_bytes() const;                   // K or V of one block in one layer: block_size * row_bytes
    std::int64_t block_bytes() const;                         // K and V of one block in all layers (both groups)
    bool is_conv(int il) const;                               // layer il is a short-convolution layer
    bool has_conv_layers() const;
    std::int64_t layer_row_bytes(int il) const;               // bytes of layer il's K (or V) row: row_bytes, or a conv half row

    // Tokens of a sequence of n_tokens whose K/V layer il holds (the one place that knows).
    std::int64_t layer_tokens(int il, std::int64_t n_tokens) const;
    // Blocks that hold n_tokens: ceil(n_tokens / block_size).
    std::int64_t blocks_for_tokens(std::int64_t n_tokens) const;

    // Layer groups.
    bool has_local_layers() const;                   // some layer has a sliding window
    bool is_local(int il) const;                     // layer il has a sliding window
    int n_group_layers(layer_group g) const;         // layers in the group
    int index_in_group(int il) const;                // il's index among its group's layers, in order
    int local_window() const;                        // the widest window of a local layer; 0: none
    // K and V of one block in the group's layers: 2 * n_group_layers * block_size * its row bytes.
    std::int64_t group_block_bytes(layer_group g) const;
    // A K (or V) row of the group's layers: row_bytes, or the convolution rows' half in f32.
    std::int64_t group_row_bytes(layer_group g) const;
    // The geometry of one group's storage: its layers only, no windows; the
    // local group of convolution layers as one "head" of conv_row_elems / 2 f32.
    kv_geometry group_geometry(layer_group g) const;
    // The local group's block count beside a global pool of n_blocks.
    std::int32_t local_blocks(std::int32_t n_blocks) const;
    // The first position the local layers still need once n_tokens are held
    // (the next query, at position n_tokens, sees keys from n_tokens - window + 1).
    std::int64_t local_keep_from(std::int64_t n_tokens) const;

    // docs/design.md figures, bytes:
    // logical: sum over layers of 2 * n_kv_heads * head_dim * bytes/element * layer_tokens
    // (q8_0: 34/32 bytes per element; a convolution layer: conv_row_elems * 4 per token).
    std::int64_t logical_bytes(std::int64_t n_tokens) const;
    // The same over one group's layers.
    std::int64_t logical_bytes(std::int64_t n_tokens, layer_group g) const;
    // The same for one token in every layer (the formula line of the KV chart).
    std::int64_t bytes_per_token() const;
    // Whole blocks: n_blocks * block_bytes.
    std::int64_t blocks_bytes(std::int64_t n_blocks) const { return n_blocks * block_bytes(); }
};

// Checks that every count is positive and in range, that layer_window is empty
// or has n_layer entries >= 0, that q8_0 heads are a multiple of 32
// elements (so every head's K/V row is whole q8_0 blocks), and that
// convolution layers, where there are any, are exactly the windowed ones
// and their rows even.
status validate(const kv_geometry& g);

// The geometry of a model's KV cache: every attention layer full (the caller
// fills layer_window for models with sliding-window layers), LFM2's
// convolution layers (model_info::conv_layers) local with a window of their taps.
kv_geometry make_kv_geometry(const model_info& info, kv_dtype dtype, int block_size);

// Pool sizing: blocks that fit in budget_mib MiB (floor), or that hold n_ctx
// tokens for each of n_sequences sequences. Errors: invalid geometry, a budget
// smaller than one block, more blocks than int32 can count.
result<std::int32_t> blocks_for_budget(const kv_geometry& g, std::int64_t budget_mib);

// The local group's blocks for n_sequences sequences that each write at most
// step_tokens tokens a step (a prefill chunk, or a decode step with its
// draft) after the window before them: twice what they hold at once (the
// rest keeps recent windows in the prefix cache), at least 64, at most
// n_blocks (the global group's). Without local layers: 0.
std::int32_t local_pool_blocks_for(const kv_geometry& g, std::int32_t n_blocks, int n_sequences, int step_tokens);
result<std::int32_t> blocks_for_context(const kv_geometry& g, std::int64_t n_ctx, int n_sequences);

}  // namespace kvlens
