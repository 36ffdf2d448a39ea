// SPDX-License-Identifier: Apache-2.0
// FakeEngine: a stand-in for kvlens::engine in the window's tests. It runs
// requests one after another on its own thread and emits the same event
// sequence a real engine does (queued, started, prefill chunks, first token,
// tokens with KV sizes, done), sleeping a set time per chunk and per token so
// a test can watch a run in flight and cancel it mid-prefill or mid-decode.
// KV sizes follow the formula of a small made-up model; paged blocks of 16.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "engine/runtime/engine.h"

class QString;

namespace kvlens::ui {
class EngineWorker;
}

namespace kvlens::test {

struct FakeTiming {
    int promptTokens = 600;     // tokens of every prompt
    int chunk = 128;            // prefill chunk, tokens
    int chunkMs = 40;           // sleep per chunk, ms
    int generate = 40;          // tokens to generate (finish: length)
    int tokenMs = 15;           // sleep per token, ms
};

class FakeEngine : public kvlens::engine {
public:
    explicit FakeEngine(FakeTiming timing, kvlens::kv_mode mode = kvlens::kv_mode::paged);
    ~FakeEngine() override;

    const kvlens::model_info& info() const override { return info_; }
    const kvlens::tokenizer& vocab() const override;   // not available: tests set a token counter
    std::string backend_description() const override { return "fake (tests)"; }
    int context_length() const override { return 4096; }
    kvlens::request_id submit(kvlens::request_params params, kvlens::event_callback on_event) override;
    void cancel(kvlens::request_id id) override;
    void wait_idle() override;
    double kv_usage() const override { return 0.0; }
    std::int64_t kv_pool_bytes() const override { return 4096 * info_.kv_bytes_per_token_f16; }
    std::int64_t weight_bytes() const override { return info_.weight_bytes; }
    std::int64_t scratch_bytes() const override { return 3 << 20; }

    static kvlens::model_info makeInfo();

private:
    struct Job {
        kvlens::request_id id;
        kvlens::request_params params;
        kvlens::event_callback sink;
    };
    void loop();
    void run(Job& job);

    FakeTiming timing_;
    kvlens::kv_mode mode_;
    kvlens::model_info info_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Job> queue_;
    bool busy_ = false;
    bool stop_ = false;
    kvlens::request_id next_ = 1;
    std::atomic<kvlens::request_id> cancelled_{0};
    std::atomic<bool> cancelAll_{false};
    std::thread thread_;
};

// A window worker whose engine is a FakeEngine with `timing`, and whose
// token counters take about four characters a token, as for English text.
ui::EngineWorker* fakeWorker(FakeTiming timing);

// The files the window tests open, written at `path`; each returns whether
// it could be written.
// A three-page annual report of a few lines.
bool writeShortReport(const QString& path);
// Six pages of about 1,250 tokens each at fakeWorker's count: more than the
// fake model's context, so the window offers the largest range or map-reduce.
bool writeLongReport(const QString& path);
// A stand-in for a model file (the fake engine never reads it).
bool writeFakeModel(const QString& path);

}  // namespace kvlens::test
