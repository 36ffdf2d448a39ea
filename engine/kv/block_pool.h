// SPDX-License-Identifier: Apache-2.0
// The KV block allocator, in the spirit of vLLM v1's block pool: block
// records with a reference count and a prefix-cache key, a free list, and an
// LRU list of cached blocks nobody references. It hands out block ids only;
// the bytes live in kv_storage (or on a device) at the same indices.
//
// A block is in exactly one of three states:
//   used       ref_count > 0 (held by one or more sequences; may be cached)
//   free       ref_count == 0, not cached          -> the free list
//   evictable  ref_count == 0, cached              -> the LRU list
// allocate() takes free blocks first and evicts the least recently released
// evictable block only when no free block is left, so a cached prefix
// survives as long as there is room. Everything except usage() is for the
// engine's thread only; usage() may be read from any thread (charts).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace kvlens {

struct kv_block {
    std::int32_t id = 0;
    std::int32_t ref_count = 0;      // sequences holding the block
    bool cached = false;             // registered in the prefix cache under `hash`
    std::uint64_t hash = 0;          // prefix-cache key (chain hash up to and including this block)
    std::uint64_t parent_hash = 0;   // key of the block before it (kv_root_hash for a first block)
    std::int32_t prev = -1;          // links in the free or LRU list; -1: list end or not linked
    std::int32_t next = -1;
};

// A block a sequence has just filled, to be registered in the prefix cache.
struct full_block {
    std::int32_t id = -1;
    std::uint64_t hash = 0;
    std::uint64_t parent_hash = 0;
    std::span<const std::int32_t> tokens;  // (block_size) the block's token ids
};

class block_pool {
public:
    // n_blocks >= 0 blocks of block_size >= 1 tokens, all free.
    block_pool(std::int32_t n_blocks, int block_size);
    block_pool(const block_pool&) = delete;
    block_pool& operator=(const block_pool&) = delete;

    std::int32_t n_blocks() const { return static_cast<std::int32_t>(blocks_.size()); }
    int block_size() const { return block_size_; }
    std::int32_t n_used() const { return n_used_.load(std::memory_order_relaxed); }
    std::int32_t n_free() const { return free_.size; }
    std::int32_t n_evictable() const { return lru_.size; }
    std::int32_t n_available() const { return free_.size + lru_.size; }  // what allocate() can hand out
    std::int32_t n_cached() const { return static_cast<std::int32_t>(by_hash_.size()); }
    std::uint64_t n_evictions() const { return n_evictions_; }          // cached blocks reused for new data
    // Fraction of blocks held by sequences, 0..1 (cached-but-unreferenced blocks count as room).
    double usage() const;

    // Takes n blocks (ref_count 1 each) and appends their ids to out: free
    // blocks first, then evicting least recently released cached blocks.
    // All or nothing: false, with nothing changed, when fewer than n are available.
    bool allocate(std::int32_t n, std::vector<std::int32_t>& out);
    // Takes one more reference on each block (prefix-cache hits). An
    // unreferenced cached block leaves the LRU list. Invalid ids are ignored.
    void touch(std::span<const std::int32_t> ids);
    // Drops one reference on each block. Pass a sequence's blocks in order:
    // blocks reaching zero are released in reverse, so a sequence's last block
    // is evicted before its first (its prefix, the likeliest to be shared,
    // stays longest). Invalid ids and blocks already at zero are ignored.
    void free(std::span<const std::int32_t> ids);
    // Registers full, referenced blocks in the prefix cache. A block already
    // cached, unreferenced, with the wrong number of tokens, or whose key
    // another block already holds, is skipped. Returns how many were registered.
    int cache_full_blocks(std::span<const full_block> blocks);
    // The cached block with this key whose parent key and tokens also match; -1 if none.
    std::int32_t find_cached(std::uint64_t hash, std::uint64_t parent_hash,
                             std::span<const std::int32_t> tokens) const;

    const kv_block& block(std::int32_t id) const { return blocks_[static_cast<std::size_t>(id)]; }
    bool valid(std::int32_t id) const { return id >= 0 && id < n_blocks(); }
    // Evictable blocks, the next to be evicted first.
    std::vector<std::int32_t> lru_order() const;

private:
    struct block_list {
        std::int32_t head = -1;
        std::int32_t tail = -1;
        std::int32_t size = 0;
    };
    void push_back(block_list& l, std::int32_t id);
    void unlink(block_list& l, std::int32_t id);
    std::int32_t pop_front(block_list& l);
    void uncache(std::int32_t id);

    int block_size_;
    std::vector<kv_block> blocks_;             // (n_blocks) records, indexed by id
    std::vector<std::int32_t> block_tokens_;   // (n_blocks, block_size) token ids of cached blocks
    std::unordered_map<std::uint64_t, std::int32_t> by_hash_;  // prefix-cache key -> block id
    block_list free_;                          // unreferenced, uncached
    block_list lru_;                           // unreferenced, cached; head = least recently released
    std::atomic<std::int32_t> n_used_{0};      // blocks with ref_count > 0
    std::uint64_t n_evictions_ = 0;
};

}  // namespace kvlens
