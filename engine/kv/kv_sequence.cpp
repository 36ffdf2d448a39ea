// SPDX-License-Identifier: Apache-2.0
// A request's block table and KV figures (see kv_sequence.h).
#include "engine/kv/kv_sequence.h"

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
      tokens_(std::move(other.tokens_)), hashes_(std::move(other.hashes_)),
      n_cached_tokens_(std::exchange(other.n_cached_tokens_, 0))
{
    other.table_.clear();
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
        tokens_.assign(prompt.begin(), prompt.begin() + m.tokens);
        n_cached_tokens_ = m.tokens;
    }
    if (mode_ == kv_mode::static_reserve) {
        const std::int64_t n_reserve = static_cast<std::int64_t>(prompt.size()) + max_new_tokens;
        if (status s = ensure_capacity(n_reserve); !s) {
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

status kv_sequence::ensure_capacity(std::int64_t n_tokens)
{
    const std::int64_t need = blocks_needed(n_tokens);
    if (need == 0)
        return {};
    if (need > pool_->blocks().n_available() ||
        !pool_->blocks().allocate(static_cast<std::int32_t>(need), table_))
        return make_error(fmt::format("KV pool full: {} tokens need {} more blocks, {} available",
                                      n_tokens, need, pool_->blocks().n_available()));
    return {};
}

void kv_sequence::release()
{
    if (pool_ != nullptr && !table_.empty())
        pool_->blocks().free(table_);
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
    return {};
}

void kv_sequence::register_full_blocks(std::int64_t n_full_before)
{
    const int bs = pool_->geometry().block_size;
    const std::int64_t n_full = n_tokens() / bs;
    std::vector<full_block> filled;
    for (std::int64_t b = static_cast<std::int64_t>(hashes_.size()); b < n_full; ++b) {
        const std::uint64_t parent = b == 0 ? kv_root_hash : hashes_[static_cast<std::size_t>(b - 1)];
        const auto block_tokens = std::span<const std::int32_t>(tokens_).subspan(static_cast<std::size_t>(b * bs),
                                                                                 static_cast<std::size_t>(bs));
        const std::uint64_t key = chain_hash(parent, block_tokens);
        hashes_.push_back(key);
        if (b >= n_full_before)   // blocks from begin() are cached already
            filled.push_back({table_[static_cast<std::size_t>(b)], key, parent, block_tokens});
    }
    if (!filled.empty())
        pool_->blocks().cache_full_blocks(filled);
}

kv_slot kv_sequence::slot_of(std::int64_t pos) const
{
    const int bs = pool_->geometry().block_size;
    if (pos < 0 || pos >= capacity())
        return {};
    return {table_[static_cast<std::size_t>(pos / bs)], static_cast<int>(pos % bs)};
}

// --- figures ------------------------------------------------------------------------

std::int64_t kv_sequence::kv_bytes() const
{
    return pool_->geometry().logical_bytes(n_tokens());
}

std::int64_t kv_sequence::kv_allocated_bytes() const
{
    const kv_geometry& g = pool_->geometry();
    return g.blocks_bytes(g.blocks_for_tokens(n_tokens()));
}

std::int64_t kv_sequence::kv_reserved_bytes() const
{
    return pool_->geometry().blocks_bytes(static_cast<std::int64_t>(table_.size()));
}

kv_figures kv_sequence::figures() const
{
    return {n_tokens(), kv_bytes(), kv_allocated_bytes(), kv_reserved_bytes()};
}

}  // namespace kvlens
