// SPDX-License-Identifier: Apache-2.0
// The engine runtime as a user of the API sees it: KV modes give the same
// greedy text, the prefix cache reuses a shared prefix, a full pool makes
// requests wait (never corrupts or drops them), cancel works at any moment and
// returns the pool, every token event's KV figures match the formula, and bad
// requests end in clear errors.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/metrics/event_json.h"
#include "engine/model/synth_model.h"
#include "engine/runtime/engine.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/temp_dir.h"
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
    if (!e) throw std::runtime_error(e.message());   // the test fails with it
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

// The tiny model, written once per run.
const std::string& tiny_model() {
    static const std::string path = test::tiny_model_path("Q4_1");
    return path;
}

}  // namespace

TEST(Engine, tinyModelIsWritten) {
ASSERT_TRUE(!tiny_model().empty());
}

TEST(Engine, eventsComeInOrderWithTheirFigures) {
    auto e = make_engine(tiny_model());
    run_log log;
    const request_id id = submit(*e, raw(long_text(150), 12), log);
    e->wait_idle();
    ASSERT_TRUE(log.events.size() >= 5);
    ASSERT_EQ(std::string(event_name(log.events.front())), std::string("queued"));
    ASSERT_EQ(std::string(event_name(log.events[1])), std::string("started"));
    ASSERT_EQ(std::string(event_name(log.events.back())), std::string("done"));
    for (const auto& ev : log.events) ASSERT_EQ(event_request(ev), id);
    ASSERT_EQ(log.prefill_chunks, 3);   // 150 tokens in chunks of 64
    ASSERT_EQ(static_cast<int>(log.tokens.size()), 12);
    ASSERT_EQ(log.done.reason, finish_reason::length);
    const request_figures& f = log.done.figures;
    ASSERT_EQ(f.prompt_tokens, 150);
    ASSERT_EQ(f.computed_tokens, 150);
    ASSERT_EQ(f.generated_tokens, 12);
    ASSERT_TRUE(f.ttft_ms >= f.prefill_ms);
    ASSERT_TRUE(f.e2e_ms >= f.ttft_ms + f.decode_ms - 0.01);
    ASSERT_TRUE(f.prefill_tok_s > 0 && f.decode_tok_s > 0);
    ASSERT_TRUE(f.prefill_flop > 0 && f.decode_bytes > 0);
    // The roofline's other halves: a prefill reads bytes, a decode step does FLOPs,
    // and the prefill's arithmetic intensity is far above the decode's.
    ASSERT_TRUE(f.prefill_bytes > 0 && f.decode_flop > 0);
    ASSERT_GT(f.prefill_flop / f.prefill_bytes, f.decode_flop / f.decode_bytes);
    ASSERT_DOUBLE_EQ(log.tokens.front().latency_ms, f.ttft_ms);
}

TEST(Engine, prefillChunksCarryTheRequestsKvFromTheFirstChunk) {
    for (kv_mode mode : {kv_mode::paged, kv_mode::static_reserve}) {
        SCOPED_TRACE(to_string(mode));
        auto e = make_engine(tiny_model(), mode);
        run_log log;
        submit(*e, raw(long_text(150), 10), log);
        e->wait_idle();
        const model_info& i = e->info();
        const std::int64_t per_token = 2LL * i.n_layer * i.n_head_kv * i.head_dim * 2;   // f16
        const std::int64_t block_bytes = per_token * 16;
        std::vector<event_prefill_chunk> chunks;
        for (const auto& ev : log.events)
            if (auto* c = std::get_if<event_prefill_chunk>(&ev)) chunks.push_back(*c);
        ASSERT_EQ(static_cast<int>(chunks.size()), 3);   // 64 + 64 + 22 tokens
        for (const auto& c : chunks) {
            ASSERT_EQ(c.kv_tokens, std::int64_t(c.tokens_done));
            ASSERT_EQ(c.kv_bytes, c.tokens_done * per_token);
            ASSERT_TRUE(c.kv_allocated_bytes >= c.kv_bytes);
            ASSERT_TRUE(c.kv_allocated_bytes - c.kv_bytes < block_bytes);
            if (mode == kv_mode::static_reserve)
                ASSERT_EQ(c.kv_reserved_bytes, (150 + 10 + 15) / 16 * block_bytes);
            else
                ASSERT_EQ(c.kv_reserved_bytes, c.kv_allocated_bytes);
        }
        ASSERT_EQ(chunks.front().kv_tokens, std::int64_t(64));
        // The first token event continues the same curve.
        ASSERT_EQ(log.tokens.front().kv_tokens, std::int64_t(150));
    }
}

TEST(Engine, kvOffReportsNoCacheAndTheTokensEachStepRecomputes) {
    auto e = make_engine(tiny_model(), kv_mode::off);
    run_log log;
    submit(*e, raw(long_text(100), 8), log);
    e->wait_idle();
    for (const auto& ev : log.events)
        if (auto* c = std::get_if<event_prefill_chunk>(&ev)) {
            ASSERT_EQ(c->kv_tokens, std::int64_t(0));
            ASSERT_EQ(c->kv_bytes + c->kv_allocated_bytes + c->kv_reserved_bytes, std::int64_t(0));
        }
    ASSERT_EQ(static_cast<int>(log.tokens.size()), 8);
    std::int64_t sum = 0;
    for (const auto& t : log.tokens) {
        ASSERT_EQ(t.kv_tokens, std::int64_t(0));
        ASSERT_EQ(t.kv_bytes + t.kv_allocated_bytes + t.kv_reserved_bytes, std::int64_t(0));
        // Token 0 comes from the prefill; token k recomputes the prompt and the k tokens before it.
        ASSERT_EQ(t.recomputed_tokens, t.index == 0 ? std::int64_t(0) : std::int64_t(100 + t.index));
        sum += t.recomputed_tokens;
    }
    ASSERT_EQ(log.done.figures.recomputed_tokens, sum);
    ASSERT_EQ(log.done.figures.kv_bytes_peak, std::int64_t(0));
    // With a cache nothing is recomputed.
    auto paged = make_engine(tiny_model());
    run_log p;
    submit(*paged, raw(long_text(100), 8), p);
    paged->wait_idle();
    for (const auto& t : p.tokens) ASSERT_EQ(t.recomputed_tokens, std::int64_t(0));
}

TEST(Engine, ttftSegmentsAreEachMeasuredAndAddUpToTtft) {
    // parallel 1: the second request waits in the queue while the first runs.
    // Prompts of 4,000 characters, so that tokenizing takes well over the sum's
    // 1 us tolerance (the segments are differences of shared time stamps, so
    // they add up exactly but for rounding) and a queue segment that held it
    // would break the sum.
    engine_options o;
    o.model_path = tiny_model();
    o.backend = "cpu";
    o.n_ctx = 8192;
    o.chunk = 512;
    auto made = engine::create(o);
    ASSERT_TRUE(made.ok()) << (made.ok() ? "" : made.message().c_str());
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
        ASSERT_EQ(log->done.reason, finish_reason::length);
        std::printf("tokenize %.3f queue %.3f prefill %.3f sample %.3f ttft %.3f ms\n", f.tokenize_ms, f.queue_ms,
                    f.prefill_ms, f.first_sample_ms, f.ttft_ms);
        // Tokenizing 4,000 characters takes longer than 10x the 1 us tolerance
        // (70 us on a fast Xeon), so a queue segment that also held tokenize
        // would break the sum below.
        ASSERT_TRUE(f.tokenize_ms > 0.01) << f.tokenize_ms;
        ASSERT_TRUE(f.queue_ms >= 0);
        ASSERT_TRUE(f.prefill_ms > 0);
        ASSERT_TRUE(f.first_sample_ms >= 0);
        const double sum = f.tokenize_ms + f.queue_ms + f.prefill_ms + f.first_sample_ms;
        ASSERT_TRUE(std::abs(sum - f.ttft_ms) <= 0.001)
            << f.tokenize_ms << " + " << f.queue_ms << " + " << f.prefill_ms << " + " << f.first_sample_ms << " = " << sum
            << ", ttft " << f.ttft_ms;
        // The prefill segment holds its chunks' forward passes.
        ASSERT_TRUE(f.prefill_ms >= f.prefill_forward_ms);
        ASSERT_TRUE(f.prefill_forward_ms > 0);
        // The events carry the same figures as soon as they are known.
        const auto& started = std::get<event_started>(log->events[1]);
        ASSERT_DOUBLE_EQ(started.tokenize_ms, f.tokenize_ms);
        ASSERT_DOUBLE_EQ(started.queue_ms, f.queue_ms);
        ASSERT_DOUBLE_EQ(started.t_ms, f.tokenize_ms + f.queue_ms);
        const event_first_token* first = nullptr;
        for (const auto& ev : log->events)
            if (auto* x = std::get_if<event_first_token>(&ev)) first = x;
        ASSERT_TRUE(first != nullptr);
        ASSERT_DOUBLE_EQ(first->ttft_ms, f.ttft_ms);
        ASSERT_DOUBLE_EQ(first->prefill_ms, f.prefill_ms);
        ASSERT_DOUBLE_EQ(first->first_sample_ms, f.first_sample_ms);
    }
    // Tokenizing happens inside submit(), so it cannot take longer than the call.
    ASSERT_TRUE(a.done.figures.tokenize_ms <= submit_a_ms);
    ASSERT_TRUE(b.done.figures.tokenize_ms <= submit_b_ms);
    // The second request queued behind the whole first one.
    ASSERT_TRUE(b.done.figures.queue_ms >= a.done.figures.e2e_ms - submit_a_ms - submit_b_ms) << "queue " << b.done.figures.queue_ms << ", first e2e " << a.done.figures.e2e_ms;
}

TEST(Engine, kvBytesMatchTheFormulaAtEveryToken) {
    const std::pair<kv_mode, kv_dtype> cases[] = {
    {kv_mode::paged, kv_dtype::f16}, {kv_mode::paged, kv_dtype::q8_0}, {kv_mode::static_reserve, kv_dtype::f16}};
    for (const auto& [mode, dtype] : cases) {
        SCOPED_TRACE(std::string(to_string(mode)) + " " + to_string(dtype));
        auto e = make_engine(tiny_model(), mode, dtype);
        run_log log;
        submit(*e, raw(long_text(40), 30), log);
        e->wait_idle();
        const model_info& i = e->info();
        // 2 (K and V) x layers x kv heads x head_dim x bytes per element; q8_0: 34 bytes per 32.
        const std::int64_t per_token = dtype == kv_dtype::f16 ? 2LL * i.n_layer * i.n_head_kv * i.head_dim * 2
                                                                          : 2LL * i.n_layer * i.n_head_kv * i.head_dim / 32 * 34;
        const std::int64_t block_bytes = per_token * 16;
        ASSERT_EQ(static_cast<int>(log.tokens.size()), 30);
        for (const auto& t : log.tokens) {
            ASSERT_EQ(t.kv_bytes, t.kv_tokens * per_token);
            ASSERT_EQ(t.kv_tokens, 40 + t.index);
            ASSERT_TRUE(t.kv_allocated_bytes >= t.kv_bytes);
            ASSERT_TRUE(t.kv_allocated_bytes - t.kv_bytes < block_bytes);
            if (mode == kv_mode::static_reserve)
                ASSERT_EQ(t.kv_reserved_bytes, (40 + 30 + 15) / 16 * block_bytes);   // prompt + max_new, from the start
            else
                ASSERT_EQ(t.kv_reserved_bytes, t.kv_allocated_bytes);
        }
    }
}

// The per-group KV split (issue 12): all zero for a model without local
// layers, and left out of its JSON lines, so those stay as they were.
TEST(Engine, aModelWithoutLocalLayersReportsNoLayerGroups) {
    auto e = make_engine(tiny_model());
    EXPECT_EQ(e->layer_groups().n_local_layers, 0);
    EXPECT_EQ(e->hidden_reasoning(), reasoning_evidence::none);
    run_log log;
    submit(*e, raw(long_text(100), 4), log);
    e->wait_idle();
    ASSERT_FALSE(log.tokens.empty());
    for (const auto& ev : log.events) {
        if (const auto* t = std::get_if<event_token>(&ev)) EXPECT_FALSE(t->kv_group.any());
        if (const auto* c = std::get_if<event_prefill_chunk>(&ev)) EXPECT_FALSE(c->kv_group.any());
        EXPECT_EQ(event_to_json_line(ev).find("kv_local"), std::string::npos);
    }
}

// Gemma 3 270M: 15 local layers (window 512) and 3 global; every event's
// groups add up to its totals, local capped at the window, and the JSON line
// carries them.
TEST(Engine, gemma3EventsSplitTheKvByLayerGroup) {
    const auto gemma = test::source_root() / "models/gemma-3-270m-q4_k_m.gguf";
    if (!std::filesystem::exists(gemma)) GTEST_SKIP() << "no models/gemma-3-270m-q4_k_m.gguf (scripts/fetch-model)";
    auto e = make_engine(gemma.string(), kv_mode::paged, kv_dtype::f16, 1, 0, 256);
    const kv_layer_groups g = e->layer_groups();
    EXPECT_EQ(g.n_local_layers, 15);
    EXPECT_EQ(g.n_global_layers, 3);
    EXPECT_EQ(g.window, 512);
    EXPECT_EQ(g.local_bytes_per_token, 2 * 15 * 256 * 2);
    EXPECT_EQ(g.global_bytes_per_token, 2 * 3 * 256 * 2);
    EXPECT_FALSE(e->has_chat_template());
    run_log log;
    submit(*e, raw(long_text(2600), 3), log);
    e->wait_idle();
    ASSERT_EQ(log.done.reason, finish_reason::length) << log.done.error;
    ASSERT_GT(log.done.figures.prompt_tokens, 512);
    int checked = 0;
    for (const auto& ev : log.events) {
        const auto* t = std::get_if<event_token>(&ev);
        const auto* c = std::get_if<event_prefill_chunk>(&ev);
        if (!t && !c) continue;
        const kv_groups& kg = t ? t->kv_group : c->kv_group;
        const std::int64_t tokens = t ? t->kv_tokens : c->kv_tokens;
        EXPECT_EQ(kg.local_bytes + kg.global_bytes, t ? t->kv_bytes : c->kv_bytes);
        EXPECT_EQ(kg.local_allocated_bytes + kg.global_allocated_bytes,
                  t ? t->kv_allocated_bytes : c->kv_allocated_bytes);
        EXPECT_EQ(kg.local_tokens, std::min<std::int64_t>(tokens, 512));
        EXPECT_EQ(kg.global_tokens, tokens);
        EXPECT_EQ(kg.local_bytes, kg.local_tokens * g.local_bytes_per_token);
        EXPECT_EQ(kg.global_bytes, tokens * g.global_bytes_per_token);
        EXPECT_NE(event_to_json_line(ev).find("\"kv_local_bytes\":" + std::to_string(kg.local_bytes)), std::string::npos);
        ++checked;
    }
    EXPECT_GT(checked, 3);
}

TEST(Engine, kvModesGiveTheSameGreedyText) {
    const auto p = raw(long_text(100), 24);
    auto paged = make_engine(tiny_model(), kv_mode::paged);
    auto fixed = make_engine(tiny_model(), kv_mode::static_reserve);
    auto off = make_engine(tiny_model(), kv_mode::off);
    const auto a = generate(*paged, p);
    ASSERT_EQ(static_cast<int>(a.size()), 24);
    ASSERT_EQ(generate(*fixed, p), a);
    ASSERT_EQ(generate(*off, p), a);
}

TEST(Engine, kvModesAgreeOnTheDefaultModel) {
    if (!test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    request_params p;
    p.chat = true;
    p.messages = {{"user", "Explain in two sentences what a KV cache is."}};
    p.max_tokens = 64;
    auto paged = make_engine(test::default_model().string(), kv_mode::paged);
    const auto a = generate(*paged, p);
    ASSERT_TRUE(a.size() >= 16);
    auto fixed = make_engine(test::default_model().string(), kv_mode::static_reserve);
    ASSERT_EQ(generate(*fixed, p), a);
    // q8_0 against f16 step by step on the same inputs: tests/model/test_forward.
}

TEST(Engine, sharedPrefixIsReusedAndADifferentStartIsNot) {
    auto e = make_engine(tiny_model());
    const std::string doc = long_text(1000);
    run_log first, second, third;
    submit(*e, raw(doc + " Summary:", 4), first);
    e->wait_idle();
    ASSERT_EQ(first.done.figures.cached_tokens, 0);
    submit(*e, raw(doc + " Question: why?", 4), second);
    e->wait_idle();
    ASSERT_TRUE(second.done.figures.cached_tokens >= 992) << second.done.figures.cached_tokens;
    ASSERT_EQ(second.done.figures.computed_tokens, second.done.figures.prompt_tokens - second.done.figures.cached_tokens);
    submit(*e, raw(long_text(1000, 'X') + " Summary:", 4), third);
    e->wait_idle();
    ASSERT_EQ(third.done.figures.cached_tokens, 0);
}

TEST(Engine, moreRequestsThanThePoolHoldsAllFinishWithTheirOwnText) {
    // A pool of 1 MiB holds 2048 tokens of the tiny model at 512 bytes each: about 5 of these at once.
    std::vector<request_params> reqs;
    for (int k = 0; k < 8; ++k) reqs.push_back(raw(long_text(300 + 10 * k, char('A' + k)), 80));
    auto alone = make_engine(tiny_model());
    std::vector<std::vector<std::int32_t>> expected;
    for (const auto& r : reqs) expected.push_back(generate(*alone, r));

    auto e = make_engine(tiny_model(), kv_mode::paged, kv_dtype::f16, 8, 1);
    std::vector<run_log> logs(reqs.size());
    for (std::size_t k = 0; k < reqs.size(); ++k) submit(*e, reqs[k], logs[k]);
    e->wait_idle();
    for (std::size_t k = 0; k < reqs.size(); ++k) {
        ASSERT_EQ(logs[k].done.reason, finish_reason::length);
        ASSERT_EQ(ids_of(logs[k]), expected[k]);
    }
    ASSERT_DOUBLE_EQ(e->kv_usage(), 0.0);
}

TEST(Engine, cancelDuringPrefillAndDecodeReturnsThePool) {
    for (bool during_prefill : {true, false}) {
        SCOPED_TRACE(during_prefill ? "prefill" : "decode");
        auto e = make_engine(tiny_model(), kv_mode::paged, kv_dtype::f16, 1, 0, 8);
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
        ASSERT_EQ(log.done.reason, finish_reason::cancelled);
        if (during_prefill) ASSERT_TRUE(log.tokens.empty());
        else ASSERT_TRUE(log.tokens.size() < 1500);
        ASSERT_DOUBLE_EQ(e->kv_usage(), before);
    }
}

TEST(Engine, promptLongerThanTheContextIsAnErrorBeforeAnyCompute) {
    auto e = make_engine(tiny_model());
    run_log log;
    submit(*e, raw(long_text(2100), 10), log);
    e->wait_idle();
    ASSERT_EQ(log.done.reason, finish_reason::error);
    ASSERT_TRUE((std::string(log.done.error).find("does not fit the context of 2048") != std::string::npos));
    ASSERT_EQ(log.prefill_chunks, 0);
}

// A file whose weights overflow f32 (here every MXFP4 block's exponent byte
// set to 255: 2^127 times levels up to 6) gives NaN logits. The request ends
// with an error saying so, instead of tokens picked from NaNs.
TEST(Engine, nonFiniteLogitsEndTheRequestWithAnErrorNamingThem) {
    const auto path = std::filesystem::temp_directory_path() / ("kvlens-overflowing-" + std::to_string(::getpid()) + ".gguf");
    test::removed_at_exit(path);
    auto shape = synth_shape_named("tiny");
    ASSERT_TRUE(shape.ok());
    ASSERT_TRUE(write_synth_model(*shape, ggml_type::mxfp4, path.string(), 42).ok());
    std::vector<std::uint8_t> bytes;
    {
        std::ifstream in(path, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    auto f = gguf_file::open(path.string());
    ASSERT_TRUE(f.ok()) << f.message();
    int patched = 0;
    for (const gguf_tensor& t : (*f)->tensors()) {
        if (t.type != ggml_type::mxfp4) continue;
        // The tensor's place in the file: where its bytes are.
        const auto at = std::search(bytes.begin(), bytes.end(), t.data, t.data + t.n_bytes);
        ASSERT_NE(at, bytes.end());
        for (std::int64_t b = 0; b < t.n_bytes / 17; ++b) *(at + 17 * b) = 255;
        ++patched;
    }
    f = result<std::shared_ptr<gguf_file>>(make_error("closed"));
    ASSERT_GT(patched, 0);
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    auto e = make_engine(path.string());
    run_log log;
    submit(*e, raw("hello", 4), log);
    e->wait_idle();
    ASSERT_EQ(log.done.reason, finish_reason::error);
    EXPECT_NE(log.done.error.find("logits after 5 tokens are not finite"), std::string::npos) << log.done.error;
    EXPECT_TRUE(log.tokens.empty());
}

TEST(Engine, emptyPromptAndBadOptionsAreErrors) {
    auto e = make_engine(tiny_model());
    run_log log;
    submit(*e, raw("", 10), log);
    e->wait_idle();
    ASSERT_EQ(log.done.reason, finish_reason::error);
    ASSERT_TRUE((std::string(log.done.error).find("empty") != std::string::npos));
    engine_options o;
    o.model_path = "/nonexistent.gguf";
    ASSERT_TRUE(!engine::create(o).ok());
    o.model_path = tiny_model();
    o.backend = "tpu";
    auto bad = engine::create(o);
    ASSERT_TRUE(!bad.ok());
    ASSERT_TRUE((std::string(bad.message()).find("unknown backend") != std::string::npos));
}

// GPT-2's positions are a learned table: a context past its rows is refused
// when the engine is made, naming the count, and the default context is the
// table's; a prompt that reaches its end is an error before any compute.
TEST(Engine, learnedPositionsBoundTheContext) {
    const auto path = std::filesystem::temp_directory_path() / ("kvlens-gpt2-" + std::to_string(::getpid()) + ".gguf");
    test::removed_at_exit(path);
    auto shape = synth_shape_named("check-gpt2");
    ASSERT_TRUE(shape.ok());
    ASSERT_TRUE(write_synth_model(*shape, ggml_type::q8_0, path.string(), 42).ok());
    engine_options o;
    o.model_path = path.string();
    o.backend = "cpu";
    o.n_ctx = 512;
    auto refused = engine::create(o);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("the model has learned 256 positions"), std::string::npos) << refused.message();
    o.n_ctx = 0;   // the model's: its table's 256 rows
    auto made = engine::create(o);
    ASSERT_TRUE(made.ok()) << made.message();
    engine* e = made->get();
    run_log log;
    submit(*e, raw(long_text(300), 4), log);
    e->wait_idle();
    ASSERT_EQ(log.done.reason, finish_reason::error);
    EXPECT_NE(log.done.error.find("does not fit the context of 256"), std::string::npos) << log.done.error;
    ASSERT_EQ(log.prefill_chunks, 0);
    run_log ok;
    submit(*e, raw("hello", 4), ok);
    e->wait_idle();
    EXPECT_EQ(ok.done.reason, finish_reason::length) << ok.done.error;
    EXPECT_EQ(ok.tokens.size(), 4u);
}
