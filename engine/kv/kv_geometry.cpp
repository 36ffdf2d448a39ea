// SPDX-License-Identifier: Apache-2.0
// Sizes derived from the KV cache's shape (see kv_geometry.h).
#include "engine/kv/kv_geometry.h"

#include <algorithm>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "engine/kv/kv_codec.h"
#include "engine/model/model_info.h"

namespace kvlens {

namespace {
// Generous ceilings that keep every size product far inside int64.
constexpr int max_layers = 4096;
constexpr int max_row_elems = 1 << 24;
constexpr int max_block_size = 4096;
}  // namespace

std::int64_t kv_geometry::row_bytes() const
{
    return kvlens::row_bytes(dtype, row_elems());
}

std::int64_t kv_geometry::block_layer_bytes() const
{
    return static_cast<std::int64_t>(block_size) * row_bytes();
}

std::int64_t kv_geometry::block_bytes() const
{
    return group_block_bytes(layer_group::global) + group_block_bytes(layer_group::local);
}

bool kv_geometry::is_conv(int il) const
{
    return il >= 0 && static_cast<std::size_t>(il) < layer_conv.size() && layer_conv[static_cast<std::size_t>(il)] != 0;
}

bool kv_geometry::has_conv_layers() const
{
    return std::any_of(layer_conv.begin(), layer_conv.end(), [](char c) { return c != 0; });
}

std::int64_t kv_geometry::layer_row_bytes(int il) const
{
    return group_row_bytes(is_conv(il) ? layer_group::local : layer_group::global);
}

std::int64_t kv_geometry::group_row_bytes(layer_group g) const
{
    if (g == layer_group::local && has_conv_layers())
        return kvlens::row_bytes(kv_dtype::f32, conv_row_elems / 2);
    return row_bytes();
}

std::int64_t kv_geometry::bytes_per_token() const
{
    std::int64_t total = 0;
    for (int il = 0; il < n_layer; ++il)
        total += 2 * layer_row_bytes(il);
    return total;
}

std::int64_t kv_geometry::layer_tokens(int il, std::int64_t n_tokens) const
{
    if (il >= 0 && static_cast<std::size_t>(il) < layer_window.size() && layer_window[il] > 0)
        return std::min<std::int64_t>(n_tokens, layer_window[il]);
    return n_tokens;
}

std::int64_t kv_geometry::blocks_for_tokens(std::int64_t n_tokens) const
{
    if (n_tokens <= 0 || block_size <= 0)
        return 0;
    return (n_tokens + block_size - 1) / block_size;
}

std::int64_t kv_geometry::logical_bytes(std::int64_t n_tokens) const
{
    std::int64_t total = 0;
    for (int il = 0; il < n_layer; ++il)
        total += 2 * layer_row_bytes(il) * layer_tokens(il, n_tokens);
    return total;
}

std::int64_t kv_geometry::logical_bytes(std::int64_t n_tokens, layer_group g) const
{
    std::int64_t total = 0;
    for (int il = 0; il < n_layer; ++il)
        if (is_local(il) == (g == layer_group::local))
            total += 2 * layer_row_bytes(il) * layer_tokens(il, n_tokens);
    return total;
}

// --- layer groups -------------------------------------------------------------------

bool kv_geometry::has_local_layers() const
{
    return local_window() > 0;
}

bool kv_geometry::is_local(int il) const
{
    return il >= 0 && static_cast<std::size_t>(il) < layer_window.size() && layer_window[static_cast<std::size_t>(il)] > 0;
}

int kv_geometry::n_group_layers(layer_group g) const
{
    int n = 0;
    for (int il = 0; il < n_layer; ++il)
        n += is_local(il) == (g == layer_group::local);
    return n;
}

int kv_geometry::index_in_group(int il) const
{
    int n = 0;
    for (int j = 0; j < il; ++j)
        n += is_local(j) == is_local(il);
    return n;
}

int kv_geometry::local_window() const
{
    int w = 0;
    for (int il = 0; il < n_layer; ++il)
        if (is_local(il))
            w = std::max(w, layer_window[static_cast<std::size_t>(il)]);
    return w;
}

std::int64_t kv_geometry::group_block_bytes(layer_group g) const
{
    return 2 * static_cast<std::int64_t>(n_group_layers(g)) * block_size * group_row_bytes(g);
}

kv_geometry kv_geometry::group_geometry(layer_group g) const
{
    kv_geometry out = *this;
    out.n_layer = n_group_layers(g);
    out.layer_window.clear();
    out.layer_conv.clear();
    out.conv_row_elems = 0;
    if (g == layer_group::local && has_conv_layers()) {   // B*x rows of n_embd f32: half in K, half in V
        out.n_kv_heads = 1;
        out.head_dim = conv_row_elems / 2;
        out.dtype = kv_dtype::f32;
    }
    return out;
}

std::int32_t kv_geometry::local_blocks(std::int32_t n_blocks) const
{
    if (!has_local_layers())
        return 0;
    return local_pool_blocks > 0 ? std::min(local_pool_blocks, n_blocks) : n_blocks;
}

std::int32_t local_pool_blocks_for(const kv_geometry& g, std::int32_t n_blocks, int n_sequences, int step_tokens)
{
    if (!g.has_local_layers())
        return 0;
    // Held at once by one sequence: the blocks from the window before its end to the end of its step, partial ones at both ends.
    const std::int64_t per_sequence = g.blocks_for_tokens(g.local_window() + step_tokens) + 2;
    const std::int64_t want = std::max<std::int64_t>(64, 2 * per_sequence * std::max(1, n_sequences));
    return static_cast<std::int32_t>(std::min<std::int64_t>(n_blocks, want));
}

std::int64_t kv_geometry::local_keep_from(std::int64_t n_tokens) const
{
    const int w = local_window();
    if (w <= 0)
        return 0;
    return std::max<std::int64_t>(0, n_tokens - w + 1);
}

status validate(const kv_geometry& g)
{
    if (g.n_layer <= 0 || g.n_layer > max_layers)
        return make_error(fmt::format("KV cache: n_layer {} out of range 1..{}", g.n_layer, max_layers));
    if (g.n_kv_heads <= 0 || g.head_dim <= 0 ||
        static_cast<std::int64_t>(g.n_kv_heads) * g.head_dim > max_row_elems)
        return make_error(fmt::format("KV cache: n_kv_heads {} x head_dim {} out of range",
                                      g.n_kv_heads, g.head_dim));
    if (g.block_size <= 0 || g.block_size > max_block_size)
        return make_error(fmt::format("KV cache: block size {} out of range 1..{}", g.block_size, max_block_size));
    // Attention reads one head at a time, so a q8_0 block must not straddle two heads.
    if (!row_elems_valid(g.dtype, g.head_dim))
        return make_error(fmt::format("KV cache: {} needs head_dim a multiple of 32, got {} (try --kv-dtype f16)",
                                      to_string(g.dtype), g.head_dim));
    if (!g.layer_window.empty()) {
        if (g.layer_window.size() != static_cast<std::size_t>(g.n_layer))
            return make_error(fmt::format("KV cache: {} layer windows for {} layers", g.layer_window.size(), g.n_layer));
        for (int w : g.layer_window)
            if (w < 0)
                return make_error(fmt::format("KV cache: negative sliding window {}", w));
    }
    if (!g.layer_conv.empty()) {
        if (g.layer_conv.size() != static_cast<std::size_t>(g.n_layer))
            return make_error(fmt::format("KV cache: {} convolution flags for {} layers", g.layer_conv.size(), g.n_layer));
        if (g.has_conv_layers() && (g.conv_row_elems <= 0 || g.conv_row_elems % 2 != 0 || g.conv_row_elems > max_row_elems))
            return make_error(fmt::format("KV cache: a convolution row of {} elements (needs an even count)", g.conv_row_elems));
        for (int il = 0; il < g.n_layer; ++il)
            if (g.has_conv_layers() && g.is_conv(il) != g.is_local(il))
                return make_error(fmt::format("KV cache: layer {} is {} but {} a window (convolution layers must be "
                                              "exactly the windowed ones)",
                                              il, g.is_conv(il) ? "a convolution" : "attention",
                                              g.is_local(il) ? "has" : "has no"));
    }
    return {};
}

kv_geometry make_kv_geometry(const model_info& info, kv_dtype dtype, int block_size)
{
    kv_geometry g;
    g.n_layer = info.n_layer;
    g.n_kv_heads = info.n_head_kv;
    g.head_dim = info.head_dim;
    g.dtype = dtype;
    g.block_size = block_size;
    if (!info.conv_layers.empty()) {
        g.layer_conv.assign(static_cast<std::size_t>(info.n_layer), 0);
        g.layer_window.assign(static_cast<std::size_t>(info.n_layer), 0);
        for (int il : info.conv_layers) {
            if (il < 0 || il >= info.n_layer) continue;
            g.layer_conv[static_cast<std::size_t>(il)] = 1;
            g.layer_window[static_cast<std::size_t>(il)] = info.conv_taps;
        }
        g.conv_row_elems = info.n_embd;
    }
    return g;
}

result<std::int32_t> blocks_for_budget(const kv_geometry& g, std::int64_t budget_mib)
{
    if (status s = validate(g); !s)
        return s.err();
    constexpr std::int64_t max_mib = std::int64_t{1} << 40;  // keeps the byte count inside int64
    if (budget_mib <= 0 || budget_mib > max_mib)
        return make_error(fmt::format("KV budget {} MiB out of range", budget_mib));
    const std::int64_t n = budget_mib * (std::int64_t{1} << 20) / g.block_bytes();
    if (n < 1)
        return make_error(fmt::format("KV budget {} MiB is smaller than one block ({} bytes)", budget_mib, g.block_bytes()));
    if (n > std::numeric_limits<std::int32_t>::max())
        return make_error(fmt::format("KV budget {} MiB is more than {} blocks", budget_mib,
                                      std::numeric_limits<std::int32_t>::max()));
    return static_cast<std::int32_t>(n);
}

result<std::int32_t> blocks_for_context(const kv_geometry& g, std::int64_t n_ctx, int n_sequences)
{
    if (status s = validate(g); !s)
        return s.err();
    if (n_ctx <= 0 || n_ctx > std::numeric_limits<std::int32_t>::max() || n_sequences <= 0)
        return make_error(fmt::format("KV pool for {} tokens x {} sequences: out of range", n_ctx, n_sequences));
    const std::int64_t n = g.blocks_for_tokens(n_ctx) * n_sequences;
    if (n > std::numeric_limits<std::int32_t>::max())
        return make_error(fmt::format("KV pool for {} tokens x {} sequences: too many blocks", n_ctx, n_sequences));
    return static_cast<std::int32_t>(n);
}

}  // namespace kvlens
