// SPDX-License-Identifier: Apache-2.0
// kvlens-cli: the scriptable face of the engine (docs/design.md, "Command line").
// Wiring only: each subcommand lives in its own file.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "app/cli/commands.h"
#include "app/cli/signals.h"
#if KVLENS_HAVE_PDF
#include "app/cli/cmd_extract.h"
#endif

int main(int argc, char** argv) {
    kvlens::cli::start_signal_watch();
    CLI::App app{"kvlens-cli: run and measure the kvlens inference engine"};
    app.require_subcommand(1);
    int exit_code = 0;
    add_info_command(app, exit_code);
    add_tokenize_command(app, exit_code);
    add_generate_command(app, exit_code);
    add_bench_command(app, exit_code);
    add_synth_model_command(app, exit_code);
    add_verify_command(app, exit_code);
    add_perplexity_command(app, exit_code);
#if KVLENS_HAVE_PDF
    add_extract_command(app, exit_code);
    add_summarize_command(app, exit_code);
#endif
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const std::exception& e) {
        // A last net: the commands return errors as values; this names any that escaped.
        std::fprintf(stderr, "kvlens-cli: internal error: %s\n", e.what());
        return 70;
    }
    if (kvlens::cli::stop_signal() != 0) return kvlens::cli::report_interrupted("kvlens-cli");
    return exit_code;
}
