// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli generate`: each --prompt / --prompt-file is one request of one
// engine, run in order (or up to --parallel at once); text streams to stdout.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/cli/commands.h"
#include "app/cli/generate_options.h"
#include "app/cli/remote_options.h"
#include "app/cli/input_file.h"
#include "engine/tokenizer/tokenizer.h"

namespace {

struct generate_args {
    generate_options o;
    remote_cli_options remote;
    std::vector<std::string> prompts;
    std::vector<std::string> prompt_files;
    bool chat = false;
};

int run_generate(const generate_args& a, const std::vector<std::pair<bool, std::string>>& order) {
    std::vector<kvlens::request_params> reqs;
    for (const auto& [is_file, value] : order) {
        std::string text = value;
        if (is_file) {
            auto r = kvlens::cli::read_input_file(value, kvlens::tokenizer::max_input_bytes, "prompt file");
            if (!r) {
                fmt::print(stderr, "kvlens-cli generate: {}\n", r.message());
                return 1;
            }
            text = std::move(*r);
        }
        kvlens::request_params p;
        p.chat = a.chat;
        if (a.chat) {
            if (!a.o.system.empty()) p.messages.push_back({"system", a.o.system});
            p.messages.push_back({"user", text});
        } else {
            p.text = text;
        }
        p.max_tokens = a.o.max_tokens;
        p.sampling = make_sampling(a.o);
        p.speculation = make_speculation(a.o);
        reqs.push_back(std::move(p));
    }
    if (reqs.empty()) {
        fmt::print(stderr, "kvlens-cli generate: give at least one --prompt or --prompt-file\n");
        return 1;
    }
    kvlens::engine_options eo;
    std::string why;
    if (!make_engine_options(a.o, eo, why)) {
        fmt::print(stderr, "kvlens-cli generate: {}\n", why);
        return 1;
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> metrics(nullptr, &std::fclose);
    if (!a.o.metrics_json.empty()) {
        metrics.reset(std::fopen(a.o.metrics_json.c_str(), "w"));
        if (!metrics) {
            fmt::print(stderr, "kvlens-cli generate: cannot write metrics file '{}'\n", a.o.metrics_json);
            return 1;
        }
    }
    if (!a.remote.url.empty() && a.o.draft > 0) {
        fmt::print(stderr, "kvlens-cli generate: --draft runs on the local engine only, not with --remote\n");
        return 1;
    }
    if (a.remote.url.empty() && a.o.model.empty()) {
        fmt::print(stderr, "kvlens-cli generate: give --model (a GGUF file) or --remote (a server URL)\n");
        return 1;
    }
    // With --remote, a --model file only lends its tokenizer.
    auto e = a.remote.url.empty() ? kvlens::engine::create(eo) : make_remote_engine(a.remote, a.o.model, a.o.parallel);
    if (!e) {
        fmt::print(stderr, "kvlens-cli generate: {}\n", e.message());
        return 1;
    }
    if (!a.o.quiet) fmt::print(stderr, "kvlens: {} | context {} tokens\n", (*e)->backend_description(), (*e)->context_length());
    if (a.chat) show_default_system(**e, a.o);
    run_result r;
    const bool ok = run_requests(**e, reqs, a.o.parallel, metrics.get(), true, r, "kvlens-cli generate");
    if (!a.o.quiet) {
        for (std::size_t i = 0; i < r.done.size(); ++i) {
            const auto& f = r.done[i].figures;
            fmt::print(stderr,
                       "request {}: {} prompt tokens ({} cached), {} generated | TTFT {:.1f} ms | prefill {:.1f} tok/s | "
                       "decode {:.1f} tok/s | {}\n",
                       i + 1, f.prompt_tokens, f.cached_tokens, f.generated_tokens, f.ttft_ms, f.prefill_tok_s,
                       f.decode_tok_s, kvlens::to_string(r.done[i].reason));
            if (f.draft_steps > 0)
                fmt::print(stderr,
                           "request {}: speculative decoding: {} of {} draft tokens accepted ({:.0f} %) over {} steps, "
                           "{:.2f} tokens per step\n",
                           i + 1, f.accepted_tokens, f.draft_tokens, 100.0 * f.acceptance_rate, f.draft_steps,
                           f.mean_acceptance_length);
        }
        print_server_figures(r.done);
    }
    return ok ? 0 : 1;
}

}  // namespace

void add_generate_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<generate_args>();
    // Prompts keep their command-line order across --prompt and --prompt-file.
    auto order = std::make_shared<std::vector<std::pair<bool, std::string>>>();
    CLI::App* cmd = app.add_subcommand("generate", "Generate text; each --prompt is one request of the same engine");
    add_generate_options(cmd, args->o, false);
    add_remote_options(cmd, args->remote);
    cmd->add_option_function<std::vector<std::string>>(
           "--prompt,-p", [order](const std::vector<std::string>& v) { for (const auto& s : v) order->push_back({false, s}); },
           "A prompt (repeatable)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option_function<std::vector<std::string>>(
           "--prompt-file", [order](const std::vector<std::string>& v) { for (const auto& s : v) order->push_back({true, s}); },
           "A file holding a prompt (repeatable)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_flag("--chat", args->chat, "Render each prompt through the model's chat template");
    cmd->callback([args, order, &exit_code] { exit_code = run_generate(*args, *order); });
}
