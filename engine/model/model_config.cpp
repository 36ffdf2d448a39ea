// SPDX-License-Identifier: Apache-2.0
// Model configuration from GGUF metadata.
#include "engine/model/model_config.h"

#include <fmt/format.h>

namespace kvlens {

namespace {

// A required positive integer `{arch}.{key}`.
bool required_int(const gguf_file& f, const std::string& key, int& out, std::string& why) {
    const gguf_value* v = f.find(key);
    if (!v || !v->is_integer()) {
        why = fmt::format("missing or non-integer metadata '{}'", key);
        return false;
    }
    const std::int64_t x = v->as_int();
    if (x <= 0 || x > (1 << 24)) {
        why = fmt::format("metadata '{}' = {} is out of range", key, x);
        return false;
    }
    out = static_cast<int>(x);
    return true;
}

}  // namespace

const char* supported_architectures() { return "llama, qwen2, qwen3, gemma3"; }

result<model_config> read_model_config(const gguf_file& f) {
    model_config c;
    c.arch_name = f.get_string("general.architecture");
    if (c.arch_name.empty()) return make_error("missing metadata 'general.architecture'");
    if (c.arch_name == "llama") c.architecture = arch::llama;
    else if (c.arch_name == "qwen2") c.architecture = arch::qwen2;
    else if (c.arch_name == "qwen3") c.architecture = arch::qwen3;
    else if (c.arch_name == "gemma3") c.architecture = arch::gemma3;
    else return make_error(fmt::format("unsupported architecture '{}' (supported: {})", c.arch_name, supported_architectures()));

    const std::string p = c.arch_name + ".";
    std::string why;
    if (!required_int(f, p + "block_count", c.n_layer, why) ||
        !required_int(f, p + "embedding_length", c.n_embd, why) ||
        !required_int(f, p + "feed_forward_length", c.n_ff, why) ||
        !required_int(f, p + "attention.head_count", c.n_head, why))
        return make_error(why);
    c.n_head_kv = static_cast<int>(f.get_int(p + "attention.head_count_kv", c.n_head));
    if (c.n_head_kv <= 0 || c.n_head % c.n_head_kv != 0)
        return make_error(fmt::format("head_count_kv {} does not divide head_count {}", c.n_head_kv, c.n_head));
    c.head_dim = static_cast<int>(f.get_int(p + "attention.key_length", c.n_embd / c.n_head));
    if (c.head_dim <= 0 || c.head_dim % 2 != 0 || c.head_dim > 1024)
        return make_error(fmt::format("head dimension {} is not supported", c.head_dim));
    c.n_rot = static_cast<int>(f.get_int(p + "rope.dimension_count", c.head_dim));
    if (c.n_rot <= 0 || c.n_rot > c.head_dim || c.n_rot % 2 != 0)
        return make_error(fmt::format("rope.dimension_count {} is not valid for head dimension {}", c.n_rot, c.head_dim));
    c.n_ctx_train = static_cast<int>(f.get_int(p + "context_length", 2048));
    if (c.n_ctx_train <= 0) return make_error("context_length must be positive");
    c.rms_eps = static_cast<float>(f.get_float(p + "attention.layer_norm_rms_epsilon", 1e-5));
    c.rope_freq_base = static_cast<float>(f.get_float(p + "rope.freq_base", 10000.0));
    const std::string scaling = f.get_string(p + "rope.scaling.type", "none");
    if (scaling == "linear") {
        const double factor = f.get_float(p + "rope.scaling.factor", 1.0);
        if (factor > 0) c.rope_freq_scale = static_cast<float>(1.0 / factor);
    }
    c.rope_neox = c.architecture != arch::llama;
    c.has_qkv_bias = c.architecture == arch::qwen2;
    c.has_qk_norm = c.architecture == arch::qwen3;
    c.layer_window.assign(static_cast<std::size_t>(c.n_layer), 0);
    if (c.architecture == arch::gemma3)
        if (status st = read_gemma3_config(f, c); !st) return st.err();

    const gguf_value* tokens = f.find("tokenizer.ggml.tokens");
    const std::int64_t n_tokens = tokens && tokens->as_array() ? static_cast<std::int64_t>(tokens->as_array()->size()) : 0;
    c.n_vocab = static_cast<int>(f.get_int(p + "vocab_size", n_tokens));
    if (c.n_vocab <= 0) return make_error("vocabulary size unknown: no tokenizer.ggml.tokens and no vocab_size");
    return c;
}

}  // namespace kvlens
