// SPDX-License-Identifier: Apache-2.0
// The --remote options of the CLI (see remote_options.h).
#include "app/cli/remote_options.h"

#include <cstdlib>
#include <fstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "engine/remote/remote_engine.h"

void add_remote_options(CLI::App* cmd, remote_cli_options& o) {
    cmd->add_option("--remote", o.url,
                    "Use an OpenAI-compatible server (llama.cpp llama-server, vLLM, SGLang) at this URL instead of the "
                    "local engine, e.g. http://127.0.0.1:8080");
    cmd->add_option("--api-key-file", o.api_key_file,
                    "A file whose first line is the server's API key (else $KVLENS_API_KEY); never logged");
    cmd->add_option("--remote-model", o.model, "The model name the server should use (default: its first model)");
    cmd->add_option("--stall-timeout", o.stall_timeout, "Seconds without a byte from the server before a request fails")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--connect-timeout", o.connect_timeout, "Seconds to connect to the server")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--max-response-mib", o.max_response_mib, "A response larger than this is cut off with an error")
        ->check(CLI::PositiveNumber);
}

kvlens::result<std::string> read_api_key(const std::string& file) {
    std::string key;
    if (!file.empty()) {
        std::ifstream in(file);
        if (!in) return kvlens::make_error("cannot read the API key file '" + file + "'");
        std::getline(in, key);
    } else if (const char* env = std::getenv("KVLENS_API_KEY")) {
        key = env;
    }
    while (!key.empty() && (key.back() == '\r' || key.back() == ' ' || key.back() == '\t')) key.pop_back();
    std::size_t start = 0;
    while (start < key.size() && (key[start] == ' ' || key[start] == '\t')) ++start;
    key.erase(0, start);
    for (const char c : key)
        if (static_cast<unsigned char>(c) < 0x20) return kvlens::make_error("the API key contains a control character");
    return key;
}

kvlens::result<std::unique_ptr<kvlens::engine>> make_remote_engine(const remote_cli_options& o,
                                                                   const std::string& tokenizer_gguf, int parallel) {
    auto key = read_api_key(o.api_key_file);
    if (!key) return kvlens::make_error(key.message());
    kvlens::remote::remote_options ro;
    ro.url = o.url;
    ro.api_key = std::move(*key);
    ro.model = o.model;
    ro.tokenizer_gguf = tokenizer_gguf;
    ro.parallel = parallel;
    ro.stall_timeout_s = o.stall_timeout;
    ro.connect_timeout_s = o.connect_timeout;
    ro.max_response_bytes = static_cast<std::size_t>(o.max_response_mib * 1024 * 1024);
    return kvlens::remote::connect(ro);
}

void print_server_figures(const std::vector<kvlens::event_done>& done) {
    for (std::size_t i = 0; i < done.size(); ++i) {
        const auto& f = done[i].figures;
        if (f.source != kvlens::figure_source::client) continue;
        const auto& s = f.server;
        std::string line = fmt::format("request {} (client): e2e {:.1f} ms | ITL p50 {:.1f} ms, p99 {:.1f} ms", i + 1,
                                       f.e2e_ms, f.itl_p50_ms, f.itl_p99_ms);
        if (s.prompt_ms >= 0)
            line += fmt::format(" | server: prompt {} tokens ({} cached) in {:.1f} ms, {} generated in {:.1f} ms",
                                s.prompt_n, s.cache_n, s.prompt_ms, s.predicted_n, s.predicted_ms);
        else if (s.prompt_tokens >= 0)
            line += fmt::format(" | server: {} prompt tokens ({} cached), {} generated", s.prompt_tokens,
                                s.cached_tokens, s.completion_tokens);
        if (s.progress_events > 0) line += fmt::format(" | {} progress reports", s.progress_events);
        if (s.kv_usage_peak >= 0) line += fmt::format(" | server KV peak {:.1f}%", 100 * s.kv_usage_peak);
        fmt::print(stderr, "{}\n", line);
    }
}
