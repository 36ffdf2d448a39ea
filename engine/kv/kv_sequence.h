// SPDX-License-Identifier: Apache-2.0
// One request's view of the KV pool: its block table (which pool block holds
// positions [b * block_size, (b + 1) * block_size)), the token ids whose K/V
// are held, and the KV figures of docs/design.md. The KV mode decides when blocks
// are taken:
//
//   paged           begin(): prefix-cache hits only; then ensure_capacity() before
//                   each chunk or decode step takes blocks as needed (staircase).
//   static_reserve  begin(): prefix hits + blocks for prompt + max_new_tokens,
//                   taken at once (reserved bytes flat from the start).
//   off             no prefix cache; before every step release() and refill:
//                   ensure_capacity(all tokens), write every row, commit(all ids).
//
// A step, in every mode:
//   seq.ensure_capacity(seq.n_tokens() + n)       // may fail: pool full, nothing changed
//   for pos in [n_tokens, n_tokens + n): slot_of(pos) -> write K/V rows there
//   seq.commit(ids of those n tokens)             // full blocks enter the prefix cache
//
// Blocks reached through the prefix cache are shared and never written: a
// sequence writes only at positions >= n_tokens(), which begin in a block of its own.
//
// Sliding-window layers (a geometry with a local layer group, kv_pool.h): the
// sequence keeps a second table for the local group, position for position
// like the first; commit() releases the local blocks wholly before
// local_keep_from(n_tokens()) (their entries become -1), so the local layers
// hold at most window + 2 blocks' worth of tokens however long the sequence.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.h"
#include "engine/kv/kv_pool.h"
#include "engine/kv/kv_types.h"

namespace kvlens {

struct kv_slot {
    std::int32_t block = -1;   // pool block id; -1: position beyond the capacity
    int slot = 0;              // row within the block, 0..block_size-1
};

// docs/design.md's per-token KV figures, bytes.
struct kv_figures {
    std::int64_t kv_tokens = 0;            // tokens whose K/V are held
    std::int64_t kv_bytes = 0;             // logical: sum over layers of 2 * row_bytes * layer tokens
    std::int64_t kv_allocated_bytes = 0;   // whole blocks holding those tokens
    std::int64_t kv_reserved_bytes = 0;    // every block the sequence holds (static: prompt + max_new from the start)
    // The same split by layer group (local: sliding-window layers; all zero without them).
    std::int64_t local_tokens = 0;             // tokens each local layer holds: min(kv_tokens, window)
    std::int64_t local_bytes = 0;              // logical bytes of the local layers
    std::int64_t local_allocated_bytes = 0;    // local blocks held, in bytes
    std::int64_t global_tokens = 0;            // tokens each global layer holds: kv_tokens
    std::int64_t global_bytes = 0;             // logical bytes of the global layers
    std::int64_t global_allocated_bytes = 0;   // global blocks holding the tokens, in bytes
};

class kv_sequence {
public:
    kv_sequence(kv_pool& pool, kv_mode mode);
    ~kv_sequence();                          // release()
    kv_sequence(kv_sequence&& other) noexcept;
    kv_sequence& operator=(kv_sequence&& other) noexcept;
    kv_sequence(const kv_sequence&) = delete;
    kv_sequence& operator=(const kv_sequence&) = delete;

    kv_mode mode() const { return mode_; }
    bool prefix_caching() const { return mode_ != kv_mode::off; }

    // Starts a request on an empty sequence: takes the prompt's cached leading
    // blocks (at most reusable_prefix_tokens(prompt.size())) and, in static
    // mode, the blocks for prompt + max_new_tokens. Returns the prompt tokens
    // reused from the cache (already held: n_tokens() equals it). Fails when
    // the sequence is not empty or the static reservation does not fit; then
    // the sequence is left empty and the pool as it was (apart from LRU order).
    result<std::int64_t> begin(std::span<const std::int32_t> prompt, std::int64_t max_new_tokens);

    // Makes room for positions [0, n_tokens): takes the missing blocks. All or
    // nothing: when the pool is short, fails and changes nothing.
    status ensure_capacity(std::int64_t n_tokens);
    // Blocks ensure_capacity(n_tokens) would take now (0 when there is room).
    std::int64_t blocks_needed(std::int64_t n_tokens) const;
    bool can_fit(std::int64_t n_tokens) const;

    // Records that the K/V of positions [n_tokens(), n_tokens() + ids.size())
    // were written; blocks this fills are registered in the prefix cache.
    // Fails, changing nothing, beyond the capacity.
    status commit(std::span<const std::int32_t> ids);

    // Where position pos lives: pool block and row in it (global group; with
    // local layers, local_slot_of gives the local group's block, -1 once released).
    kv_slot slot_of(std::int64_t pos) const;
    kv_slot local_slot_of(std::int64_t pos) const;

    // Drops every block (done, cancelled, or mode off before a recompute); the
    // sequence is empty again. Blocks in the prefix cache stay cached.
    void release();

    std::int64_t n_tokens() const { return static_cast<std::int64_t>(tokens_.size()); }
    std::int64_t n_cached_tokens() const { return n_cached_tokens_; }  // reused by begin()
    std::int64_t capacity() const;                                    // blocks held * block_size
    const std::vector<std::int32_t>& block_table() const { return table_; }   // (n_blocks held) pool ids
    // (block_table().size()) local group ids, -1 where released; empty without local layers.
    const std::vector<std::int32_t>& local_block_table() const { return local_table_; }
    // What a forward batch takes: the local table, or nullptr without local layers.
    const std::int32_t* local_block_table_data() const { return local_table_.empty() ? nullptr : local_table_.data(); }
    std::int64_t n_local_blocks_held() const { return n_local_held_; }
    const std::vector<std::int32_t>& tokens() const { return tokens_; }       // (n_tokens) ids held

    // Figures (docs/design.md, "Events and figures").
    std::int64_t kv_bytes() const;
    std::int64_t kv_allocated_bytes() const;
    std::int64_t kv_reserved_bytes() const;
    kv_figures figures() const;

private:
    void register_full_blocks(std::int64_t n_full_before);
    status ensure_global(std::int64_t n_tokens);   // the global group's blocks for [0, n_tokens)
    status ensure_local(std::int64_t n_tokens);    // the local group's for the window up to n_tokens
    void release_local_behind_window();
    bool has_local() const { return pool_->has_local_layers(); }

    kv_pool* pool_;
    kv_mode mode_;
    std::vector<std::int32_t> table_;        // (n blocks held) pool block ids, in position order
    std::vector<std::int32_t> local_table_;  // (table_.size()) local group ids, -1: released; empty without local layers
    std::int64_t local_first_ = 0;           // local_table_ entries before this are all -1
    std::int64_t n_local_held_ = 0;          // entries of local_table_ >= 0
    std::vector<std::int32_t> tokens_;       // (n_tokens) token ids whose K/V are written
    std::vector<std::uint64_t> hashes_;      // (full blocks) prefix-cache keys; empty in mode off
    std::int64_t n_cached_tokens_ = 0;
};

}  // namespace kvlens
