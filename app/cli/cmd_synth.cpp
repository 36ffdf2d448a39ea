// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli synth-model --like SHAPE --type T OUT.gguf`: random weights in a
// real model's shape, for speed and CUDA checks where real weights cannot travel.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/cli/commands.h"
#include "engine/model/synth_model.h"

namespace {

struct synth_args {
    std::string like = "smollm2-135m";
    std::string type = "Q4_1";
    std::string out;
    unsigned long long seed = 1;
};

int run_synth(const synth_args& a) {
    auto shape = kvlens::synth_shape_named(a.like);
    if (!shape) { fmt::print(stderr, "kvlens-cli synth-model: {}\n", shape.message()); return 1; }
    static const std::pair<const char*, kvlens::ggml_type> types[] = {
        {"F32", kvlens::ggml_type::f32}, {"F16", kvlens::ggml_type::f16}, {"BF16", kvlens::ggml_type::bf16},
        {"Q8_0", kvlens::ggml_type::q8_0}, {"Q4_0", kvlens::ggml_type::q4_0}, {"Q4_1", kvlens::ggml_type::q4_1},
        {"Q5_0", kvlens::ggml_type::q5_0}, {"Q5_1", kvlens::ggml_type::q5_1}};
    for (const auto& [name, t] : types) {
        if (a.type != name) continue;
        auto s = kvlens::write_synth_model(*shape, t, a.out, a.seed);
        if (!s) { fmt::print(stderr, "kvlens-cli synth-model: {}\n", s.message()); return 1; }
        fmt::print(stderr, "wrote {} ({} shape, {} weights)\n", a.out, a.like, a.type);
        return 0;
    }
    fmt::print(stderr, "kvlens-cli synth-model: unsupported --type '{}' (F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1)\n", a.type);
    return 1;
}

}  // namespace

void add_synth_model_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<synth_args>();
    CLI::App* cmd = app.add_subcommand("synth-model", "Write a random-weight GGUF with a real model's shape");
    cmd->add_option("--like", args->like, "Shape: tiny, tiny-gemma3, smollm2-135m, gemma3-270m, llama-1b, llama-8b");
    cmd->add_option("--type", args->type, "Weight type: F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1");
    cmd->add_option("--seed", args->seed, "Random seed");
    cmd->add_option("out", args->out, "Output GGUF path")->required();
    cmd->callback([args, &exit_code] { exit_code = run_synth(*args); });
}
