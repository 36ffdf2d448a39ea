// SPDX-License-Identifier: Apache-2.0
// share_claims (share_claims.h): how split decode attention hands its chunks
// to the threads. Every item goes to exactly one claim; a thread takes its
// own contiguous share front to back before anything else, then the shares
// after it; threads claiming at once never lose or repeat an item; and a
// list can be set up again in the same storage.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <thread>
#include <vector>

#include "engine/backend/cpu/share_claims.h"

using kvlens::share_claims;

namespace {

std::vector<int> claim_all(share_claims& c, int ith) {
    std::vector<int> got;
    for (int i = c.claim(ith); i >= 0; i = c.claim(ith)) got.push_back(i);
    return got;
}

}  // namespace

TEST(ShareClaims, aThreadTakesItsOwnShareInOrderThenTheSharesAfterIt)
{
    share_claims c(10, 3);   // shares 0-2, 3-5, 6-9
    EXPECT_EQ(claim_all(c, 1), (std::vector<int>{3, 4, 5, 6, 7, 8, 9, 0, 1, 2}));
    EXPECT_EQ(c.claim(0), -1);
    EXPECT_EQ(c.claim(2), -1);
}

TEST(ShareClaims, threadsTakingTurnsEachWorkThroughTheirOwnShare)
{
    share_claims c(8, 2);   // shares 0-3 and 4-7
    std::vector<int> t0, t1;
    for (int round = 0; round < 4; ++round) {
        t0.push_back(c.claim(0));
        t1.push_back(c.claim(1));
    }
    EXPECT_EQ(t0, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(t1, (std::vector<int>{4, 5, 6, 7}));
    EXPECT_EQ(c.claim(0), -1);
    EXPECT_EQ(c.claim(1), -1);
}

TEST(ShareClaims, aThreadDoneFirstTakesTheRestOfTheOthersShares)
{
    share_claims c(6, 2);   // shares 0-2 and 3-5
    EXPECT_EQ(c.claim(1), 3);   // thread 1 starts its share, then stalls
    EXPECT_EQ(claim_all(c, 0), (std::vector<int>{0, 1, 2, 4, 5}));
    EXPECT_EQ(c.claim(1), -1);
}

TEST(ShareClaims, resetStartsANewListWithTheSameStorage)
{
    share_claims c(4, 2);
    EXPECT_EQ(claim_all(c, 0), (std::vector<int>{0, 1, 2, 3}));
    c.reset(6, 3);   // shares 0-1, 2-3, 4-5
    EXPECT_EQ(claim_all(c, 2), (std::vector<int>{4, 5, 0, 1, 2, 3}));
    c.reset(3, 1);
    EXPECT_EQ(claim_all(c, 5), (std::vector<int>{0, 1, 2}));
}

TEST(ShareClaims, fewerItemsThanThreadsLeavesSomeSharesEmpty)
{
    share_claims c(2, 4);   // shares {}, {0}, {}, {1}
    EXPECT_EQ(c.claim(0), 0);
    EXPECT_EQ(c.claim(2), 1);
    EXPECT_EQ(c.claim(3), -1);
    share_claims none(0, 2);
    EXPECT_EQ(none.claim(0), -1);
    EXPECT_EQ(none.claim(1), -1);
}

TEST(ShareClaims, withOneShareEveryThreadTakesTheListsNextItem)
{
    share_claims c(4, 1);
    EXPECT_EQ(c.claim(1), 0);
    EXPECT_EQ(c.claim(0), 1);
    EXPECT_EQ(c.claim(3), 2);
    EXPECT_EQ(c.claim(1), 3);
    EXPECT_EQ(c.claim(0), -1);
}

TEST(ShareClaims, concurrentThreadsClaimEveryItemExactlyOnce)
{
    for (int n_threads : {2, 3, 8}) {
        for (int n_items : {1, 7, 64, 1000}) {
            share_claims c(n_items, n_threads);
            std::vector<std::vector<int>> got(static_cast<std::size_t>(n_threads));
            std::vector<std::thread> threads;
            for (int t = 0; t < n_threads; ++t)
                threads.emplace_back([&, t] { got[static_cast<std::size_t>(t)] = claim_all(c, t); });
            for (auto& th : threads) th.join();
            std::vector<int> all;
            for (int t = 0; t < n_threads; ++t) {
                const auto& g = got[static_cast<std::size_t>(t)];
                // What a thread took of its own share, it took in order.
                const int b = n_items * t / n_threads, e = n_items * (t + 1) / n_threads;
                std::vector<int> own;
                std::copy_if(g.begin(), g.end(), std::back_inserter(own), [&](int i) { return i >= b && i < e; });
                EXPECT_TRUE(std::is_sorted(own.begin(), own.end()));
                all.insert(all.end(), g.begin(), g.end());
            }
            std::sort(all.begin(), all.end());
            std::vector<int> want(static_cast<std::size_t>(n_items));
            for (int i = 0; i < n_items; ++i) want[static_cast<std::size_t>(i)] = i;
            EXPECT_EQ(all, want) << n_threads << " threads, " << n_items << " items";
        }
    }
}
