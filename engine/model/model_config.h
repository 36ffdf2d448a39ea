// SPDX-License-Identifier: Apache-2.0
// Model hyper-parameters read from GGUF metadata (keys prefixed by the
// architecture name) and checked for consistency before any tensor is used.
#pragma once

#include <string>
#include <vector>

#include "engine/common/result.h"
#include "engine/gguf/gguf_reader.h"

namespace kvlens {

enum class arch { llama, qwen2, qwen3 };

struct model_config {
    arch architecture = arch::llama;
    std::string arch_name;        // "llama", "qwen2", "qwen3"
    int n_layer = 0;
    int n_embd = 0;
    int n_ff = 0;
    int n_head = 0;
    int n_head_kv = 0;
    int head_dim = 0;             // per head; n_embd / n_head unless the file says otherwise
    int n_rot = 0;                // dimensions RoPE rotates
    int n_vocab = 0;
    int n_ctx_train = 0;
    float rms_eps = 1e-5f;
    float rope_freq_base = 10000.0f;
    float rope_freq_scale = 1.0f; // linear scaling: 1 / factor
    bool rope_neox = false;       // pairs (i, i + n_rot/2) rather than (2i, 2i+1)
    bool has_qkv_bias = false;    // qwen2
    bool has_qk_norm = false;     // qwen3
    std::vector<int> layer_window;  // (n_layer) sliding window, 0: full attention

    int n_q() const { return n_head * head_dim; }       // width of Q and attention output
    int n_kv() const { return n_head_kv * head_dim; }   // width of K and V rows
};

// Reads and validates the configuration; names the missing or bad key.
result<model_config> read_model_config(const gguf_file& f);

}  // namespace kvlens
