// SPDX-License-Identifier: Apache-2.0
// A request's block table and KV figures (see kv_sequence.h).
#include "engine/kv/kv_sequence.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "engine/kv/block_hash.h"

namespace kvlens {

kv_sequence::kv_sequence(kv_pool& pool, kv_mode mode) : pool_(&pool), mode_(mode) {}

kv_sequence::~kv_sequence()
{
    release();
}

kv_sequence::kv_sequence(kv_sequence&& other) noexcept
    : pool_(other.pool_), mode_(other.mode_), table_(std::move(other.table_)),
      local_table_(std::move(other.local_table_)), local_first_(std::exchange(other.local_first_, 0)),
      n_local_held_(std::exchange(other.n_local_held_, 0)), tokens_(std::move(other.tokens_)),
      hashes_(std::move(other.hashes_)), n_cached_tokens_(std::exchange(other.n_cached_tokens_, 0))
{
    other.table_.clear();
    other.local_table_.clear();
    other.tokens_.clear();
    other.hashes_.clear();
}

kv_sequence& kv_sequence::operator=(kv_sequence&& other) noexcept
{
    if (this != &other) {
        release();
        pool_ = other.pool_;
        mode_ = other.mode_;
        table_ = std::exchange(other.table_, {});
        local_table_ = std::exchange(other.local_table_, {});
        local_first_ = std::exchange(other.local_first_, 0);
        n_local_held_ = std::exchange(other.n_local_held_, 0);
        tokens_ = std::exchange(other.tokens_, {});
        hashes_ = std::exchange(other.hashes_, {});
        n_cached_tokens_ = std::exchange(other.n_cached_tokens_, 0);
    }
    return *this;
}

// --- starting, growing, releasing -----------------------------------------------

result<std::int64_t> kv_sequence::begin(std::span<const std::int32_t> prompt, std::int64_t max_new_tokens)
{
    if (!table_.empty() || !tokens_.empty())
        return make_error("KV sequence: begin() on a sequence that already holds blocks");
    if (max_new_tokens < 0)
        return make_error(fmt::format("KV sequence: max_new_tokens {} < 0", max_new_tokens));

    if (prefix_caching()) {
        const int bs = pool_->geometry().block_size;
        prefix_match m = pool_->match_prefix(prompt, reusable_prefix_tokens(static_cast<std::int64_t>(prompt.size()), bs));
        table_ = std::move(m.blocks);
        hashes_ = std::move(m.hashes);
        local_table_ = std::move(m.local_blocks);
        tokens_.assign(prompt.begin(), prompt.begin() + m.tokens);
        n_cached_tokens_ = m.tokens;
        local_first_ = 0;
        while (local_first_ < static_cast<std::int64_t>(local_table_.size()) &&
               local_table_[static_cast<std::size_t>(local_first_)] < 0)
            ++local_first_;
        n_local_held_ = static_cast<std::int64_t>(local_table_.size()) - local_first_;
    }
    if (mode_ == kv_mode::static_reserve) {
        // The global blocks up front; the local ones as the steps need them.
        const std::int64_t n_reserve = static_cast<std::int64_t>(prompt.size()) + max_new_tokens;
        if (status s = ensure_global(n_reserve); !s) {
            release();
            return make_error(fmt::format("KV pool full: a static reservation of {} tokens needs {} blocks, {} available",
                                          n_reserve, blocks_needed(n_reserve), pool_->blocks().n_available()));
        }
    }
    return n_cached_tokens_;
}

std::int64_t kv_sequence::capacity() const
{
    return static_cast<std::int64_t>(table_.size()) * pool_->geometry().block_size;
}

std::int64_t kv_sequence::blocks_needed(std::int64_t n_tokens) const
{
    const std::int64_t need = pool_->geometry().blocks_for_tokens(n_tokens) - static_cast<std::int64_t>(table_.size());
    return need > 0 ? need : 0;
}

bool kv_sequence::can_fit(std::int64_t n_tokens) const
{
    return blocks_needed(n_tokens) <= pool_->blocks().n_available();
}

status kv_sequence::ensure_global(std::int64_t n_tokens)
{
    const std::int64_t need = blocks_needed(n_tokens);
    if (need == 0)
        return {};
    if (need > pool_->blocks().n_available() ||
        !pool_->blocks().allocate(static_cast<std::int32_t>(need), table_))
        return make_error(fmt::format("KV pool full: {} tokens need {} more blocks, {} available",
                                      n_tokens, need, pool_->blocks().n_available()));
    if (has_local())
        local_table_.resize(table_.size(), -1);
    return {};
}

// Local blocks for the positions the next steps read or write: from the
// window before n_tokens() up to n_tokens (whose global blocks are held).
status kv_sequence::ensure_local(std::int64_t n_tokens)
{
    const int bs = pool_->geometry().block_size;
    const std::int64_t first = std::max(local_first_, pool_->geometry().local_keep_from(this->n_tokens()) / bs);
    const std::int64_t end = pool_->geometry().blocks_for_tokens(n_tokens);
    std::vector<std::int64_t> missing;
    for (std::int64_t b = first; b < end; ++b)
        if (local_table_[static_cast<std::size_t>(b)] < 0)
            missing.push_back(b);
    if (missing.empty())
        return {};
    std::vector<std::int32_t> ids;
    if (!pool_->local_blocks().allocate(static_cast<std::int32_t>(missing.size()), ids))
        return make_error(fmt::format("KV pool full: the sliding-window layers need {} more blocks, {} available",
                                      missing.size(), pool_->local_blocks().n_available()));
    for (std::size_t i = 0; i < missing.size(); ++i)
        local_table_[static_cast<std::size_t>(missing[i])] = ids[i];
    n_local_held_ += static_cast<std::int64_t>(missing.size());   // all at or after local_first_
    return {};
}

status kv_sequence::ensure_capacity(std::int64_t n_tokens)
{
    const std::size_t n_before = table_.size();
    if (status s = ensure_global(n_tokens); !s)
        return s;
    if (!has_local())
        return {};
    if (status s = ensure_local(n_tokens); !s) {
        // All or nothing: give back the global blocks just taken.
        const std::span<const std::int32_t> taken(table_.data() + n_before, table_.size() - n_before);
        pool_->blocks().free(taken);
        table_.resize(n_before);
        local_table_.resize(n_before);
        return s;
    }
    return {};
}

void kv_sequence::release()
{
    if (pool_ != nullptr && !table_.empty())
        pool_->blocks().free(table_);
    if (pool_ != nullptr && n_local_held_ > 0) {
        std::vector<std::int32_t> held;
        for (std::int32_t id : local_table_)
            if (id >= 0)
                held.push_back(id);
        pool_->local_blocks().free(held);
    }
    local_table_.clear();
    local_first_ = 0;
    n_local_held_ = 0;
    table_.clear();
    tokens_.clear();
    hashes_.clear();
    n_cached_tokens_ = 0;
}

// --- writing ----------------------------------------------------------------------

status kv_sequence::commit(std::span<const std::int32_t> ids)
{
    const std::int64_t n_after = n_tokens() + static_cast<std::int64_t>(ids.size());
    if (n_after > capacity())
        return make_error(fmt::format("KV sequence: committing {} tokens past the capacity of {}", n_after, capacity()));
    const std::int64_t n_full_before = n_tokens() / pool_->geometry().block_size;
    tokens_.insert(tokens_.end(), ids.begin(), ids.end());
    if (prefix_caching())
        register_full_blocks(n_full_before);
    if (has_local())
        release_local_behind_window();
    return {};
}

void kv_sequence::release_local_behind_window()
{
    const std::int64_t end = pool_->geometry().local_keep_from(n_tokens()) / pool_->geometry().block_size;
    for (; local_first_ < end && local_first_ < static_cast<std::int64_t>(local_table_.size()); ++local_first_) {
        std::int32_t& id = local_table_[static_cast<std::size_t>(local_first_)];
        if (id < 0)
            continue;
        pool_->local_blocks().free({&id, 1});   // stays in the local prefix cache until evicted
        id = -1;
        --n_local_held_;
    }
}

void kv_sequence::register_full_blocks(std::int64_t n_full_before)
{
    const int bs = pool_->geometry().block_size;
    const std::int64_t n_full = n_tokens() / bs;
    std::vector<full_block> filled, local_filled;
    for (std::int64_t b = static_cast<std::int64_t>(hashes_.size()); b < n_full; ++b) {
        const std::uint64_t parent = b == 0 ? kv_root_hash : hashes_[static_cast<std::size_t>(b - 1)];
        const auto block_tokens = std::span<const std::int32_t>(tokens_).subspan(static_cast<std::size_t>(b * bs),
                                                                                 static_cast<std::size_t>(bs));
        const std::uint64_t key = chain_hash(parent, block_tokens);
        hashes_.push_back(key);
        if (b >= n_full_before) {   // blocks from begin() are cached already
            filled.push_back({table_[static_cast<std::size_t>(b)], key, parent, block_tokens});
            if (has_local() && local_table_[static_cast<std::size_t>(b)] >= 0)
                local_filled.push_back({local_table_[static_cast<std::size_t>(b)], key, parent, block_tokens});
        }
    }
    if (!filled.empty())
        pool_->blocks().cache_full_blocks(filled);
    if (!local_filled.empty())
        pool_->local_blocks().cache_full_blocks(local_filled);
}

kv_slot kv_sequence::slot_of(std::int64_t pos) const
{
    const int bs = pool_->geometry().block_size;
    if (pos < 0 || pos >= capacity())
        return {};
    return {table_[static_cast<std::size_t>(pos / bs)], static_cast<int>(pos % bs)};
}

kv_slot kv_sequence::local_slot_of(std::int64_t pos) const
{
    const int bs = pool_->geometry().block_size;
    if (!has_local() || pos < 0 || pos >= capacity())
        return {};
    return {local_table_[static_cast<std::size_t>(pos / bs)], static_cast<int>(pos % bs)};
}

// --- figures ------------------------------------------------------------------------

std::int64_t kv_sequence::kv_bytes() const
{
    return pool_->geometry().logical_bytes(n_tokens());
}

// Global blocks holding the tokens, plus the local blocks held (the window's).
std::int64_t kv_sequence::kv_allocated_bytes() const
{
    const kv_geometry& g = pool_->geometry();
    return g.blocks_for_tokens(n_tokens()) * g.group_block_bytes(layer_group::global) +
           n_local_held_ * g.group_block_bytes(layer_group::local);
}

std::int64_t kv_sequence::kv_reserved_bytes() const
{
    const kv_geometry& g = pool_->geometry();
    return static_cast<std::int64_t>(table_.size()) * g.group_block_bytes(layer_group::global) +
           n_local_held_ * g.group_block_bytes(layer_group::local);
}

kv_figures kv_sequence::figures() const
{
    const kv_geometry& g = pool_->geometry();
    kv_figures f{n_tokens(), kv_bytes(), kv_allocated_bytes(), kv_reserved_bytes()};
    if (has_local()) {
        f.local_tokens = std::min<std::int64_t>(n_tokens(), g.local_window());
        f.local_bytes = g.logical_bytes(n_tokens(), layer_group::local);
        f.local_allocated_bytes = n_local_held_ * g.group_block_bytes(layer_group::local);
    }
    f.global_tokens = n_tokens();
    f.global_bytes = g.logical_bytes(n_tokens(), layer_group::global);
    f.global_allocated_bytes = g.blocks_for_tokens(n_tokens()) * g.group_block_bytes(layer_group::global);
    return f;
}

}  // namespace kvlens
