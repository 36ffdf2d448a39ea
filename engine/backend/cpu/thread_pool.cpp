// SPDX-License-Identifier: Apache-2.0
// Thread pool. A job is n_threads chunks (chunk i is the call fn(i, n)); any
// thread, the caller included, claims the next unclaimed chunk with one
// compare-and-swap, so a worker that is slow to wake (a busy machine, a
// sleeping thread) never holds the job up: the others run its chunk. The
// caller waits only for chunks already claimed to finish.
//
// generation_ packs the job state in one atomic word, so a chunk can only be
// claimed from the job it belongs to:
//   bits 40..63  job generation (wraps)   bits 20..39  chunks in the job
//   bits  0..19  next chunk to claim
// pending_ counts chunks not yet finished. Workers spin on the generation for
// a short while between jobs, then sleep on the condition variable.
//
// Between jobs a thread first reads, with plain loads a few lines at a time,
// what the caller said its share of the next job starts with
// (set_idle_loads): in decode the caller's thread runs the norms, RoPE and
// quantization between products alone, and the other thread would only spin.
// Loads, not prefetch instructions: on Zen 2 a burst of software prefetches
// past the few misses in flight is mostly dropped (64 KiB prefetched, then
// read 9 us later: 8.3k cycles against 10.8k cold; loaded: 2.5k).
#include "engine/backend/cpu/thread_pool.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <system_error>

namespace kvlens {

namespace {

constexpr int k_spin_rounds = 1 << 15;   // pause instructions before a worker sleeps (~1-3 ms)

constexpr std::uint64_t gen_of(std::uint64_t s) { return s >> 40; }
constexpr std::uint64_t count_of(std::uint64_t s) { return (s >> 20) & 0xFFFFF; }
constexpr std::uint64_t next_of(std::uint64_t s) { return s & 0xFFFFF; }
constexpr std::uint64_t pack(std::uint64_t gen, std::uint64_t count) { return (gen << 40) | (count << 20); }

// The most a thread loads of its next share while it waits (bytes): a
// quarter of a Zen 2 core's L2.
constexpr std::int64_t k_idle_load_bytes = 64 * 1024;

}  // namespace

// Lines a waiting thread loads, a few at a time between checks for the next job.
class thread_pool::idle_loads {
public:
    void start(const idle_slot& slot) {
        static const bool disabled = std::getenv("KVLENS_NO_IDLE_LOADS") != nullptr;   // to compare
        at_ = end_ = nullptr;
        // The caller may be naming the next job's share meanwhile: a start
        // and a length read while the slot changed (one old, one new) could
        // reach past the memory named, so they are dropped.
        const std::uint32_t version = slot.version.load(std::memory_order_acquire);
        if (disabled || version % 2 != 0) return;
        const char* begin = slot.begin.load(std::memory_order_relaxed);
        const std::int64_t bytes = std::clamp<std::int64_t>(slot.bytes.load(std::memory_order_relaxed), 0, k_idle_load_bytes);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (slot.version.load(std::memory_order_relaxed) != version || !begin) return;
        at_ = begin;
        end_ = begin + bytes;
    }
    // Loads the next 8 lines; false when none is left.
    bool step() {
        if (at_ >= end_) return false;
        int sum = 0;
        for (int i = 0; i < 8 && at_ < end_; ++i, at_ += 64) sum += *reinterpret_cast<const volatile char*>(at_);
        sink_ += sum;
        return true;
    }

private:
    const char* at_ = nullptr;
    const char* end_ = nullptr;
    int sink_ = 0;   // the loads' values, kept so that they are made
};

int thread_pool::default_threads() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

int thread_pool::max_threads() {
    const long n = 4L * default_threads();
    return static_cast<int>(n > 1024 ? 1024 : n);
}

thread_pool::thread_pool(int n_threads)
    : n_threads_(n_threads > 0 ? n_threads : default_threads()), idle_loads_(static_cast<std::size_t>(n_threads_)) {
    // Workers read n_threads_ only through a job, so it may change before the first run().
    try {
        for (int i = 1; i < n_threads_; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
    } catch (const std::system_error&) {
        // Out of threads (RLIMIT_NPROC, memory for stacks): keep the ones that started.
        const int started = static_cast<int>(workers_.size()) + 1;
        stop_workers();
        workers_.clear();
        stop_.store(false);
        generation_.store(0);
        n_threads_ = 1;
        try {
            for (int i = 1; i < started; ++i) {
                workers_.emplace_back([this, i] { worker_loop(i); });
                n_threads_ = i + 1;
            }
        } catch (const std::system_error&) {
        }
    }
}

thread_pool::~thread_pool() { stop_workers(); }

void thread_pool::set_idle_loads(int chunk, const void* begin, std::int64_t bytes) {
    if (chunk < 0 || chunk >= n_threads_) return;
    idle_slot& slot = idle_loads_[static_cast<std::size_t>(chunk)];
    const std::uint32_t version = slot.version.load(std::memory_order_relaxed);
    slot.version.store(version + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    slot.begin.store(static_cast<const char*>(begin), std::memory_order_relaxed);
    slot.bytes.store(bytes, std::memory_order_relaxed);
    slot.version.store(version + 2, std::memory_order_release);
}

void thread_pool::stop_workers() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_.store(true);
        generation_.store(pack((gen_of(generation_.load()) + 1) & 0xFFFFFF, 0));
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

// Claims and runs chunks of job `gen` until none is left. The job function is
// only read after a successful claim: until that chunk is finished, run()
// cannot return, so the function is alive. The loads for the chunk's share
// of the next job are set up after the chunk counts as done (off the
// caller's path; the slot may by then hold the next job's hint, as good).
void thread_pool::run_chunks(std::uint64_t gen, idle_loads& idle) {
    std::uint64_t s = generation_.load(std::memory_order_acquire);
    while (gen_of(s) == gen && next_of(s) < count_of(s)) {
        if (generation_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
            (*job_)(static_cast<int>(next_of(s)), static_cast<int>(count_of(s)));
            pending_.fetch_sub(1, std::memory_order_acq_rel);
            idle.start(idle_loads_[static_cast<std::size_t>(next_of(s))]);
            s = generation_.load(std::memory_order_acquire);
        }
    }
}

void thread_pool::worker_loop(int /*ith*/) {
    std::uint64_t seen = 0;
    idle_loads idle;
    for (;;) {
        std::uint64_t s = generation_.load(std::memory_order_acquire);
        for (int spin = 0; gen_of(s) == seen && spin < k_spin_rounds; ++spin) {
            if (!idle.step()) _mm_pause();
            s = generation_.load(std::memory_order_acquire);
        }
        if (gen_of(s) == seen) {
            std::unique_lock<std::mutex> lock(mutex_);
            sleepers_.fetch_add(1);
            wake_.wait(lock, [&] { return gen_of(generation_.load(std::memory_order_acquire)) != seen; });
            sleepers_.fetch_sub(1);
            s = generation_.load(std::memory_order_acquire);
        }
        seen = gen_of(s);
        if (stop_.load()) return;
        run_chunks(seen, idle);
    }
}

void thread_pool::run(const std::function<void(int, int)>& fn) {
    if (n_threads_ == 1) {
        fn(0, 1);
        return;
    }
    job_ = &fn;
    pending_.store(n_threads_, std::memory_order_relaxed);
    std::uint64_t gen;
    {
        // Publishing under the mutex pairs with the sleepers' predicate check.
        std::lock_guard<std::mutex> lock(mutex_);
        gen = (gen_of(generation_.load(std::memory_order_relaxed)) + 1) & 0xFFFFFF;
        generation_.store(pack(gen, static_cast<std::uint64_t>(n_threads_)), std::memory_order_release);
    }
    if (sleepers_.load() > 0) wake_.notify_all();
    idle_loads idle;
    run_chunks(gen, idle);
    while (pending_.load(std::memory_order_acquire) != 0)
        if (!idle.step()) _mm_pause();
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
