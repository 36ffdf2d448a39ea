// SPDX-License-Identifier: Apache-2.0
// A fixed pool of worker threads for data-parallel loops. The caller's thread
// takes part as worker 0. Workers spin briefly between jobs (decode issues
// hundreds of small jobs per token, too short to pay a futex wake each), then
// sleep on a condition variable when idle.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kvlens {

class thread_pool {
public:
    // n_threads counts the caller; 0 means one per core. When the system
    // cannot start that many threads (std::system_error), the pool runs with
    // as many as it could start: size() says how many, never an exception.
    explicit thread_pool(int n_threads);
    ~thread_pool();
    thread_pool(const thread_pool&) = delete;
    thread_pool& operator=(const thread_pool&) = delete;

    int size() const { return n_threads_; }

    // Runs fn(i, n_threads) once for every index i in [0, n_threads) and returns
    // when all have finished. Each index goes to whichever thread claims it
    // first (the caller included), so a slow or descheduled worker never holds
    // the others up. Not reentrant.
    void run(const std::function<void(int ith, int nth)>& fn);

    // Splits [0, n) into contiguous ranges, one per thread: fn(begin, end).
    void parallel_for(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& fn);

    // What the thread that runs chunk `chunk` of a job loads once it has
    // finished that chunk, while it waits for the next job (64 KiB at most,
    // stopping when the job comes): the caller names what that thread's
    // share of the next job reads first. It stays set until set again, and
    // must stay readable while it is set (a hint: results never depend on it).
    void set_idle_loads(int chunk, const void* begin, std::int64_t bytes);

    static int default_threads();
    // The most threads a pool may be asked for: 4 per hardware thread, at most
    // 1024 (more only adds switching; the engine and the CLI refuse or cap above it).
    static int max_threads();

private:
    void worker_loop(int ith);
    void stop_workers();

    int n_threads_;
    std::vector<std::thread> workers_;
    const std::function<void(int, int)>* job_ = nullptr;
    std::atomic<std::uint64_t> generation_{0};   // packed job state: generation and claimed indices
    std::atomic<int> pending_{0};
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
    std::atomic<int> sleepers_{0};
    struct alignas(64) idle_slot {   // one line each: written by the caller, read by the chunk's thread
        std::atomic<const char*> begin{nullptr};
        std::atomic<std::int64_t> bytes{0};
        std::atomic<std::uint32_t> version{0};   // odd while the caller writes (a sequence lock)
    };
    class idle_loads;
    void run_chunks(std::uint64_t gen, idle_loads& idle);
    std::vector<idle_slot> idle_loads_;   // (n_threads) what the thread of each chunk loads after it
};

}  // namespace kvlens
