// SPDX-License-Identifier: Apache-2.0
// Thread counts the machine cannot start (issue 15, resource limits): the
// engine refuses a count above its cap with both numbers, and a thread pool
// that runs out of threads part way (no memory left for stacks) runs with the
// threads it started instead of ending the process (a std::thread left
// joinable by a throwing constructor would call std::terminate).
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <string>

#include "engine/backend/cpu/thread_pool.h"
#include "engine/runtime/engine.h"
#include "tests/support/tiny_model.h"

using namespace kvlens;

TEST(ThreadLimits, theEngineRefusesMoreThreadsThanItsCapWithBothNumbers) {
    engine_options o;
    o.model_path = test::tiny_model_path("Q4_1");
    o.backend = "cpu";
    o.n_threads = thread_pool::max_threads() + 1;
    auto e = engine::create(o);
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.message().find(std::to_string(o.n_threads) + " CPU threads"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("up to " + std::to_string(thread_pool::max_threads())), std::string::npos) << e.message();
    o.n_threads = -1;
    EXPECT_FALSE(engine::create(o).ok());
}

TEST(ThreadLimits, aPoolThatRunsOutOfThreadsKeepsTheOnesItStartedAndStillComputes) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "an address-space limit cannot be set under AddressSanitizer (its shadow memory)";
#else
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // Room for the process as it is and a few 8 MiB thread stacks, not for 200.
        struct rlimit lim {};
        getrlimit(RLIMIT_AS, &lim);
        long vm_kib = 0;
        if (FILE* f = std::fopen("/proc/self/statm", "r")) {
            long pages = 0;
            if (std::fscanf(f, "%ld", &pages) == 1) vm_kib = pages * (sysconf(_SC_PAGESIZE) / 1024);
            std::fclose(f);
        }
        lim.rlim_cur = static_cast<rlim_t>(vm_kib + 64 * 1024) * 1024;
        if (setrlimit(RLIMIT_AS, &lim) != 0) _exit(3);
        thread_pool pool(200);
        if (pool.size() < 1 || pool.size() >= 200) _exit(4);
        std::atomic<int> ran{0};
        pool.run([&](int, int) { ran.fetch_add(1); });
        _exit(ran.load() == pool.size() ? 0 : 5);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child died by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "3: setrlimit failed, 4: the pool's size is wrong, 5: a chunk did not run";
#endif
}
