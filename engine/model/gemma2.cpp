// SPDX-License-Identifier: Apache-2.0
// Gemma 2's configuration, as llama.cpp (0.3.16's) derives it from the GGUF
// metadata:
//   - layers alternate: even layers attend within a sliding window
//     (gemma2.attention.sliding_window, 4096 when absent), odd layers see
//     every key; both rotate with the file's RoPE base.
//   - attention scores soft-capped, c * tanh(s / c), with
//     c = gemma2.attn_logit_softcapping (50 when absent), after the query
//     scale; the logits likewise with gemma2.final_logit_softcapping (30).
//   - query scale 1 / sqrt(key_length), except for the 46-layer (27B) model,
//     where it is 1 / sqrt(n_embd / n_head): llama.cpp hard-codes it from
//     gemma_pytorch's configuration.
//   - embeddings times sqrt(n_embd); four RMS norms per block (post-attention
//     and post-feed-forward too); GeGLU (tanh); NeoX RoPE; no QK norms.
#include <cmath>

#include <fmt/format.h>

#include "engine/model/model_config.h"

namespace kvlens {

namespace {

constexpr int k_default_window = 4096;            // llama.cpp's default for Gemma 2
constexpr double k_default_attn_softcap = 50.0;   // llama_hparams' defaults
constexpr double k_default_final_softcap = 30.0;
constexpr int k_27b_layers = 46;

}  // namespace

status read_gemma2_config(const gguf_file& f, model_config& c) {
    int window = k_default_window;
    if (status st = read_window_tokens(f, "gemma2.attention.sliding_window", k_default_window, 1, window); !st) return st;
    // llama.cpp's pattern of 2: layer il is local when il % 2 < 1.
    for (int il = 0; il < c.n_layer; il += 2) c.layer_window[static_cast<std::size_t>(il)] = window;

    const std::int64_t value_length = f.get_int("gemma2.attention.value_length", c.head_dim);
    if (value_length != c.head_dim)
        return make_error(fmt::format("gemma2: value_length {} differs from key_length {} (not supported)", value_length,
                                      c.head_dim));
    const double attn_cap = f.get_float("gemma2.attn_logit_softcapping", k_default_attn_softcap);
    const double final_cap = f.get_float("gemma2.final_logit_softcapping", k_default_final_softcap);
    if (!(attn_cap > 0 && attn_cap < 1e6))
        return make_error(fmt::format("gemma2.attn_logit_softcapping = {} is not a positive cap", attn_cap));
    if (!(final_cap > 0 && final_cap < 1e6))
        return make_error(fmt::format("gemma2.final_logit_softcapping = {} is not a positive cap", final_cap));
    c.attn_logit_softcap = static_cast<float>(attn_cap);
    c.final_logit_softcap = static_cast<float>(final_cap);

    c.rope_neox = true;
    c.has_qk_norm = false;
    c.has_post_norms = true;
    c.ffn_act = ffn_activation::gelu_tanh;
    c.rope_freq_base_swa = c.rope_freq_base;
    c.rope_freq_scale_swa = c.rope_freq_scale;
    c.embd_scale = std::sqrt(static_cast<float>(c.n_embd));
    const double scalar = c.n_layer == k_27b_layers ? static_cast<double>(c.n_embd) / c.n_head : c.head_dim;
    c.attn_scale = static_cast<float>(1.0 / std::sqrt(scalar));
    return {};
}

}  // namespace kvlens
