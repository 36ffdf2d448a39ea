// SPDX-License-Identifier: Apache-2.0
// The KV pool (docs/design.md, "KV cache"): one engine's KV geometry, its block
// allocator with the prefix cache, and (on the host) the K/V arrays. Sequences
// (kv_sequence.h) take blocks from it; the scheduler asks it whether a request
// fits and how full it is.
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
struct prefix_match {
    std::vector<std::int32_t> blocks;   // block ids, in sequence order
    std::vector<std::uint64_t> hashes;  // their prefix-cache keys
    std::int64_t tokens = 0;            // tokens they hold: blocks.size() * block_size
};

// Prompt tokens a request may take from the prefix cache: n_prompt - 1 rounded
// down to whole blocks, so the last prompt token is always computed (its
// logits give the first generated token).
std::int64_t reusable_prefix_tokens(std::int64_t n_prompt, int block_size);

class kv_pool {
public:
    // Errors: invalid geometry, n_blocks < 1, host arrays that cannot be allocated.
    static result<std::unique_ptr<kv_pool>> create(const kv_pool_options& opts);
    kv_pool(const kv_pool&) = delete;
    kv_pool& operator=(const kv_pool&) = delete;

    const kv_geometry& geometry() const { return geometry_; }
    block_pool& blocks() { return blocks_; }
    const block_pool& blocks() const { return blocks_; }

    // Host arrays (absent when created with host_storage = false).
    bool has_storage() const { return has_storage_; }
    kv_storage& storage() { return storage_; }
    const kv_storage& storage() const { return storage_; }
    std::int64_t row_bytes() const { return geometry_.row_bytes(); }
    std::uint8_t* k_row(int il, std::int32_t block, int slot) { return storage_.k_row(il, block, slot); }
    std::uint8_t* v_row(int il, std::int32_t block, int slot) { return storage_.v_row(il, block, slot); }
    const std::uint8_t* k_row(int il, std::int32_t block, int slot) const { return storage_.k_row(il, block, slot); }
    const std::uint8_t* v_row(int il, std::int32_t block, int slot) const { return storage_.v_row(il, block, slot); }

    // Figures for charts. usage(): blocks held by sequences / all blocks, 0..1.
    double usage() const { return blocks_.usage(); }
    std::int64_t capacity_tokens() const { return static_cast<std::int64_t>(blocks_.n_blocks()) * geometry_.block_size; }
    std::int64_t capacity_bytes() const { return geometry_.blocks_bytes(blocks_.n_blocks()); }  // the whole pool
    std::int64_t used_bytes() const { return geometry_.blocks_bytes(blocks_.n_used()); }        // blocks held

    // Finds the leading whole blocks of `tokens` that are in the prefix cache,
    // at most max_tokens tokens (rounded down to blocks; -1: no limit), stopping
    // at the first block that is not, and takes a reference on each.
    prefix_match match_prefix(std::span<const std::int32_t> tokens, std::int64_t max_tokens = -1);
    // The same count, without taking anything: where a prefix stops matching.
    std::int64_t cached_prefix_tokens(std::span<const std::int32_t> tokens) const;

private:
    explicit kv_pool(const kv_pool_options& opts);
    // Leading cached blocks, at most max_blocks; fills ids and keys.
    void find_prefix(std::span<const std::int32_t> tokens, std::int64_t max_blocks,
                     std::vector<std::int32_t>& ids, std::vector<std::uint64_t>& keys) const;

    kv_geometry geometry_;
    block_pool blocks_;
    bool has_storage_ = false;
    kv_storage storage_;
};

}  // namespace kvlens
