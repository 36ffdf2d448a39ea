// SPDX-License-Identifier: Apache-2.0
// The KV pool (see kv_pool.h): creation and prefix matching.
#include "engine/kv/kv_pool.h"

#include <fmt/format.h>

#include "engine/kv/block_hash.h"

namespace kvlens {

std::int64_t reusable_prefix_tokens(std::int64_t n_prompt, int block_size)
{
    if (n_prompt <= 1 || block_size <= 0)
        return 0;
    return (n_prompt - 1) / block_size * block_size;
}

kv_pool::kv_pool(const kv_pool_options& opts)
    : geometry_(opts.geometry), blocks_(opts.n_blocks, opts.geometry.block_size)
{
}

result<std::unique_ptr<kv_pool>> kv_pool::create(const kv_pool_options& opts)
{
    if (status s = validate(opts.geometry); !s)
        return s.err();
    if (opts.n_blocks < 1)
        return make_error(fmt::format("KV pool: {} blocks; need at least one", opts.n_blocks));
    std::unique_ptr<kv_pool> pool(new kv_pool(opts));
    if (opts.host_storage) {
        auto storage = kv_storage::create(opts.geometry, opts.n_blocks);
        if (!storage)
            return storage.err();
        pool->storage_ = std::move(*storage);
        pool->has_storage_ = true;
    }
    return pool;
}

void kv_pool::find_prefix(std::span<const std::int32_t> tokens, std::int64_t max_blocks,
                          std::vector<std::int32_t>& ids, std::vector<std::uint64_t>& keys) const
{
    const int bs = geometry_.block_size;
    std::int64_t n = static_cast<std::int64_t>(tokens.size()) / bs;
    if (max_blocks >= 0 && max_blocks < n)
        n = max_blocks;
    std::uint64_t parent = kv_root_hash;
    for (std::int64_t b = 0; b < n; ++b) {
        const auto block_tokens = tokens.subspan(static_cast<std::size_t>(b * bs), static_cast<std::size_t>(bs));
        const std::uint64_t key = chain_hash(parent, block_tokens);
        const std::int32_t id = blocks_.find_cached(key, parent, block_tokens);
        if (id < 0)
            break;
        ids.push_back(id);
        keys.push_back(key);
        parent = key;
    }
}

prefix_match kv_pool::match_prefix(std::span<const std::int32_t> tokens, std::int64_t max_tokens)
{
    prefix_match m;
    const std::int64_t max_blocks = max_tokens < 0 ? -1 : max_tokens / geometry_.block_size;
    find_prefix(tokens, max_blocks, m.blocks, m.hashes);
    blocks_.touch(m.blocks);
    m.tokens = static_cast<std::int64_t>(m.blocks.size()) * geometry_.block_size;
    return m;
}

std::int64_t kv_pool::cached_prefix_tokens(std::span<const std::int32_t> tokens) const
{
    std::vector<std::int32_t> ids;
    std::vector<std::uint64_t> keys;
    find_prefix(tokens, -1, ids, keys);
    return static_cast<std::int64_t>(ids.size()) * geometry_.block_size;
}

}  // namespace kvlens
