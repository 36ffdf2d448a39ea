// SPDX-License-Identifier: Apache-2.0
// Synthetic GGUF models: random weights in the shapes of real models, with a
// small valid byte-level tokenizer and a ChatML template. They let speed and
// CUDA-vs-CPU checks run where real weights cannot travel, and give the tests
// a tiny model that loads in milliseconds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "engine/gguf/gguf_types.h"

namespace kvlens {

struct synth_shape {
    std::string name;         // "tiny", "tiny-gemma3", "smollm2-135m", "gemma3-270m", "llama-1b", "llama-8b"
    int n_layer = 0;
    int n_embd = 0;
    int n_ff = 0;
    int n_head = 0;
    int n_head_kv = 0;
    int n_vocab = 0;
    int n_ctx = 0;
    float rope_base = 10000.0f;
    bool tied_output = true;
    std::string arch = "llama";   // "llama" or "gemma3" (post-norms, QK norms, GeGLU, windows)
    int head_dim = 0;             // 0: n_embd / n_head
    int sliding_window = 0;       // gemma3: gemma3.attention.sliding_window (0: key not written)
    std::vector<int> swa_pattern; // gemma3: written as sliding_window_pattern when not empty (1: local)
};

// The known shapes; an unknown name gives an error listing them.
result<synth_shape> synth_shape_named(const std::string& name);
std::vector<std::string> synth_shape_names();

// Writes a model of that shape with weights of `type` (matrices; norms are
// F32, the embedding Q8_0 unless type is F32/F16/BF16). Deterministic for a seed.
status write_synth_model(const synth_shape& shape, ggml_type type, const std::string& path,
                         std::uint64_t seed = 1);

}  // namespace kvlens
