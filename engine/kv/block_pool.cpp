// SPDX-License-Identifier: Apache-2.0
// The KV block allocator (see block_pool.h): intrusive doubly linked lists
// over the block records, a hash map for the prefix cache.
#include "engine/kv/block_pool.h"

#include <algorithm>

namespace kvlens {

block_pool::block_pool(std::int32_t n_blocks, int block_size)
    : block_size_(std::max(block_size, 1))
{
    n_blocks = std::max<std::int32_t>(n_blocks, 0);
    blocks_.resize(static_cast<std::size_t>(n_blocks));
    block_tokens_.resize(static_cast<std::size_t>(n_blocks) * static_cast<std::size_t>(block_size_));
    for (std::int32_t id = 0; id < n_blocks; ++id) {
        blocks_[static_cast<std::size_t>(id)].id = id;
        push_back(free_, id);
    }
}

double block_pool::usage() const
{
    return blocks_.empty() ? 0.0 : static_cast<double>(n_used()) / static_cast<double>(blocks_.size());
}

// --- lists -------------------------------------------------------------------

void block_pool::push_back(block_list& l, std::int32_t id)
{
    kv_block& b = blocks_[static_cast<std::size_t>(id)];
    b.prev = l.tail;
    b.next = -1;
    if (l.tail >= 0)
        blocks_[static_cast<std::size_t>(l.tail)].next = id;
    else
        l.head = id;
    l.tail = id;
    ++l.size;
}

void block_pool::unlink(block_list& l, std::int32_t id)
{
    kv_block& b = blocks_[static_cast<std::size_t>(id)];
    if (b.prev >= 0)
        blocks_[static_cast<std::size_t>(b.prev)].next = b.next;
    else
        l.head = b.next;
    if (b.next >= 0)
        blocks_[static_cast<std::size_t>(b.next)].prev = b.prev;
    else
        l.tail = b.prev;
    b.prev = b.next = -1;
    --l.size;
}

std::int32_t block_pool::pop_front(block_list& l)
{
    const std::int32_t id = l.head;
    if (id >= 0)
        unlink(l, id);
    return id;
}

void block_pool::uncache(std::int32_t id)
{
    kv_block& b = blocks_[static_cast<std::size_t>(id)];
    if (!b.cached)
        return;
    by_hash_.erase(b.hash);
    b.cached = false;
    b.hash = b.parent_hash = 0;
}

// --- allocator ----------------------------------------------------------------

bool block_pool::allocate(std::int32_t n, std::vector<std::int32_t>& out)
{
    if (n < 0 || n > n_available())
        return false;
    for (std::int32_t i = 0; i < n; ++i) {
        std::int32_t id = pop_front(free_);
        if (id < 0) {
            id = pop_front(lru_);
            uncache(id);
            ++n_evictions_;
        }
        blocks_[static_cast<std::size_t>(id)].ref_count = 1;
        out.push_back(id);
    }
    n_used_.fetch_add(n, std::memory_order_relaxed);
    return true;
}

void block_pool::touch(std::span<const std::int32_t> ids)
{
    for (std::int32_t id : ids) {
        if (!valid(id))
            continue;
        kv_block& b = blocks_[static_cast<std::size_t>(id)];
        if (b.ref_count == 0) {
            unlink(b.cached ? lru_ : free_, id);
            n_used_.fetch_add(1, std::memory_order_relaxed);
        }
        ++b.ref_count;
    }
}

void block_pool::free(std::span<const std::int32_t> ids)
{
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
        const std::int32_t id = *it;
        if (!valid(id))
            continue;
        kv_block& b = blocks_[static_cast<std::size_t>(id)];
        if (b.ref_count <= 0)
            continue;
        if (--b.ref_count == 0) {
            push_back(b.cached ? lru_ : free_, id);
            n_used_.fetch_sub(1, std::memory_order_relaxed);
        }
    }
}

// --- prefix cache ---------------------------------------------------------------

int block_pool::cache_full_blocks(std::span<const full_block> blocks)
{
    int n_registered = 0;
    for (const full_block& fb : blocks) {
        if (!valid(fb.id) || fb.tokens.size() != static_cast<std::size_t>(block_size_))
            continue;
        kv_block& b = blocks_[static_cast<std::size_t>(fb.id)];
        if (b.ref_count <= 0 || b.cached || by_hash_.count(fb.hash) != 0)
            continue;
        b.cached = true;
        b.hash = fb.hash;
        b.parent_hash = fb.parent_hash;
        std::copy(fb.tokens.begin(), fb.tokens.end(),
                  block_tokens_.begin() + static_cast<std::ptrdiff_t>(fb.id) * block_size_);
        by_hash_.emplace(fb.hash, fb.id);
        ++n_registered;
    }
    return n_registered;
}

std::int32_t block_pool::find_cached(std::uint64_t hash, std::uint64_t parent_hash,
                                     std::span<const std::int32_t> tokens) const
{
    const auto it = by_hash_.find(hash);
    if (it == by_hash_.end())
        return -1;
    const std::int32_t id = it->second;
    const kv_block& b = blocks_[static_cast<std::size_t>(id)];
    // A 64-bit key could collide; the parent key and the tokens make a false hit
    // need a collision on a key that already matched its own tokens.
    if (b.parent_hash != parent_hash || tokens.size() != static_cast<std::size_t>(block_size_))
        return -1;
    const auto first = block_tokens_.begin() + static_cast<std::ptrdiff_t>(id) * block_size_;
    if (!std::equal(tokens.begin(), tokens.end(), first))
        return -1;
    return id;
}

std::vector<std::int32_t> block_pool::lru_order() const
{
    std::vector<std::int32_t> out;
    out.reserve(static_cast<std::size_t>(lru_.size));
    for (std::int32_t id = lru_.head; id >= 0; id = blocks_[static_cast<std::size_t>(id)].next)
        out.push_back(id);
    return out;
}

}  // namespace kvlens
