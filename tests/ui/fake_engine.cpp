// SPDX-License-Identifier: Apache-2.0
// FakeEngine: timed synthetic event sequences.
#include "fake_engine.h"

#include <chrono>

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
    done.figures.prompt_tokens = prompt;
    job.sink(kvlens::event_queued{job.id, prompt});
    // The TTFT segments at their own moments, as the engine measures them.
    const double tokenizeMs = msSince(t0);
    const double scheduledMs = msSince(t0);
    job.sink(kvlens::event_started{job.id, scheduledMs - tokenizeMs, tokenizeMs, scheduledMs});
    int doneTokens = 0;
    const std::int64_t block = 16;
    auto kvOf = [&](std::int64_t tokens, auto& ev) {
        if (mode_ == kvlens::kv_mode::off)
            return;
        ev.kv_tokens = tokens;
        ev.kv_bytes = tokens * perToken;
        ev.kv_allocated_bytes = (tokens + block - 1) / block * block * perToken;
        ev.kv_reserved_bytes = mode_ == kvlens::kv_mode::static_reserve ? (prompt + job.params.max_tokens) * perToken
                                                                        : ev.kv_allocated_bytes;
    };
    while (doneTokens < prompt) {
        if (cancelled()) {
            done.reason = kvlens::finish_reason::cancelled;
            done.figures.computed_tokens = doneTokens;
            done.figures.e2e_ms = msSince(t0);
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
    const double prefillMs = prefillDoneMs - scheduledMs;
    std::string text;
    double last = 0, first = 0;
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
            first = t;
            kvlens::event_first_token ft{job.id, t, 100, piece};
            ft.tokenize_ms = tokenizeMs;
            ft.queue_ms = scheduledMs - tokenizeMs;
            ft.prefill_ms = prefillMs;
            ft.first_sample_ms = t - prefillDoneMs;
            job.sink(ft);
        }
        kvlens::event_token ev;
        ev.request = job.id;
        ev.index = i;
        ev.id = 100 + i;
        ev.text = piece;
        ev.latency_ms = i == 0 ? t : t - last;
        ev.t_ms = t;
        kvOf(prompt + i + 1, ev);
        if (mode_ == kvlens::kv_mode::off && i > 0)
            ev.recomputed_tokens = prompt + i;
        job.sink(ev);
        text += piece;
        last = t;
        done.figures.generated_tokens = i + 1;
        done.figures.kv_bytes_peak = ev.kv_bytes;
    }
    if (done.reason != kvlens::finish_reason::cancelled)
        done.reason = kvlens::finish_reason::length;
    auto& f = done.figures;
    f.computed_tokens = doneTokens;
    f.tokenize_ms = tokenizeMs;
    f.queue_ms = scheduledMs - tokenizeMs;
    f.prefill_ms = prefillMs;
    f.first_sample_ms = first > 0 ? first - prefillDoneMs : 0;
    f.ttft_ms = first;
    f.ttft_visible_ms = first;
    f.decode_ms = last - first;
    f.e2e_ms = msSince(t0);
    f.prefill_tok_s = prefillMs > 0 ? doneTokens * 1000.0 / prefillMs : 0;
    f.decode_tok_s = f.generated_tokens > 1 && f.decode_ms > 0 ? (f.generated_tokens - 1) * 1000.0 / f.decode_ms : 0;
    f.tpot_ms = f.generated_tokens > 1 ? f.decode_ms / (f.generated_tokens - 1) : 0;
    f.device_memory_peak = info_.weight_bytes + kv_pool_bytes() + scratch_bytes();
    done.text = text;
    job.sink(done);
}

}  // namespace kvlens::test
