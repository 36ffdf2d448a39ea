// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli synth-model --like SHAPE --type T OUT.gguf`: random weights in a
// real model's shape, for speed and CUDA checks where real weights cannot travel,
// and the check-* shapes that tests/reference/generate_synth_reference.py runs
// through llama.cpp. With --parts N the file is written, then split as
// llama.cpp's gguf-split splits it (OUT without .gguf, -0000i-of-0000N.gguf).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

#include "app/cli/commands.h"
#include "engine/gguf/gguf_split.h"
#include "engine/model/synth_model.h"

namespace {

struct synth_args {
    std::string like = "smollm2-135m";
    std::string type = "Q4_1";
    std::string out;
    unsigned long long seed = 1;
    int parts = 1;
};

int run_synth(const synth_args& a) {
    auto shape = kvlens::synth_shape_named(a.like);
    if (!shape) { fmt::print(stderr, "kvlens-cli synth-model: {}\n", shape.message()); return 1; }
    auto type = kvlens::synth_type_named(a.type);
    if (!type) { fmt::print(stderr, "kvlens-cli synth-model: {}\n", type.message()); return 1; }
    auto s = kvlens::write_synth_model(*shape, *type, a.out, a.seed);
    if (!s) { fmt::print(stderr, "kvlens-cli synth-model: {}\n", s.message()); return 1; }
    if (a.parts > 1) {   // the whole file split, then removed
        auto whole = kvlens::gguf_file::open(a.out);
        if (!whole) { fmt::print(stderr, "kvlens-cli synth-model: {}\n", whole.message()); return 1; }
        const std::string prefix = a.out.size() > 5 && a.out.ends_with(".gguf") ? a.out.substr(0, a.out.size() - 5) : a.out;
        std::vector<std::string> paths;
        if (auto st = kvlens::write_split_gguf(**whole, a.parts, prefix, &paths); !st) {
            fmt::print(stderr, "kvlens-cli synth-model: {}\n", st.message());
            return 1;
        }
        whole->reset();
        std::remove(a.out.c_str());
        fmt::print(stderr, "wrote {} ({} shape, {} weights, {} parts)\n", fmt::join(paths, ", "), a.like, a.type, a.parts);
        return 0;
    }
    fmt::print(stderr, "wrote {} ({} shape, {} weights)\n", a.out, a.like, a.type);
    return 0;
}

}  // namespace

void add_synth_model_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<synth_args>();
    CLI::App* cmd = app.add_subcommand("synth-model", "Write a random-weight GGUF with a real model's shape");
    cmd->add_option("--like", args->like, fmt::format("Shape: {}", fmt::join(kvlens::synth_shape_names(), ", ")));
    cmd->add_option("--type", args->type, fmt::format("Weight type: {}", fmt::join(kvlens::synth_type_names(), ", ")));
    cmd->add_option("--seed", args->seed, "Random seed");
    cmd->add_option("--parts", args->parts, "Write the model in this many parts, as llama.cpp's gguf-split does")
        ->check(CLI::Range(1, kvlens::k_gguf_max_parts));
    cmd->add_option("out", args->out, "Output GGUF path")->required();
    cmd->callback([args, &exit_code] { exit_code = run_synth(*args); });
}
