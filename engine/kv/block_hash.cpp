// SPDX-License-Identifier: Apache-2.0
// Chain hashes of full KV blocks (see block_hash.h), with libxxhash's XXH3-64:
// the parent's key is the seed, the block's token ids (int32, host order) the data.
#include "engine/kv/block_hash.h"

#include <xxhash.h>

namespace kvlens {

std::uint64_t chain_hash(std::uint64_t parent, std::span<const std::int32_t> tokens)
{
    return XXH3_64bits_withSeed(tokens.data(), tokens.size_bytes(), parent);
}

std::vector<std::uint64_t> block_hashes(std::span<const std::int32_t> tokens, int block_size,
                                        std::int64_t max_blocks)
{
    std::vector<std::uint64_t> out;
    if (block_size <= 0)
        return out;
    std::int64_t n = static_cast<std::int64_t>(tokens.size()) / block_size;
    if (max_blocks >= 0 && max_blocks < n)
        n = max_blocks;
    out.reserve(static_cast<std::size_t>(n));
    std::uint64_t parent = kv_root_hash;
    for (std::int64_t b = 0; b < n; ++b) {
        parent = chain_hash(parent, tokens.subspan(static_cast<std::size_t>(b * block_size),
                                                   static_cast<std::size_t>(block_size)));
        out.push_back(parent);
    }
    return out;
}

}  // namespace kvlens
