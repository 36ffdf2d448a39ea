// SPDX-License-Identifier: Apache-2.0
// FakeEngine: timed synthetic event sequences. It records the moments of each
// request in a request_timeline and takes every figure from figures_of(), as
// the engine does, so the tests see the figures the one formula gives.
#include "fake_engine.h"

#include <chrono>

#include <QFile>
#include <QString>
#include <QVector>
#include <string_view>

#include "engine/metrics/request_figures.h"
#include "tests/support/event_fixtures.h"
#include "ui/engine/engine_worker.h"

namespace kvlens::test {

namespace {
using clock_type = std::chrono::steady_clock;
double msSince(clock_type::time_point t0)
{
    return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}
}  // namespace

kvlens::model_info FakeEngine::makeInfo()
{
    kvlens::model_info m;
    m.path = "fake.gguf";
    m.name = "Fake 4-layer";
    m.architecture = "llama";
    m.n_layer = 4;
    m.n_head = 8;
    m.n_head_kv = 2;
    m.head_dim = 32;
    m.n_embd = 256;
    m.n_ff = 512;
    m.n_ctx_train = 4096;
    m.n_vocab = 1000;
    m.n_params = 3'000'000;
    m.weight_bytes = 6'000'000;
    m.kv_bytes_per_token_f16 = 2LL * 4 * 2 * 32 * 2;      // 1024 B
    m.kv_bytes_per_token_q8_0 = 2LL * 4 * 2 * 32 * 34 / 32; // 544 B
    m.tensor_types = {{"F32", 9}, {"Q8_0", 28}};
    m.chat_template_kind = "chatml";
    m.file_type = "Q8_0";
    return m;
}

FakeEngine::FakeEngine(FakeTiming timing, kvlens::kv_mode mode)
    : timing_(timing), mode_(mode), info_(makeInfo())
{
    thread_ = std::thread([this] { loop(); });
}

FakeEngine::~FakeEngine()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
        cancelAll_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

const kvlens::tokenizer& FakeEngine::vocab() const
{
    // Never called: the tests give the worker a token counter instead.
    std::abort();
}

kvlens::request_id FakeEngine::submit(kvlens::request_params params, kvlens::event_callback on_event)
{
    std::lock_guard<std::mutex> lock(mutex_);
    const kvlens::request_id id = next_++;
    queue_.push_back(Job{id, std::move(params), std::move(on_event)});
    cv_.notify_all();
    return id;
}

void FakeEngine::cancel(kvlens::request_id id)
{
    cancelled_ = id;
}

void FakeEngine::wait_idle()
{
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void FakeEngine::loop()
{
    for (;;) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
            if (queue_.empty())
                return;
            job = std::move(queue_.front());
            queue_.pop_front();
            busy_ = true;
        }
        run(job);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            busy_ = false;
        }
        cv_.notify_all();
    }
}

void FakeEngine::run(Job& job)
{
    const auto t0 = clock_type::now();
    auto cancelled = [&] { return cancelled_ == job.id || cancelAll_; };
    const int prompt = timing_.promptTokens;
    const std::int64_t perToken = info_.kv_bytes_per_token_f16;
    kvlens::event_done done;
    done.request = job.id;
    kvlens::request_timeline moments;   // ms since t0, as the engine records them
    moments.prompt_tokens = prompt;
    job.sink(kvlens::event_queued{job.id, prompt});
    // The TTFT segments at their own moments, as the engine measures them.
    const double tokenizeMs = msSince(t0);
    const double scheduledMs = msSince(t0);
    moments.tokenized_ms = tokenizeMs;
    moments.scheduled_ms = scheduledMs;
    job.sink(kvlens::event_started{job.id, scheduledMs - tokenizeMs, tokenizeMs, scheduledMs});
    int doneTokens = 0;
    const std::int64_t block = 16;
    auto kvOf = [&](std::int64_t tokens, auto& ev) {
        if (mode_ == kvlens::kv_mode::off)
            return;
        const std::int64_t allocated = (tokens + block - 1) / block * block * perToken;
        set_kv(ev, {tokens, tokens * perToken, allocated,
                    mode_ == kvlens::kv_mode::static_reserve ? (prompt + job.params.max_tokens) * perToken : allocated});
    };
    while (doneTokens < prompt) {
        if (cancelled()) {
            done.reason = kvlens::finish_reason::cancelled;
            moments.computed_tokens = doneTokens;
            moments.end_ms = msSince(t0);
            done.figures = kvlens::figures_of(moments);
            job.sink(done);
            return;
        }
        const auto c0 = clock_type::now();
        std::this_thread::sleep_for(std::chrono::milliseconds(timing_.chunkMs));
        doneTokens = std::min(prompt, doneTokens + timing_.chunk);
        kvlens::event_prefill_chunk chunk{job.id, doneTokens, prompt, 0, msSince(c0), msSince(t0)};
        kvOf(doneTokens, chunk);
        job.sink(chunk);
    }
    const double prefillDoneMs = msSince(t0);
    moments.prefill_done_ms = prefillDoneMs;
    moments.computed_tokens = doneTokens;
    moments.prefill_forward_ms = prefillDoneMs - scheduledMs;   // the fake's "forward passes" are its whole prefill
    std::string text;
    std::int64_t kvBytesPeak = 0;
    const int maxNew = std::min(timing_.generate, job.params.max_tokens);
    for (int i = 0; i < maxNew; ++i) {
        if (cancelled()) {
            done.reason = kvlens::finish_reason::cancelled;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 1 : timing_.tokenMs));
        const double t = msSince(t0);
        const std::string piece = i == 0 ? "The" : " word" + std::to_string(i);
        if (i == 0) {
            moments.first_token_ms = t;
            moments.first_visible_ms = t;
            const kvlens::request_figures so_far = kvlens::figures_of(moments);
            kvlens::event_first_token ft{job.id, t, 100, piece};
            ft.tokenize_ms = so_far.tokenize_ms;
            ft.queue_ms = so_far.queue_ms;
            ft.prefill_ms = so_far.prefill_ms;
            ft.first_sample_ms = so_far.first_sample_ms;
            job.sink(ft);
        }
        kvlens::event_token ev = token_event(job.id, i, 100 + i, piece, i == 0 ? t : t - moments.last_token_ms, t);
        kvOf(prompt + i + 1, ev);
        if (mode_ == kvlens::kv_mode::off && i > 0)
            ev.recomputed_tokens = prompt + i;
        job.sink(ev);
        text += piece;
        moments.last_token_ms = t;
        moments.generated_tokens = i + 1;
        kvBytesPeak = ev.kv_bytes;
    }
    if (done.reason != kvlens::finish_reason::cancelled)
        done.reason = kvlens::finish_reason::length;
    moments.end_ms = msSince(t0);
    auto& f = done.figures;
    f = kvlens::figures_of(moments);
    f.kv_bytes_peak = kvBytesPeak;
    f.device_memory_peak = info_.weight_bytes + kv_pool_bytes() + scratch_bytes();
    done.text = text;
    job.sink(done);
}

ui::EngineWorker* fakeWorker(FakeTiming timing)
{
    auto* w = new ui::EngineWorker([timing](const engine_options& o) -> result<std::unique_ptr<engine>> {
        return std::unique_ptr<engine>(std::make_unique<FakeEngine>(timing, o.kv));
    });
    w->setTokenCounter([](const engine&, const QVector<ui::ChatTurn>& chat) {
        int chars = 0;
        for (const ui::ChatTurn& t : chat)
            chars += int(t.content.size());
        return chars / 4;
    });
    w->setTextCounter([](const engine&, std::string_view text) {
        return int(QString::fromUtf8(text.data(), qsizetype(text.size())).size()) / 4;
    });
    return w;
}

namespace {
bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}
}  // namespace

bool writeShortReport(const QString& path)
{
    return writeFile(path, "Annual report 2025.\nRevenue grew 12% to 4.2 billion.\n\fCosts fell by 3%.\n\fOutlook: stable.\n");
}

bool writeLongReport(const QString& path)
{
    QByteArray text;
    for (int p = 0; p < 6; ++p) {
        text += QByteArray("Page ") + QByteArray::number(p + 1) + ". ";
        text += QByteArray(5000, 'x').replace(QByteArray("xxxxxxxxxx"), QByteArray("word word "));
        text += "\n\f";
    }
    return writeFile(path, text);
}

bool writeFakeModel(const QString& path)
{
    return writeFile(path, "not a real model: the fake engine never reads it");
}

}  // namespace kvlens::test
