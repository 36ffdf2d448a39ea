// SPDX-License-Identifier: Apache-2.0
// The engine runtime as a user of the API sees it: KV modes give the same
// greedy text, the prefix cache reuses a shared prefix, a full pool makes
// requests wait (never corrupts or drops them), cancel works at any moment and
// returns the pool, every token event's KV figures match the formula, and bad
// requests end in clear errors.
#include <QtTest>

#include <chrono>
#include <cmath>
#include <mutex>

#include "engine/runtime/engine.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/test_paths.h"
#include "tests/support/tiny_model.h"

using namespace kvlens;

namespace {

struct run_log {
    std::mutex mu;
    std::vector<event> events;
    std::vector<event_token> tokens;
    event_done done;
    int prefill_chunks = 0;
};

std::unique_ptr<engine> make_engine(const std::string& model, kv_mode mode = kv_mode::paged,
                                    kv_dtype dtype = kv_dtype::f16, int parallel = 1, std::int64_t budget_mib = 0,
                                    int chunk = 64) {
    engine_options o;
    o.model_path = model;
    o.backend = "cpu";
    o.kv = mode;
    o.kv_type = dtype;
    o.parallel = parallel;
    o.kv_budget_mib = budget_mib;
    o.chunk = chunk;
    o.n_ctx = 2048;
    auto e = engine::create(o);
    if (!e) qFatal("%s", e.message().c_str());
    return std::move(*e);
}

request_params raw(const std::string& text, int max_tokens) {
    request_params p;
    p.text = text;
    p.max_tokens = max_tokens;
    return p;
}

request_id submit(engine& e, const request_params& p, run_log& log) {
    return e.submit(p, [&log](const event& ev) {
        std::lock_guard<std::mutex> lock(log.mu);
        log.events.push_back(ev);
        if (auto* t = std::get_if<event_token>(&ev)) log.tokens.push_back(*t);
        if (std::get_if<event_prefill_chunk>(&ev)) ++log.prefill_chunks;
        if (auto* d = std::get_if<event_done>(&ev)) log.done = *d;
    });
}

std::vector<std::int32_t> ids_of(const run_log& log) {
    std::vector<std::int32_t> ids;
    for (const auto& t : log.tokens) ids.push_back(t.id);
    return ids;
}

std::vector<std::int32_t> generate(engine& e, const request_params& p) {
    run_log log;
    submit(e, p, log);
    e.wait_idle();
    return ids_of(log);
}

std::string long_text(int n_chars, char first = 'T') {
    std::string s(1, first);
    const std::string base = "he key-value cache keeps keys and values of past tokens. ";
    while (static_cast<int>(s.size()) < n_chars) s += base;
    s.resize(static_cast<std::size_t>(n_chars));
    return s;
}

}  // namespace

class TestEngine : public QObject {
    Q_OBJECT
    std::string tiny_;

private slots:
    void initTestCase() {
        tiny_ = test::tiny_model_path("Q4_1");
        QVERIFY(!tiny_.empty());
    }

    void eventsComeInOrderWithTheirFigures() {
        auto e = make_engine(tiny_);
        run_log log;
        const request_id id = submit(*e, raw(long_text(150), 12), log);
        e->wait_idle();
        QVERIFY(log.events.size() >= 5);
        QCOMPARE(std::string(event_name(log.events.front())), std::string("queued"));
        QCOMPARE(std::string(event_name(log.events[1])), std::string("started"));
        QCOMPARE(std::string(event_name(log.events.back())), std::string("done"));
        for (const auto& ev : log.events) QCOMPARE(event_request(ev), id);
        QCOMPARE(log.prefill_chunks, 3);   // 150 tokens in chunks of 64
        QCOMPARE(static_cast<int>(log.tokens.size()), 12);
        QCOMPARE(log.done.reason, finish_reason::length);
        const request_figures& f = log.done.figures;
        QCOMPARE(f.prompt_tokens, 150);
        QCOMPARE(f.computed_tokens, 150);
        QCOMPARE(f.generated_tokens, 12);
        QVERIFY(f.ttft_ms >= f.prefill_ms);
        QVERIFY(f.e2e_ms >= f.ttft_ms + f.decode_ms - 0.01);
        QVERIFY(f.prefill_tok_s > 0 && f.decode_tok_s > 0);
        QVERIFY(f.prefill_flop > 0 && f.decode_bytes > 0);
        QCOMPARE(log.tokens.front().latency_ms, f.ttft_ms);
    }

    void prefillChunksCarryTheRequestsKvFromTheFirstChunk_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("paged") << int(kv_mode::paged);
        QTest::newRow("static") << int(kv_mode::static_reserve);
    }
    void prefillChunksCarryTheRequestsKvFromTheFirstChunk() {
        QFETCH(int, mode);
        auto e = make_engine(tiny_, kv_mode(mode));
        run_log log;
        submit(*e, raw(long_text(150), 10), log);
        e->wait_idle();
        const model_info& i = e->info();
        const std::int64_t per_token = 2LL * i.n_layer * i.n_head_kv * i.head_dim * 2;   // f16
        const std::int64_t block_bytes = per_token * 16;
        std::vector<event_prefill_chunk> chunks;
        for (const auto& ev : log.events)
            if (auto* c = std::get_if<event_prefill_chunk>(&ev)) chunks.push_back(*c);
        QCOMPARE(static_cast<int>(chunks.size()), 3);   // 64 + 64 + 22 tokens
        for (const auto& c : chunks) {
            QCOMPARE(c.kv_tokens, std::int64_t(c.tokens_done));
            QCOMPARE(c.kv_bytes, c.tokens_done * per_token);
            QVERIFY(c.kv_allocated_bytes >= c.kv_bytes);
            QVERIFY(c.kv_allocated_bytes - c.kv_bytes < block_bytes);
            if (kv_mode(mode) == kv_mode::static_reserve)
                QCOMPARE(c.kv_reserved_bytes, (150 + 10 + 15) / 16 * block_bytes);
            else
                QCOMPARE(c.kv_reserved_bytes, c.kv_allocated_bytes);
        }
        QCOMPARE(chunks.front().kv_tokens, std::int64_t(64));
        // The first token event continues the same curve.
        QCOMPARE(log.tokens.front().kv_tokens, std::int64_t(150));
    }

    void kvOffReportsNoCacheAndTheTokensEachStepRecomputes() {
        auto e = make_engine(tiny_, kv_mode::off);
        run_log log;
        submit(*e, raw(long_text(100), 8), log);
        e->wait_idle();
        for (const auto& ev : log.events)
            if (auto* c = std::get_if<event_prefill_chunk>(&ev)) {
                QCOMPARE(c->kv_tokens, std::int64_t(0));
                QCOMPARE(c->kv_bytes + c->kv_allocated_bytes + c->kv_reserved_bytes, std::int64_t(0));
            }
        QCOMPARE(static_cast<int>(log.tokens.size()), 8);
        std::int64_t sum = 0;
        for (const auto& t : log.tokens) {
            QCOMPARE(t.kv_tokens, std::int64_t(0));
            QCOMPARE(t.kv_bytes + t.kv_allocated_bytes + t.kv_reserved_bytes, std::int64_t(0));
            // Token 0 comes from the prefill; token k recomputes the prompt and the k tokens before it.
            QCOMPARE(t.recomputed_tokens, t.index == 0 ? std::int64_t(0) : std::int64_t(100 + t.index));
            sum += t.recomputed_tokens;
        }
        QCOMPARE(log.done.figures.recomputed_tokens, sum);
        QCOMPARE(log.done.figures.kv_bytes_peak, std::int64_t(0));
        // With a cache nothing is recomputed.
        auto paged = make_engine(tiny_);
        run_log p;
        submit(*paged, raw(long_text(100), 8), p);
        paged->wait_idle();
        for (const auto& t : p.tokens) QCOMPARE(t.recomputed_tokens, std::int64_t(0));
    }

    void ttftSegmentsAreEachMeasuredAndAddUpToTtft() {
        // parallel 1: the second request waits in the queue while the first runs.
        // Prompts of 4,000 tokens, so that tokenizing takes well over the 0.1 ms
        // tolerance and a queue segment that held it would break the sum.
        engine_options o;
        o.model_path = tiny_;
        o.backend = "cpu";
        o.n_ctx = 8192;
        o.chunk = 512;
        auto made = engine::create(o);
        QVERIFY2(made.ok(), made.ok() ? "" : made.message().c_str());
        auto e = std::move(*made);
        const auto p1 = raw(long_text(4000, 'A'), 4);
        const auto p2 = raw(long_text(4000, 'B'), 4);
        run_log a, b;
        using clock = std::chrono::steady_clock;
        const auto t0 = clock::now();
        submit(*e, p1, a);
        const auto t1 = clock::now();
        submit(*e, p2, b);
        const auto t2 = clock::now();
        e->wait_idle();
        const double submit_a_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        const double submit_b_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
        for (run_log* log : {&a, &b}) {
            const request_figures& f = log->done.figures;
            QCOMPARE(log->done.reason, finish_reason::length);
            qInfo("tokenize %.3f queue %.3f prefill %.3f sample %.3f ttft %.3f", f.tokenize_ms, f.queue_ms, f.prefill_ms, f.first_sample_ms, f.ttft_ms);
            // Tokenizing 4,000 characters takes longer than the 0.1 ms tolerance, so
            // a queue segment that also held tokenize would break the sum below.
            QVERIFY2(f.tokenize_ms > 0.1, qPrintable(QString::number(f.tokenize_ms)));
            QVERIFY(f.queue_ms >= 0);
            QVERIFY(f.prefill_ms > 0);
            QVERIFY(f.first_sample_ms >= 0);
            const double sum = f.tokenize_ms + f.queue_ms + f.prefill_ms + f.first_sample_ms;
            QVERIFY2(std::abs(sum - f.ttft_ms) <= 0.1,
                     qPrintable(QString("%1 + %2 + %3 + %4 = %5, ttft %6").arg(f.tokenize_ms).arg(f.queue_ms)
                                    .arg(f.prefill_ms).arg(f.first_sample_ms).arg(sum).arg(f.ttft_ms)));
            // The prefill segment holds its chunks' forward passes.
            QVERIFY(f.prefill_ms >= f.prefill_forward_ms);
            QVERIFY(f.prefill_forward_ms > 0);
            // The events carry the same figures as soon as they are known.
            const auto& started = std::get<event_started>(log->events[1]);
            QCOMPARE(started.tokenize_ms, f.tokenize_ms);
            QCOMPARE(started.queue_ms, f.queue_ms);
            QCOMPARE(started.t_ms, f.tokenize_ms + f.queue_ms);
            const event_first_token* first = nullptr;
            for (const auto& ev : log->events)
                if (auto* x = std::get_if<event_first_token>(&ev)) first = x;
            QVERIFY(first != nullptr);
            QCOMPARE(first->ttft_ms, f.ttft_ms);
            QCOMPARE(first->prefill_ms, f.prefill_ms);
            QCOMPARE(first->first_sample_ms, f.first_sample_ms);
        }
        // Tokenizing happens inside submit(), so it cannot take longer than the call.
        QVERIFY(a.done.figures.tokenize_ms <= submit_a_ms);
        QVERIFY(b.done.figures.tokenize_ms <= submit_b_ms);
        // The second request queued behind the whole first one.
        QVERIFY2(b.done.figures.queue_ms >= a.done.figures.e2e_ms - submit_a_ms - submit_b_ms,
                 qPrintable(QString("queue %1, first e2e %2").arg(b.done.figures.queue_ms).arg(a.done.figures.e2e_ms)));
    }

    void kvBytesMatchTheFormulaAtEveryToken_data() {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("dtype");
        QTest::newRow("paged f16") << int(kv_mode::paged) << int(kv_dtype::f16);
        QTest::newRow("paged q8_0") << int(kv_mode::paged) << int(kv_dtype::q8_0);
        QTest::newRow("static f16") << int(kv_mode::static_reserve) << int(kv_dtype::f16);
    }
    void kvBytesMatchTheFormulaAtEveryToken() {
        QFETCH(int, mode);
        QFETCH(int, dtype);
        auto e = make_engine(tiny_, kv_mode(mode), kv_dtype(dtype));
        run_log log;
        submit(*e, raw(long_text(40), 30), log);
        e->wait_idle();
        const model_info& i = e->info();
        // 2 (K and V) x layers x kv heads x head_dim x bytes per element; q8_0: 34 bytes per 32.
        const std::int64_t per_token = kv_dtype(dtype) == kv_dtype::f16 ? 2LL * i.n_layer * i.n_head_kv * i.head_dim * 2
                                                                          : 2LL * i.n_layer * i.n_head_kv * i.head_dim / 32 * 34;
        const std::int64_t block_bytes = per_token * 16;
        QCOMPARE(static_cast<int>(log.tokens.size()), 30);
        for (const auto& t : log.tokens) {
            QCOMPARE(t.kv_bytes, t.kv_tokens * per_token);
            QCOMPARE(t.kv_tokens, 40 + t.index);
            QVERIFY(t.kv_allocated_bytes >= t.kv_bytes);
            QVERIFY(t.kv_allocated_bytes - t.kv_bytes < block_bytes);
            if (kv_mode(mode) == kv_mode::static_reserve)
                QCOMPARE(t.kv_reserved_bytes, (40 + 30 + 15) / 16 * block_bytes);   // prompt + max_new, from the start
            else
                QCOMPARE(t.kv_reserved_bytes, t.kv_allocated_bytes);
        }
    }

    void kvModesGiveTheSameGreedyText() {
        const auto p = raw(long_text(100), 24);
        auto paged = make_engine(tiny_, kv_mode::paged);
        auto fixed = make_engine(tiny_, kv_mode::static_reserve);
        auto off = make_engine(tiny_, kv_mode::off);
        const auto a = generate(*paged, p);
        QCOMPARE(static_cast<int>(a.size()), 24);
        QCOMPARE(generate(*fixed, p), a);
        QCOMPARE(generate(*off, p), a);
    }

    void kvModesAgreeOnTheDefaultModel() {
        if (!test::have_default_model()) QSKIP("default model not fetched (scripts/fetch-model)");
        request_params p;
        p.chat = true;
        p.messages = {{"user", "Explain in two sentences what a KV cache is."}};
        p.max_tokens = 64;
        auto paged = make_engine(test::default_model().string(), kv_mode::paged);
        const auto a = generate(*paged, p);
        QVERIFY(a.size() >= 16);
        auto fixed = make_engine(test::default_model().string(), kv_mode::static_reserve);
        QCOMPARE(generate(*fixed, p), a);
        // q8_0 against f16 step by step on the same inputs: tests/model/test_forward.
    }

    void sharedPrefixIsReusedAndADifferentStartIsNot() {
        auto e = make_engine(tiny_);
        const std::string doc = long_text(1000);
        run_log first, second, third;
        submit(*e, raw(doc + " Summary:", 4), first);
        e->wait_idle();
        QCOMPARE(first.done.figures.cached_tokens, 0);
        submit(*e, raw(doc + " Question: why?", 4), second);
        e->wait_idle();
        QVERIFY2(second.done.figures.cached_tokens >= 992, qPrintable(QString::number(second.done.figures.cached_tokens)));
        QCOMPARE(second.done.figures.computed_tokens, second.done.figures.prompt_tokens - second.done.figures.cached_tokens);
        submit(*e, raw(long_text(1000, 'X') + " Summary:", 4), third);
        e->wait_idle();
        QCOMPARE(third.done.figures.cached_tokens, 0);
    }

    void moreRequestsThanThePoolHoldsAllFinishWithTheirOwnText() {
        // A pool of 1 MiB holds 2048 tokens of the tiny model at 512 bytes each: about 5 of these at once.
        std::vector<request_params> reqs;
        for (int k = 0; k < 8; ++k) reqs.push_back(raw(long_text(300 + 10 * k, char('A' + k)), 80));
        auto alone = make_engine(tiny_);
        std::vector<std::vector<std::int32_t>> expected;
        for (const auto& r : reqs) expected.push_back(generate(*alone, r));

        auto e = make_engine(tiny_, kv_mode::paged, kv_dtype::f16, 8, 1);
        std::vector<run_log> logs(reqs.size());
        for (std::size_t k = 0; k < reqs.size(); ++k) submit(*e, reqs[k], logs[k]);
        e->wait_idle();
        for (std::size_t k = 0; k < reqs.size(); ++k) {
            QCOMPARE(logs[k].done.reason, finish_reason::length);
            QCOMPARE(ids_of(logs[k]), expected[k]);
        }
        QCOMPARE(e->kv_usage(), 0.0);
    }

    void cancelDuringPrefillAndDecodeReturnsThePool_data() {
        QTest::addColumn<bool>("during_prefill");
        QTest::newRow("prefill") << true;
        QTest::newRow("decode") << false;
    }
    void cancelDuringPrefillAndDecodeReturnsThePool() {
        QFETCH(bool, during_prefill);
        auto e = make_engine(tiny_, kv_mode::paged, kv_dtype::f16, 1, 0, 8);
        const double before = e->kv_usage();
        std::mutex mu;
        std::condition_variable cv;
        bool reached = false;
        run_log log;
        request_id id = 0;
        id = e->submit(raw(long_text(1500), 1500), [&](const kvlens::event& ev) {
            std::lock_guard<std::mutex> lock(mu);
            if (auto* d = std::get_if<event_done>(&ev)) log.done = *d;
            const bool hit = during_prefill ? std::holds_alternative<event_prefill_chunk>(ev)
                                            : std::holds_alternative<event_token>(ev) && std::get<event_token>(ev).index == 5;
            if (hit && !reached) {
                reached = true;
                cv.notify_all();
            }
            if (std::holds_alternative<event_token>(ev)) log.tokens.push_back(std::get<event_token>(ev));
        });
        {
            std::unique_lock<std::mutex> lock(mu);
            cv.wait(lock, [&] { return reached; });
        }
        e->cancel(id);
        e->wait_idle();
        QCOMPARE(log.done.reason, finish_reason::cancelled);
        if (during_prefill) QVERIFY(log.tokens.empty());
        else QVERIFY(log.tokens.size() < 1500);
        QCOMPARE(e->kv_usage(), before);
    }

    void promptLongerThanTheContextIsAnErrorBeforeAnyCompute() {
        auto e = make_engine(tiny_);
        run_log log;
        submit(*e, raw(long_text(2100), 10), log);
        e->wait_idle();
        QCOMPARE(log.done.reason, finish_reason::error);
        QVERIFY(QString::fromStdString(log.done.error).contains("does not fit the context of 2048"));
        QCOMPARE(log.prefill_chunks, 0);
    }

    void emptyPromptAndBadOptionsAreErrors() {
        auto e = make_engine(tiny_);
        run_log log;
        submit(*e, raw("", 10), log);
        e->wait_idle();
        QCOMPARE(log.done.reason, finish_reason::error);
        QVERIFY(QString::fromStdString(log.done.error).contains("empty"));
        engine_options o;
        o.model_path = "/nonexistent.gguf";
        QVERIFY(!engine::create(o).ok());
        o.model_path = tiny_;
        o.backend = "tpu";
        auto bad = engine::create(o);
        QVERIFY(!bad.ok());
        QVERIFY(QString::fromStdString(bad.message()).contains("unknown backend"));
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
