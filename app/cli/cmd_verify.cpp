// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli verify --model M [--prompt T]...`: runs the same tokens through
// the CUDA and CPU backends and compares logits at every step of a greedy
// continuation (fed from the CPU's choices, so both see the same inputs).
// Exits non-zero when a difference passes the stated tolerance.
#include <algorithm>
#include <cmath>
#include <numeric>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/cli/cli_checks.h"
#include "app/cli/commands.h"
#include "app/cli/single_sequence.h"
#include "engine/backend/backend.h"
#include "engine/model/model.h"
#include "engine/runtime/sampling.h"
#include "engine/tokenizer/tokenizer.h"

namespace {

struct verify_args {
    std::string model;
    std::vector<std::string> prompts;
    int steps = 16;
    int threads = 0;
    // Tolerance on the largest |cuda - cpu| logit difference relative to the
    // logits' spread (max - min) at that step: both quantize activations
    // differently (CPU: 8-bit blocks; CUDA: f16/bf16 GEMM), so a relative bound.
    double tolerance = 0.02;
};

#if KVLENS_HAVE_CUDA
struct runner {
    std::unique_ptr<kvlens::backend> be;
    std::vector<std::int32_t> table;
    int pos = 0;
};

int run_verify(const verify_args& a) {
    auto m = kvlens::model::load(a.model);
    if (!m) { fmt::print(stderr, "kvlens-cli verify: {}\n", m.message()); return 1; }
    auto tok = kvlens::tokenizer::from_gguf((*m)->file());
    if (!tok) { fmt::print(stderr, "kvlens-cli verify: {}\n", tok.message()); return 1; }
    std::vector<std::string> prompts = a.prompts;
    if (prompts.empty()) prompts = {"The key-value cache stores", "Prefill is compute-bound while decode"};
    kvlens::backend_options bo;
    bo.n_threads = a.threads;
    bo.max_batch = 512;
    bo.max_ctx = 1024;
    auto cuda = kvlens::make_cuda_backend(**m, bo);
    if (!cuda) { fmt::print(stderr, "kvlens-cli verify: CUDA backend: {}\n", cuda.message()); return 1; }
    auto cpu = kvlens::make_cpu_backend(**m, bo);
    if (!cpu) { fmt::print(stderr, "kvlens-cli verify: {}\n", cpu.message()); return 1; }
    auto seq_cuda = single_sequence::attach(**cuda, (*m)->info(), bo.max_ctx);
    auto seq_cpu = single_sequence::attach(**cpu, (*m)->info(), bo.max_ctx);
    for (const auto* s : {&seq_cuda, &seq_cpu})
        if (!*s) { fmt::print(stderr, "kvlens-cli verify: {}\n", s->message()); return 1; }
    const std::size_t V = static_cast<std::size_t>((*m)->info().n_vocab);
    std::vector<float> lc(V), lg(V);

    double worst = 0;
    int agree = 0, total = 0;
    fmt::print("{:>6} {:>5} {:>12} {:>12} {:>10} {:>7}\n", "prompt", "step", "max |diff|", "rel (spread)", "argmax", "agree");
    for (std::size_t pi = 0; pi < prompts.size(); ++pi) {
        std::vector<std::int32_t> ids = (*tok)->encode(prompts[pi], (*tok)->add_bos(), true);
        if (ids.empty()) ids.push_back(0);
        int pos = 0;
        for (int step = 0; step < a.steps; ++step) {
            const std::vector<std::int32_t> feed = step == 0 ? ids : std::vector<std::int32_t>{ids.back()};
            if (auto s = seq_cuda->feed(feed, pos, lg.data()); !s) { fmt::print(stderr, "kvlens-cli verify: cuda: {}\n", s.message()); return 1; }
            if (auto s = seq_cpu->feed(feed, pos, lc.data()); !s) { fmt::print(stderr, "kvlens-cli verify: cpu: {}\n", s.message()); return 1; }
            pos += static_cast<int>(feed.size());
            double max_diff = 0;
            float lo = lc[0], hi = lc[0];
            for (std::size_t i = 0; i < V; ++i) {
                max_diff = std::max(max_diff, static_cast<double>(std::fabs(lc[i] - lg[i])));
                lo = std::min(lo, lc[i]);
                hi = std::max(hi, lc[i]);
            }
            const double rel = max_diff / std::max(1e-6, static_cast<double>(hi - lo));
            const std::int32_t ac = kvlens::argmax(lc), ag = kvlens::argmax(lg);
            agree += ac == ag;
            ++total;
            worst = std::max(worst, rel);
            fmt::print("{:>6} {:>5} {:>12.5f} {:>12.5f} {:>10} {:>7}\n", pi + 1, step, max_diff, rel,
                       fmt::format("{}/{}", ac, ag), ac == ag ? "yes" : "NO");
            ids.push_back(ac);
        }
    }
    fmt::print("worst relative difference {:.5f} (tolerance {}), greedy agreement {}/{}\n", worst, a.tolerance, agree, total);
    if (worst > a.tolerance) {
        fmt::print(stderr, "kvlens-cli verify: CUDA and CPU logits differ by {:.5f} of their spread, past the tolerance {}\n",
                   worst, a.tolerance);
        return 1;
    }
    return 0;
}
#else
int run_verify(const verify_args&) {
    fmt::print(stderr, "kvlens-cli verify: this build of kvlens has no CUDA backend (built with KVLENS_CUDA=OFF)\n");
    return 1;
}
#endif

}  // namespace

void add_verify_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<verify_args>();
    CLI::App* cmd = app.add_subcommand("verify", "Compare CUDA against CPU logits, step by step");
    cmd->add_option("--model,-m", args->model, "GGUF model file")->required();
    cmd->add_option("--prompt,-p", args->prompts, "Prompt (repeatable)");
    cmd->add_option("--steps", args->steps, "Greedy steps per prompt")->check(CLI::PositiveNumber);
    cmd->add_option("--threads", args->threads, "CPU threads")->transform(kvlens::cli::thread_cap());
    cmd->add_option("--tolerance", args->tolerance, "Largest allowed |diff| / logit spread");
    cmd->callback([args, &exit_code] { exit_code = run_verify(*args); });
}
