// SPDX-License-Identifier: Apache-2.0
// Gemma 3's configuration, as llama.cpp derives it from the GGUF metadata:
//   - layers alternate sliding-window (local) and full (global) attention. With
//     gemma3.attention.sliding_window = W > 0, llama.cpp's pattern is 6: layer
//     il is local unless il % 6 == 5 (five local, then one global). A file may
//     also carry gemma3.attention.sliding_window_pattern, as an integer period
//     or as one bool per layer (true: local); both are read, and a pattern
//     that does not fit the layers, or one without a window, is an error.
//     No window: every layer global, as in llama.cpp.
//   - local layers rotate with RoPE base 10000 unscaled; global layers with
//     gemma3.rope.freq_base and the file's linear scaling.
//   - query scale 1 / sqrt(query_pre_attn_scalar): key_length, except for the
//     62-layer (27B) model where it is n_embd / n_head (llama.cpp hard-codes
//     this from gemma_pytorch's config); a file's
//     gemma3.attention.query_pre_attn_scalar wins when present.
//   - embeddings times sqrt(n_embd); four RMS norms per block; GeGLU (tanh);
//     QK RMS norm per head; NeoX RoPE; optional final logit soft-capping.
#include <cmath>

#include <fmt/format.h>

#include "engine/model/model_config.h"

namespace kvlens {

namespace {

constexpr int k_llama_cpp_pattern = 6;   // llama.cpp's hparams.set_swa_pattern(6) for gemma3

// One flag per layer, true: sliding window (window_layer_flags); a pattern
// without a window is an error, no window leaves every layer global.
result<std::vector<bool>> layer_pattern(const gguf_file& f, int n_layer, bool have_window) {
    const std::string key = "gemma3.attention.sliding_window_pattern";
    if (!have_window) {
        if (f.find(key)) return make_error(key + " is set but there is no sliding_window");
        return std::vector<bool>(static_cast<std::size_t>(n_layer), false);
    }
    return window_layer_flags(f, key, n_layer, k_llama_cpp_pattern);
}

}  // namespace

status read_gemma3_config(const gguf_file& f, model_config& c) {
    int window = 0;
    if (status st = read_window_tokens(f, "gemma3.attention.sliding_window", 0, 0, window); !st) return st;
    auto local = layer_pattern(f, c.n_layer, window > 0);
    if (!local) return local.err();
    int n_local = 0;
    for (int il = 0; il < c.n_layer; ++il)
        if ((*local)[static_cast<std::size_t>(il)]) {
            c.layer_window[static_cast<std::size_t>(il)] = window;
            ++n_local;
        }
    if (window > 0 && n_local == c.n_layer)
        return make_error(fmt::format("gemma3: the sliding-window pattern leaves none of the {} layers global", c.n_layer));

    const std::int64_t value_length = f.get_int("gemma3.attention.value_length", c.head_dim);
    if (value_length != c.head_dim)
        return make_error(fmt::format("gemma3: value_length {} differs from key_length {} (not supported)", value_length,
                                      c.head_dim));

    c.rope_neox = true;
    c.has_qk_norm = true;
    c.has_post_norms = true;
    c.ffn_act = ffn_activation::gelu_tanh;
    c.rope_freq_base_swa = 10000.0f;
    c.rope_freq_scale_swa = 1.0f;
    c.embd_scale = std::sqrt(static_cast<float>(c.n_embd));
    c.final_logit_softcap = static_cast<float>(f.get_float("gemma3.final_logit_softcapping", 0.0));
    if (c.final_logit_softcap < 0) return make_error("gemma3.final_logit_softcapping must not be negative");

    double scalar = c.n_layer == 62 ? static_cast<double>(c.n_embd) / c.n_head : c.head_dim;
    scalar = f.get_float("gemma3.attention.query_pre_attn_scalar", scalar);
    if (!(scalar > 0)) return make_error("gemma3.attention.query_pre_attn_scalar must be positive");
    c.attn_scale = static_cast<float>(1.0 / std::sqrt(scalar));
    return {};
}

}  // namespace kvlens
