// SPDX-License-Identifier: Apache-2.0
// The bytes of the KV cache on the host: per layer one K array and one V
// array, each (n_blocks, block_size, row_elems) in the KV dtype, one
// contiguous 64-byte-aligned array per layer per K/V. This layout is
// binding: the attention kernels index it directly. All arrays share one
// allocation, 2 MiB-aligned and offered huge pages: decode reads a long
// cache's blocks in a scattered order, and with 4 KiB pages nearly every
// block costs a TLB miss.
//
//   k_layer(il): (n_blocks, block_size, n_kv_heads * head_dim), f16 or q8_0 rows
//   row (il, block, slot) starts at ((block * block_size) + slot) * row_bytes
//
// The arrays are not zeroed: a row is read only after the forward pass wrote it.
// The first k_commit_ahead_tokens rows of every array (at most 512 MiB in all
// and a quarter of the available memory) are committed at
// creation (huge_page_buffer::commit), so a first request does not pay the
// page faults (on THP, a 2 MiB page per array) inside its first prefill chunk.
#pragma once

#include <cstdint>
#include <vector>

#include "common/huge_page_buffer.h"
#include "common/result.h"
#include "engine/kv/kv_geometry.h"

namespace kvlens {

class kv_storage {
public:
    static constexpr std::size_t alignment = 64;  // bytes, every K and V array
    static constexpr std::int64_t k_commit_ahead_tokens = 4096;   // rows per array committed at creation

    kv_storage() = default;
    // Allocates 2 * n_layer arrays of n_blocks * block_size * row_bytes bytes.
    // Errors: invalid geometry, n_blocks < 1, size overflow, out of memory.
    static result<kv_storage> create(const kv_geometry& g, std::int32_t n_blocks);

    int n_layer() const { return static_cast<int>(k_.size()); }
    std::int32_t n_blocks() const { return n_blocks_; }
    int block_size() const { return block_size_; }
    std::int64_t row_bytes() const { return row_bytes_; }
    std::int64_t layer_bytes() const { return layer_bytes_; }       // one K (or V) array
    std::int64_t total_bytes() const { return 2 * layer_bytes_ * n_layer(); }

    // Whole arrays, for kernels: (n_blocks, block_size, row_elems) in dtype.
    std::uint8_t* k_layer(int il) { return k_[static_cast<std::size_t>(il)]; }
    std::uint8_t* v_layer(int il) { return v_[static_cast<std::size_t>(il)]; }
    const std::uint8_t* k_layer(int il) const { return k_[static_cast<std::size_t>(il)]; }
    const std::uint8_t* v_layer(int il) const { return v_[static_cast<std::size_t>(il)]; }

    // One token's row (row_bytes bytes). Unchecked: 0 <= il < n_layer,
    // 0 <= block < n_blocks, 0 <= slot < block_size.
    std::uint8_t* k_row(int il, std::int32_t block, int slot) { return k_layer(il) + offset(block, slot); }
    std::uint8_t* v_row(int il, std::int32_t block, int slot) { return v_layer(il) + offset(block, slot); }
    const std::uint8_t* k_row(int il, std::int32_t block, int slot) const { return k_layer(il) + offset(block, slot); }
    const std::uint8_t* v_row(int il, std::int32_t block, int slot) const { return v_layer(il) + offset(block, slot); }

private:
    std::int64_t offset(std::int32_t block, int slot) const
    {
        return (static_cast<std::int64_t>(block) * block_size_ + slot) * row_bytes_;
    }

    std::int32_t n_blocks_ = 0;
    int block_size_ = 0;
    std::int64_t row_bytes_ = 0;
    std::int64_t layer_bytes_ = 0;
    huge_page_buffer region_;        // every array: (2 * n_layer) x layer_bytes rounded up to 4 KiB
    std::vector<std::uint8_t*> k_;   // (n_layer) arrays of layer_bytes, in region_
    std::vector<std::uint8_t*> v_;   // (n_layer) arrays of layer_bytes, in region_
};

}  // namespace kvlens
