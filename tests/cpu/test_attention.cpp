// SPDX-License-Identifier: Apache-2.0
// The SIMD attention path (attention_simd.h: blocks of queries against tiles
// of keys, online softmax, long ranges split across threads and merged)
// against the scalar reference, on random K/V (never zeros) in f16 and q8_0
// caches: several sequences in one batch with ragged, shuffled block tables,
// decode tokens next to prefill chunks, GQA groups from 1 to 8, 1 to 8 KV
// heads (a decode job reads all of a token's), head sizes 64 and 128,
// sliding windows on and off, at every SIMD level this CPU has
// and with thread counts that split a long decode range into chunks.
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/backend/cpu/attention.h"
#include "engine/backend/cpu/attention_simd.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/kv/kv_geometry.h"
#include "engine/kv/kv_storage.h"
#include "tests/support/attention_run.h"
#include "tests/support/kernel_level_test.h"

using namespace kvlens;

namespace {

// One sequence of the batch: its length in the cache, and the positions of
// its tokens in this batch (the last `n_new` positions).
struct sequence_spec {
    int length;
    int n_new;
};

// A cache holding every sequence's K/V at two layers (the test runs layer 1,
// so a wrong layer offset shows), blocks handed out in a shuffled order, and
// the batch of each sequence's last n_new tokens.
struct fixture {
    kv_geometry geo;
    kv_storage kv;
    std::vector<std::vector<std::int32_t>> tables;   // (n_seq) block ids
    std::vector<float> v_values;                      // every V value stored, for the error scale
    std::vector<std::int32_t> positions;              // (n_tokens)
    std::vector<const std::int32_t*> batch_tables;    // (n_tokens)
    std::vector<float> q;                             // (n_tokens, n_head * head_dim)
};

bool build(fixture& f, const std::vector<sequence_spec>& seqs, int n_head, int n_head_kv, int head_dim, kv_dtype dtype,
           std::uint32_t seed) {
    f.geo.n_layer = 2;
    f.geo.n_kv_heads = n_head_kv;
    f.geo.head_dim = head_dim;
    f.geo.dtype = dtype;
    f.geo.block_size = 16;
    int n_blocks = 0;
    for (const auto& s : seqs) n_blocks += (s.length + 15) / 16;
    auto kv = kv_storage::create(f.geo, n_blocks + 3);
    if (!kv) return false;
    f.kv = std::move(*kv);
    std::mt19937 rng(seed);
    std::vector<std::int32_t> ids(static_cast<std::size_t>(n_blocks + 3));
    std::iota(ids.begin(), ids.end(), 0);
    std::shuffle(ids.begin(), ids.end(), rng);   // ragged: no sequence owns a contiguous run
    std::size_t next = 0;
    const int row = n_head_kv * head_dim;
    // Keys of moderate size so softmax spreads over many keys, with a few
    // large ones so the running max moves; values of many magnitudes.
    std::normal_distribution<float> key(0.0f, 0.3f), normal(0.0f, 1.0f);
    std::uniform_real_distribution<float> expo(-2.0f, 1.0f);
    for (const auto& s : seqs) {
        std::vector<std::int32_t> table;
        for (int b = 0; b < (s.length + 15) / 16; ++b) table.push_back(ids[next++]);
        f.tables.push_back(table);
    }
    for (std::size_t si = 0; si < seqs.size(); ++si) {
        const int n = seqs[si].length;
        std::vector<float> k(static_cast<std::size_t>(n) * row), v(k.size());
        for (std::size_t i = 0; i < k.size(); ++i) {
            k[i] = key(rng) * (i % 97 == 0 ? 6.0f : 1.0f);
            v[i] = normal(rng) * std::pow(10.0f, expo(rng));
            if (v[i] == 0) v[i] = 0.5f;
        }
        f.v_values.insert(f.v_values.end(), v.begin(), v.end());
        std::vector<std::int32_t> pos(static_cast<std::size_t>(n));
        std::iota(pos.begin(), pos.end(), 0);
        std::vector<const std::int32_t*> tabs(static_cast<std::size_t>(n), f.tables[si].data());
        for (int il = 0; il < 2; ++il)
            store_kv(f.kv, dtype, il, k.data(), v.data(), n, row, tabs.data(), pos.data());
        for (int p = n - seqs[si].n_new; p < n; ++p) {
            f.positions.push_back(p);
            f.batch_tables.push_back(f.tables[si].data());
        }
    }
    f.q.resize(f.positions.size() * static_cast<std::size_t>(n_head) * head_dim);
    for (float& x : f.q) x = normal(rng);
    return true;
}

std::vector<float> run(const fixture& f, int n_head, int window, const std::string& level, int threads,
                       float softcap = 0, const std::vector<float>& sinks = {}) {
    test::attention_batch b;
    b.kv = &f.kv;
    b.dtype = f.geo.dtype;
    b.layer = 1;
    b.n_head = n_head;
    b.n_head_kv = f.geo.n_kv_heads;
    b.head_dim = f.geo.head_dim;
    b.window = window;
    b.scale = 1.0f / std::sqrt(static_cast<float>(f.geo.head_dim));
    b.softcap = softcap;
    b.sinks = sinks;
    for (int p : f.positions) b.max_range = std::max(b.max_range, p + 1);
    b.q = f.q;
    b.positions = f.positions;
    b.block_tables = f.batch_tables;
    return test::run_attention(b, level.c_str(), threads);
}

// Worst |simd - reference| relative to the largest |v|. A probability the
// reference rounds to f16 can differ by 2^-12 relative from the SIMD path's f32 one.
double worst_error(const std::vector<float>& simd, const std::vector<float>& ref, const std::vector<float>& v) {
    return test::attention_error(simd, ref, v);
}

}  // namespace

// Each test runs on the kernel level the CPU chose, put back afterwards.
class CpuAttention : public test::kernel_level_test {};

std::vector<test::attention_case> simd_attention_cases()
{
    std::vector<test::attention_case> rows;
    for (const std::string& l : test::simd_levels()) {
        for (kv_dtype dt : {kv_dtype::f16, kv_dtype::q8_0}) {
            const std::string d = dt == kv_dtype::f16 ? " f16" : " q8_0";
            rows.push_back({l + d + " group 3", l, dt, 0, 9, 3, 64, 2});
            rows.push_back({l + d + " group 3 window 20", l, dt, 20, 9, 3, 64, 2});
            rows.push_back({l + d + " group 3 window 512", l, dt, 512, 9, 3, 64, 3});
            rows.push_back({l + d + " group 4 head 128", l, dt, 0, 8, 2, 128, 2});
            rows.push_back({l + d + " group 4 head 128 window 100", l, dt, 100, 4, 1, 128, 4});
            // Gemma 3's head size: 8 blocks of 32 in a q8_0 row (AVX-512's integer value sum keeps 8 units a row).
            rows.push_back({l + d + " group 4 head 256", l, dt, 0, 4, 1, 256, 2});
            rows.push_back({l + d + " group 8", l, dt, 0, 8, 1, 64, 2});
            rows.push_back({l + d + " no grouping", l, dt, 0, 2, 2, 64, 3});
            rows.push_back({l + d + " no grouping window 33", l, dt, 33, 2, 2, 64, 1});
            // A decode job covers every KV head of its token: many heads, so a
            // wrong step from one head to the next in the cache row shows.
            rows.push_back({l + d + " eight kv heads group 2", l, dt, 0, 16, 8, 64, 2});
            rows.push_back({l + d + " four kv heads head 128 window 40", l, dt, 40, 8, 4, 128, 3});
        }
    }
    return rows;
}

// One batch: a long sequence decoding (its range split across threads), a
// short one decoding, a prefill chunk in the middle of a sequence, and a
// prefill from position 0 whose length is not a multiple of any tile.
TEST_F(CpuAttention, simdAttentionEqualsTheScalarReference)
{
    kvlens::test::for_each_row(simd_attention_cases(), [&](const test::attention_case& row) {
        fixture f;
        ASSERT_TRUE(build(f, {{3001, 1}, {7, 1}, {700, 45}, {77, 77}}, row.n_head, row.n_head_kv, row.head_dim, row.dtype,
                          1234u + static_cast<std::uint32_t>(row.window + row.head_dim + row.n_head)));
        const auto ref = run(f, row.n_head, row.window, "scalar", row.threads);
        const auto simd = run(f, row.n_head, row.window, row.level, row.threads);
        ASSERT_TRUE(!ref.empty() && !simd.empty());
        const double worst = worst_error(simd, ref, f.v_values);
        if (worst > 1e-3) std::fprintf(stderr, "worst error %g of max |v|\n", worst);
        ASSERT_TRUE(worst <= 1e-3);
    });
}

// The comparison above could pass on data where the window does not
// matter; here it must: the windowed outputs differ from the full ones
// by far more than the tolerance, in both paths.
TEST_F(CpuAttention, windowChangesTheOutputAndBothPathsAgreeOnIt)
{
    for (const std::string& level : test::simd_levels()) {
        fixture f;
        ASSERT_TRUE(build(f, {{600, 1}, {300, 40}}, 9, 3, 64, kv_dtype::f16, 77u));
        const auto full = run(f, 9, 0, level, 2);
        const auto win = run(f, 9, 64, level, 2);
        const auto win_ref = run(f, 9, 64, "scalar", 2);
        ASSERT_TRUE(worst_error(win, full, f.v_values) > 1e-2);
        ASSERT_TRUE(worst_error(win, win_ref, f.v_values) <= 1e-3);
    }
}

// Gemma 2 caps the scaled scores, s -> c tanh(s / c), before the softmax:
// with c near the scores' spread the outputs move by far more than the
// tolerance, and every path caps as the scalar reference does: a decode
// step straight from the cache, prefill blocks in lanes whose rows fill
// whole registers (group 2) or are padded to them (group 9), with and
// without a window. (The dims-in-lanes prefill path caps the same way; on
// AVX2 every block goes in lanes unless KVLENS_NO_ROW_LANES is set.)
TEST_F(CpuAttention, softCappedScoresChangeTheOutputAndEveryPathCapsThem)
{
    struct heads { int n_head, n_head_kv; };
    for (const std::string& level : test::simd_levels())
        for (kv_dtype dt : {kv_dtype::f16, kv_dtype::q8_0})
            for (const heads h : {heads{8, 4}, heads{9, 1}}) {
                fixture f;
                ASSERT_TRUE(build(f, {{900, 1}, {300, 40}, {77, 77}, {20, 3}}, h.n_head, h.n_head_kv, 64, dt, 91u));
                for (int window : {0, 50}) {
                    const auto plain = run(f, h.n_head, window, level, 2);
                    const auto capped = run(f, h.n_head, window, level, 2, 0.5f);
                    const auto capped_ref = run(f, h.n_head, window, "scalar", 2, 0.5f);
                    ASSERT_TRUE(!plain.empty() && !capped.empty() && !capped_ref.empty());
                    EXPECT_GT(worst_error(capped, plain, f.v_values), 1e-2) << level << " group " << h.n_head / h.n_head_kv;
                    EXPECT_LE(worst_error(capped, capped_ref, f.v_values), 1e-3)
                        << level << " group " << h.n_head / h.n_head_kv << " window " << window;
                }
            }
}

// gpt-oss's sinks: each head's sink logit joins its softmax's denominator
// and weighs no value. With sinks of 0 to 8.75 (against scaled
// scores of deviation about 1, over up to 2100 keys) the outputs shrink by far more than the
// tolerance, and every path applies them as the scalar reference does: a
// long decode range split across threads (the merge adds the sink once),
// a short decode step, prefill blocks, with and without a window.
TEST_F(CpuAttention, sinksShrinkTheOutputAndEveryPathAppliesThem)
{
    // A lone long decode step (its range split between the threads), and a mixed batch.
    const std::vector<std::vector<sequence_spec>> batches = {{{2100, 1}}, {{2100, 1}, {300, 40}, {77, 77}, {20, 1}}};
    for (const std::string& level : test::simd_levels())
        for (kv_dtype dt : {kv_dtype::f16, kv_dtype::q8_0})
        for (const auto& batch : batches) {
            fixture f;
            ASSERT_TRUE(build(f, batch, 8, 2, 64, dt, 17u));
            std::vector<float> sinks(8);
            for (int h = 0; h < 8; ++h) sinks[static_cast<std::size_t>(h)] = 1.25f * static_cast<float>(h);   // to 8.75: e^8.75 ~ 3 x 2100 keys
            for (int window : {0, 50}) {
                const auto plain = run(f, 8, window, level, 2);
                const auto sunk = run(f, 8, window, level, 2, 0, sinks);
                const auto sunk_ref = run(f, 8, window, "scalar", 2, 0, sinks);
                ASSERT_TRUE(!plain.empty() && !sunk.empty() && !sunk_ref.empty());
                // (Over 2100 keys in full the output, an average of random values, is too
                // near 0 for any scaling to move it by 1e-2 of max |v|: windowed ranges show it.)
                if (window > 0) EXPECT_GT(worst_error(sunk, plain, f.v_values), 1e-2) << level << " window " << window;
                EXPECT_LE(worst_error(sunk, sunk_ref, f.v_values), 1e-3) << level << " window " << window;
            }
        }
}

// A decode token gives the same result whether its range is split into
// chunks (many threads) or not (one thread): a long range, and a short one
// that splits too because its job holds all three KV heads; and a lone
// sequence, whose range goes in one chunk per thread.
TEST_F(CpuAttention, splittingADecodeRangeDoesNotChangeTheResult)
{
    const std::vector<std::vector<sequence_spec>> batches = {{{4099, 1}, {200, 1}}, {{4099, 1}}};
    for (const std::string& level : test::simd_levels()) {
        for (const auto& batch : batches) {
            fixture f;
            ASSERT_TRUE(build(f, batch, 9, 3, 64, kv_dtype::q8_0, 5u));
            const auto one = run(f, 9, 0, level, 1);
            for (int threads : {2, 4}) {
                const auto many = run(f, 9, 0, level, threads);
                ASSERT_TRUE(worst_error(many, one, f.v_values) <= 1e-5) << batch.size() << " sequences, " << threads << " threads";
            }
        }
    }
}

// A lone short decode range is cut too, into chunks of one 32-key tile (96
// key-head pairs, the least), so that both threads work on it: with two or
// four threads a 60-key range goes in two chunks, and the result is no
// longer bit for bit the one-thread one (each chunk rounds its
// probabilities to f16 against its own running max; with few keys to
// average over, the two differ by about 1e-5 of max |v|). Each stays as
// near the scalar reference as the other: within 1e-4 of max |v|, under
// the 2^-12 by which one f16-rounded probability may differ.
TEST_F(CpuAttention, aShortLoneDecodeRangeIsCutIntoTilesAndStaysNearTheReference)
{
    for (const std::string& level : test::simd_levels()) {
        fixture f;
        ASSERT_TRUE(build(f, {{60, 1}}, 9, 3, 64, kv_dtype::q8_0, 5u));
        const auto ref = run(f, 9, 0, "scalar", 1);
        const auto one = run(f, 9, 0, level, 1);
        ASSERT_TRUE(worst_error(one, ref, f.v_values) <= 1e-4);
        for (int threads : {2, 4}) {
            const auto many = run(f, 9, 0, level, threads);
            ASSERT_NE(many, one) << threads << " threads: the range was not cut";
            ASSERT_TRUE(worst_error(many, ref, f.v_values) <= 1e-4) << threads << " threads";
        }
    }
}

// A prefill job's rows fill whole registers where they can (the rows-in-lanes
// path): a multiple of the group and of the lanes, at least 24 rows and at
// most 4 registers (AVX-512: at least 80 and at most 6); otherwise 24 rows
// rounded down to whole groups.
TEST(CpuAttentionBlocks, prefillBlocksFillWholeRegistersOfTheKernel)
{
    EXPECT_EQ(flash_block_rows(3, 16), 96);   // SmolLM2 on AVX-512: 32 tokens x 3 heads, 6 registers
    EXPECT_EQ(flash_block_rows(3, 8), 24);    // on AVX2: 8 tokens, 3 registers
    EXPECT_EQ(flash_block_rows(4, 16), 80);   // Gemma 3: 20 tokens x 4 heads, 5 registers
    EXPECT_EQ(flash_block_rows(4, 8), 24);
    EXPECT_EQ(flash_block_rows(1, 16), 80);
    EXPECT_EQ(flash_block_rows(8, 16), 80);
    EXPECT_EQ(flash_block_rows(5, 16), 80);   // lcm 80 fits AVX-512's 6 registers: 16 tokens x 5
    EXPECT_EQ(flash_block_rows(7, 16), 21);   // lcm 112 is over 6 registers of 16
    EXPECT_EQ(flash_block_rows(5, 8), 20);    // lcm 40 is over AVX2's 4 registers of 8
    EXPECT_EQ(flash_block_rows(3, 1), 24);    // no SIMD kernel
    EXPECT_EQ(flash_block_rows(32, 8), 32);   // a group over 24 rows: one token
    for (int group = 1; group <= 16; ++group)
        for (int width : {1, 8, 16}) {
            const int rows = flash_block_rows(group, width);
            EXPECT_EQ(rows % group, 0) << group << " " << width;
            if (width > 1 && rows % width == 0) EXPECT_LE(rows, (width >= 16 ? 6 : 4) * width) << group << " " << width;
        }
}
