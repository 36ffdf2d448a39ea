// SPDX-License-Identifier: Apache-2.0
// Shared generate options and the request run loop of the CLI.
#include "app/cli/generate_options.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/cli/cli_checks.h"
#include "app/cli/signals.h"

#include "common/printable.h"
#include "engine/metrics/event_json.h"
#include "engine/tokenizer/tokenizer.h"

void add_generate_options(CLI::App* cmd, generate_options& o, bool model_required) {
    auto* m = cmd->add_option("--model,-m", o.model, "GGUF model file");
    if (model_required) m->required();
    cmd->add_option("--system", o.system, "System prompt (chat)");
    cmd->add_option("--max-tokens,-n", o.max_tokens, "Tokens to generate at most")->check(CLI::PositiveNumber);
    using kvlens::cli::finite_in;
    cmd->add_option("--temp", o.temp, "Temperature (0: greedy)")->check(finite_in(0, 100));
    cmd->add_option("--top-k", o.top_k, "Top-k (0: off)")->check(CLI::NonNegativeNumber);
    cmd->add_option("--top-p", o.top_p, "Top-p (1: off)")->check(finite_in(0, 1));
    cmd->add_option("--min-p", o.min_p, "Min-p (0: off)")->check(finite_in(0, 1));
    cmd->add_option("--repeat-penalty", o.repeat_penalty, "Repetition penalty (1: off)")->check(finite_in(0, 100, true));
    cmd->add_option("--seed", o.seed, "Sampling seed");
    cmd->add_option("--backend", o.backend, "cpu, cuda or auto")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
    cmd->add_option("--threads", o.threads, "CPU threads (0: one per core)")->transform(kvlens::cli::thread_cap());
    cmd->add_option("--kv", o.kv, "KV cache mode: paged, static or off")->check(CLI::IsMember({"paged", "static", "off"}));
    cmd->add_option("--kv-dtype", o.kv_dtype, "KV element type: f16 or q8_0")->check(CLI::IsMember({"f16", "q8_0"}));
    cmd->add_option("--kv-block", o.kv_block, "Tokens per KV block")->check(CLI::Range(1, 1024));
    cmd->add_option("--kv-budget", o.kv_budget, "KV pool size in MiB (0: the context x parallel)")->check(CLI::NonNegativeNumber);
    cmd->add_option("--chunk", o.chunk, "Prefill chunk in tokens")->check(CLI::Range(1, 8192));
    cmd->add_option("--parallel", o.parallel, "Requests run at once")->check(CLI::Range(1, 64));
    cmd->add_option("--ctx", o.ctx, "Context length per request (0: the model's, at most 8192)")
        ->check(CLI::Range(0, kvlens::cli::k_max_ctx).description("0 to 1048576"));
    cmd->add_option("--draft", o.draft,
                    "Speculative decoding: check up to this many draft tokens per step, looked up in the prompt "
                    "and the text so far (0: off; greedy text unchanged)")
        ->check(CLI::Range(0, kvlens::k_max_draft_tokens));
    cmd->add_option("--draft-ngram", o.draft_ngram, "The longest suffix the draft lookup matches (down to 2 tokens, or this if shorter)")
        ->check(CLI::Range(1, 64));
    cmd->add_option("--metrics-json", o.metrics_json, "Write the events as JSON lines to this file");
    cmd->add_flag("--quiet,-q", o.quiet, "Do not print the backend line on stderr");
}

bool make_engine_options(const generate_options& o, kvlens::engine_options& e, std::string& why) {
    e.model_path = o.model;
    e.backend = o.backend;
    e.n_threads = o.threads;
    e.n_ctx = o.ctx;
    if (!kvlens::parse_kv_mode(o.kv, e.kv)) { why = "unknown --kv mode " + o.kv; return false; }
    if (!kvlens::parse_kv_dtype(o.kv_dtype, e.kv_type)) { why = "unknown --kv-dtype " + o.kv_dtype; return false; }
    e.kv_block = o.kv_block;
    e.kv_budget_mib = o.kv_budget;
    e.chunk = o.chunk;
    e.parallel = o.parallel;
    return true;
}

kvlens::sampling_params make_sampling(const generate_options& o) {
    kvlens::sampling_params s;
    s.temperature = o.temp;
    s.top_k = o.top_k;
    s.top_p = o.top_p;
    s.min_p = o.min_p;
    s.repeat_penalty = o.repeat_penalty;
    s.seed = o.seed;
    return s;
}

kvlens::speculation_params make_speculation(const generate_options& o) {
    kvlens::speculation_params s;
    s.draft_tokens = o.draft;
    s.ngram = o.draft_ngram;
    s.ngram_min = std::min(s.ngram_min, s.ngram);
    return s;
}

void show_default_system(const kvlens::engine& e, const generate_options& o) {
    const std::string& system = e.vocab().default_system_prompt();
    if (o.system.empty() && !system.empty())
        fmt::print(stderr, "kvlens: system prompt (from the model's chat template; --system replaces it): {}\n",
                   kvlens::quoted(system, 400));
}

bool run_requests(kvlens::engine& e, const std::vector<kvlens::request_params>& reqs, int parallel,
                  std::FILE* metrics, bool stream_stdout, run_result& out, const char* who) {
    std::mutex mu;
    std::condition_variable cv;
    int running = 0;
    bool ok = true;
    out.texts.assign(reqs.size(), {});
    out.done.assign(reqs.size(), {});
    const bool stream = stream_stdout && parallel == 1;

    // Ctrl-C / SIGTERM: cancel what was submitted, through the engine, and
    // submit no more; each request still ends with its done event.
    std::mutex ids_mu;  // apart from mu: cancel() must not wait on a callback
    std::vector<kvlens::request_id> ids;
    kvlens::cli::cancel_scope on_signal([&] {
        std::vector<kvlens::request_id> now;
        {
            std::lock_guard<std::mutex> lock(ids_mu);
            now = ids;
        }
        for (kvlens::request_id id : now) e.cancel(id);
    });

    for (std::size_t i = 0; i < reqs.size(); ++i) {
        {
            std::unique_lock<std::mutex> lock(mu);
            cv.wait(lock, [&] { return running < parallel; });
            if (kvlens::cli::stop_flag()) break;
            ++running;
        }
        const kvlens::request_id id = e.submit(reqs[i], [&, i](const kvlens::event& ev) {
            std::lock_guard<std::mutex> lock(mu);
            if (metrics) {
                std::string line = kvlens::event_to_json_line(ev);
                std::fwrite(line.data(), 1, line.size(), metrics);
                std::fputc('\n', metrics);
            }
            if (const auto* t = std::get_if<kvlens::event_token>(&ev)) {
                if (stream) {
                    std::fwrite(t->text.data(), 1, t->text.size(), stdout);
                    std::fflush(stdout);
                }
            } else if (const auto* d = std::get_if<kvlens::event_done>(&ev)) {
                out.texts[i] = d->text;
                out.done[i] = *d;
                if (stream) {
                    // The stream's tail (an unfinished character) comes only with done.
                    std::fputc('\n', stdout);
                    std::fflush(stdout);
                } else if (stream_stdout) {
                    fmt::print("=== request {} ===\n{}\n", i + 1, d->text);
                    std::fflush(stdout);
                }
                if (d->reason == kvlens::finish_reason::error) {
                    fmt::print(stderr, "{}: request {}: {}\n", who, i + 1, d->error);
                    ok = false;
                }
                --running;
                cv.notify_all();
            }
        });
        std::lock_guard<std::mutex> lock(ids_mu);
        ids.push_back(id);
        if (kvlens::cli::stop_flag()) e.cancel(id);  // the signal came while it was being submitted
    }
    e.wait_idle();
    if (metrics) std::fflush(metrics);
    return ok && !kvlens::cli::stop_flag();
}
