// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli bench`: prompt processing (pp: one forward pass over -p tokens)
// and text generation (tg: -n single-token steps) on a fresh KV cache, as
// llama-bench measures them; mean and standard deviation over -r repetitions,
// with the achieved FLOP/s and bytes/s from counted work.
#include <chrono>
#include <cmath>
#include <numeric>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/single_sequence.h"
#include "engine/backend/backend.h"
#include "engine/model/model.h"

namespace {

struct bench_args {
    std::string model;
    int n_prompt = 512;
    int n_gen = 128;
    int reps = 5;
    int threads = 0;
    std::string backend = "cpu";
    bool json = false;
};

struct stats {
    double mean = 0, sd = 0;
};

stats summarize(const std::vector<double>& v) {
    stats s;
    if (v.empty()) return s;
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    double var = 0;
    for (double x : v) var += (x - s.mean) * (x - s.mean);
    s.sd = v.size() > 1 ? std::sqrt(var / static_cast<double>(v.size() - 1)) : 0;
    return s;
}

int run_bench(const bench_args& a) {
    auto m = kvlens::model::load(a.model);
    if (!m) { fmt::print(stderr, "kvlens-cli bench: {}\n", m.message()); return 1; }
    const kvlens::model& model = **m;
    kvlens::backend_options bo;
    bo.n_threads = a.threads;
    bo.max_batch = std::max(a.n_prompt, 1);
    bo.max_ctx = a.n_prompt + a.n_gen + 16;
    kvlens::result<std::unique_ptr<kvlens::backend>> b = kvlens::make_error("no backend");
    if (a.backend == "cuda" || a.backend == "auto") {
#if KVLENS_HAVE_CUDA
        b = kvlens::make_cuda_backend(model, bo);
        if (!b && a.backend == "cuda") { fmt::print(stderr, "kvlens-cli bench: CUDA backend: {}\n", b.message()); return 1; }
#else
        if (a.backend == "cuda") { fmt::print(stderr, "kvlens-cli bench: this build has no CUDA backend\n"); return 1; }
#endif
    }
    if (!b) b = kvlens::make_cpu_backend(model, bo);
    if (!b) { fmt::print(stderr, "kvlens-cli bench: {}\n", b.message()); return 1; }
    kvlens::backend& be = **b;

    auto seq = single_sequence::attach(be, model.info(), bo.max_ctx);
    if (!seq) { fmt::print(stderr, "kvlens-cli bench: {}\n", seq.message()); return 1; }
    const int V = model.info().n_vocab;
    std::vector<float> logits(static_cast<std::size_t>(V));
    // Token ids spread over the vocabulary (the content does not change the work).
    std::vector<std::int32_t> prompt(static_cast<std::size_t>(a.n_prompt)), gen(static_cast<std::size_t>(a.n_gen));
    for (int i = 0; i < a.n_prompt; ++i) prompt[static_cast<std::size_t>(i)] = (i * 7919 + 13) % V;
    for (int i = 0; i < a.n_gen; ++i) gen[static_cast<std::size_t>(i)] = (i * 31 + 5) % V;

    using clock = std::chrono::steady_clock;
    std::vector<double> pp, tg, pp_flops, tg_bytes;
    for (int rep = -1; rep < a.reps; ++rep) {   // rep -1 warms up
        if (a.n_prompt > 0) {
            kvlens::forward_counts c;
            const auto t0 = clock::now();
            if (auto s = seq->feed(prompt, 0, logits.data(), &c); !s) { fmt::print(stderr, "kvlens-cli bench: {}\n", s.message()); return 1; }
            const double sec = std::chrono::duration<double>(clock::now() - t0).count();
            if (rep >= 0) { pp.push_back(a.n_prompt / sec); pp_flops.push_back(c.flop / sec); }
        }
        if (a.n_gen > 0) {
            double bytes = 0;
            const auto t0 = clock::now();
            for (int i = 0; i < a.n_gen; ++i) {
                kvlens::forward_counts c;
                if (auto s = seq->feed({&gen[static_cast<std::size_t>(i)], 1}, i, logits.data(), &c); !s) {
                    fmt::print(stderr, "kvlens-cli bench: {}\n", s.message());
                    return 1;
                }
                bytes += c.weight_bytes + c.kv_bytes;
            }
            const double sec = std::chrono::duration<double>(clock::now() - t0).count();
            if (rep >= 0) { tg.push_back(a.n_gen / sec); tg_bytes.push_back(bytes / sec); }
        }
    }
    const stats spp = summarize(pp), stg = summarize(tg), sfl = summarize(pp_flops), sby = summarize(tg_bytes);
    if (a.json) {
        nlohmann::json j = {{"model", a.model}, {"backend", be.name()}, {"description", be.description()},
                            {"threads", a.threads}, {"reps", a.reps},
                            {"pp", {{"tokens", a.n_prompt}, {"tok_s_mean", spp.mean}, {"tok_s_sd", spp.sd},
                                    {"flop_s_mean", sfl.mean}}},
                            {"tg", {{"tokens", a.n_gen}, {"tok_s_mean", stg.mean}, {"tok_s_sd", stg.sd},
                                    {"bytes_s_mean", sby.mean}}},
                            {"weight_bytes", model.info().weight_bytes}};
        fmt::print("{}\n", j.dump(2));
        return 0;
    }
    fmt::print("model    {}\nbackend  {}\n", a.model, be.description());
    fmt::print("{:<8} {:>14} {:>12} {:>22}\n", "test", "tok/s", "sd", "achieved");
    if (a.n_prompt > 0)
        fmt::print("{:<8} {:>14.2f} {:>12.2f} {:>17.2f} GFLOP/s\n", fmt::format("pp{}", a.n_prompt), spp.mean, spp.sd, sfl.mean / 1e9);
    if (a.n_gen > 0)
        fmt::print("{:<8} {:>14.2f} {:>12.2f} {:>19.2f} GB/s\n", fmt::format("tg{}", a.n_gen), stg.mean, stg.sd, sby.mean / 1e9);
    return 0;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<bench_args>();
    CLI::App* cmd = app.add_subcommand("bench", "Measure prompt processing and generation speed");
    cmd->add_option("--model,-m", args->model, "GGUF model file")->required();
    cmd->add_option("-p", args->n_prompt, "Prompt tokens (pp)")->check(CLI::NonNegativeNumber);
    cmd->add_option("-n", args->n_gen, "Generated tokens (tg)")->check(CLI::NonNegativeNumber);
    cmd->add_option("-r", args->reps, "Repetitions")->check(CLI::PositiveNumber);
    cmd->add_option("--threads", args->threads, "CPU threads (0: one per core)")->check(CLI::NonNegativeNumber);
    cmd->add_option("--backend", args->backend, "cpu, cuda or auto")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
    cmd->add_flag("--json", args->json, "One JSON document on stdout");
    cmd->callback([args, &exit_code] { exit_code = run_bench(*args); });
}
