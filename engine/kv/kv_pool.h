// SPDX-License-Identifier: Apache-2.0
// The KV pool (docs/design.md, "KV cache"): one engine's KV geometry, its block
// allocator with the prefix cache, and (on the host) the K/V arrays. Sequences
// (kv_sequence.h) take blocks from it; the scheduler asks it whether a request
// fits and how full it is.
//
// A geometry with sliding-window layers has two layer groups (kv_geometry.h),
// each with its own allocator and storage of n_blocks blocks: the global
// group's blocks hold every position of a sequence, the local group's only
// the window's (kv_sequence.h releases the rest). Block ids are per group.
// The local pool never runs short before the global one: a sequence holds
// local blocks only at positions where it holds global blocks.
//
// Threads: the engine's thread owns the pool; usage() may be read from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "common/result.h"
#include "engine/kv/block_pool.h"
#include "engine/kv/kv_geometry.h"
#include "engine/kv/kv_storage.h"

namespace kvlens {

struct kv_pool_options {
    kv_geometry geometry;
    std::int32_t n_blocks = 0;    // see blocks_for_budget() / blocks_for_context()
    bool host_storage = true;     // false: allocator only (a device backend keeps the arrays, same layout)
};

// The leading cached blocks of a token sequence, with a reference taken on each.
// With local layers, a prefix counts only as far as the local group also has
// the cached blocks of the window before its end (what the next token's local
// attention reads); it is cut back to the longest prefix that has them.
struct prefix_match {
    std::vector<std::int32_t> blocks;        // global block ids, in sequence order
    std::vector<std::uint64_t> hashes;       // their prefix-cache keys
    std::vector<std::int32_t> local_blocks;  // (blocks.size()) local block ids; -1 before the window; empty without local layers
    std::int64_t tokens = 0;                 // tokens they hold: blocks.size() * block_size
};

// Prompt tokens a request may take from the prefix cache: n_prompt - 1 rounded
// down to whole blocks, so the last prompt token is always computed (its
// logits give the first generated token). What is left is prefilled as
// prompt tokens however few (forward_batch::append_prompt), so a cached
// prompt gives the cold run's numbers.
std::int64_t reusable_prefix_tokens(std::int64_t n_prompt, int block_size);

class kv_pool {
public:
    // Errors: invalid geometry, n_blocks < 1, host arrays that cannot be allocated.
    static result<std::unique_ptr<kv_pool>> create(const kv_pool_options& opts);
    kv_pool(const kv_pool&) = delete;
    kv_pool& operator=(const kv_pool&) = delete;

    const kv_geometry& geometry() const { return geometry_; }
    // The global group's allocator (every layer's, without local layers).
    block_pool& blocks() { return blocks_; }
    const block_pool& blocks() const { return blocks_; }
    // The local group's allocator (no blocks without local layers).
    bool has_local_layers() const { return geometry_.has_local_layers(); }
    block_pool& local_blocks() { return local_blocks_; }
    const block_pool& local_blocks() const { return local_blocks_; }

    // Host arrays (absent when created with host_storage = false), one per
    // group with its layers in order (kv_geometry::index_in_group).
    bool has_storage() const { return has_storage_; }
    kv_storage& storage(layer_group g = layer_group::global) { return g == layer_group::local ? local_storage_ : storage_; }
    const kv_storage& storage(layer_group g = layer_group::global) const {
        return g == layer_group::local ? local_storage_ : storage_;
    }
    std::int64_t row_bytes() const { return geometry_.row_bytes(); }
    // Row of layer il (any layer) in `block`, a block id of il's group.
    std::uint8_t* k_row(int il, std::int32_t block, int slot) { return group_of(il).k_row(geometry_.index_in_group(il), block, slot); }
    std::uint8_t* v_row(int il, std::int32_t block, int slot) { return group_of(il).v_row(geometry_.index_in_group(il), block, slot); }
    const std::uint8_t* k_row(int il, std::int32_t block, int slot) const {
        return group_of(il).k_row(geometry_.index_in_group(il), block, slot);
    }
    const std::uint8_t* v_row(int il, std::int32_t block, int slot) const {
        return group_of(il).v_row(geometry_.index_in_group(il), block, slot);
    }

    // Figures for charts. usage(): global blocks held by sequences / all, 0..1.
    double usage() const { return blocks_.usage(); }
    std::int64_t capacity_tokens() const { return static_cast<std::int64_t>(blocks_.n_blocks()) * geometry_.block_size; }
    // The whole pool, both groups.
    std::int64_t capacity_bytes() const {
        return blocks_.n_blocks() * geometry_.group_block_bytes(layer_group::global) +
               local_blocks_.n_blocks() * geometry_.group_block_bytes(layer_group::local);
    }
    // Blocks held, both groups.
    std::int64_t used_bytes() const {
        return blocks_.n_used() * geometry_.group_block_bytes(layer_group::global) +
               local_blocks_.n_used() * geometry_.group_block_bytes(layer_group::local);
    }

    // Finds the leading whole blocks of `tokens` that are in the prefix cache,
    // at most max_tokens tokens (rounded down to blocks; -1: no limit), stopping
    // at the first block that is not, and takes a reference on each.
    prefix_match match_prefix(std::span<const std::int32_t> tokens, std::int64_t max_tokens = -1);
    // The same count, without taking anything: where a prefix stops matching.
    std::int64_t cached_prefix_tokens(std::span<const std::int32_t> tokens) const;

private:
    explicit kv_pool(const kv_pool_options& opts);
    // Leading cached blocks, at most max_blocks; fills ids and keys, and with
    // local layers local_ids (cutting the prefix back to where they exist).
    void find_prefix(std::span<const std::int32_t> tokens, std::int64_t max_blocks, std::vector<std::int32_t>& ids,
                     std::vector<std::uint64_t>& keys, std::vector<std::int32_t>& local_ids) const;
    kv_storage& group_of(int il) { return geometry_.is_local(il) ? local_storage_ : storage_; }
    const kv_storage& group_of(int il) const { return geometry_.is_local(il) ? local_storage_ : storage_; }

    kv_geometry geometry_;
    block_pool blocks_;         // global group
    block_pool local_blocks_;   // local group (0 blocks without local layers)
    bool has_storage_ = false;
    kv_storage storage_;        // global group's layers
    kv_storage local_storage_;  // local group's layers
};

}  // namespace kvlens
