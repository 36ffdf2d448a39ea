// SPDX-License-Identifier: Apache-2.0
// Prefix-cache keys: a full block is keyed by the hash of every token up to
// and including it, computed as a chain, hash(parent's key, the block's token
// ids), with XXH3-64. Two sequences share a key only if they agree on every
// token before the block's end.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace kvlens {

// The "parent key" of a sequence's first block.
inline constexpr std::uint64_t kv_root_hash = 0x6b766c656e73ULL;  // "kvlens"

// The key of a block holding `tokens`, whose predecessor's key is `parent`.
std::uint64_t chain_hash(std::uint64_t parent, std::span<const std::int32_t> tokens);

// Keys of the first full blocks of `tokens` (at most max_blocks; -1: all full
// blocks): out[i] covers tokens [0, (i + 1) * block_size).
std::vector<std::uint64_t> block_hashes(std::span<const std::int32_t> tokens, int block_size,
                                        std::int64_t max_blocks = -1);

}  // namespace kvlens
