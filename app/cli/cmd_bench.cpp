// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli bench`: prompt processing (pp: one forward pass over -p tokens)
// and text generation (tg: -n single-token steps), as llama-bench measures
// them, after -d tokens already in the KV cache (llama-bench's depth: the
// depth is prefilled once, untimed, and every repetition runs at positions
// d, d + 1, ...). Mean and standard deviation over -r repetitions, with the
// achieved FLOP/s and bytes/s from the work the forward passes count
// (model::count_forward: matrix products and attention; weights and K/V read).
//
// `bench --read-bandwidth`: a STREAM-like probe of this machine's memory read
// bandwidth on --threads threads, the ceiling decode's bytes/s is held to.
// `bench --fma-peak`: the f32 FMA ceiling prefill's FLOP/s is held to (bench_fma_peak.cpp).
// `bench --attention`: the CPU attention kernel alone (bench_attention.cpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>


#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/cli/bench_attention.h"
#include "app/cli/bench_fma_peak.h"
#include "app/cli/cli_checks.h"
#include "app/cli/process_cpu_time.h"
#include "app/cli/commands.h"
#include "app/cli/single_sequence.h"
#include "engine/backend/backend.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/model/model.h"
#include "engine/runtime/backend_choice.h"

namespace {

struct bench_args {
    std::string model;
    int n_prompt = 512;
    bool prompt_given = false;   // -p on the command line (--attention: prefill instead of decode)
    int n_gen = 128;
    int depth = 0;
    int reps = 5;
    int threads = 0;
    std::string backend = "cpu";
    std::string kv_dtype = "f16";
    bool json = false;
    bool read_bandwidth = false;
    bool fma_peak = false;
    int probe_mib = 1024;
    bool attention = false;
    std::string kernels;   // empty: the best level this CPU has
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

nlohmann::json to_json(const stats& s) { return {{"mean", s.mean}, {"sd", s.sd}}; }

// ---- read-bandwidth probe ----------------------------------------------------

// XOR of n 64-bit words: every byte is loaded, nothing is stored, and the
// compiler vectorizes the eight independent chains.
std::uint64_t read_words(const std::uint64_t* p, std::int64_t n) {
    std::uint64_t acc[8] = {};
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; ++k) acc[k] ^= p[i + k];
    for (; i < n; ++i) acc[0] ^= p[i];
    std::uint64_t r = 0;
    for (std::uint64_t a : acc) r ^= a;
    return r;
}

int run_read_bandwidth(const bench_args& a) {
    const std::int64_t bytes = static_cast<std::int64_t>(a.probe_mib) << 20;
    const std::int64_t words = bytes / 8;
    std::vector<std::uint64_t> buf;
    try {
        buf.resize(static_cast<std::size_t>(words));
    } catch (const std::bad_alloc&) {
        fmt::print(stderr, "kvlens-cli bench: out of memory allocating {} MiB for the bandwidth probe\n", a.probe_mib);
        return 1;
    }
    for (std::int64_t i = 0; i < words; ++i) buf[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
    kvlens::thread_pool pool(a.threads);
    std::vector<std::uint64_t> sink(static_cast<std::size_t>(pool.size()));
    const auto job = [&](int ith, int nth) {
        const std::int64_t per = (words + nth - 1) / nth, b = std::min(words, ith * per), e = std::min(words, b + per);
        sink[static_cast<std::size_t>(ith)] ^= read_words(buf.data() + b, e - b);
    };
    using clock = std::chrono::steady_clock;
    std::vector<double> gbs;
    for (int rep = -1; rep < a.reps; ++rep) {   // rep -1 warms up
        const auto t0 = clock::now();
        pool.run(std::cref(job));
        const double sec = std::chrono::duration<double>(clock::now() - t0).count();
        if (rep >= 0) gbs.push_back(static_cast<double>(bytes) / sec);
    }
    std::uint64_t check = 0;
    for (std::uint64_t s : sink) check ^= s;
    const stats s = summarize(gbs);
    const double best = *std::max_element(gbs.begin(), gbs.end());
    if (a.json) {
        nlohmann::json j = {{"read_bandwidth", {{"threads", pool.size()}, {"bytes", bytes}, {"reps", a.reps},
                                                {"bytes_s_best", best}, {"bytes_s_mean", s.mean}, {"bytes_s_sd", s.sd},
                                                {"checksum", check}}}};
        fmt::print("{}\n", j.dump(2));
        return 0;
    }
    fmt::print("read bandwidth, {} threads, {} MiB: best {:.2f} GB/s, mean {:.2f} ± {:.2f} GB/s\n", pool.size(),
               a.probe_mib, best / 1e9, s.mean / 1e9, s.sd / 1e9);
    return 0;
}

// ---- pp / tg -------------------------------------------------------------------

int fail(const std::string& message) {
    fmt::print(stderr, "kvlens-cli bench: {}\n", message);
    return 1;
}

int run_bench(const bench_args& a) {
    if (!a.kernels.empty() && !kvlens::set_cpu_kernel_level(a.kernels.c_str()))
        return fail(fmt::format("this CPU cannot run the {} kernels (best here: {})", a.kernels, kvlens::cpu_kernel_level()));
    if (a.read_bandwidth) return run_read_bandwidth(a);
    if (a.fma_peak) return kvlens::cli::run_fma_peak({a.reps, a.threads, a.json});
    if (a.model.empty()) return fail("--model is required (or --read-bandwidth, --fma-peak)");
    kvlens::kv_dtype dtype = kvlens::kv_dtype::f16;
    if (!kvlens::parse_kv_dtype(a.kv_dtype, dtype)) return fail(fmt::format("unknown KV dtype '{}'", a.kv_dtype));
    if (a.attention) {
        if (a.backend == "cuda") return fail("--attention measures the CPU kernel; drop --backend cuda");
        return kvlens::cli::run_attention_bench({a.model, a.depth, a.prompt_given ? a.n_prompt : 0, a.reps, a.threads, dtype, a.json});
    }
    auto m = kvlens::model::load(a.model);
    if (!m) return fail(m.message());
    const kvlens::model& model = **m;
    // The depth is filled in chunks of at most this many tokens.
    constexpr int depth_chunk = 512;
    kvlens::backend_options bo;
    bo.n_threads = a.threads;
    bo.max_batch = std::max({a.n_prompt, std::min(a.depth, depth_chunk), 1});
    bo.max_ctx = a.depth + std::max(a.n_prompt, a.n_gen) + 16;
    // The backend through the one choice generate makes too (CUDA that cannot
    // run falls back to the CPU, with the reason said), its KV pool sized for
    // the depth and the longest test.
    kvlens::backend_request br;
    br.which = a.backend;
    br.options = bo;
    br.kv = single_sequence::geometry(model.info(), dtype);
    br.kv_blocks = single_sequence::blocks_for(br.kv, bo.max_ctx);
    auto chosen = kvlens::choose_backend(model, br);
    if (!chosen) return fail(chosen.message());
    if (!chosen->fallback.empty()) fmt::print(stderr, "kvlens-cli bench: {}\n", chosen->fallback);
    kvlens::backend& be = *chosen->chosen;
    single_sequence seq = single_sequence::on_initialized_pool(be, br.kv_blocks);
    const int V = model.info().n_vocab;
    std::vector<float> logits(static_cast<std::size_t>(V));
    // Token ids spread over the vocabulary (the content does not change the work).
    std::vector<std::int32_t> prompt(static_cast<std::size_t>(a.n_prompt)), gen(static_cast<std::size_t>(a.n_gen));
    std::vector<std::int32_t> context(static_cast<std::size_t>(a.depth));
    for (int i = 0; i < a.n_prompt; ++i) prompt[static_cast<std::size_t>(i)] = (i * 7919 + 13) % V;
    for (int i = 0; i < a.n_gen; ++i) gen[static_cast<std::size_t>(i)] = (i * 31 + 5) % V;
    for (int i = 0; i < a.depth; ++i) context[static_cast<std::size_t>(i)] = (i * 4051 + 7) % V;

    // The depth, once: pp and tg only write positions from depth on.
    for (int p = 0; p < a.depth; p += depth_chunk) {
        const int n = std::min(depth_chunk, a.depth - p);
        if (auto s = seq.feed({context.data() + p, static_cast<std::size_t>(n)}, p, logits.data()); !s)
            return fail(s.message());
    }

    using clock = std::chrono::steady_clock;
    std::vector<double> pp, tg, pp_flops, pp_bytes, tg_bytes, tg_flops, pp_cpu, tg_cpu;
    double pp_flop_count = 0, tg_byte_count = 0, tg_weight_count = 0, tg_kv_count = 0;
    for (int rep = -1; rep < a.reps; ++rep) {   // rep -1 warms up
        if (a.n_prompt > 0) {
            kvlens::forward_counts c;
            const double cpu0 = kvlens::cli::process_cpu_seconds();
            const auto t0 = clock::now();
            if (auto s = seq.feed(prompt, a.depth, logits.data(), &c); !s) return fail(s.message());
            const double sec = std::chrono::duration<double>(clock::now() - t0).count();
            if (rep >= 0) {
                pp_cpu.push_back(kvlens::cli::process_cpu_seconds() - cpu0);
                pp.push_back(a.n_prompt / sec);
                pp_flops.push_back(c.flop / sec);
                pp_bytes.push_back((c.weight_bytes + c.kv_bytes) / sec);
            }
            pp_flop_count = c.flop;
        }
        if (a.n_gen > 0) {
            double bytes = 0, flop = 0, wbytes = 0, kvbytes = 0;
            const double cpu0 = kvlens::cli::process_cpu_seconds();
            const auto t0 = clock::now();
            for (int i = 0; i < a.n_gen; ++i) {
                kvlens::forward_counts c;
                if (auto s = seq.feed({&gen[static_cast<std::size_t>(i)], 1}, a.depth + i, logits.data(), &c); !s)
                    return fail(s.message());
                bytes += c.weight_bytes + c.kv_bytes;
                wbytes += c.weight_bytes;
                kvbytes += c.kv_bytes;
                flop += c.flop;
            }
            const double sec = std::chrono::duration<double>(clock::now() - t0).count();
            if (rep >= 0) {
                tg_cpu.push_back(kvlens::cli::process_cpu_seconds() - cpu0);
                tg.push_back(a.n_gen / sec);
                tg_bytes.push_back(bytes / sec);
                tg_flops.push_back(flop / sec);
            }
            tg_byte_count = bytes;
            tg_weight_count = wbytes;
            tg_kv_count = kvbytes;
        }
    }
    const stats spp = summarize(pp), stg = summarize(tg), sfl = summarize(pp_flops), sby = summarize(tg_bytes);
    if (a.json) {
        nlohmann::json j = {
            {"model", a.model}, {"backend", be.name()}, {"description", be.description()},
            {"backend_fallback", chosen->fallback}, {"threads", a.threads},
            {"reps", a.reps}, {"depth", a.depth}, {"kv_dtype", kvlens::to_string(dtype)},
            {"pp", {{"tokens", a.n_prompt}, {"tok_s_mean", spp.mean}, {"tok_s_sd", spp.sd}, {"tok_s", pp},
                    {"flop", pp_flop_count}, {"flop_s_mean", sfl.mean}, {"flop_s_sd", sfl.sd},
                    {"bytes_s", to_json(summarize(pp_bytes))}, {"cpu_s", to_json(summarize(pp_cpu))}}},
            {"tg", {{"tokens", a.n_gen}, {"tok_s_mean", stg.mean}, {"tok_s_sd", stg.sd}, {"tok_s", tg},
                    {"bytes", tg_byte_count}, {"weight_bytes", tg_weight_count}, {"kv_bytes", tg_kv_count},
                    {"bytes_s_mean", sby.mean}, {"bytes_s_sd", sby.sd}, {"flop_s", to_json(summarize(tg_flops))},
                    {"cpu_s", to_json(summarize(tg_cpu))}}},
            {"weight_bytes", model.info().weight_bytes}};
        fmt::print("{}\n", j.dump(2));
        return 0;
    }
    fmt::print("model    {}\nbackend  {}\nKV       {}, depth {}\n", a.model, be.description(), kvlens::to_string(dtype),
               a.depth);
    fmt::print("{:<14} {:>14} {:>12} {:>22}\n", "test", "tok/s", "sd", "achieved");
    const std::string at = a.depth > 0 ? fmt::format(" @ d{}", a.depth) : "";
    if (a.n_prompt > 0)
        fmt::print("{:<14} {:>14.2f} {:>12.2f} {:>17.2f} GFLOP/s\n", fmt::format("pp{}{}", a.n_prompt, at), spp.mean,
                   spp.sd, sfl.mean / 1e9);
    if (a.n_gen > 0)
        fmt::print("{:<14} {:>14.2f} {:>12.2f} {:>19.2f} GB/s\n", fmt::format("tg{}{}", a.n_gen, at), stg.mean, stg.sd,
                   sby.mean / 1e9);
    return 0;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<bench_args>();
    CLI::App* cmd = app.add_subcommand("bench", "Measure prompt processing and generation speed");
    cmd->add_option("--model,-m", args->model, "GGUF model file (required unless --read-bandwidth or --fma-peak)");
    CLI::Option* prompt_option =
        cmd->add_option("-p", args->n_prompt, "Prompt tokens (pp; with --attention: a prefill block of that many)")
            ->check(CLI::NonNegativeNumber);
    cmd->add_option("-n", args->n_gen, "Generated tokens (tg)")->check(CLI::NonNegativeNumber);
    cmd->add_option("-d,--depth", args->depth, "Tokens already in the KV cache before pp and tg")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("-r", args->reps, "Repetitions")->check(CLI::PositiveNumber);
    cmd->add_option("--threads", args->threads, "CPU threads (0: one per core)")->transform(kvlens::cli::thread_cap());
    cmd->add_option("--backend", args->backend, "cpu, cuda or auto")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
    cmd->add_option("--kv-dtype", args->kv_dtype, "KV cache dtype: f16 or q8_0")->check(CLI::IsMember({"f16", "q8_0"}));
    cmd->add_flag("--json", args->json, "One JSON document on stdout");
    cmd->add_flag("--read-bandwidth", args->read_bandwidth,
                  "Measure this machine's memory read bandwidth instead (STREAM-like, --threads threads)");
    cmd->add_flag("--fma-peak", args->fma_peak,
                  "Measure this machine's f32 FMA ceiling instead (widest vectors, --threads threads)");
    cmd->add_flag("--attention", args->attention,
                  "Measure the CPU attention kernel alone instead: one decode step's attention (with -p N: a "
                  "prefill block of N tokens) over every layer, after -d tokens (default 4096), the model's geometry");
    cmd->add_option("--kernels", args->kernels,
                    "CPU kernel level: avx512, avx2 or scalar, at most this CPU's best (to measure what a machine "
                    "without AVX-512 runs)")
        ->check(CLI::IsMember({"avx512", "avx2", "scalar"}));
    cmd->add_option("--probe-mib", args->probe_mib, "Buffer of the bandwidth probe in MiB")->check(CLI::Range(64, 16384));
    cmd->callback([args, prompt_option, &exit_code] {
        args->prompt_given = prompt_option->count() > 0;
        exit_code = run_bench(*args);
    });
}
