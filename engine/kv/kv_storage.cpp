// SPDX-License-Identifier: Apache-2.0
// Host allocation of the KV arrays (see kv_storage.h).
#include "engine/kv/kv_storage.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include <unistd.h>

#include <fmt/format.h>

namespace kvlens {

namespace {

constexpr std::size_t k_commit_ahead_max_bytes = std::size_t{512} << 20;

// Bytes of memory available now (MemAvailable: free plus reclaimable caches;
// free pages where /proc/meminfo does not say); 0 when unknown.
std::size_t free_memory_bytes()
{
    if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
        char line[256];
        unsigned long long kib = 0;
        bool found = false;
        while (!found && std::fgets(line, sizeof line, f))
            found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
        std::fclose(f);
        if (found) return static_cast<std::size_t>(kib) * 1024;
    }
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

}  // namespace

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
    constexpr std::size_t page = 4096;   // each array starts on its own page (and so 64-byte aligned)
    const std::size_t stride = (static_cast<std::size_t>(s.layer_bytes_) + page - 1) / page * page;
    const std::size_t arrays = 2 * static_cast<std::size_t>(g.n_layer);
    s.region_ = huge_page_buffer::allocate(stride * arrays);
    if (!s.region_)
        return make_error(fmt::format("KV cache: out of memory allocating {} x {} bytes ({:.1f} MiB in all)", arrays,
                                      s.layer_bytes_, static_cast<double>(stride * arrays) / (1 << 20)));
    std::uint8_t* p = s.region_.data();
    for (std::size_t il = 0; il < static_cast<std::size_t>(g.n_layer); ++il) {
        s.k_.push_back(p + (2 * il) * stride);
        s.v_.push_back(p + (2 * il + 1) * stride);
    }
    // The rows of a first request's tokens committed now, while the model
    // loads: committed on first touch instead, a huge page of every array
    // lands on the first prefill chunk (SmolLM2, 60 arrays: 120 MiB, 0.4 s of
    // a 0.55 s first chunk on a VM whose fresh memory commits at 0.3 GB/s).
    // At most k_commit_ahead_max_bytes in all and a quarter of the memory
    // available now: a model with huge rows (or a hostile file's geometry) must
    // not commit gigabytes, or meet the OOM killer, before any request.
    const std::size_t budget = std::min(k_commit_ahead_max_bytes, free_memory_bytes() / 4) / arrays;
    const std::size_t ahead = std::min({stride, static_cast<std::size_t>(s.row_bytes_ * k_commit_ahead_tokens), budget});
    if (ahead > 0)
        for (std::size_t a = 0; a < arrays; ++a) s.region_.commit(a * stride, ahead);
    return s;
}

}  // namespace kvlens
