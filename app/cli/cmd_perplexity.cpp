// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli perplexity --model M --file F [--ctx N]`: perplexity of a text
// in non-overlapping windows of N tokens, scoring the second half of each
// window (so every scored token has at least N/2 tokens of context).
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/cli/cli_checks.h"
#include "app/cli/commands.h"
#include "app/cli/input_file.h"
#include "app/cli/single_sequence.h"
#include "engine/backend/backend.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"

namespace {

struct ppl_args {
    std::string model, file;
    int ctx = 512;
    int threads = 0;
};

int run_ppl(const ppl_args& a) {
    auto text = kvlens::cli::read_input_file(a.file, kvlens::tokenizer::max_input_bytes, "text file");
    if (!text) { fmt::print(stderr, "kvlens-cli perplexity: {}\n", text.message()); return 1; }
    auto m = kvlens::model::load(a.model);
    if (!m) { fmt::print(stderr, "kvlens-cli perplexity: {}\n", m.message()); return 1; }
    auto tok = kvlens::tokenizer::from_gguf((*m)->file());
    if (!tok) { fmt::print(stderr, "kvlens-cli perplexity: {}\n", tok.message()); return 1; }
    const std::vector<std::int32_t> ids = (*tok)->encode(*text, false, false);
    if (static_cast<int>(ids.size()) < a.ctx) {
        fmt::print(stderr, "kvlens-cli perplexity: the text has {} tokens, fewer than one window of {}\n", ids.size(), a.ctx);
        return 1;
    }
    kvlens::backend_options bo;
    bo.n_threads = a.threads;
    bo.max_batch = a.ctx;
    bo.max_ctx = a.ctx;
    auto be = kvlens::make_cpu_backend(**m, bo);
    if (!be) { fmt::print(stderr, "kvlens-cli perplexity: {}\n", be.message()); return 1; }
    auto seq = single_sequence::attach(**be, (*m)->info(), a.ctx);
    if (!seq) { fmt::print(stderr, "kvlens-cli perplexity: {}\n", seq.message()); return 1; }
    const std::size_t V = static_cast<std::size_t>((*m)->info().n_vocab);
    const int first_scored = a.ctx / 2;
    std::vector<float> logits(static_cast<std::size_t>(a.ctx - first_scored) * V);
    double nll = 0;
    long count = 0;
    const std::size_t n_windows = ids.size() / static_cast<std::size_t>(a.ctx);
    for (std::size_t w = 0; w < n_windows; ++w) {
        // Score the second half of the window: every scored token has ctx/2 of context.
        std::vector<std::int32_t> rows;
        for (int i = first_scored; i < a.ctx - 1; ++i) rows.push_back(i);
        const std::span<const std::int32_t> window(ids.data() + w * a.ctx, static_cast<std::size_t>(a.ctx));
        if (auto s = seq->feed(window, 0, logits.data(), nullptr, rows); !s) { fmt::print(stderr, "kvlens-cli perplexity: {}\n", s.message()); return 1; }
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const float* l = logits.data() + r * V;
            const float mx = *std::max_element(l, l + V);
            double sum = 0;
            for (std::size_t i = 0; i < V; ++i) sum += std::exp(static_cast<double>(l[i] - mx));
            const std::int32_t next = ids[w * a.ctx + rows[r] + 1];
            nll += -(l[next] - mx - std::log(sum));
            ++count;
        }
        fmt::print(stderr, "window {}/{}: perplexity so far {:.4f}\n", w + 1, n_windows, std::exp(nll / count));
    }
    fmt::print("perplexity {:.4f} over {} scored tokens ({} windows of {})\n", std::exp(nll / count), count, n_windows, a.ctx);
    return 0;
}

}  // namespace

void add_perplexity_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ppl_args>();
    CLI::App* cmd = app.add_subcommand("perplexity", "Perplexity of a text file");
    cmd->add_option("--model,-m", args->model, "GGUF model file")->required();
    cmd->add_option("--file,-f", args->file, "Text file")->required();
    cmd->add_option("--ctx", args->ctx, "Window in tokens")->check(CLI::Range(16, 8192));
    cmd->add_option("--threads", args->threads, "CPU threads")->transform(kvlens::cli::thread_cap());
    cmd->callback([args, &exit_code] { exit_code = run_ppl(*args); });
}
