// SPDX-License-Identifier: Apache-2.0
// Writes the tiny test model with the same generator as `kvlens-cli synth-model`.
#include "tests/support/tiny_model.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "engine/model/synth_model.h"
#include "tests/support/temp_dir.h"

namespace kvlens::test {

std::string tiny_model_path(const std::string& type) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("kvlens-tiny-" + type + "-" + std::to_string(::getpid()) + ".gguf");
    if (std::filesystem::exists(path)) return path.string();
    removed_at_exit(path);
    ggml_type t = ggml_type::q4_1;
    if (type == "Q8_0") t = ggml_type::q8_0;
    else if (type == "F32") t = ggml_type::f32;
    else if (type == "F16") t = ggml_type::f16;
    auto shape = synth_shape_named("tiny");
    status s = write_synth_model(*shape, t, path.string(), 42);
    if (!s) {
        std::fprintf(stderr, "tiny model: %s\n", s.message().c_str());
        return {};
    }
    return path.string();
}

}  // namespace kvlens::test
