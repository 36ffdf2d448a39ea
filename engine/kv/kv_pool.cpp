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
    : geometry_(opts.geometry), blocks_(opts.n_blocks, opts.geometry.block_size),
      local_blocks_(opts.geometry.local_blocks(opts.n_blocks), opts.geometry.block_size)
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
        for (layer_group g : {layer_group::global, layer_group::local}) {
            if (opts.geometry.n_group_layers(g) == 0)
                continue;
            auto storage = kv_storage::create(opts.geometry.group_geometry(g), g == layer_group::local
                                                                                    ? opts.geometry.local_blocks(opts.n_blocks)
                                                                                    : opts.n_blocks);
            if (!storage)
                return storage.err();
            pool->storage(g) = std::move(*storage);
        }
        pool->has_storage_ = true;
    }
    return pool;
}

void kv_pool::find_prefix(std::span<const std::int32_t> tokens, std::int64_t max_blocks, std::vector<std::int32_t>& ids,
                          std::vector<std::uint64_t>& keys, std::vector<std::int32_t>& local_ids) const
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
    if (!geometry_.has_local_layers())
        return;
    // The local group must hold the window before the prefix's end: blocks
    // [keep / bs, n) with keep = local_keep_from(n * bs). Cut the prefix back
    // until it does (n = 0 needs nothing).
    const auto local_id = [&](std::int64_t b) {
        const std::uint64_t parent_key = b == 0 ? kv_root_hash : keys[static_cast<std::size_t>(b - 1)];
        const auto block_tokens = tokens.subspan(static_cast<std::size_t>(b * bs), static_cast<std::size_t>(bs));
        return local_blocks_.find_cached(keys[static_cast<std::size_t>(b)], parent_key, block_tokens);
    };
    for (std::int64_t n_hit = static_cast<std::int64_t>(ids.size()); n_hit > 0; --n_hit) {
        const std::int64_t first = geometry_.local_keep_from(n_hit * bs) / bs;
        local_ids.assign(static_cast<std::size_t>(n_hit), -1);
        bool whole = true;
        for (std::int64_t b = first; b < n_hit && whole; ++b) {
            local_ids[static_cast<std::size_t>(b)] = local_id(b);
            whole = local_ids[static_cast<std::size_t>(b)] >= 0;
        }
        if (whole) {
            ids.resize(static_cast<std::size_t>(n_hit));
            keys.resize(static_cast<std::size_t>(n_hit));
            return;
        }
    }
    ids.clear();
    keys.clear();
    local_ids.clear();
}

prefix_match kv_pool::match_prefix(std::span<const std::int32_t> tokens, std::int64_t max_tokens)
{
    prefix_match m;
    const std::int64_t max_blocks = max_tokens < 0 ? -1 : max_tokens / geometry_.block_size;
    find_prefix(tokens, max_blocks, m.blocks, m.hashes, m.local_blocks);
    blocks_.touch(m.blocks);
    local_blocks_.touch(m.local_blocks);   // -1 entries are ignored
    m.tokens = static_cast<std::int64_t>(m.blocks.size()) * geometry_.block_size;
    return m;
}

std::int64_t kv_pool::cached_prefix_tokens(std::span<const std::int32_t> tokens) const
{
    std::vector<std::int32_t> ids, local_ids;
    std::vector<std::uint64_t> keys;
    find_prefix(tokens, -1, ids, keys, local_ids);
    return static_cast<std::int64_t>(ids.size()) * geometry_.block_size;
}

}  // namespace kvlens
