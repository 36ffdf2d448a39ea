// SPDX-License-Identifier: Apache-2.0
// Thread pool: a generation counter announces a job; workers spin on it for a
// short while, then sleep. pending_ counts workers still running the job.
#include "engine/backend/cpu/thread_pool.h"

#include <immintrin.h>

#include <chrono>

namespace kvlens {

namespace {
constexpr int k_spin_rounds = 1 << 16;   // ~ a few hundred microseconds of pause instructions
}

int thread_pool::default_threads() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

thread_pool::thread_pool(int n_threads) : n_threads_(n_threads > 0 ? n_threads : default_threads()) {
    for (int i = 1; i < n_threads_; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

thread_pool::~thread_pool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_.store(true);
        generation_.fetch_add(1);
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void thread_pool::worker_loop(int ith) {
    std::uint64_t seen = 0;
    for (;;) {
        std::uint64_t gen = generation_.load(std::memory_order_acquire);
        for (int spin = 0; gen == seen && spin < k_spin_rounds; ++spin) {
            _mm_pause();
            gen = generation_.load(std::memory_order_acquire);
        }
        if (gen == seen) {
            std::unique_lock<std::mutex> lock(mutex_);
            sleepers_.fetch_add(1);
            wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
            sleepers_.fetch_sub(1);
            gen = generation_.load(std::memory_order_acquire);
        }
        seen = gen;
        if (stop_.load()) return;
        (*job_)(ith, n_threads_);
        pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
}

void thread_pool::run(const std::function<void(int, int)>& fn) {
    if (n_threads_ == 1) {
        fn(0, 1);
        return;
    }
    job_ = &fn;
    pending_.store(n_threads_ - 1, std::memory_order_release);
    {
        // Publishing under the mutex pairs with the sleepers' predicate check.
        std::lock_guard<std::mutex> lock(mutex_);
        generation_.fetch_add(1, std::memory_order_acq_rel);
    }
    if (sleepers_.load() > 0) wake_.notify_all();
    fn(0, n_threads_);
    while (pending_.load(std::memory_order_acquire) != 0) _mm_pause();
    job_ = nullptr;
}

void thread_pool::parallel_for(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& fn) {
    if (n <= 0) return;
    if (n_threads_ == 1 || n == 1) {
        fn(0, n);
        return;
    }
    run([&](int ith, int nth) {
        const std::int64_t per = (n + nth - 1) / nth;
        const std::int64_t b = std::min<std::int64_t>(n, per * ith);
        const std::int64_t e = std::min<std::int64_t>(n, b + per);
        if (b < e) fn(b, e);
    });
}

}  // namespace kvlens
