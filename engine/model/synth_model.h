// SPDX-License-Identifier: Apache-2.0
// Synthetic GGUF models: random weights in the shapes of real models, with a
// small valid byte-level tokenizer and a ChatML template. They let speed and
// CUDA-vs-CPU checks run where real weights cannot travel, and give the tests
// a tiny model that loads in milliseconds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/common/result.h"
#include "engine/gguf/gguf_types.h"

namespace kvlens {

struct synth_shape {
    std::string name;         // "tiny", "smollm2-135m", "llama-1b", "llama-8b"
    int n_layer = 0;
    int n_embd = 0;
    int n_ff = 0;
    int n_head = 0;
    int n_head_kv = 0;
    int n_vocab = 0;
    int n_ctx = 0;
    float rope_base = 10000.0f;
    bool tied_output = true;
};

// The known shapes; an unknown name gives an error listing them.
result<synth_shape> synth_shape_named(const std::string& name);
std::vector<std::string> synth_shape_names();

// Writes a model of that shape with weights of `type` (matrices; norms are
// F32, the embedding Q8_0 unless type is F32/F16/BF16). Deterministic for a seed.
status write_synth_model(const synth_shape& shape, ggml_type type, const std::string& path,
                         std::uint64_t seed = 1);

}  // namespace kvlens
