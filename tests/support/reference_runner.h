// SPDX-License-Identifier: Apache-2.0
// What the suites that hold a model to llama.cpp's golden data share
// (tests/model/test_reference_agreement, test_gemma3_reference): a model on
// the CPU backend with one sequence in 16 KV blocks, the first-step logit
// difference to the reference, and the greedy comparison: identical for the
// first n tokens, or, where the two part earlier, the reference's top-2
// margin at that step is a near tie (below `near_tie`, or below twice the
// prompt's first-step difference, the noise of that prompt).
// Plain C++ (no test framework): checks come back as values the suite asserts.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "engine/backend/backend.h"
#include "engine/model/model.h"

namespace kvlens::test {

// tests/reference/data/<name>, parsed.
nlohmann::json load_reference_data(const std::string& name);

struct reference_runner {
    std::unique_ptr<kvlens::model> m;
    std::unique_ptr<kvlens::backend> be;
    std::vector<std::int32_t> table;   // (16) block ids 0..15
    std::vector<float> logits;         // (n_vocab) f32, of the last fed token

    // Loads the model and gives the backend 16 f16 blocks (256 tokens) with
    // the model's sliding windows.
    kvlens::status open(const std::filesystem::path& model_path, int max_batch);
    // Feeds ids at positions [pos, pos + n); logits of the last one.
    kvlens::status feed(const std::vector<std::int32_t>& ids, int pos);
    // Largest |kvlens - llama.cpp| over the first step's recorded logits (the
    // reference's top-10 and ids 0..31); the prompt must just have been fed.
    double first_step_difference(const nlohmann::json& entry) const;
};

// What a reference suite loads once: the model on the runner and its golden
// data, or why not. `skip` names a file that is absent (the suite skips),
// `error` a model that did not load (the suite fails).
struct reference_suite_state {
    reference_runner runner;
    nlohmann::json golden;
    std::string skip;
    std::string error;

    // Loads `model_path` and tests/reference/data/<golden_name>; when either
    // is absent only `skip` is set, to the sentence given for it (golden data
    // given no sentence is required: its absence is an `error`).
    void load(const std::filesystem::path& model_path, int max_batch, const std::string& golden_name,
              const std::string& no_model, const std::string& no_golden);
};

struct greedy_agreement {
    std::string name;      // the entry's prompt name
    bool ok = false;
    std::string failure;   // why not, when !ok
    std::string note;      // what happened, for the log
};

// Feeds the entry's prompt, then its greedy continuation step by step.
greedy_agreement check_greedy(reference_runner& r, const nlohmann::json& entry, int required_identical,
                              double near_tie);
// The same for every entry of the golden data, in order.
std::vector<greedy_agreement> check_greedy_all(reference_runner& r, const nlohmann::json& golden,
                                               int required_identical, double near_tie);

}  // namespace kvlens::test
