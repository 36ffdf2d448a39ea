// SPDX-License-Identifier: Apache-2.0
// A new KV cache commits the rows of a first request at creation: writing the
// first k_commit_ahead_tokens rows of every layer's K and V array afterwards
// costs (nearly) no page faults, so the first prefill chunk of a run does not
// pay them. Page faults are counted with getrusage(RUSAGE_THREAD).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstring>

#include "common/huge_page_buffer.h"
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

TEST(KvStorageCommit, firstRequestRowsCostNoPageFaults)
{
    if (!kernel_commits_ahead())
        GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14); the cache commits as it is touched";
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
