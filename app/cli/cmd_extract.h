// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli extract REPORT.pdf [--pages A-B] [--password P] [--json]`:
// a PDF's cleaned text (or JSON: pages, metadata, warnings), read through the
// kvlens-pdf-helper process with a time limit.
#pragma once

namespace CLI {
class App;
}

// Adds the `extract` subcommand to `app`; when it runs, it sets `exit_code`
// (0 on success, 1 on any error, with one line on stderr naming the cause).
void add_extract_command(CLI::App& app, int& exit_code);
