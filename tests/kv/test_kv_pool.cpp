// SPDX-License-Identifier: Apache-2.0
// The paged KV cache: block allocation and reference counts, a full pool
// failing cleanly, the prefix cache (shared prefixes, LRU eviction), per-mode
// sequences (paged, static, off) and their figures, sizing, and the storage
// layout the attention kernels rely on.
#include <QtTest/QtTest>

#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
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
        qFatal("kv_pool::create: %s", pool.message().c_str());
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
    QVERIFY2(cached.ok(), cached.ok() ? "" : cached.message().c_str());
    QVERIFY(seq.ensure_capacity(static_cast<std::int64_t>(prompt.size())).ok());
    QVERIFY(seq.commit(std::span<const std::int32_t>(prompt).subspan(static_cast<std::size_t>(*cached))).ok());
    QCOMPARE(seq.n_tokens(), std::int64_t(prompt.size()));
}

}  // namespace

class TestKvPool : public QObject {
    Q_OBJECT

private slots:
    void namesRoundTrip();
    void kvBytesFormula_data();
    void kvBytesFormula();
    void geometryValidation();
    void sizing();
    void allocateFreeRefcounts();
    void poolFullFailsCleanly();
    void sequenceGrowthFailsCleanly();
    void prefixSharedThousandTokens();
    void prefixDifferingFirstToken();
    void prefixWholePromptLeavesLastToken();
    void prefixSharedBlocksAreRefcounted();
    void lruEvictionOrder();
    void recentlyHitBlocksEvictedLast();
    void usageFollowsBlocks_data();
    void usageFollowsBlocks();
    void staticReservation();
    void staticReservationTooLarge();
    void pagedStaircase();
    void offModeRecomputes();
    void releaseRestoresUsage_data();
    void releaseRestoresUsage();
    void slotOf();
    void storageLayout();
    void commitPastCapacityFails();
    void moveKeepsBlocks();
};

void TestKvPool::namesRoundTrip()
{
    for (kv_mode m : {kv_mode::paged, kv_mode::static_reserve, kv_mode::off}) {
        kv_mode back = kv_mode::paged;
        QVERIFY(parse_kv_mode(to_string(m), back));
        QCOMPARE(int(back), int(m));
    }
    for (kv_dtype d : {kv_dtype::f16, kv_dtype::q8_0}) {
        kv_dtype back = kv_dtype::f16;
        QVERIFY(parse_kv_dtype(to_string(d), back));
        QCOMPARE(int(back), int(d));
    }
    QCOMPARE(QString(to_string(kv_mode::static_reserve)), QString("static"));
    kv_mode m = kv_mode::off;
    QVERIFY(!parse_kv_mode("dynamic", m));
    QCOMPARE(int(m), int(kv_mode::off));
}

void TestKvPool::kvBytesFormula_data()
{
    QTest::addColumn<int>("n_layer");
    QTest::addColumn<int>("n_kv_heads");
    QTest::addColumn<int>("head_dim");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("window");      // every other layer's sliding window, 0: none
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<qint64>("bytes");
    // 2 x layers x kv_heads x head_dim x tokens x bytes/element
    QTest::newRow("smollm2 f16 100") << 30 << 3 << 64 << int(kv_dtype::f16) << 0 << qint64(100) << qint64(2LL * 30 * 3 * 64 * 2 * 100);
    QTest::newRow("smollm2 q8_0 100") << 30 << 3 << 64 << int(kv_dtype::q8_0) << 0 << qint64(100) << qint64(2LL * 30 * (192 / 32 * 34) * 100);
    QTest::newRow("llama 8b f16 8192") << 32 << 8 << 128 << int(kv_dtype::f16) << 0 << qint64(8192) << qint64(1073741824);
    QTest::newRow("zero tokens") << 30 << 3 << 64 << int(kv_dtype::f16) << 0 << qint64(0) << qint64(0);
    // Sliding window 512 on odd layers: those hold min(tokens, 512).
    QTest::newRow("window below") << 4 << 1 << 256 << int(kv_dtype::f16) << 512 << qint64(300) << qint64(4LL * 2 * 512 * 300);
    QTest::newRow("window above") << 4 << 1 << 256 << int(kv_dtype::f16) << 512 << qint64(1000) << qint64(2LL * 2 * 512 * 1000 + 2LL * 2 * 512 * 512);
}

void TestKvPool::kvBytesFormula()
{
    QFETCH(int, n_layer);
    QFETCH(int, n_kv_heads);
    QFETCH(int, head_dim);
    QFETCH(int, dtype);
    QFETCH(int, window);
    QFETCH(qint64, tokens);
    QFETCH(qint64, bytes);
    kv_geometry g;
    g.n_layer = n_layer;
    g.n_kv_heads = n_kv_heads;
    g.head_dim = head_dim;
    g.dtype = kv_dtype(dtype);
    if (window > 0)
        for (int il = 0; il < n_layer; ++il)
            g.layer_window.push_back(il % 2 ? window : 0);
    QVERIFY(validate(g).ok());
    QCOMPARE(g.logical_bytes(tokens), bytes);
    if (window == 0)
        QCOMPARE(g.bytes_per_token() * tokens, bytes);
}

void TestKvPool::geometryValidation()
{
    kv_geometry g = smollm_geometry(kv_dtype::q8_0);
    QVERIFY(validate(g).ok());
    g.head_dim = 50;   // 150 elements: not a multiple of 32
    status s = validate(g);
    QVERIFY(!s.ok());
    QVERIFY(QString::fromStdString(s.message()).contains("multiple of 32"));
    g.n_kv_heads = 2;
    g.head_dim = 48;   // a 96-element row, but a q8_0 block would straddle the two heads
    QVERIFY(!validate(g).ok());
    g.dtype = kv_dtype::f16;
    QVERIFY(validate(g).ok());   // f16 takes any head size
    g.block_size = 0;
    QVERIFY(!validate(g).ok());
    g = smollm_geometry();
    g.layer_window = {0, 4};     // 2 windows for 30 layers
    QVERIFY(!validate(g).ok());
    QVERIFY(!kv_pool::create({smollm_geometry(), 0, false}).ok());
    QVERIFY(!kv_storage::create(smollm_geometry(), 0).ok());
}

void TestKvPool::sizing()
{
    const kv_geometry g = smollm_geometry();
    QCOMPARE(g.block_bytes(), qint64(16 * 2 * 30 * 384));   // 368640 bytes per block
    auto by_budget = blocks_for_budget(g, 64);
    QVERIFY(by_budget.ok());
    QCOMPARE(*by_budget, std::int32_t(64LL * 1024 * 1024 / 368640));   // 182
    auto by_ctx = blocks_for_context(g, 8192, 2);
    QVERIFY(by_ctx.ok());
    QCOMPARE(*by_ctx, std::int32_t(1024));
    auto odd_ctx = blocks_for_context(g, 1000, 3);   // 63 blocks each
    QVERIFY(odd_ctx.ok());
    QCOMPARE(*odd_ctx, std::int32_t(189));
    QVERIFY(!blocks_for_budget(g, 0).ok());
    kv_geometry big = g;
    big.n_layer = 4000;
    big.block_size = 4096;   // one block is ~11.7 GiB: a 1 MiB budget holds none
    auto none = blocks_for_budget(big, 1);
    QVERIFY(!none.ok());
    QVERIFY(QString::fromStdString(none.message()).contains("smaller than one block"));
    QVERIFY(!blocks_for_context(g, 0, 1).ok());
}

void TestKvPool::allocateFreeRefcounts()
{
    block_pool pool(8, 16);
    QCOMPARE(pool.n_free(), 8);
    ids a;
    QVERIFY(pool.allocate(3, a));
    QCOMPARE(a, (ids{0, 1, 2}));
    QCOMPARE(pool.n_used(), 3);
    QCOMPARE(pool.n_free(), 5);
    for (std::int32_t id : a)
        QCOMPARE(pool.block(id).ref_count, 1);

    pool.touch(ids{1});
    QCOMPARE(pool.block(1).ref_count, 2);
    QCOMPARE(pool.n_used(), 3);

    pool.free(a);
    QCOMPARE(pool.block(0).ref_count, 0);
    QCOMPARE(pool.block(1).ref_count, 1);
    QCOMPARE(pool.n_used(), 1);
    QCOMPARE(pool.n_free(), 7);
    pool.free(ids{1});
    QCOMPARE(pool.n_used(), 0);
    QCOMPARE(pool.n_free(), 8);
    // Freeing again, or an id out of range, changes nothing.
    pool.free(ids{1, 99, -1});
    QCOMPARE(pool.n_used(), 0);
    QCOMPARE(pool.n_free(), 8);
    QCOMPARE(pool.block(1).ref_count, 0);
    // Blocks come back: a fresh allocation can take all eight.
    ids b;
    QVERIFY(pool.allocate(8, b));
    std::sort(b.begin(), b.end());
    ids all(8);
    std::iota(all.begin(), all.end(), 0);
    QCOMPARE(b, all);
}

void TestKvPool::poolFullFailsCleanly()
{
    block_pool pool(8, 16);
    ids held;
    QVERIFY(pool.allocate(6, held));
    ids more = {42};   // allocate appends: what was there must survive a failure
    QVERIFY(!pool.allocate(3, more));
    QCOMPARE(more, (ids{42}));
    QCOMPARE(pool.n_used(), 6);
    QCOMPARE(pool.n_free(), 2);
    QVERIFY(pool.allocate(2, more));
    QCOMPARE(more.size(), std::size_t(3));
    QCOMPARE(pool.usage(), 1.0);
    QVERIFY(!pool.allocate(1, more));
    QCOMPARE(pool.n_used(), 8);
}

void TestKvPool::sequenceGrowthFailsCleanly()
{
    auto pool = make_pool(tiny_geometry(16), 4);
    kv_sequence a(*pool, kv_mode::paged);
    kv_sequence b(*pool, kv_mode::paged);
    prefill(a, random_tokens(40, 1));   // 3 blocks
    QCOMPARE(pool->blocks().n_used(), 3);
    QVERIFY(b.begin(random_tokens(40, 2), 10).ok());
    QVERIFY(!b.can_fit(40));
    QCOMPARE(b.blocks_needed(40), std::int64_t(3));
    status s = b.ensure_capacity(40);
    QVERIFY(!s.ok());
    QVERIFY(QString::fromStdString(s.message()).contains("KV pool full"));
    QCOMPARE(b.block_table().size(), std::size_t(0));
    QCOMPARE(b.n_tokens(), std::int64_t(0));
    QCOMPARE(pool->blocks().n_used(), 3);
    QCOMPARE(a.block_table().size(), std::size_t(3));
    // What does fit still works.
    QVERIFY(b.ensure_capacity(16).ok());
    QCOMPARE(pool->usage(), 1.0);
}

void TestKvPool::prefixSharedThousandTokens()
{
    auto pool = make_pool(smollm_geometry(), 256);
    const ids shared = random_tokens(1000, 3);
    const ids prompt_a = concat(shared, random_tokens(20, 4));
    const ids prompt_b = concat(shared, random_tokens(30, 5));

    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, prompt_a);
    QCOMPARE(a.n_cached_tokens(), std::int64_t(0));
    QCOMPARE(pool->blocks().n_cached(), 63);        // 1020 tokens: 63 full blocks registered
    a.release();
    QCOMPARE(pool->blocks().n_used(), 0);
    QCOMPARE(pool->blocks().n_evictable(), 63);     // unreferenced, still cached

    QCOMPARE(pool->cached_prefix_tokens(shared), std::int64_t(992));
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(prompt_b, 64);
    QVERIFY(cached.ok());
    QCOMPARE(*cached, std::int64_t(992));
    QCOMPARE(b.n_tokens(), std::int64_t(992));
    QCOMPARE(b.block_table().size(), std::size_t(62));
    QCOMPARE(pool->blocks().n_used(), 62);
    // B computes only the rest; its new full blocks are cached too.
    QVERIFY(b.ensure_capacity(std::int64_t(prompt_b.size())).ok());
    QVERIFY(b.commit(std::span<const std::int32_t>(prompt_b).subspan(992)).ok());
    QCOMPARE(b.n_tokens(), std::int64_t(1030));
    QCOMPARE(pool->blocks().n_cached(), 63 + 2);    // blocks 62 and 63 of B (B's block 62 differs from A's)
    QCOMPARE(pool->cached_prefix_tokens(prompt_b), std::int64_t(1024));
}

void TestKvPool::prefixDifferingFirstToken()
{
    auto pool = make_pool(smollm_geometry(), 256);
    const ids shared = random_tokens(1000, 3);
    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, shared);
    ids other = shared;
    other[0] = shared[0] + 1;
    QCOMPARE(pool->cached_prefix_tokens(other), std::int64_t(0));
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(other, 16);
    QVERIFY(cached.ok());
    QCOMPARE(*cached, std::int64_t(0));
    QCOMPARE(b.block_table().size(), std::size_t(0));
    // A difference in the middle stops the match at its block.
    ids mid = shared;
    mid[500] += 1;   // block 31
    QCOMPARE(pool->cached_prefix_tokens(mid), std::int64_t(31 * 16));
}

void TestKvPool::prefixWholePromptLeavesLastToken()
{
    QCOMPARE(reusable_prefix_tokens(1008, 16), std::int64_t(992));
    QCOMPARE(reusable_prefix_tokens(1009, 16), std::int64_t(1008));
    QCOMPARE(reusable_prefix_tokens(1, 16), std::int64_t(0));
    QCOMPARE(reusable_prefix_tokens(0, 16), std::int64_t(0));

    auto pool = make_pool(smollm_geometry(), 256);
    const ids prompt = random_tokens(1008, 9);   // exactly 63 blocks
    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, prompt);
    a.release();
    QCOMPARE(pool->cached_prefix_tokens(prompt), std::int64_t(1008));
    // The same prompt again: the last block is recomputed so its last token gives logits.
    kv_sequence b(*pool, kv_mode::paged);
    auto cached = b.begin(prompt, 8);
    QVERIFY(cached.ok());
    QCOMPARE(*cached, std::int64_t(992));
    QVERIFY(b.n_tokens() < std::int64_t(prompt.size()));
}

void TestKvPool::prefixSharedBlocksAreRefcounted()
{
    auto pool = make_pool(tiny_geometry(4), 16);
    const ids prompt = random_tokens(13, 21);   // 3 full blocks + 1 token
    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, prompt);
    kv_sequence b(*pool, kv_mode::paged);
    prefill(b, prompt);
    QCOMPARE(b.n_cached_tokens(), std::int64_t(12));
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(b.block_table()[static_cast<std::size_t>(i)], a.block_table()[static_cast<std::size_t>(i)]);
        QCOMPARE(pool->blocks().block(a.block_table()[static_cast<std::size_t>(i)]).ref_count, 2);
    }
    QVERIFY(b.block_table()[3] != a.block_table()[3]);   // the partial block is private
    QCOMPARE(pool->blocks().n_used(), 5);
    a.release();
    QCOMPARE(pool->blocks().n_used(), 4);
    QCOMPARE(pool->blocks().block(b.block_table()[0]).ref_count, 1);
    b.release();
    QCOMPARE(pool->blocks().n_used(), 0);
    QCOMPARE(pool->blocks().n_evictable(), 3);
}

void TestKvPool::lruEvictionOrder()
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
    QCOMPARE(pool->blocks().lru_order(), (ids{a_blocks[1], a_blocks[0], b_blocks[1], b_blocks[0]}));
    QCOMPARE(pool->blocks().n_free(), 2);

    // Free blocks go before any cached one.
    ids taken;
    QVERIFY(pool->blocks().allocate(2, taken));
    QCOMPARE(pool->blocks().n_evictions(), std::uint64_t(0));
    QCOMPARE(pool->cached_prefix_tokens(ta), std::int64_t(8));
    // Then the least recently released cached block.
    QVERIFY(pool->blocks().allocate(1, taken));
    QCOMPARE(taken.back(), a_blocks[1]);
    QCOMPARE(pool->blocks().n_evictions(), std::uint64_t(1));
    QCOMPARE(pool->cached_prefix_tokens(ta), std::int64_t(4));
    QCOMPARE(pool->cached_prefix_tokens(tb), std::int64_t(8));
    QVERIFY(pool->blocks().allocate(1, taken));
    QCOMPARE(taken.back(), a_blocks[0]);
    QCOMPARE(pool->cached_prefix_tokens(ta), std::int64_t(0));
    QCOMPARE(pool->cached_prefix_tokens(tb), std::int64_t(8));
    QCOMPARE(pool->blocks().n_cached(), 2);
}

void TestKvPool::recentlyHitBlocksEvictedLast()
{
    auto pool = make_pool(tiny_geometry(4), 4);
    const ids ta = random_tokens(8, 41);
    const ids tb = random_tokens(8, 42);
    for (const ids* t : {&ta, &tb}) {
        kv_sequence s(*pool, kv_mode::paged);
        prefill(s, *t);
    }   // both released: LRU = A1 A0 B1 B0
    QCOMPARE(pool->blocks().n_free(), 0);
    {
        kv_sequence again(*pool, kv_mode::paged);
        auto cached = again.begin(concat(ta, {7}), 4);   // hits A's two blocks
        QVERIFY(cached.ok());
        QCOMPARE(*cached, std::int64_t(8));
        QCOMPARE(pool->blocks().n_evictable(), 2);
    }   // A released again: now the most recent
    ids taken;
    QVERIFY(pool->blocks().allocate(2, taken));
    QCOMPARE(pool->cached_prefix_tokens(tb), std::int64_t(0));
    QCOMPARE(pool->cached_prefix_tokens(ta), std::int64_t(8));
}

void TestKvPool::usageFollowsBlocks_data()
{
    QTest::addColumn<int>("tokens");
    QTest::addColumn<double>("usage");
    QTest::newRow("empty") << 0 << 0.0;
    QTest::newRow("one token") << 1 << 0.1;
    QTest::newRow("one block") << 16 << 0.1;
    QTest::newRow("35 tokens") << 35 << 0.3;
    QTest::newRow("full") << 160 << 1.0;
}

void TestKvPool::usageFollowsBlocks()
{
    QFETCH(int, tokens);
    QFETCH(double, usage);
    auto pool = make_pool(tiny_geometry(16), 10);
    kv_sequence s(*pool, kv_mode::paged);
    prefill(s, random_tokens(tokens, 51));
    QCOMPARE(pool->usage(), usage);
    QCOMPARE(pool->used_bytes(), std::int64_t(usage * 10 + 0.5) * pool->geometry().block_bytes());
    s.release();
    QCOMPARE(pool->usage(), 0.0);   // cached blocks nobody holds are room, not usage
    QCOMPARE(pool->blocks().n_cached(), tokens / 16);
}

void TestKvPool::staticReservation()
{
    auto pool = make_pool(smollm_geometry(), 64);
    const kv_geometry& g = pool->geometry();
    const ids prompt = random_tokens(20, 61);
    kv_sequence s(*pool, kv_mode::static_reserve);
    auto cached = s.begin(prompt, 30);   // 50 tokens: 4 blocks at once
    QVERIFY(cached.ok());
    QCOMPARE(*cached, std::int64_t(0));
    QCOMPARE(s.block_table().size(), std::size_t(4));
    QCOMPARE(pool->blocks().n_used(), 4);
    const std::int64_t reserved = 4 * g.block_bytes();
    QCOMPARE(s.kv_reserved_bytes(), reserved);
    QCOMPARE(s.kv_allocated_bytes(), std::int64_t(0));
    QCOMPARE(s.kv_bytes(), std::int64_t(0));

    QVERIFY(s.ensure_capacity(20).ok());
    QVERIFY(s.commit(prompt).ok());
    QCOMPARE(s.kv_allocated_bytes(), 2 * g.block_bytes());
    QCOMPARE(s.kv_reserved_bytes(), reserved);
    for (int i = 0; i < 30; ++i) {   // decode within the reservation: nothing new is taken
        QVERIFY(s.ensure_capacity(s.n_tokens() + 1).ok());
        QVERIFY(s.commit(ids{i}).ok());
        QCOMPARE(s.kv_reserved_bytes(), reserved);
        QCOMPARE(pool->blocks().n_used(), 4);
    }
    const kv_figures f = s.figures();
    QCOMPARE(f.kv_tokens, std::int64_t(50));
    QCOMPARE(f.kv_bytes, 50 * g.bytes_per_token());
    QCOMPARE(f.kv_allocated_bytes, 4 * g.block_bytes());
    QCOMPARE(f.kv_reserved_bytes, reserved);

    // A follow-up in static mode reuses the prefix and still reserves the rest.
    const ids follow = concat(std::vector<std::int32_t>(s.tokens()), random_tokens(5, 62));
    kv_sequence t(*pool, kv_mode::static_reserve);
    auto hit = t.begin(follow, 10);   // 55 + 10 tokens: 5 blocks, 3 of them shared
    QVERIFY(hit.ok());
    QCOMPARE(*hit, std::int64_t(48));
    QCOMPARE(t.block_table().size(), std::size_t(5));
    QCOMPARE(pool->blocks().n_used(), 4 + 2);
}

void TestKvPool::staticReservationTooLarge()
{
    auto pool = make_pool(tiny_geometry(16), 8);
    const ids shared = random_tokens(40, 71);
    kv_sequence a(*pool, kv_mode::paged);
    prefill(a, shared);   // 3 blocks, 2 cached
    const double before = pool->usage();
    kv_sequence s(*pool, kv_mode::static_reserve);
    auto r = s.begin(concat(shared, {1, 2}), 200);   // 242 tokens: 16 blocks
    QVERIFY(!r.ok());
    QVERIFY(QString::fromStdString(r.message()).contains("KV pool full"));
    QCOMPARE(s.block_table().size(), std::size_t(0));
    QCOMPARE(s.n_tokens(), std::int64_t(0));
    QCOMPARE(pool->usage(), before);
    QCOMPARE(pool->blocks().block(a.block_table()[0]).ref_count, 1);
    // It can start later, when it fits.
    QVERIFY(s.begin(concat(shared, {1, 2}), 20).ok());
    QCOMPARE(s.n_cached_tokens(), std::int64_t(32));
}

void TestKvPool::pagedStaircase()
{
    auto pool = make_pool(smollm_geometry(kv_dtype::q8_0), 16);
    const kv_geometry& g = pool->geometry();
    kv_sequence s(*pool, kv_mode::paged);
    QVERIFY(s.begin(random_tokens(3, 81), 100).ok());
    std::int64_t steps = 0;
    for (int i = 0; i < 70; ++i) {
        QVERIFY(s.ensure_capacity(s.n_tokens() + 1).ok());
        QVERIFY(s.commit(ids{i}).ok());
        const kv_figures f = s.figures();
        QCOMPARE(f.kv_tokens, std::int64_t(i + 1));
        QCOMPARE(f.kv_bytes, 2LL * 30 * 204 * (i + 1));
        QCOMPARE(f.kv_reserved_bytes, f.kv_allocated_bytes);
        QVERIFY(f.kv_allocated_bytes >= f.kv_bytes);
        QVERIFY(f.kv_allocated_bytes - f.kv_bytes < g.block_bytes());   // less than one block per layer
        QCOMPARE(f.kv_allocated_bytes % g.block_bytes(), std::int64_t(0));
        if (i % 16 == 0)
            ++steps;
        QCOMPARE(f.kv_allocated_bytes, steps * g.block_bytes());
    }
    QCOMPARE(steps, std::int64_t(5));
}

void TestKvPool::offModeRecomputes()
{
    auto pool = make_pool(tiny_geometry(4), 16);
    const ids prompt = random_tokens(10, 91);
    {
        kv_sequence warm(*pool, kv_mode::paged);   // leaves 2 cached blocks behind
        prefill(warm, prompt);
    }
    QCOMPARE(pool->blocks().n_cached(), 2);
    kv_sequence s(*pool, kv_mode::off);
    auto cached = s.begin(prompt, 5);
    QVERIFY(cached.ok());
    QCOMPARE(*cached, std::int64_t(0));   // no prefix cache in mode off
    ids seq = prompt;
    for (int step = 0; step < 5; ++step) {
        s.release();
        QCOMPARE(pool->blocks().n_used(), 0);
        QVERIFY(s.ensure_capacity(std::int64_t(seq.size())).ok());
        QVERIFY(s.commit(seq).ok());
        QCOMPARE(s.n_tokens(), std::int64_t(seq.size()));
        QCOMPARE(s.kv_bytes(), pool->geometry().logical_bytes(std::int64_t(seq.size())));
        QCOMPARE(pool->blocks().n_used(), std::int32_t((seq.size() + 3) / 4));
        seq.push_back(step);
    }
    QCOMPARE(pool->blocks().n_cached(), 2);   // mode off registers nothing
}

void TestKvPool::releaseRestoresUsage_data()
{
    QTest::addColumn<int>("mode");
    QTest::newRow("paged") << int(kv_mode::paged);
    QTest::newRow("static") << int(kv_mode::static_reserve);
    QTest::newRow("off") << int(kv_mode::off);
}

void TestKvPool::releaseRestoresUsage()
{
    QFETCH(int, mode);
    auto pool = make_pool(tiny_geometry(16), 32);
    kv_sequence other(*pool, kv_mode::paged);
    prefill(other, random_tokens(50, 101));
    const double before = pool->usage();
    const std::int64_t used_before = pool->used_bytes();
    QCOMPARE(before, 4.0 / 32);
    {
        kv_sequence s(*pool, kv_mode(mode));
        const ids prompt = concat(std::vector<std::int32_t>(other.tokens()), random_tokens(30, 102));
        auto cached = s.begin(prompt, 40);
        QVERIFY(cached.ok());
        QVERIFY(s.ensure_capacity(std::int64_t(prompt.size())).ok());
        QVERIFY(s.commit(std::span<const std::int32_t>(prompt).subspan(std::size_t(*cached))).ok());
        QVERIFY(s.ensure_capacity(s.n_tokens() + 1).ok());
        QVERIFY(s.commit(ids{5}).ok());
        QVERIFY(pool->usage() > before);
        s.release();   // a cancel mid-decode
        QCOMPARE(pool->usage(), before);
        QCOMPARE(pool->used_bytes(), used_before);
        QCOMPARE(s.n_tokens(), std::int64_t(0));
        QCOMPARE(s.kv_reserved_bytes(), std::int64_t(0));
        QVERIFY(s.begin(prompt, 1).ok());   // the sequence can start over
    }   // and the destructor releases too
    QCOMPARE(pool->usage(), before);
    QCOMPARE(other.n_tokens(), std::int64_t(50));
}

void TestKvPool::slotOf()
{
    auto pool = make_pool(tiny_geometry(16), 8);
    kv_sequence s(*pool, kv_mode::paged);
    QVERIFY(s.begin(ids{}, 0).ok());
    QCOMPARE(s.slot_of(0).block, -1);
    QVERIFY(s.ensure_capacity(20).ok());
    const ids& t = s.block_table();
    QCOMPARE(s.capacity(), std::int64_t(32));
    QCOMPARE(s.slot_of(0).block, t[0]);
    QCOMPARE(s.slot_of(0).slot, 0);
    QCOMPARE(s.slot_of(15).slot, 15);
    QCOMPARE(s.slot_of(17).block, t[1]);
    QCOMPARE(s.slot_of(17).slot, 1);
    QCOMPARE(s.slot_of(31).slot, 15);
    QCOMPARE(s.slot_of(32).block, -1);
    QCOMPARE(s.slot_of(-1).block, -1);
}

void TestKvPool::storageLayout()
{
    for (kv_dtype dtype : {kv_dtype::f16, kv_dtype::q8_0}) {
        kv_geometry g = tiny_geometry(4);
        g.dtype = dtype;
        auto pool = make_pool(g, 5, true);
        QVERIFY(pool->has_storage());
        const kv_storage& st = pool->storage();
        const std::int64_t rb = dtype == kv_dtype::f16 ? 64 : 34;
        QCOMPARE(pool->row_bytes(), rb);
        QCOMPARE(st.layer_bytes(), 5 * 4 * rb);
        QCOMPARE(st.total_bytes(), 2 * 2 * 5 * 4 * rb);
        QCOMPARE(st.total_bytes(), pool->capacity_bytes());
        for (int il = 0; il < 2; ++il) {
            QCOMPARE(reinterpret_cast<std::uintptr_t>(st.k_layer(il)) % 64, std::uintptr_t(0));
            QCOMPARE(reinterpret_cast<std::uintptr_t>(st.v_layer(il)) % 64, std::uintptr_t(0));
            QCOMPARE(pool->k_row(il, 3, 2) - st.k_layer(il), std::ptrdiff_t((3 * 4 + 2) * rb));
            QCOMPARE(pool->v_row(il, 4, 3) - st.v_layer(il), std::ptrdiff_t((4 * 4 + 3) * rb));
        }
        // Write every row through the sequence's slots, read them back intact.
        kv_sequence s(*pool, kv_mode::paged);
        QVERIFY(s.begin(ids{}, 0).ok());
        QVERIFY(s.ensure_capacity(20).ok());
        std::vector<float> row(32), back(32);
        for (int pos = 0; pos < 20; ++pos)
            for (int il = 0; il < 2; ++il) {
                for (int e = 0; e < 32; ++e)
                    row[std::size_t(e)] = float(pos * 100 + il * 10) + 0.25f * float(e);
                const kv_slot at = s.slot_of(pos);
                QVERIFY(store_row(dtype, row.data(), pool->k_row(il, at.block, at.slot), 32));
                for (float& v : row)
                    v = -v;
                QVERIFY(store_row(dtype, row.data(), pool->v_row(il, at.block, at.slot), 32));
            }
        for (int pos = 0; pos < 20; ++pos)
            for (int il = 0; il < 2; ++il) {
                const kv_slot at = s.slot_of(pos);
                QVERIFY(load_row(dtype, pool->k_row(il, at.block, at.slot), back.data(), 32));
                const float expect_first = float(pos * 100 + il * 10);
                const float tol = dtype == kv_dtype::f16 ? 2.0f : 20.0f;
                QVERIFY(std::fabs(back[0] - expect_first) <= tol);
                QVERIFY(load_row(dtype, pool->v_row(il, at.block, at.slot), back.data(), 32));
                QVERIFY(std::fabs(back[0] + expect_first) <= tol);
            }
    }
}

void TestKvPool::commitPastCapacityFails()
{
    auto pool = make_pool(tiny_geometry(16), 8);
    kv_sequence s(*pool, kv_mode::paged);
    QVERIFY(s.begin(ids{}, 0).ok());
    QVERIFY(s.ensure_capacity(10).ok());
    QVERIFY(!s.commit(random_tokens(17, 111)).ok());
    QCOMPARE(s.n_tokens(), std::int64_t(0));
    QVERIFY(s.commit(random_tokens(16, 111)).ok());
    QCOMPARE(s.n_tokens(), std::int64_t(16));
    QVERIFY(!s.begin(ids{1, 2}, 1).ok());   // begin() only on an empty sequence
    QCOMPARE(s.n_tokens(), std::int64_t(16));
}

void TestKvPool::moveKeepsBlocks()
{
    auto pool = make_pool(tiny_geometry(16), 8);
    std::vector<kv_sequence> seqs;
    seqs.emplace_back(*pool, kv_mode::paged);
    prefill(seqs.back(), random_tokens(40, 121));
    seqs.emplace_back(*pool, kv_mode::paged);   // may move the first
    prefill(seqs.back(), random_tokens(20, 122));
    QCOMPARE(pool->blocks().n_used(), 5);
    QCOMPARE(seqs[0].n_tokens(), std::int64_t(40));
    seqs.erase(seqs.begin());
    QCOMPARE(pool->blocks().n_used(), 2);
    QCOMPARE(seqs[0].n_tokens(), std::int64_t(20));
    seqs.clear();
    QCOMPARE(pool->usage(), 0.0);
}

QTEST_APPLESS_MAIN(TestKvPool)
#include "test_kv_pool.moc"
