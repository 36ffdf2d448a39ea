// SPDX-License-Identifier: Apache-2.0
// kvlens-cli's subcommands: each file adds one to the CLI11 app and sets the
// exit code when it runs (0 on success; 1 with a one-line message on stderr
// naming the cause otherwise).
#pragma once

namespace CLI {
class App;
}

void add_info_command(CLI::App& app, int& exit_code);
void add_tokenize_command(CLI::App& app, int& exit_code);
void add_generate_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_synth_model_command(CLI::App& app, int& exit_code);
void add_verify_command(CLI::App& app, int& exit_code);
void add_perplexity_command(CLI::App& app, int& exit_code);
#if KVLENS_HAVE_PDF
void add_summarize_command(CLI::App& app, int& exit_code);
#endif
