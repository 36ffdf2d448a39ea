// SPDX-License-Identifier: Apache-2.0
// The engine and sampling options shared by `generate` and `summarize`, and
// the run loop that streams text and writes the metrics file.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/runtime/engine.h"

namespace CLI {
class App;
}

struct generate_options {
    std::string model;
    std::string system;
    int max_tokens = 256;
    float temp = 0.0f;
    int top_k = 40;
    float top_p = 0.95f;
    float min_p = 0.05f;
    float repeat_penalty = 1.0f;
    unsigned long long seed = 0;
    std::string backend = "auto";
    int threads = 0;
    std::string kv = "paged";
    std::string kv_dtype = "f16";
    int kv_block = 16;
    long long kv_budget = 0;
    int chunk = 256;
    int parallel = 1;
    int ctx = 0;
    int draft = 0;         // speculative decoding: draft tokens per step (0: off)
    int draft_ngram = 3;   // the longest suffix the draft lookup matches
    std::string metrics_json;
    bool quiet = false;    // no backend line on stderr
};

// Adds the options above to a subcommand (model_required: --model is mandatory).
void add_generate_options(CLI::App* cmd, generate_options& o, bool model_required);

// Builds engine options; false with a message on a bad value.
bool make_engine_options(const generate_options& o, kvlens::engine_options& out, std::string& why);
kvlens::sampling_params make_sampling(const generate_options& o);
kvlens::speculation_params make_speculation(const generate_options& o);
// For a chat without --system: the system prompt the model's template adds,
// on stderr, so that no instruction from the file is hidden.
void show_default_system(const kvlens::engine& e, const generate_options& o);

// Runs requests on one engine (in order, up to `parallel` at once): streams
// text to stdout (whole texts, one after another, when several run at once),
// appends event lines to the metrics file, and returns each request's final
// text; false if any failed (its message already on stderr).
struct run_result {
    std::vector<std::string> texts;
    std::vector<kvlens::event_done> done;
};
bool run_requests(kvlens::engine& e, const std::vector<kvlens::request_params>& reqs, int parallel,
                  std::FILE* metrics, bool stream_stdout, run_result& out, const char* who);
