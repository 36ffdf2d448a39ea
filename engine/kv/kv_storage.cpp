// SPDX-License-Identifier: Apache-2.0
// Host allocation of the KV arrays (see kv_storage.h).
#include "engine/kv/kv_storage.h"

#include <limits>
#include <new>

#include <fmt/format.h>

namespace kvlens {

void kv_storage::aligned_delete::operator()(std::uint8_t* p) const
{
    ::operator delete[](p, std::align_val_t{alignment});
}

result<kv_storage> kv_storage::create(const kv_geometry& g, std::int32_t n_blocks)
{
    if (status s = validate(g); !s)
        return s.err();
    if (n_blocks < 1)
        return make_error(fmt::format("KV cache: {} blocks; need at least one", n_blocks));
    const std::int64_t per_block = g.block_layer_bytes();   // validate() keeps this small
    if (n_blocks > std::numeric_limits<std::int64_t>::max() / per_block / 2 / g.n_layer)
        return make_error(fmt::format("KV cache: {} blocks of {} bytes overflow", n_blocks, g.block_bytes()));

    kv_storage s;
    s.n_blocks_ = n_blocks;
    s.block_size_ = g.block_size;
    s.row_bytes_ = g.row_bytes();
    s.layer_bytes_ = per_block * n_blocks;
    const auto size = static_cast<std::size_t>(s.layer_bytes_);
    for (int il = 0; il < g.n_layer; ++il) {
        for (auto* arrays : {&s.k_, &s.v_}) {
            auto* p = static_cast<std::uint8_t*>(::operator new[](size, std::align_val_t{alignment}, std::nothrow));
            if (p == nullptr)
                return make_error(fmt::format("KV cache: out of memory allocating {} x {} bytes ({:.1f} MiB in all)",
                                              2 * g.n_layer, size, static_cast<double>(2 * g.n_layer * s.layer_bytes_) / (1 << 20)));
            arrays->emplace_back(p);
        }
    }
    return s;
}

}  // namespace kvlens
