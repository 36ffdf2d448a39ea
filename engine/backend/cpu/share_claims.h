// SPDX-License-Identifier: Apache-2.0
// Items of a list handed to a pool's threads so that each thread works
// through a contiguous share of the list in order: the list is cut into one
// share per thread, each share is claimed from its front by its own thread;
// a thread whose share is done takes what is left of the others', from
// their fronts.
//
// Split decode attention uses it (attention.cpp): a thread then takes the
// chunks of a range in key order, and each chunk's last tile prefetches the
// next chunk's first (flash_job::prefetch_end). A chunk that starts cold pays
// for its first tile's misses (Zen 2, SmolLM2 at d4096, q8_0: 10.1k cycles
// against 4.2k for a later tile); claimed one by one from the list's front,
// every chunk started cold.
//
// Each share's counter sits on its own cache line, so a thread claiming from
// its own share never pulls a line its neighbour's claims use.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace kvlens {

class share_claims {
public:
    share_claims() = default;
    // n_items items (0 .. n_items - 1) for n_threads threads (at least 1).
    share_claims(int n_items, int n_threads) { reset(n_items, n_threads); }

    // Starts over with a new list, keeping the storage (no allocation once
    // grown to the thread count). Not concurrent with claim().
    void reset(int n_items, int n_threads) {
        n_shares_ = n_threads < 1 ? 1 : n_threads;
        n_items_ = n_items;
        if (static_cast<int>(next_.size()) < n_shares_) next_ = std::vector<counter>(static_cast<std::size_t>(n_shares_));
        for (int t = 0; t < n_shares_; ++t) next_[static_cast<std::size_t>(t)].next.store(share_begin(t), std::memory_order_relaxed);
    }

    // The next item for thread ith: share ith % n_threads's next, else the
    // next of the shares after it (wrapping); -1 when every item is taken.
    // Each item goes to exactly one call, from any thread. With one share,
    // every thread takes the list's next item.
    int claim(int ith) {
        for (int k = 0; k < n_shares_; ++k) {
            const int t = (ith % n_shares_ + k) % n_shares_;
            std::atomic<int>& next = next_[static_cast<std::size_t>(t)].next;
            if (next.load(std::memory_order_relaxed) >= share_begin(t + 1)) continue;
            const int i = next.fetch_add(1, std::memory_order_relaxed);
            if (i < share_begin(t + 1)) return i;
        }
        return -1;
    }

private:
    // Share t is items share_begin(t) .. share_begin(t + 1) - 1.
    int share_begin(int t) const {
        return static_cast<int>(static_cast<std::int64_t>(n_items_) * t / static_cast<std::int64_t>(n_shares_));
    }
    struct alignas(64) counter {
        std::atomic<int> next{0};   // the share's next unclaimed item
    };
    std::vector<counter> next_;   // (at least n_shares_)
    int n_shares_ = 1;
    int n_items_ = 0;
};

}  // namespace kvlens
