// SPDX-License-Identifier: Apache-2.0
// The paged KV cache: block allocation and reference counts, a full pool
// failing cleanly, the prefix cache (shared prefixes, LRU eviction), per-mode
// sequences (paged, static, off) and their figures, sizing, and the storage
// layout the attention kernels rely on.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/kv/block_hash.h"
#include "engine/kv/block_pool.h"
#include "engine/kv/kv_codec.h"
#include "engine/kv/kv_geometry.h"
#include "engine/kv/kv_pool.h"
#include "engine/kv/kv_sequence.h"
#include "engine/kv/kv_types.h"

using namespace kvlens;
using ids = std::vector<std::int32_t>;

namespace {

// SmolLM2-135M's KV shape: 30 layers, 3 KV heads of 64.
kv_geometry smollm_geometry(kv_dtype dtype = kv_dtype::f16, int block_size = 16)
{
    kv_geometry g;
    g.n_layer = 30;
    g.n_kv_heads = 3;
    g.head_dim = 64;
    g.dtype = dtype;
    g.block_size = block_size;
    return g;
}

// A small shape for pools whose bytes the tests touch.
kv_geometry tiny_geometry(int block_size)
{
    kv_geometry g;
    g.n_layer = 2;
    g.n_kv_heads = 1;
    g.head_dim = 32;
    g.block_size = block_size;
    return g;
}

std::unique_ptr<kv_pool> make_pool(const kv_geometry& g, std::int32_t n_blocks, bool host = false)
{
    auto pool = kv_pool::create({g, n_blocks, host});
    if (!pool)
        throw std::runtime_error("kv_pool::create: " + pool.message());   // the test fails with it
    return std::move(*pool);
}

ids random_tokens(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::int32_t> dist(0, 49151);
    ids t(static_cast<std::size_t>(n));
    for (auto& v : t)
        v = dist(rng);
    return t;
}

ids concat(ids a, const ids& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Runs a whole prompt through a sequence the way the forward pass would:
// room for it, then commit (the rows themselves are not written here).
void prefill(kv_sequence& seq, const ids& prompt, std::int64_t max_new = 0)
{
    auto cached = seq.begin(prompt, max_new);
    ASSERT_TRUE(cached.ok()) << (cached.ok() ? "" : cached.message().c_str());
    ASSERT_TRUE(seq.ensure_capacity(static_cast<std::int64_t>(prompt.size())).ok());
    ASSERT_TRUE(seq.commit(std::span<const std::int32_t>(prompt).subspan(static_cast<std::size_t>(*cached))).ok());
    ASSERT_EQ(seq.n_tokens(), std::int64_t(prompt.size()));
}

}  // namespace


TEST(KvPool, namesRoundTrip)
{
    for (kv_mode m : {kv_mode::paged, kv_mode::static_reserve, kv_mode::off}) {
        kv_mode back = kv_mode::paged;
        ASSERT_TRUE(parse_kv_mode(to_string(m), back));
        ASSERT_EQ(int(back), int(m));
    }
    for (kv_dtype d : {kv_dtype::f16, kv_dtype::q8_0}) {
        kv_dtype back = kv_dtype::f16;
        ASSERT_TRUE(parse_kv_dtype(to_string(d), back));
        ASSERT_EQ(int(back), int(d));
    }
    ASSERT_STREQ(to_string(kv_mode::static_reserve), "static");
    kv_mode m = kv_mode::off;
    ASSERT_TRUE(!parse_kv_mode("dynamic", m));
    ASSERT_EQ(int(m), int(kv_mode::off));
}

TEST(KvPool, kvBytesFormula)
{
    struct row {
        const char* name;
        int n_layer, n_kv_heads, head_dim;
        kv_dtype dtype;
        int window;   // every other layer's sliding window, 0: none
        std::int64_t tokens, bytes;
    };
    const row rows[] = {
        {"smollm2 f16 100", 30, 3, 64, kv_dtype::f16, 0, 100, 2LL * 30 * 3 * 64 * 2 * 100},
        {"smollm2 q8_0 100", 30, 3, 64, kv_dtype::q8_0, 0, 100, 2LL * 30 * (192 / 32 * 34) * 100},
        {"llama 8b f16 8192", 32, 8, 128, kv_dtype::f16, 0, 8192, 1073741824},
        {"zero tokens", 30, 3, 64, kv_dtype::f16, 0, 0, 0},
        // Sliding window 512 on odd layers: those hold min(tokens, 512).
        {"window below", 4, 1, 256, kv_dtype::f16, 512, 300, 4LL * 2 * 512 * 300},
        {"window above", 4, 1, 256, kv_dtype::f16, 512, 1000, 2LL * 2 * 512 * 1000 + 2LL * 2 * 512 * 512},
    };
    for (const row& r : rows) {
        SCOPED_TRACE(r.name);
        kv_geometry g;
        g.n_layer = r.n_layer;
        g.n_kv_heads = r.n_kv_heads;
        g.head_dim = r.head_dim;
        g.dtype = r.dtype;
        if (r.window > 0)
            for (int il = 0; il < r.n_layer; ++il)
                g.layer_window.push_back(il % 2 ? r.window : 0);
        ASSERT_TRUE(validate(g).ok());
        ASSERT_EQ(g.logical_bytes(r.tokens), r.bytes);
        if (r.window == 0)
            ASSERT_EQ(g.bytes_per_token() * r.tokens, r.bytes);
    }
}

TEST(KvPool, geometryValidation)
{
    kv_geometry g = smollm_geometry(kv_dtype::q8_0);
    ASSERT_TRUE(validate(g).ok());
    g.head_dim = 50;   // 150 elements: not a multiple of 32
    status s = validate(g);
    ASSERT_TRUE(!s.ok());
    ASSERT_TRUE((std::string(s.message()).find("multiple of 32") != std::string::npos));
    g.n_kv_heads = 2;
    g.head_dim = 48;   // a 96-element row, but a q8_0 block would straddle the two heads
    ASSERT_TRUE(!validate(g).ok());
    g.dtype = kv_dtype::f16;
    ASSERT_TRUE(validate(g).ok());   // f16 takes any head size
    g.block_size = 0;
    ASSERT_TRUE(!validate(g).ok());
    g = smollm_geometry();
    g.layer_window = {0, 4};     // 2 windows for 30 layers
    ASSERT_TRUE(!validate(g).ok());
    ASSERT_TRUE(!kv_pool::create({smollm_geometry(), 0, false}).ok());
    ASSERT_TRUE(!kv_storage::create(smollm_geometry(), 0).ok());
}

TEST(KvPool, sizing)
{
    const kv_geometry g = smollm_geometry();
    ASSERT_EQ(g.block_bytes(), std::int64_t(16 * 2 * 30 * 384));   // 368640 bytes per block
    auto by_budget = blocks_for_budget(g, 64);
    ASSERT_TRUE(by_budget.ok());
    ASSERT_EQ(*by_budget, std::int32_t(64LL * 1024 * 1024 / 368640));   // 182
    auto by_ctx = blocks_for_context(g, 8192, 2);
    ASSERT_TRUE(by_ctx.ok());
    ASSERT_EQ(*by_ctx, std::int32_t(1024));
    auto odd_ctx = blocks_for_context(g, 1000, 3);   // 63 blocks each
    ASSERT_TRUE(odd_ctx.ok());
    ASSERT_EQ(*odd_ctx, std::int32_t(189));
    ASSERT_TRUE(!blocks_for_budget(g, 0).ok());
    kv_geometry big = g;
    big.n_layer = 4000;
    big.block_size = 4096;   // one block is ~11.7 GiB: a 1 MiB budget holds none
    auto none = blocks_for_budget(big, 1);
    ASSERT_TRUE(!none.ok());
    ASSERT_TRUE((std::string(none.message()).find("smaller than one block") != std::string::npos));
    ASSERT_TRUE(!blocks_for_context(g, 0, 1).ok());
}

TEST(KvPool, allocateFreeRefcounts)
{
    block_pool pool(8, 16);
    ASSERT_EQ(pool.n_free(), 8);
    ids a;
    ASSERT_TRUE(pool.allocate(3, a));
    ASSERT_EQ(a, (ids{0, 1, 2}));
    ASSERT_EQ(pool.n_used(), 3);
    ASSERT_EQ(pool.n_free(), 5);
    for (std::int32_t id : a)
        ASSERT_EQ(pool.block(id).ref_count, 1);

    pool.touch(ids{1});
    ASSERT_EQ(pool.block(1).ref_count, 2);
    ASSERT_EQ(pool.n_used(), 3);

    pool.free(a);
    ASSERT_EQ(pool.block(0).ref_count, 0);
    ASSERT_EQ(pool.block(1).ref_count, 1);
    ASSERT_EQ(pool.n_used(), 1);
    ASSERT_EQ(pool.n_free(), 7);
    pool.free(ids{1});
    ASSERT_EQ(pool.n_used(), 0);
    ASSERT_EQ(pool.n_free(), 8);
    // Freeing again, or an id out of range, changes nothing.
    pool.free(ids{1, 99, -1});
    ASSERT_EQ(pool.n_used(), 0);
    ASSERT_EQ(pool.n_free(), 8);
    ASSERT_EQ(pool.block(1).ref_count, 0);
    // Blocks come back: a fresh allocation can take all eight.
    ids b;
    ASSERT_TRUE(pool.allocate(8, b));
    std::sort(b.begin(), b.end());
    ids all(8);
    std::iota(all.begin(), all.end(), 0);
    ASSERT_EQ(b, all);
}

TEST(KvPool, poolFullFailsCleanly)
{
    block_pool pool(8, 16);
    ids held;
    ASSERT_TRUE(pool.allocate(6, held));
    ids more = {42};   // allocate appends: what was there must survive a failure
    ASSERT_TRUE(!pool.allocate(3, more));
    ASSERT_EQ(more, (ids{42}));
    ASSERT_EQ(pool.n_used(), 6);
    ASSERT_EQ(pool.n_free(), 2);
    ASSERT_TRUE(pool.allocate(2, more));
    ASSERT_EQ(more.size(), std::size_t(3));
    ASSERT_DOUBLE_EQ(pool.usage(), 1.0);
    ASSERT_TRUE(!pool.allocate(1, more));
    ASSERT_EQ(pool.n_used(), 8);
}

TEST(KvPool, sequenceGrowthFailsCleanly)
{
    auto pool = make_pool(tiny_geometry(16), 4);
    kv_sequence a(*pool, kv_mode::paged);
    kv_sequence b(*pool, kv_mode::paged);
    prefill(a, random_tokens(40, 1));   // 3 blocks
    ASSERT_EQ(pool->blocks().n_used(), 3);
    ASSERT_TRUE(b.begin(random_tokens(40, 2), 10).ok());
    ASSERT_TRUE(!b.can_fit(40));
    ASSERT_EQ(b.blocks_needed(40), std::int64_t(3));
    status s = b.ensure_capacity(40);
    ASSERT_TRUE(!s.ok());
    ASSERT_TRUE((std::string(s.message()).find("KV pool full") != std::string::npos));
    ASSERT_EQ(b.block_table().size(), std::size_t(0));
    ASSERT_EQ(b.n_tokens(), std::int64_t(0));
    ASSERT_EQ(pool->blocks().n_used(), 3);
    ASSERT_EQ(a.block_table().size(), std::size_t(3));
    // What does fit still works.
    ASSERT_TRUE(b.ensure_capacity(16).ok());
    ASSERT_DOUBLE_EQ(pool->usage(), 1.0);
}

TEST(KvPool, prefixSharedThousandTokens)
{
    auto pool = make_pool(smollm_geometry(), 256);
    const ids shared = random_tokens(1000, 3);
    const ids prompt_a = concat(shared, random_tokens(20, 4));
    const ids prompt_b = concat(shared, random_tokens(30, 5));

    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, prompt_a);
    ASSERT_EQ(a.n_cached_tokens(), std::int64_t(0));
    ASSERT_EQ(pool->blocks().n_cached(), 63);        // 1020 tokens: 63 full blocks registered
    a.release();
    ASSERT_EQ(pool->blocks().n_used(), 0);
    ASSERT_EQ(pool->blocks().n_evictable(), 63);     // unreferenced, still cached

    ASSERT_EQ(pool->cached_prefix_tokens(shared), std::int64_t(992));
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(prompt_b, 64);
    ASSERT_TRUE(cached.ok());
    ASSERT_EQ(*cached, std::int64_t(992));
    ASSERT_EQ(b.n_tokens(), std::int64_t(992));
    ASSERT_EQ(b.block_table().size(), std::size_t(62));
    ASSERT_EQ(pool->blocks().n_used(), 62);
    // B computes only the rest; its new full blocks are cached too.
    ASSERT_TRUE(b.ensure_capacity(std::int64_t(prompt_b.size())).ok());
    ASSERT_TRUE(b.commit(std::span<const std::int32_t>(prompt_b).subspan(992)).ok());
    ASSERT_EQ(b.n_tokens(), std::int64_t(1030));
    ASSERT_EQ(pool->blocks().n_cached(), 63 + 2);    // blocks 62 and 63 of B (B's block 62 differs from A's)
    ASSERT_EQ(pool->cached_prefix_tokens(prompt_b), std::int64_t(1024));
}

TEST(KvPool, prefixDifferingFirstToken)
{
    auto pool = make_pool(smollm_geometry(), 256);
    const ids shared = random_tokens(1000, 3);
    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, shared);
    ids other = shared;
    other[0] = shared[0] + 1;
    ASSERT_EQ(pool->cached_prefix_tokens(other), std::int64_t(0));
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(other, 16);
    ASSERT_TRUE(cached.ok());
    ASSERT_EQ(*cached, std::int64_t(0));
    ASSERT_EQ(b.block_table().size(), std::size_t(0));
    // A difference in the middle stops the match at its block.
    ids mid = shared;
    mid[500] += 1;   // block 31
    ASSERT_EQ(pool->cached_prefix_tokens(mid), std::int64_t(31 * 16));
}

TEST(KvPool, prefixWholePromptLeavesLastToken)
{
    ASSERT_EQ(reusable_prefix_tokens(1008, 16), std::int64_t(992));
    ASSERT_EQ(reusable_prefix_tokens(1009, 16), std::int64_t(1008));   // one token left to compute
    ASSERT_EQ(reusable_prefix_tokens(1010, 16), std::int64_t(1008));
    ASSERT_EQ(reusable_prefix_tokens(17, 16), std::int64_t(16));
    ASSERT_EQ(reusable_prefix_tokens(2, 16), std::int64_t(0));
    ASSERT_EQ(reusable_prefix_tokens(1, 16), std::int64_t(0));
    ASSERT_EQ(reusable_prefix_tokens(0, 16), std::int64_t(0));

    auto pool = make_pool(smollm_geometry(), 256);
    const ids prompt = random_tokens(1008, 9);   // exactly 63 blocks
    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, prompt);
    a.release();
    ASSERT_EQ(pool->cached_prefix_tokens(prompt), std::int64_t(1008));
    // The same prompt again: the last block is recomputed so its last token gives logits.
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(prompt, 8);
    ASSERT_TRUE(cached.ok());
    ASSERT_EQ(*cached, std::int64_t(992));
    ASSERT_TRUE(b.n_tokens() < std::int64_t(prompt.size()));
}

TEST(KvPool, prefixSharedBlocksAreRefcounted)
{
    auto pool = make_pool(tiny_geometry(4), 16);
    const ids prompt = random_tokens(14, 21);   // 3 full blocks + 2 tokens (the last two are always computed)
    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, prompt);
    kv_sequence b(*pool, kv_mode::paged);
    prefill(b, prompt);
    ASSERT_EQ(b.n_cached_tokens(), std::int64_t(12));
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(b.block_table()[static_cast<std::size_t>(i)], a.block_table()[static_cast<std::size_t>(i)]);
        ASSERT_EQ(pool->blocks().block(a.block_table()[static_cast<std::size_t>(i)]).ref_count, 2);
    }
    ASSERT_TRUE(b.block_table()[3] != a.block_table()[3]);   // the partial block is private
    ASSERT_EQ(pool->blocks().n_used(), 5);
    a.release();
    ASSERT_EQ(pool->blocks().n_used(), 4);
    ASSERT_EQ(pool->blocks().block(b.block_table()[0]).ref_count, 1);
    b.release();
    ASSERT_EQ(pool->blocks().n_used(), 0);
    ASSERT_EQ(pool->blocks().n_evictable(), 3);
}

TEST(KvPool, lruEvictionOrder)
{
    auto pool = make_pool(tiny_geometry(4), 6);
    const ids ta = random_tokens(9, 31);   // 2 full blocks + 1
    const ids tb = random_tokens(9, 32);
    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, ta);
    const ids a_blocks = a.block_table();
    a.release();
    kv_sequence b(*pool, kv_mode::paged);
    prefill(b, tb);
    const ids b_blocks = b.block_table();
    b.release();
    // Released first, evicted first; within a sequence the last block goes first.
    ASSERT_EQ(pool->blocks().lru_order(), (ids{a_blocks[1], a_blocks[0], b_blocks[1], b_blocks[0]}));
    ASSERT_EQ(pool->blocks().n_free(), 2);

    // Free blocks go before any cached one.
    ids taken;
    ASSERT_TRUE(pool->blocks().allocate(2, taken));
    ASSERT_EQ(pool->blocks().n_evictions(), std::uint64_t(0));
    ASSERT_EQ(pool->cached_prefix_tokens(ta), std::int64_t(8));
    // Then the least recently released cached block.
    ASSERT_TRUE(pool->blocks().allocate(1, taken));
    ASSERT_EQ(taken.back(), a_blocks[1]);
    ASSERT_EQ(pool->blocks().n_evictions(), std::uint64_t(1));
    ASSERT_EQ(pool->cached_prefix_tokens(ta), std::int64_t(4));
    ASSERT_EQ(pool->cached_prefix_tokens(tb), std::int64_t(8));
    ASSERT_TRUE(pool->blocks().allocate(1, taken));
    ASSERT_EQ(taken.back(), a_blocks[0]);
    ASSERT_EQ(pool->cached_prefix_tokens(ta), std::int64_t(0));
    ASSERT_EQ(pool->cached_prefix_tokens(tb), std::int64_t(8));
    ASSERT_EQ(pool->blocks().n_cached(), 2);
}

TEST(KvPool, recentlyHitBlocksEvictedLast)
{
    auto pool = make_pool(tiny_geometry(4), 4);
    const ids ta = random_tokens(8, 41);
    const ids tb = random_tokens(8, 42);
    for (const ids* t : {&ta, &tb}) {
        kv_sequence s(*pool, kv_mode::paged);
        prefill(s, *t);
    }   // both released: LRU = A1 A0 B1 B0
    ASSERT_EQ(pool->blocks().n_free(), 0);
    {
        kv_sequence again(*pool, kv_mode::paged);
        auto cached = again.begin(concat(ta, {7, 9}), 4);   // hits A's two blocks
        ASSERT_TRUE(cached.ok());
        ASSERT_EQ(*cached, std::int64_t(8));
        ASSERT_EQ(pool->blocks().n_evictable(), 2);
    }   // A released again: now the most recent
    ids taken;
    ASSERT_TRUE(pool->blocks().allocate(2, taken));
    ASSERT_EQ(pool->cached_prefix_tokens(tb), std::int64_t(0));
    ASSERT_EQ(pool->cached_prefix_tokens(ta), std::int64_t(8));
}

TEST(KvPool, usageFollowsBlocks)
{
    struct row {
        const char* name;
        int tokens;
        double usage;
    };
    const row rows[] = {{"empty", 0, 0.0}, {"one token", 1, 0.1}, {"one block", 16, 0.1}, {"35 tokens", 35, 0.3},
                        {"full", 160, 1.0}};
    for (const row& r : rows) {
        SCOPED_TRACE(r.name);
        const int tokens = r.tokens;
        const double usage = r.usage;
        auto pool = make_pool(tiny_geometry(16), 10);
        kv_sequence s(*pool, kv_mode::paged);
        prefill(s, random_tokens(tokens, 51));
        ASSERT_DOUBLE_EQ(pool->usage(), usage);
        ASSERT_EQ(pool->used_bytes(), std::int64_t(usage * 10 + 0.5) * pool->geometry().block_bytes());
        s.release();
        ASSERT_DOUBLE_EQ(pool->usage(), 0.0);   // cached blocks nobody holds are room, not usage
        ASSERT_EQ(pool->blocks().n_cached(), tokens / 16);
    }
}

TEST(KvPool, staticReservation)
{
    auto pool = make_pool(smollm_geometry(), 64);
    const kv_geometry& g = pool->geometry();
    const ids prompt = random_tokens(20, 61);
    kv_sequence s(*pool, kv_mode::static_reserve);
    auto cached = s.begin(prompt, 30);   // 50 tokens: 4 blocks at once
    ASSERT_TRUE(cached.ok());
    ASSERT_EQ(*cached, std::int64_t(0));
    ASSERT_EQ(s.block_table().size(), std::size_t(4));
    ASSERT_EQ(pool->blocks().n_used(), 4);
    const std::int64_t reserved = 4 * g.block_bytes();
    ASSERT_EQ(s.kv_reserved_bytes(), reserved);
    ASSERT_EQ(s.kv_allocated_bytes(), std::int64_t(0));
    ASSERT_EQ(s.kv_bytes(), std::int64_t(0));

    ASSERT_TRUE(s.ensure_capacity(20).ok());
    ASSERT_TRUE(s.commit(prompt).ok());
    ASSERT_EQ(s.kv_allocated_bytes(), 2 * g.block_bytes());
    ASSERT_EQ(s.kv_reserved_bytes(), reserved);
    for (int i = 0; i < 30; ++i) {   // decode within the reservation: nothing new is taken
        ASSERT_TRUE(s.ensure_capacity(s.n_tokens() + 1).ok());
        ASSERT_TRUE(s.commit(ids{i}).ok());
        ASSERT_EQ(s.kv_reserved_bytes(), reserved);
        ASSERT_EQ(pool->blocks().n_used(), 4);
    }
    const kv_figures f = s.figures();
    ASSERT_EQ(f.kv_tokens, std::int64_t(50));
    ASSERT_EQ(f.kv_bytes, 50 * g.bytes_per_token());
    ASSERT_EQ(f.kv_allocated_bytes, 4 * g.block_bytes());
    ASSERT_EQ(f.kv_reserved_bytes, reserved);

    // A follow-up in static mode reuses the prefix and still reserves the rest.
    const ids follow = concat(std::vector<std::int32_t>(s.tokens()), random_tokens(5, 62));
    kv_sequence t(*pool, kv_mode::static_reserve);
    auto hit = t.begin(follow, 10);   // 55 + 10 tokens: 5 blocks, 3 of them shared
    ASSERT_TRUE(hit.ok());
    ASSERT_EQ(*hit, std::int64_t(48));
    ASSERT_EQ(t.block_table().size(), std::size_t(5));
    ASSERT_EQ(pool->blocks().n_used(), 4 + 2);
}

TEST(KvPool, staticReservationTooLarge)
{
    auto pool = make_pool(tiny_geometry(16), 8);
    const ids shared = random_tokens(40, 71);
    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, shared);   // 3 blocks, 2 cached
    const double before = pool->usage();
    kv_sequence s(*pool, kv_mode::static_reserve);
    auto r = s.begin(concat(shared, {1, 2}), 200);   // 242 tokens: 16 blocks
    ASSERT_TRUE(!r.ok());
    ASSERT_TRUE((std::string(r.message()).find("KV pool full") != std::string::npos));
    ASSERT_EQ(s.block_table().size(), std::size_t(0));
    ASSERT_EQ(s.n_tokens(), std::int64_t(0));
    ASSERT_DOUBLE_EQ(pool->usage(), before);
    ASSERT_EQ(pool->blocks().block(a.block_table()[0]).ref_count, 1);
    // It can start later, when it fits.
    ASSERT_TRUE(s.begin(concat(shared, {1, 2}), 20).ok());
    ASSERT_EQ(s.n_cached_tokens(), std::int64_t(32));
}

TEST(KvPool, pagedStaircase)
{
    auto pool = make_pool(smollm_geometry(kv_dtype::q8_0), 16);
    const kv_geometry& g = pool->geometry();
    kv_sequence s(*pool, kv_mode::paged);
    ASSERT_TRUE(s.begin(random_tokens(3, 81), 100).ok());
    std::int64_t steps = 0;
    for (int i = 0; i < 70; ++i) {
        ASSERT_TRUE(s.ensure_capacity(s.n_tokens() + 1).ok());
        ASSERT_TRUE(s.commit(ids{i}).ok());
        const kv_figures f = s.figures();
        ASSERT_EQ(f.kv_tokens, std::int64_t(i + 1));
        ASSERT_EQ(f.kv_bytes, 2LL * 30 * 204 * (i + 1));
        ASSERT_EQ(f.kv_reserved_bytes, f.kv_allocated_bytes);
        ASSERT_TRUE(f.kv_allocated_bytes >= f.kv_bytes);
        ASSERT_TRUE(f.kv_allocated_bytes - f.kv_bytes < g.block_bytes());   // less than one block per layer
        ASSERT_EQ(f.kv_allocated_bytes % g.block_bytes(), std::int64_t(0));
        if (i % 16 == 0)
            ++steps;
        ASSERT_EQ(f.kv_allocated_bytes, steps * g.block_bytes());
    }
    ASSERT_EQ(steps, std::int64_t(5));
}

TEST(KvPool, offModeRecomputes)
{
    auto pool = make_pool(tiny_geometry(4), 16);
    const ids prompt = random_tokens(10, 91);
    {
        kv_sequence warm(*pool, kv_mode::paged);   // leaves 2 cached blocks behind
        prefill(warm, prompt);
    }
    ASSERT_EQ(pool->blocks().n_cached(), 2);
    kv_sequence s(*pool, kv_mode::off);
    auto cached = s.begin(prompt, 5);
    ASSERT_TRUE(cached.ok());
    ASSERT_EQ(*cached, std::int64_t(0));   // no prefix cache in mode off
    ids seq = prompt;
    for (int step = 0; step < 5; ++step) {
        s.release();
        ASSERT_EQ(pool->blocks().n_used(), 0);
        ASSERT_TRUE(s.ensure_capacity(std::int64_t(seq.size())).ok());
        ASSERT_TRUE(s.commit(seq).ok());
        ASSERT_EQ(s.n_tokens(), std::int64_t(seq.size()));
        ASSERT_EQ(s.kv_bytes(), pool->geometry().logical_bytes(std::int64_t(seq.size())));
        ASSERT_EQ(pool->blocks().n_used(), std::int32_t((seq.size() + 3) / 4));
        seq.push_back(step);
    }
    ASSERT_EQ(pool->blocks().n_cached(), 2);   // mode off registers nothing
}

TEST(KvPool, releaseRestoresUsage)
{
    for (kv_mode mode : {kv_mode::paged, kv_mode::static_reserve, kv_mode::off}) {
        SCOPED_TRACE(to_string(mode));
        auto pool = make_pool(tiny_geometry(16), 32);
        kv_sequence other(*pool, kv_mode::paged);
        prefill(other, random_tokens(50, 101));
        const double before = pool->usage();
        const std::int64_t used_before = pool->used_bytes();
        ASSERT_DOUBLE_EQ(before, 4.0 / 32);
        {
            kv_sequence s(*pool, mode);
            const ids prompt = concat(std::vector<std::int32_t>(other.tokens()), random_tokens(30, 102));
            auto cached = s.begin(prompt, 40);
            ASSERT_TRUE(cached.ok());
            ASSERT_TRUE(s.ensure_capacity(std::int64_t(prompt.size())).ok());
            ASSERT_TRUE(s.commit(std::span<const std::int32_t>(prompt).subspan(std::size_t(*cached))).ok());
            ASSERT_TRUE(s.ensure_capacity(s.n_tokens() + 1).ok());
            ASSERT_TRUE(s.commit(ids{5}).ok());
            ASSERT_TRUE(pool->usage() > before);
            s.release();   // a cancel mid-decode
            ASSERT_DOUBLE_EQ(pool->usage(), before);
            ASSERT_EQ(pool->used_bytes(), used_before);
            ASSERT_EQ(s.n_tokens(), std::int64_t(0));
            ASSERT_EQ(s.kv_reserved_bytes(), std::int64_t(0));
            ASSERT_TRUE(s.begin(prompt, 1).ok());   // the sequence can start over
        }   // and the destructor releases too
        ASSERT_DOUBLE_EQ(pool->usage(), before);
        ASSERT_EQ(other.n_tokens(), std::int64_t(50));
    }
}

TEST(KvPool, slotOf)
{
    auto pool = make_pool(tiny_geometry(16), 8);
    kv_sequence s(*pool, kv_mode::paged);
    ASSERT_TRUE(s.begin(ids{}, 0).ok());
    ASSERT_EQ(s.slot_of(0).block, -1);
    ASSERT_TRUE(s.ensure_capacity(20).ok());
    const ids& t = s.block_table();
    ASSERT_EQ(s.capacity(), std::int64_t(32));
    ASSERT_EQ(s.slot_of(0).block, t[0]);
    ASSERT_EQ(s.slot_of(0).slot, 0);
    ASSERT_EQ(s.slot_of(15).slot, 15);
    ASSERT_EQ(s.slot_of(17).block, t[1]);
    ASSERT_EQ(s.slot_of(17).slot, 1);
    ASSERT_EQ(s.slot_of(31).slot, 15);
    ASSERT_EQ(s.slot_of(32).block, -1);
    ASSERT_EQ(s.slot_of(-1).block, -1);
}

TEST(KvPool, storageLayout)
{
    for (kv_dtype dtype : {kv_dtype::f16, kv_dtype::q8_0}) {
        kv_geometry g = tiny_geometry(4);
        g.dtype = dtype;
        auto pool = make_pool(g, 5, true);
        ASSERT_TRUE(pool->has_storage());
        const kv_storage& st = pool->storage();
        const std::int64_t rb = dtype == kv_dtype::f16 ? 64 : 34;
        ASSERT_EQ(pool->row_bytes(), rb);
        ASSERT_EQ(st.layer_bytes(), 5 * 4 * rb);
        ASSERT_EQ(st.total_bytes(), 2 * 2 * 5 * 4 * rb);
        ASSERT_EQ(st.total_bytes(), pool->capacity_bytes());
        for (int il = 0; il < 2; ++il) {
            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(st.k_layer(il)) % 64, std::uintptr_t(0));
            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(st.v_layer(il)) % 64, std::uintptr_t(0));
            ASSERT_EQ(pool->k_row(il, 3, 2) - st.k_layer(il), std::ptrdiff_t((3 * 4 + 2) * rb));
            ASSERT_EQ(pool->v_row(il, 4, 3) - st.v_layer(il), std::ptrdiff_t((4 * 4 + 3) * rb));
        }
        // Write every row through the sequence's slots, read them back intact.
        kv_sequence s(*pool, kv_mode::paged);
        ASSERT_TRUE(s.begin(ids{}, 0).ok());
        ASSERT_TRUE(s.ensure_capacity(20).ok());
        std::vector<float> row(32), back(32);
        for (int pos = 0; pos < 20; ++pos)
            for (int il = 0; il < 2; ++il) {
                for (int e = 0; e < 32; ++e)
                    row[std::size_t(e)] = float(pos * 100 + il * 10) + 0.25f * float(e);
                const kv_slot at = s.slot_of(pos);
                ASSERT_TRUE(store_row(dtype, row.data(), pool->k_row(il, at.block, at.slot), 32));
                for (float& v : row)
                    v = -v;
                ASSERT_TRUE(store_row(dtype, row.data(), pool->v_row(il, at.block, at.slot), 32));
            }
        for (int pos = 0; pos < 20; ++pos)
            for (int il = 0; il < 2; ++il) {
                const kv_slot at = s.slot_of(pos);
                ASSERT_TRUE(load_row(dtype, pool->k_row(il, at.block, at.slot), back.data(), 32));
                const float expect_first = float(pos * 100 + il * 10);
                const float tol = dtype == kv_dtype::f16 ? 2.0f : 20.0f;
                ASSERT_TRUE(std::fabs(back[0] - expect_first) <= tol);
                ASSERT_TRUE(load_row(dtype, pool->v_row(il, at.block, at.slot), back.data(), 32));
                ASSERT_TRUE(std::fabs(back[0] + expect_first) <= tol);
            }
    }
}

TEST(KvPool, commitPastCapacityFails)
{
    auto pool = make_pool(tiny_geometry(16), 8);
    kv_sequence s(*pool, kv_mode::paged);
    ASSERT_TRUE(s.begin(ids{}, 0).ok());
    ASSERT_TRUE(s.ensure_capacity(10).ok());
    ASSERT_TRUE(!s.commit(random_tokens(17, 111)).ok());
    ASSERT_EQ(s.n_tokens(), std::int64_t(0));
    ASSERT_TRUE(s.commit(random_tokens(16, 111)).ok());
    ASSERT_EQ(s.n_tokens(), std::int64_t(16));
    ASSERT_TRUE(!s.begin(ids{1, 2}, 1).ok());   // begin() only on an empty sequence
    ASSERT_EQ(s.n_tokens(), std::int64_t(16));
}

TEST(KvPool, moveKeepsBlocks)
{
    auto pool = make_pool(tiny_geometry(16), 8);
    std::vector<kv_sequence> seqs;
    seqs.emplace_back(*pool, kv_mode::paged);
    prefill(seqs.back(), random_tokens(40, 121));
    seqs.emplace_back(*pool, kv_mode::paged);   // may move the first
    prefill(seqs.back(), random_tokens(20, 122));
    ASSERT_EQ(pool->blocks().n_used(), 5);
    ASSERT_EQ(seqs[0].n_tokens(), std::int64_t(40));
    seqs.erase(seqs.begin());
    ASSERT_EQ(pool->blocks().n_used(), 2);
    ASSERT_EQ(seqs[0].n_tokens(), std::int64_t(20));
    seqs.clear();
    ASSERT_DOUBLE_EQ(pool->usage(), 0.0);
}

