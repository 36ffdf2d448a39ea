// SPDX-License-Identifier: Apache-2.0
// A new KV cache commits the rows of a first request at creation: the first
// k_commit_ahead_tokens rows of every layer's K and V array are resident
// before anything writes them (mincore), and writing them then costs (nearly)
// no page faults (getrusage), so the first prefill chunk of a run does not pay
// them. The rest of a large pool is left to be committed as it is touched,
// and a cache of huge rows commits at most 512 MiB ahead.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "common/huge_page_buffer.h"
#include "common/sanitizer_build.h"
#include "engine/kv/kv_geometry.h"
#include "engine/kv/kv_storage.h"

using namespace kvlens;

namespace {

long thread_page_faults()
{
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt + u.ru_majflt;
}

// SmolLM2-135M's KV shape (30 layers, 3 KV heads of 64, f16) for an 8192-token context.
kv_geometry smollm_geometry()
{
    kv_geometry g;
    g.n_layer = 30;
    g.n_kv_heads = 3;
    g.head_dim = 64;
    g.dtype = kv_dtype::f16;
    g.block_size = 16;
    return g;
}

bool kernel_commits_ahead()
{
    const huge_page_buffer probe = huge_page_buffer::allocate(huge_page_buffer::huge_page);
    return probe && probe.commit(0, 4096);
}

// Resident 4 KiB pages of [p, p + bytes), and all pages of that range.
std::pair<long, long> resident_pages(const std::uint8_t* p, std::int64_t bytes)
{
    const auto at = reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t{4095};
    const std::size_t len = reinterpret_cast<std::uintptr_t>(p) + static_cast<std::size_t>(bytes) - at;
    std::vector<unsigned char> v((len + 4095) / 4096);
    if (mincore(reinterpret_cast<void*>(at), len, v.data()) != 0) return {-1, static_cast<long>(v.size())};
    long n = 0;
    for (unsigned char c : v) n += c & 1;
    return {n, static_cast<long>(v.size())};
}

// Writes one byte into each 4 KiB page of the first `rows` rows of every array.
void write_first_rows(kv_storage& kv, std::int64_t rows)
{
    const std::int64_t bytes = rows * kv.row_bytes();
    for (int il = 0; il < kv.n_layer(); ++il) {
        for (std::uint8_t* a : {kv.k_layer(il), kv.v_layer(il)})
            for (std::int64_t at = 0; at < bytes; at += 4096) a[at] = 1;
    }
}

}  // namespace

TEST(KvStorageCommit, firstRequestRowsAreResidentAtCreation)
{
    if (!kernel_commits_ahead())
        GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14); the cache commits as it is touched";
    // 32,768 tokens: 12 MiB per array, most of it past the committed rows.
    auto kv = kv_storage::create(smollm_geometry(), 32768 / 16);
    ASSERT_TRUE(kv.ok()) << kv.message();
    const std::int64_t ahead = kv_storage::k_commit_ahead_tokens * kv->row_bytes();
    for (int il = 0; il < kv->n_layer(); ++il) {
        for (const std::uint8_t* a : {kv->k_layer(il), kv->v_layer(il)}) {
            const auto [first, first_pages] = resident_pages(a, ahead);
            EXPECT_EQ(first, first_pages) << "layer " << il << ": the first rows are committed";
            // A quarter of the array from its middle: nothing wrote or committed it.
            const auto [middle, middle_pages] = resident_pages(a + kv->layer_bytes() / 2, kv->layer_bytes() / 4);
            EXPECT_EQ(middle, 0) << "layer " << il << ": " << middle << " of " << middle_pages << " pages";
        }
    }
}

TEST(KvStorageCommit, aHugeCacheCommitsAtMost512MiBAhead)
{
    if (!kernel_commits_ahead())
        GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14)";
    // 30 layers of 32 KV heads of 256 (16 KiB rows): 4,096 rows are 64 MiB an
    // array, 3.75 GiB over the 60 arrays; the pool (4,096 tokens) as large.
    kv_geometry g = smollm_geometry();
    g.n_kv_heads = 32;
    g.head_dim = 256;
    auto kv = kv_storage::create(g, 4096 / 16);
    ASSERT_TRUE(kv.ok()) << kv.message();
    long resident = 0;
    for (int il = 0; il < kv->n_layer(); ++il)
        for (const std::uint8_t* a : {kv->k_layer(il), kv->v_layer(il)}) {
            const auto [n, pages] = resident_pages(a, kv->layer_bytes());
            ASSERT_GE(n, 0);
            resident += n;
        }
    const double mib = resident * 4096.0 / (1 << 20);
    EXPECT_GT(mib, 0.0) << "some rows are committed ahead";
    EXPECT_LE(mib, 512.0 + 60 * 2.0) << "at most 512 MiB, plus a huge page's rounding per array";
}

TEST(KvStorageCommit, firstRequestRowsCostNoPageFaults)
{
    if (!kernel_commits_ahead())
        GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14); the cache commits as it is touched";
    if (built_with_address_sanitizer)
        GTEST_SKIP() << "under ASan every write reads shadow memory, whose pages fault on their own";
    auto kv = kv_storage::create(smollm_geometry(), 8192 / 16);
    ASSERT_TRUE(kv.ok()) << kv.message();
    const long before = thread_page_faults();
    write_first_rows(*kv, kv_storage::k_commit_ahead_tokens);
    const long faults = thread_page_faults() - before;
    // Uncommitted, the same writes fault at least once per array (60; 23,040
    // with 4 KiB pages). A few faults of the test's own are allowed.
    EXPECT_LT(faults, 8) << "writing the first " << kv_storage::k_commit_ahead_tokens << " rows of 60 arrays";
}

TEST(KvStorageCommit, commitLeavesContentsAndRejectsOutsideRanges)
{
    huge_page_buffer b = huge_page_buffer::allocate(3 * huge_page_buffer::huge_page);
    ASSERT_TRUE(b);
    b.data()[100] = 42;
    b.commit(0, b.size());                                    // best effort: the contents stay as they were
    EXPECT_EQ(b.data()[100], 42);
    EXPECT_EQ(b.data()[b.size() - 1], 0);
    EXPECT_FALSE(b.commit(b.size(), 4096));                   // past the end: nothing to commit
    EXPECT_FALSE(b.commit(0, 0));
    EXPECT_FALSE(huge_page_buffer().commit(0, 4096));        // an empty buffer
}
