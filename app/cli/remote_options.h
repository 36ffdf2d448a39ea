// SPDX-License-Identifier: Apache-2.0
// The --remote options of `kvlens-cli generate` (issue 17): an
// OpenAI-compatible server instead of the local engine. The API key comes
// from --api-key-file or the environment variable KVLENS_API_KEY and goes
// only into the Authorization header: never into a message, a log or the
// metrics file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "engine/runtime/engine.h"

namespace CLI {
class App;
}

struct remote_cli_options {
    std::string url;              // "" : the local engine
    std::string api_key_file;
    std::string model;            // --remote-model
    double stall_timeout = 60;    // seconds without a byte
    double connect_timeout = 10;
    double max_response_mib = 32;
};

void add_remote_options(CLI::App* cmd, remote_cli_options& o);

// Connects to the server. tokenizer_gguf: the --model file, if any, whose
// tokenizer counts tokens locally. parallel: requests in flight at once.
kvlens::result<std::unique_ptr<kvlens::engine>> make_remote_engine(const remote_cli_options& o,
                                                                   const std::string& tokenizer_gguf, int parallel);

// The key: the first line of the file (trimmed), else $KVLENS_API_KEY, else "".
kvlens::result<std::string> read_api_key(const std::string& file);

// One stderr line per request of what the server itself reported.
void print_server_figures(const std::vector<kvlens::event_done>& done);
