// SPDX-License-Identifier: Apache-2.0
// The engine under abuse, as issue 15 specifies: a thousand cancels at random
// moments (queued, during prefill, during decode; one request or several at
// once; from the caller's thread, from another thread and from inside the
// event callback) each end their request with exactly one `done` and give the
// KV pool back; eight requests in a pool too small for two of them all finish
// with the text each gives alone. Run under ASan/UBSan in CI (.ci/run), where
// a leak or a use after free fails the suite at exit.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/runtime/engine.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/tiny_model.h"

using namespace kvlens;

namespace {

std::unique_ptr<engine> tiny_engine(int parallel, std::int64_t budget_mib, int chunk, int n_ctx = 2048) {
    engine_options o;
    o.model_path = test::tiny_model_path("Q4_1");
    o.backend = "cpu";
    o.n_threads = 2;
    o.parallel = parallel;
    o.kv_budget_mib = budget_mib;
    o.chunk = chunk;
    o.n_ctx = n_ctx;
    auto e = engine::create(o);
    if (!e) throw std::runtime_error(e.message());
    return std::move(*e);
}

std::string text_of_chars(int n_chars, char first) {
    std::string s(1, first);
    const std::string base = "he key-value cache keeps keys and values of past tokens. ";
    while (static_cast<int>(s.size()) < n_chars) s += base;
    s.resize(static_cast<std::size_t>(n_chars));
    return s;
}

request_params raw(std::string text, int max_tokens) {
    request_params p;
    p.text = std::move(text);
    p.max_tokens = max_tokens;
    return p;
}

// Where a request was when its cancel took effect, read from its own events.
enum class phase { queued, prefill, decode, finished };

// One request's events, checked as they arrive: nothing after `done`.
struct request_watch {
    std::mutex mu;
    int done_events = 0;
    int events_after_done = 0;
    int prefill_chunks = 0;
    int tokens = 0;
    finish_reason reason = finish_reason::stop;
    std::string error;

    void see(const event& ev) {
        std::lock_guard<std::mutex> lock(mu);
        if (done_events > 0) ++events_after_done;
        if (std::holds_alternative<event_prefill_chunk>(ev)) ++prefill_chunks;
        if (std::holds_alternative<event_token>(ev)) ++tokens;
        if (auto* d = std::get_if<event_done>(&ev)) {
            ++done_events;
            reason = d->reason;
            error = d->error;
        }
    }
    phase where() {
        std::lock_guard<std::mutex> lock(mu);
        if (reason != finish_reason::cancelled) return phase::finished;
        if (tokens > 0) return phase::decode;
        if (prefill_chunks > 0) return phase::prefill;
        return phase::queued;
    }
};

}  // namespace

TEST(EngineStress, aThousandCancelsAtRandomMomentsEachEndTheirRequestOnceAndGiveThePoolBack) {
    auto e = tiny_engine(3, 0, 16);
    const double baseline = e->kv_usage();
    std::mt19937 rng(20261201);
    std::map<phase, int> cancelled_in;
    int cancels = 0, rounds = 0;

    while (cancels < 1000) {
        ++rounds;
        const int n = 1 + static_cast<int>(rng() % 3);
        std::vector<std::unique_ptr<request_watch>> watches;
        std::vector<request_id> ids;
        std::vector<std::thread> cancellers;
        for (int k = 0; k < n; ++k) {
            auto w = std::make_unique<request_watch>();
            request_watch* wp = w.get();
            const int how = static_cast<int>(rng() % 4);   // 0 at once, 1 from a thread, 2 in the callback, 3 twice
            const int at_event = static_cast<int>(rng() % 40);
            const auto delay = std::chrono::microseconds(rng() % 3000);
            auto p = raw(text_of_chars(40 + static_cast<int>(rng() % 900), char('A' + rng() % 26)),
                         4 + static_cast<int>(rng() % 120));
            auto seen = std::make_shared<std::atomic<int>>(0);
            auto self = std::make_shared<std::atomic<request_id>>(0);
            engine* eng = e.get();
            const request_id id = e->submit(std::move(p), [wp, how, at_event, seen, self, eng](const event& ev) {
                wp->see(ev);
                // Cancelling from inside the engine's own callback must neither deadlock nor lose the done.
                if (how == 2 && seen->fetch_add(1) == at_event && self->load() != 0) eng->cancel(self->load());
            });
            self->store(id);
            ids.push_back(id);
            if (how == 0 || how == 3) e->cancel(id);
            if (how == 3) e->cancel(id);
            if (how == 1 || how == 3)
                cancellers.emplace_back([eng, id, delay] {
                    std::this_thread::sleep_for(delay);
                    eng->cancel(id);
                });
            watches.push_back(std::move(w));
            ++cancels;
        }
        for (auto& t : cancellers) t.join();
        e->wait_idle();
        e->cancel(ids.front());   // a finished request: harmless
        for (auto& w : watches) {
            ASSERT_EQ(w->done_events, 1) << "round " << rounds;
            ASSERT_EQ(w->events_after_done, 0) << "round " << rounds;
            ASSERT_NE(w->reason, finish_reason::error) << w->error;
            ++cancelled_in[w->where()];
        }
        ASSERT_DOUBLE_EQ(e->kv_usage(), baseline) << "round " << rounds;
    }
    e->cancel(987654321);   // an id the engine never gave: harmless
    // The random moments really covered every phase of a request.
    EXPECT_GE(cancelled_in[phase::queued], 50);
    EXPECT_GE(cancelled_in[phase::prefill], 50);
    EXPECT_GE(cancelled_in[phase::decode], 50);
    std::printf("%d cancels in %d rounds: %d while queued, %d in prefill, %d in decode, %d finished first\n",
                cancels, rounds, cancelled_in[phase::queued], cancelled_in[phase::prefill],
                cancelled_in[phase::decode], cancelled_in[phase::finished]);

    // And the engine still answers exactly as a fresh one does.
    auto fresh = tiny_engine(1, 0, 16);
    std::vector<std::int32_t> a, b;
    std::mutex mu;
    auto collect = [&mu](std::vector<std::int32_t>& out) {
        return [&mu, &out](const event& ev) {
            std::lock_guard<std::mutex> lock(mu);
            if (auto* t = std::get_if<event_token>(&ev)) out.push_back(t->id);
        };
    };
    e->submit(raw(text_of_chars(500, 'Q'), 40), collect(a));
    e->wait_idle();
    fresh->submit(raw(text_of_chars(500, 'Q'), 40), collect(b));
    fresh->wait_idle();
    EXPECT_EQ(a.size(), 40u);
    EXPECT_EQ(a, b);
}

TEST(EngineStress, eightRequestsInAPoolTooSmallForTwoOfThemAllFinishWithTheTextEachGivesAlone) {
    const int max_tokens = 400;
    auto alone = tiny_engine(1, 0, 64, 4096);
    std::vector<request_params> reqs;
    std::int64_t biggest = 0, smallest = 1 << 30;   // tokens a request can hold: prompt + max new
    for (int k = 0; k < 8; ++k) {
        auto p = raw(text_of_chars(1700 + 37 * k, char('a' + k)), max_tokens);
        const auto n = static_cast<std::int64_t>(alone->vocab().encode(p.text, true, false).size());
        biggest = std::max(biggest, n + max_tokens);
        smallest = std::min(smallest, n + max_tokens);
        reqs.push_back(std::move(p));
    }
    std::vector<std::vector<std::int32_t>> expected(reqs.size());
    std::mutex mu;
    for (std::size_t k = 0; k < reqs.size(); ++k) {
        alone->submit(reqs[k], [&mu, &expected, k](const event& ev) {
            std::lock_guard<std::mutex> lock(mu);
            if (auto* t = std::get_if<event_token>(&ev)) expected[k].push_back(t->id);
        });
        alone->wait_idle();
    }

    auto e = tiny_engine(8, 1, 64, 4096);   // 1 MiB of KV: 4,096 tokens of the tiny model
    const std::int64_t bytes_per_token = e->info().kv_bytes_per_token_f16;
    const std::int64_t pool_tokens = e->kv_pool_bytes() / bytes_per_token;
    // The premise: one request fits, no two do.
    ASSERT_LE(biggest, pool_tokens);
    ASSERT_GT(2 * smallest, pool_tokens) << "the prompts are too short to make the pool too small for two";

    std::vector<std::vector<std::int32_t>> got(reqs.size());
    std::vector<finish_reason> reasons(reqs.size(), finish_reason::error);
    std::vector<std::string> errors(reqs.size());
    for (std::size_t k = 0; k < reqs.size(); ++k)
        e->submit(reqs[k], [&mu, &got, &reasons, &errors, k](const event& ev) {
            std::lock_guard<std::mutex> lock(mu);
            if (auto* t = std::get_if<event_token>(&ev)) got[k].push_back(t->id);
            if (auto* d = std::get_if<event_done>(&ev)) {
                reasons[k] = d->reason;
                if (!d->error.empty()) errors[k] = d->error;
            }
        });
    e->wait_idle();
    for (std::size_t k = 0; k < reqs.size(); ++k) {
        SCOPED_TRACE(k);
        EXPECT_EQ(reasons[k], finish_reason::length) << errors[k];
        EXPECT_EQ(got[k], expected[k]);
    }
    EXPECT_DOUBLE_EQ(e->kv_usage(), 0.0);
}
