// SPDX-License-Identifier: Apache-2.0
// Speculative decoding by prompt lookup, as a user of the engine sees it: a
// summary of the sample report gets the same greedy tokens with drafts as
// without (f16 and q8_0 caches, alone and next to another request), in fewer
// decode steps; the figures count the drafts the way vLLM does; drafts never
// run past max_tokens; bad settings are errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/runtime/engine.h"
#include "tests/support/test_paths.h"

using namespace kvlens;

namespace {

struct run_log {
    std::vector<event_token> tokens;
    event_done done;
};

std::unique_ptr<engine> make_engine(kv_dtype dtype, int parallel = 1) {
    engine_options o;
    o.model_path = test::default_model().string();
    o.backend = "cpu";
    o.kv_type = dtype;
    o.parallel = parallel;
    o.n_ctx = 2048;
    auto e = engine::create(o);
    if (!e) ADD_FAILURE() << e.message();
    return e ? std::move(*e) : nullptr;
}

std::string sample_report() {
    std::ifstream in(test::source_root() / "resources" / "sample-report.txt");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

request_params summary_request(const std::string& report, int draft_tokens, int max_tokens = 96) {
    request_params p;
    p.chat = true;
    p.messages = {{"user", "Summarize this report in detail:\n\n" + report}};
    p.max_tokens = max_tokens;
    p.speculation.draft_tokens = draft_tokens;
    return p;
}

// Every request at once on one engine; each one's log.
std::vector<run_log> run_all(engine& e, const std::vector<request_params>& reqs) {
    std::mutex mu;
    std::vector<run_log> logs(reqs.size());
    for (std::size_t k = 0; k < reqs.size(); ++k)
        e.submit(reqs[k], [&mu, &logs, k](const event& ev) {
            std::lock_guard<std::mutex> lock(mu);
            if (auto* t = std::get_if<event_token>(&ev)) logs[k].tokens.push_back(*t);
            if (auto* d = std::get_if<event_done>(&ev)) logs[k].done = *d;
        });
    e.wait_idle();
    return logs;
}

std::vector<std::int32_t> ids_of(const run_log& log) {
    std::vector<std::int32_t> ids;
    for (const auto& t : log.tokens) ids.push_back(t.id);
    return ids;
}

}  // namespace

TEST(Speculative, greedyTextIsTheSameWithDraftsInFewerSteps) {
    if (!test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    const std::string report = sample_report();
    ASSERT_GT(report.size(), 1000u);
    for (kv_dtype dtype : {kv_dtype::f16, kv_dtype::q8_0}) {
        std::vector<std::int32_t> plain;
        for (int draft : {0, 4, 8}) {
            auto e = make_engine(dtype);   // a fresh engine each: no prefix cache between them
            ASSERT_TRUE(e);
            const run_log log = run_all(*e, {summary_request(report, draft)}).front();
            ASSERT_NE(log.done.reason, finish_reason::error) << log.done.error;
            const request_figures& f = log.done.figures;
            if (draft == 0) {
                plain = ids_of(log);
                ASSERT_GE(plain.size(), 32u);
                EXPECT_EQ(f.draft_steps, 0);
                EXPECT_EQ(f.mean_acceptance_length, 0.0);
                continue;
            }
            EXPECT_EQ(ids_of(log), plain) << to_string(dtype) << ", up to " << draft << " draft tokens per step";
            // The report's phrases come back in its summary: drafts were checked and some were taken.
            EXPECT_GT(f.draft_steps, 0);
            EXPECT_GT(f.accepted_tokens, 0);
            EXPECT_LE(f.accepted_tokens, f.draft_tokens);
            EXPECT_LE(f.draft_tokens, f.draft_steps * draft);
            // Each accepted draft token is a token without a step of its own.
            int drafted = 0;
            for (const auto& t : log.tokens) drafted += t.drafted ? 1 : 0;
            EXPECT_EQ(drafted, f.accepted_tokens);
            EXPECT_FALSE(log.tokens.front().drafted);
            EXPECT_DOUBLE_EQ(f.acceptance_rate, static_cast<double>(f.accepted_tokens) / f.draft_tokens);
            EXPECT_DOUBLE_EQ(f.mean_acceptance_length, 1.0 + static_cast<double>(f.accepted_tokens) / f.draft_steps);
        }
    }
}

TEST(Speculative, aSpeculatingRequestNextToAnotherGivesItsSoloText) {
    if (!test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    const std::string report = sample_report();
    auto solo_engine = make_engine(kv_dtype::f16);
    ASSERT_TRUE(solo_engine);
    const auto solo = ids_of(run_all(*solo_engine, {summary_request(report, 0, 64)}).front());
    request_params other;
    other.text = "Once upon a time";
    other.max_tokens = 64;
    auto e = make_engine(kv_dtype::f16, 2);
    ASSERT_TRUE(e);
    const auto logs = run_all(*e, {summary_request(report, 6, 64), other});
    EXPECT_EQ(ids_of(logs[0]), solo);
    EXPECT_GT(logs[0].done.figures.accepted_tokens, 0);
    EXPECT_EQ(logs[1].done.reason, finish_reason::length);
}

// The experiment in the window re-runs a request whose prompt is now in the
// prefix cache: the cached run must give the cold run's text for the
// comparison to mean anything. Prompts of several lengths leave every
// remainder after the cached blocks (the last two tokens are always computed).
TEST(Speculative, aPrefixCacheHitGivesTheColdRunsText) {
    if (!test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    const std::string report = sample_report();
    for (std::size_t cut : {900u, 917u, 1000u, 1203u}) {
        auto e = make_engine(kv_dtype::f16);
        ASSERT_TRUE(e);
        const request_params p = summary_request(report.substr(0, cut), 0, 48);
        const run_log cold = run_all(*e, {p}).front();
        const run_log warm = run_all(*e, {p}).front();
        EXPECT_EQ(cold.done.figures.cached_tokens, 0);
        EXPECT_GT(warm.done.figures.cached_tokens, 0);
        EXPECT_GE(warm.done.figures.computed_tokens, 2);
        EXPECT_EQ(ids_of(warm), ids_of(cold)) << "report cut at " << cut << " characters";
    }
}

// The same on Gemma 3, whose sliding-window layers drop the blocks behind
// their window of 512: a prompt of about 640 tokens, raw text (a base model).
TEST(Speculative, aPrefixCacheHitGivesTheColdRunsTextPastASlidingWindow) {
    const auto gemma = test::source_root() / "models/gemma-3-270m-q4_k_m.gguf";
    if (!std::filesystem::exists(gemma)) GTEST_SKIP() << "models/gemma-3-270m-q4_k_m.gguf not fetched";
    engine_options o;
    o.model_path = gemma.string();
    o.backend = "cpu";
    o.n_ctx = 2048;
    auto e = engine::create(o);
    ASSERT_TRUE(e) << e.message();
    request_params p;
    p.text = "Summarize this report in detail:\n\n" + sample_report() + "\n\nSummary:";
    p.max_tokens = 32;
    const run_log cold = run_all(**e, {p}).front();
    const run_log warm = run_all(**e, {p}).front();
    ASSERT_GT(cold.done.figures.prompt_tokens, 512);
    EXPECT_GT(warm.done.figures.cached_tokens, 512);
    EXPECT_EQ(ids_of(warm), ids_of(cold));
}

TEST(Speculative, draftsNeverRunPastMaxTokens) {
    if (!test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    const std::string report = sample_report();
    for (int max_tokens : {1, 2, 5, 9}) {
        auto e = make_engine(kv_dtype::f16);
        ASSERT_TRUE(e);
        const run_log log = run_all(*e, {summary_request(report, 8, max_tokens)}).front();
        // The summary runs longer than 9 tokens: each request stops at exactly its limit.
        EXPECT_EQ(static_cast<int>(log.tokens.size()), max_tokens);
        EXPECT_EQ(log.done.reason, finish_reason::length) << log.done.error;
    }
}

TEST(Speculative, badDraftSettingsAreErrorsNamingTheCause) {
    if (!test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    auto e = make_engine(kv_dtype::f16);
    ASSERT_TRUE(e);
    request_params too_many = summary_request("a short report", k_max_draft_tokens + 1, 8);
    request_params no_ngram = summary_request("a short report", 4, 8);
    no_ngram.speculation.ngram = 0;
    const auto logs = run_all(*e, {too_many, no_ngram});
    EXPECT_EQ(logs[0].done.reason, finish_reason::error);
    EXPECT_NE(logs[0].done.error.find("draft tokens per step must be 0 (off) to 8"), std::string::npos) << logs[0].done.error;
    EXPECT_EQ(logs[1].done.reason, finish_reason::error);
    EXPECT_NE(logs[1].done.error.find("n-gram must be at least 1"), std::string::npos) << logs[1].done.error;
}
