// SPDX-License-Identifier: Apache-2.0
// thread_pool (thread_pool.h): every chunk of a job runs exactly once, and
// what a thread loads between jobs (set_idle_loads, a hint about the next
// job's shares) never changes a result and never reads outside the range
// given (under AddressSanitizer, a load past a heap buffer's end fails).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/backend/cpu/thread_pool.h"

using kvlens::thread_pool;

TEST(ThreadPool, everyChunkOfEveryJobRunsOnce)
{
    for (int n_threads : {1, 2, 3}) {
        thread_pool pool(n_threads);
        for (int job = 0; job < 500; ++job) {
            std::vector<std::atomic<int>> runs(static_cast<std::size_t>(pool.size()));
            pool.run([&](int ith, int nth) {
                ASSERT_EQ(nth, pool.size());
                runs[static_cast<std::size_t>(ith)].fetch_add(1);
            });
            for (const auto& r : runs) ASSERT_EQ(r.load(), 1) << n_threads << " threads, job " << job;
        }
    }
}

TEST(ThreadPool, idleLoadsStayInTheirRangeAndLeaveResultsAlone)
{
    thread_pool pool(2);
    // Buffers of odd sizes, the smallest shorter than one batch of loads,
    // the largest past the most a thread loads.
    std::vector<std::unique_ptr<char[]>> buffers;
    const std::int64_t sizes[] = {1, 100, 4097, 200000};
    for (std::int64_t n : sizes) buffers.emplace_back(new char[static_cast<std::size_t>(n)]());
    std::int64_t sum = 0, want = 0;
    for (int job = 0; job < 400; ++job) {
        const int b = job % 4;
        pool.set_idle_loads(0, buffers[static_cast<std::size_t>(b)].get(), sizes[b]);
        pool.set_idle_loads(1, job % 3 == 0 ? nullptr : buffers[static_cast<std::size_t>(3 - b)].get(),
                            job % 3 == 0 ? 0 : sizes[3 - b]);
        pool.set_idle_loads(2, buffers[0].get(), 1);   // no chunk 2 in a pool of 2: ignored
        pool.set_idle_loads(-1, buffers[0].get(), 1);
        std::atomic<std::int64_t> job_sum{0};
        pool.run([&](int ith, int) { job_sum.fetch_add(ith + 1 + job); });
        sum += job_sum.load();
        want += 2 * job + 3;
    }
    EXPECT_EQ(sum, want);
}
