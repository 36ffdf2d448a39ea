// SPDX-License-Identifier: Apache-2.0
// gpt-oss (OpenAI's open-weight gpt-oss-20b and -120b) as llama.cpp
// (0.3.16, `openai-moe-iswa`) reads it: the llama family's attention with
// biases on Q, K, V and the output, NeoX RoPE with the file's YaRN in every
// layer; every other layer (the even ones, as load_swa_pattern(ml, 2) has
// it) attends over a window of attention.sliding_window tokens; each head
// has a learned attention sink (attn_sinks: a logit that joins the softmax's
// denominator and weighs no value); the norm before the feed-forward block
// is the file's post_attention_norm; every feed-forward block is a mixture
// of experts whose router has a bias, whose n_expert_used largest logits are
// the choice and whose weights are the softmax of those logits alone, each
// expert with biases on its three products and the "swiglu_oai" activation:
// min(g, 7) sigmoid(1.702 min(g, 7)) (clamp(u, -7, 7) + 1).
#include <fmt/format.h>

#include "engine/model/model_config.h"

namespace kvlens {

namespace {
constexpr int k_gpt_oss_pattern = 2;   // layer il windowed unless il % 2 == 1
}  // namespace

status read_gpt_oss_config(const gguf_file& f, model_config& c) {
    c.has_qkv_bias = true;
    c.has_attn_out_bias = true;
    c.has_attn_sinks = true;
    c.ffn_act = ffn_activation::swiglu_oai;
    if (!c.moe()) return make_error("missing metadata 'gpt-oss.expert_count' (a gpt-oss model has experts)");
    int window = 0;
    if (auto st = read_window_tokens(f, "gpt-oss.attention.sliding_window", 0, 1, window); !st) return st;
    if (window == 0) return make_error("missing metadata 'gpt-oss.attention.sliding_window' (its windowed layers need one)");
    if (auto st = read_sliding_windows(f, c, window, k_gpt_oss_pattern); !st) return st;
    // The windowed layers rotate as the others (the file's base unless it names its own, and its scaling).
    c.rope_freq_base_swa = static_cast<float>(f.get_float("gpt-oss.rope.freq_base_swa", c.rope_freq_base));
    c.rope_freq_scale_swa = c.rope_freq_scale;
    return {};
}

}  // namespace kvlens
