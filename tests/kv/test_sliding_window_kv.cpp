// SPDX-License-Identifier: Apache-2.0
// Sliding-window layers keep a capped KV cache: a sequence's local layers
// (Gemma 3's five of six) hold only the blocks of the window, releasing the
// rest to their own block pool as the sequence grows, while the global
// layers keep every block; the figures split by layer group; the prefix
// cache serves a hit only as far as the local layers still have the window
// before its end, and never hands out a released block.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/kv/block_pool.h"
#include "engine/kv/kv_geometry.h"
#include "engine/kv/kv_pool.h"
#include "engine/kv/kv_sequence.h"

using namespace kvlens;
using ids = std::vector<std::int32_t>;

namespace {

constexpr int k_window = 8;
constexpr int k_block = 4;

// Six layers, Gemma 3's pattern: five local (window 8) then one global.
kv_geometry swa_geometry()
{
    kv_geometry g;
    g.n_layer = 6;
    g.n_kv_heads = 1;
    g.head_dim = 32;
    g.block_size = k_block;
    g.layer_window = {k_window, k_window, k_window, k_window, k_window, 0};
    return g;
}

std::unique_ptr<kv_pool> make_pool(const kv_geometry& g, std::int32_t n_blocks)
{
    auto pool = kv_pool::create({g, n_blocks, true});
    if (!pool)
        throw std::runtime_error("kv_pool::create: " + pool.message());
    return std::move(*pool);
}

ids tokens(int n, int first = 100)
{
    ids t(static_cast<std::size_t>(n));
    std::iota(t.begin(), t.end(), first);
    return t;
}

// Feeds ids one decode step at a time (ensure, write nothing, commit).
void feed(kv_sequence& s, const ids& t)
{
    for (std::int32_t id : t) {
        ASSERT_TRUE(s.ensure_capacity(s.n_tokens() + 1).ok());
        ASSERT_TRUE(s.commit({&id, 1}).ok());
    }
}

// Local blocks a sequence of n tokens holds: those with a position in
// [local_keep_from(n), n).
std::int64_t expected_local_blocks(const kv_geometry& g, std::int64_t n)
{
    if (n == 0)
        return 0;
    return g.blocks_for_tokens(n) - g.local_keep_from(n) / g.block_size;
}

}  // namespace

TEST(SlidingWindowGeometry, LayersSplitIntoLocalAndGlobalGroupsInOrder)
{
    const kv_geometry g = swa_geometry();
    EXPECT_TRUE(g.has_local_layers());
    EXPECT_EQ(g.n_group_layers(layer_group::local), 5);
    EXPECT_EQ(g.n_group_layers(layer_group::global), 1);
    EXPECT_EQ(g.index_in_group(4), 4);
    EXPECT_EQ(g.index_in_group(5), 0);
    EXPECT_EQ(g.local_window(), k_window);
    EXPECT_EQ(g.group_block_bytes(layer_group::local) + g.group_block_bytes(layer_group::global), g.block_bytes());
    EXPECT_EQ(g.local_keep_from(5), 0);
    EXPECT_EQ(g.local_keep_from(20), 13);   // the query at 20 sees keys 13..20
    kv_geometry full = g;
    full.layer_window.clear();
    EXPECT_FALSE(full.has_local_layers());
    EXPECT_EQ(full.group_block_bytes(layer_group::global), full.block_bytes());
}

// The local group's pool is sized for what the active sequences hold at
// once (the window before each one's end and its step), twice over, at
// least 64 blocks, never more than the global group's; the pool and its
// storage take that many.
TEST(SlidingWindowGeometry, TheLocalPoolHoldsTheActiveSequencesWindowsNotTheContext)
{
    kv_geometry g = swa_geometry();
    // Window 8 + a step of 12 = 20 tokens: 5 blocks of 4, plus 2 partial: 7 per sequence.
    EXPECT_EQ(local_pool_blocks_for(g, 1000, 1, 12), 64);
    EXPECT_EQ(local_pool_blocks_for(g, 1000, 8, 12), 2 * 7 * 8);
    EXPECT_EQ(local_pool_blocks_for(g, 50, 8, 12), 50);
    kv_geometry full = g;
    full.layer_window.clear();
    EXPECT_EQ(local_pool_blocks_for(full, 1000, 8, 12), 0);

    g.local_pool_blocks = 64;
    EXPECT_EQ(g.local_blocks(1000), 64);
    EXPECT_EQ(g.local_blocks(40), 40);
    const auto pool = make_pool(g, 1000);
    EXPECT_EQ(pool->blocks().n_blocks(), 1000);
    EXPECT_EQ(pool->local_blocks().n_blocks(), 64);
    EXPECT_EQ(pool->storage(layer_group::local).n_blocks(), 64);
    EXPECT_EQ(pool->storage(layer_group::global).n_blocks(), 1000);
    // A long sequence fed a token at a time never holds more than its window's blocks.
    kv_sequence s(*pool, kv_mode::paged);
    ASSERT_TRUE(s.begin({}, 0).ok());
    feed(s, tokens(900));
    EXPECT_EQ(s.n_tokens(), 900);
    EXPECT_LE(pool->local_blocks().n_blocks() - pool->local_blocks().n_available(), 4);
}

TEST(SlidingWindowKv, LocalLayersHoldOnlyTheWindowWhileGlobalLayersKeepEveryBlock)
{
    const kv_geometry g = swa_geometry();
    auto pool = make_pool(g, 64);
    kv_sequence s(*pool, kv_mode::paged);
    ASSERT_TRUE(s.begin({}, 0).ok());
    const ids t = tokens(100);
    std::int64_t most_local = 0;
    for (int i = 0; i < 100; ++i) {
        feed(s, {t[static_cast<std::size_t>(i)]});
        const std::int64_t n = s.n_tokens();
        EXPECT_EQ(s.n_local_blocks_held(), expected_local_blocks(g, n)) << "after " << n << " tokens";
        EXPECT_EQ(pool->local_blocks().n_used(), s.n_local_blocks_held());
        EXPECT_EQ(pool->blocks().n_used(), g.blocks_for_tokens(n));
        most_local = std::max(most_local, s.n_local_blocks_held());
    }
    // The window of 8 in blocks of 4 spans at most 3 blocks, however long the sequence.
    EXPECT_EQ(most_local, 3);
    EXPECT_EQ(s.local_slot_of(0).block, -1);
    EXPECT_EQ(s.local_slot_of(91).block, -1);   // 100 - 8 + 1 = 93 is the first kept; block 22 (88..91) is gone
    EXPECT_GE(s.local_slot_of(93).block, 0);
    EXPECT_GE(s.slot_of(0).block, 0);           // the global layers keep it
}

TEST(SlidingWindowKv, FiguresSplitByLayerGroupAndAddUp)
{
    const kv_geometry g = swa_geometry();
    auto pool = make_pool(g, 64);
    kv_sequence s(*pool, kv_mode::paged);
    ASSERT_TRUE(s.begin({}, 0).ok());
    const std::int64_t rb = g.row_bytes();
    const std::int64_t local_block = g.group_block_bytes(layer_group::local);
    const std::int64_t global_block = g.group_block_bytes(layer_group::global);
    std::int64_t local_alloc_at_40 = 0;
    for (int n : {3, 8, 40, 100}) {
        feed(s, tokens(n - static_cast<int>(s.n_tokens()), 100 + static_cast<int>(s.n_tokens())));
        const kv_figures f = s.figures();
        EXPECT_EQ(f.kv_tokens, n);
        EXPECT_EQ(f.local_tokens, std::min(n, k_window));
        EXPECT_EQ(f.global_tokens, n);
        EXPECT_EQ(f.local_bytes, 5 * 2 * rb * std::min(n, k_window));
        EXPECT_EQ(f.global_bytes, 1 * 2 * rb * n);
        EXPECT_EQ(f.kv_bytes, f.local_bytes + f.global_bytes);
        EXPECT_EQ(f.kv_bytes, g.logical_bytes(n));
        EXPECT_EQ(f.local_allocated_bytes, expected_local_blocks(g, n) * local_block);
        EXPECT_EQ(f.global_allocated_bytes, g.blocks_for_tokens(n) * global_block);
        EXPECT_EQ(f.kv_allocated_bytes, f.local_allocated_bytes + f.global_allocated_bytes);
        EXPECT_EQ(f.kv_reserved_bytes, f.kv_allocated_bytes);   // paged: nothing ahead
        if (n == 40) local_alloc_at_40 = f.local_allocated_bytes;
        if (n == 100) EXPECT_EQ(f.local_allocated_bytes, local_alloc_at_40);   // flat past the window
    }
}

TEST(SlidingWindowKv, WithoutSlidingWindowsEveryLayerIsGlobalAndNothingIsReleased)
{
    kv_geometry g = swa_geometry();
    g.layer_window.clear();
    auto pool = make_pool(g, 64);
    kv_sequence s(*pool, kv_mode::paged);
    ASSERT_TRUE(s.begin({}, 0).ok());
    feed(s, tokens(50));
    const kv_figures f = s.figures();
    EXPECT_TRUE(s.local_block_table().empty());
    EXPECT_EQ(s.local_block_table_data(), nullptr);
    EXPECT_EQ(f.local_tokens, 0);
    EXPECT_EQ(f.local_allocated_bytes, 0);
    EXPECT_EQ(f.global_bytes, f.kv_bytes);
    EXPECT_EQ(f.kv_allocated_bytes, g.blocks_bytes(g.blocks_for_tokens(50)));
}

TEST(SlidingWindowKv, ReleasingTheSequenceReturnsBothGroupsBlocks)
{
    auto pool = make_pool(swa_geometry(), 64);
    {
        kv_sequence s(*pool, kv_mode::paged);
        ASSERT_TRUE(s.begin({}, 0).ok());
        feed(s, tokens(30));
        EXPECT_GT(pool->local_blocks().n_used(), 0);
    }
    EXPECT_EQ(pool->blocks().n_used(), 0);
    EXPECT_EQ(pool->local_blocks().n_used(), 0);
    EXPECT_EQ(pool->local_blocks().n_available(), 64);
}

TEST(SlidingWindowKv, APrefixHitBringsTheWindowBeforeItsEndFromTheLocalCache)
{
    const kv_geometry g = swa_geometry();
    auto pool = make_pool(g, 64);
    const ids doc = tokens(41);   // 10 whole blocks + 1
    std::vector<std::int32_t> first_local;
    {
        kv_sequence a(*pool, kv_mode::paged);
        ASSERT_TRUE(a.begin(doc, 0).ok());
        feed(a, doc);
        first_local = a.local_block_table();
    }
    ids question = doc;
    question.push_back(7);
    question.push_back(8);
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(question, 0);
    ASSERT_TRUE(cached.ok());
    EXPECT_EQ(*cached, 40);   // reusable_prefix_tokens(43, 4)
    // The next query (position 40) reads local keys 33..39: blocks 8 and 9, from a's cache.
    ASSERT_EQ(b.local_block_table().size(), 10u);
    for (std::size_t blk = 0; blk < 8; ++blk) EXPECT_EQ(b.local_block_table()[blk], -1) << blk;
    EXPECT_EQ(b.local_block_table()[8], first_local[8]);
    EXPECT_EQ(b.local_block_table()[9], first_local[9]);
    EXPECT_EQ(b.n_local_blocks_held(), 2);
    ASSERT_TRUE(b.ensure_capacity(43).ok());
    for (std::int64_t p = 33; p < 43; ++p) EXPECT_GE(b.local_slot_of(p).block, 0) << p;
}

TEST(SlidingWindowKv, APrefixWhoseWindowWasEvictedFromTheLocalGroupIsNotServed)
{
    const kv_geometry g = swa_geometry();
    auto pool = make_pool(g, 16);
    const ids doc = tokens(41);
    {
        kv_sequence a(*pool, kv_mode::paged);
        ASSERT_TRUE(a.begin(doc, 0).ok());
        feed(a, doc);
    }
    // Something else takes every local block: the cached local blocks are evicted,
    // the global ones stay cached.
    std::vector<std::int32_t> taken;
    ASSERT_TRUE(pool->local_blocks().allocate(pool->local_blocks().n_available(), taken));
    pool->local_blocks().free(taken);
    EXPECT_EQ(pool->cached_prefix_tokens(doc), 0);
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(doc, 0);
    ASSERT_TRUE(cached.ok());
    EXPECT_EQ(*cached, 0);   // recomputed, never served without the local K/V
    EXPECT_EQ(b.n_tokens(), 0);
    EXPECT_EQ(pool->blocks().n_used(), 0);
}

TEST(SlidingWindowKv, APrefixSharedUpToADivergenceFindsTheWindowBeforeTheDivergence)
{
    const kv_geometry g = swa_geometry();
    auto pool = make_pool(g, 64);
    const ids doc = tokens(41);
    {
        kv_sequence a(*pool, kv_mode::paged);
        ASSERT_TRUE(a.begin(doc, 0).ok());
        feed(a, doc);
    }
    // A second document shares the first 20 tokens (5 blocks), then differs:
    // its own local blocks of the shared part were cached by a, so a hit of 5
    // blocks finds the window before position 20 (blocks 3 and 4).
    ids other = tokens(20);
    for (int i = 0; i < 12; ++i) other.push_back(900 + i);
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(other, 0);
    ASSERT_TRUE(cached.ok());
    EXPECT_EQ(*cached, 20);
    EXPECT_GE(b.local_block_table()[3], 0);
    EXPECT_GE(b.local_block_table()[4], 0);
}

TEST(SlidingWindowKv, AHitIsCutBackToTheLongestPrefixWhoseWindowIsStillCached)
{
    const kv_geometry g = swa_geometry();
    auto pool = make_pool(g, 16);
    const ids doc = tokens(41);
    std::vector<std::int32_t> a_local;
    {
        kv_sequence a(*pool, kv_mode::paged);
        ASSERT_TRUE(a.begin(doc, 0).ok());
        feed(a, doc);   // local blocks 0..9 end up cached, unreferenced
    }
    {
        // A shorter request over the first 24 tokens touches local blocks 4 and 5
        // (the window before 24) and releases them last: the most recently used.
        const ids head(doc.begin(), doc.begin() + 26);   // the last two tokens are always computed
        kv_sequence d(*pool, kv_mode::paged);
        auto hit = d.begin(head, 0);
        ASSERT_TRUE(hit.ok());
        ASSERT_EQ(*hit, 24);
        a_local = d.local_block_table();
    }
    // Evict every cached local block but those two.
    block_pool& local = pool->local_blocks();
    std::vector<std::int32_t> taken;
    ASSERT_TRUE(local.allocate(local.n_free() + local.n_evictable() - 2, taken));
    local.free(taken);
    std::vector<std::int32_t> left = local.lru_order();
    std::sort(left.begin(), left.end());
    std::vector<std::int32_t> want = {a_local[4], a_local[5]};
    std::sort(want.begin(), want.end());
    ASSERT_EQ(left, want);

    // The global layers have the whole document cached; the local ones only
    // the window before position 24. The hit stops there.
    ids question = doc;
    question.push_back(7);
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(question, 0);
    ASSERT_TRUE(cached.ok());
    EXPECT_EQ(pool->cached_prefix_tokens(question), 24);
    EXPECT_EQ(*cached, 24);
    EXPECT_EQ(b.local_block_table()[4], a_local[4]);
    EXPECT_EQ(b.local_block_table()[5], a_local[5]);
    ASSERT_TRUE(b.ensure_capacity(42).ok());
    for (std::int64_t p = 17; p < 42; ++p) EXPECT_GE(b.local_slot_of(p).block, 0) << p;
}

TEST(SlidingWindowKv, StaticModeReservesGlobalBlocksUpFrontAndLocalOnesAsNeeded)
{
    const kv_geometry g = swa_geometry();
    auto pool = make_pool(g, 64);
    kv_sequence s(*pool, kv_mode::static_reserve);
    const ids prompt = tokens(10);
    ASSERT_TRUE(s.begin(prompt, 90).ok());
    EXPECT_EQ(pool->blocks().n_used(), g.blocks_for_tokens(100));
    EXPECT_EQ(pool->local_blocks().n_used(), 0);
    feed(s, tokens(60));
    EXPECT_EQ(s.n_local_blocks_held(), expected_local_blocks(g, 60));
    EXPECT_EQ(s.kv_reserved_bytes(), g.blocks_for_tokens(100) * g.group_block_bytes(layer_group::global) +
                                         s.n_local_blocks_held() * g.group_block_bytes(layer_group::local));
}

TEST(SlidingWindowKv, TheLocalStorageHoldsTheLocalLayersRowsApartFromTheGlobalOnes)
{
    const kv_geometry g = swa_geometry();
    auto pool = make_pool(g, 8);
    EXPECT_EQ(pool->storage(layer_group::local).n_layer(), 5);
    EXPECT_EQ(pool->storage(layer_group::global).n_layer(), 1);
    EXPECT_EQ(pool->capacity_bytes(), g.blocks_bytes(8));
    // Layer 5 (global) and layer 0 (local) at the same block id are different rows.
    EXPECT_NE(pool->k_row(5, 2, 1), pool->k_row(0, 2, 1));
    EXPECT_EQ(pool->k_row(5, 2, 1), pool->storage(layer_group::global).k_row(0, 2, 1));
    EXPECT_EQ(pool->k_row(4, 2, 1), pool->storage(layer_group::local).k_row(4, 2, 1));
}
