// SPDX-License-Identifier: Apache-2.0
// The configurations of the models that norm with LayerNorm rather than RMS
// norm, as llama.cpp reads them (llama-cpp-python 0.3.16 and 0.3.36 alike):
//   - command-r (Command R 35B, Aya 23, Aya Expanse 8B and 32B): every norm a
//     LayerNorm without a bias (ARCH.attention.layer_norm_epsilon, required);
//     each layer's attention and SwiGLU feed-forward block read the same
//     normed input and both outputs join the residual stream; RoPE in
//     adjacent pairs; the output matrix always the embedding; the logits
//     times ARCH.logit_scale where the file has one that is not 0. Files of
//     64 layers or more (Command R+, 104B) norm Q and K per head with
//     weights of each head's own, which kvlens does not compute: refused.
//   - cohere2 (Command R7B, Command A): the same block, and three layers in
//     four slide a window of ARCH.attention.sliding_window tokens (the
//     pattern key where the file has one, as llama.cpp's load_swa_pattern
//     with a period of 4); the windowed layers rotate with the file's RoPE
//     base and scaling (llama.cpp's graph passes the model's, not a windowed
//     base: ARCH.rope.freq_base_swa is read there but not used), the full
//     layers not at all.
//   - gpt2 (GPT-2 and its fine-tunes, DistilGPT-2; and starcoder, BigCode's
//     GPT-BigCode: StarCoder 1, SantaCoder, TinyStarCoder, the same block
//     with one K/V head): LayerNorms with biases
//     before each block; Q, K and V one product (attn_qkv) with a bias, the
//     attention output and both feed-forward products with theirs; a GELU
//     (tanh form) between up and down, no gate; no RoPE: row p of
//     position_embd (context_length rows, required) is added to the
//     embedding of the token at position p.
//   - gptneox (EleutherAI's Pythia and GPT-NeoX, Dolly v2, RedPajama-INCITE):
//     GPT-2's LayerNorms, biases and GELU, but RoPE in NeoX's halves over
//     the first rope.dimension_count dimensions of each head (a quarter in
//     Pythia), and with gptneox.use_parallel_residual (required, as llama.cpp
//     reads it) each layer's attention and feed-forward block side by side,
//     each from its own norm of x: x + attn(ln1(x)) + ffn(ln2(x)), added as
//     (ffn + x) + attention.
//   - phi2 (Microsoft's Phi-2, Phi-1.5): one LayerNorm (with a bias) per
//     layer read by attention and the feed-forward block side by side, added
//     as (attention + ffn) + x; Q, K and V fused or apart, each with a bias;
//     the attention output, both feed-forward products (GELU between, no
//     gate) and the logits (output.bias) with biases; NeoX RoPE over the
//     first rope.dimension_count dimensions (32 of Phi-2's 80).
//   - stablelm (StableLM 2 1.6B and its Zephyr and chat models, StableLM 3B
//     4E1T, StableLM Zephyr 3B): LayerNorms with biases, Q, K and V biases
//     where the file has them, SwiGLU without biases, NeoX RoPE over the
//     first rope.dimension_count dimensions (a quarter); a file whose layers
//     have no ffn_norm (StableLM 2 12B) runs attention and the feed-forward
//     block side by side from attn_norm, added as (attention + x) + ffn.
//     Per-head Q/K LayerNorms with weights of each head's own (StableLM 2
//     12B) are not computed: such files are refused by name.
//   - nemotron (NVIDIA's Nemotron-Mini 4B, Minitron 4B and 8B): LayerNorms
//     with biases (the converter folds LayerNorm1p's + 1 into the weights),
//     relu(up)^2 without a gate, NeoX RoPE over rope.dimension_count of each
//     head (half), and the biases of Q, K, V, the attention output and both
//     feed-forward products where the file has them.
//   - starcoder2 (StarCoder 2 3B-15B): LayerNorms with biases; Q, K, V apart,
//     each with its bias (required, as llama.cpp), the attention output and
//     the GELU feed-forward products with theirs; RoPE in NeoX halves.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "engine/model/model_config.h"

namespace kvlens {

namespace {

constexpr int k_command_r_plus_depth = 64;   // llama.cpp loads per-head Q/K norms from this depth on
constexpr int k_cohere2_pattern = 4;         // llama.cpp's load_swa_pattern(ml, 4): 3 windowed, 1 full
constexpr double k_largest_logit_mul = 1e6;

}  // namespace

namespace {

// LayerNorms, their epsilon from ARCH.attention.layer_norm_epsilon (required), in rms_eps.
status read_layer_norm(const gguf_file& f, model_config& c) {
    const std::string key = c.arch_name + ".attention.layer_norm_epsilon";
    const gguf_value* eps = f.find(key);
    if (!eps || !(eps->is_float() || eps->is_integer()))
        return make_error(fmt::format("missing or bad metadata '{}' (the LayerNorms' epsilon)", key));
    const double e = eps->as_float();
    if (!(e > 0 && e < 1)) return make_error(fmt::format("metadata '{}' = {} is not in (0, 1)", key, e));
    c.rms_eps = static_cast<float>(e);
    c.layer_norm = true;
    return {};
}

// The GPT-2 family's biases: the LayerNorms', Q, K and V's, the attention
// output's and the feed-forward products', with `act` between them.
void biased_block(model_config& c, ffn_activation act) {
    c.norm_bias = true;
    c.has_qkv_bias = true;
    c.has_attn_out_bias = true;
    c.has_ffn_bias = true;
    c.ffn_act = act;
}

}  // namespace

status read_gpt2_config(const gguf_file& f, model_config& c) {
    if (auto st = read_layer_norm(f, c); !st) return st;
    if (!f.find(c.arch_name + ".context_length"))
        return make_error(fmt::format("missing metadata '{}.context_length' (the learned positions' count)", c.arch_name));
    biased_block(c, ffn_activation::gelu);
    c.learned_positions = true;
    c.layer_rope.assign(c.layer_rope.size(), 0);
    return {};
}

status read_gptneox_config(const gguf_file& f, model_config& c) {
    if (auto st = read_layer_norm(f, c); !st) return st;
    const std::string key = c.arch_name + ".use_parallel_residual";
    const gguf_value* par = f.find(key);
    if (!par || par->type != gguf_value_type::boolean)
        return make_error(fmt::format("missing or bad metadata '{}' (a bool)", key));
    c.parallel_blocks = f.get_bool(key);
    biased_block(c, ffn_activation::gelu);
    return {};
}

status read_phi2_config(const gguf_file& f, model_config& c) {
    if (auto st = read_layer_norm(f, c); !st) return st;
    c.parallel_blocks = true;
    c.shared_block_norm = true;
    c.parallel_order = parallel_adds::branches_x;
    biased_block(c, ffn_activation::gelu);
    c.has_output_bias = true;
    return {};
}

status read_stablelm_config(const gguf_file& f, model_config& c) {
    if (auto st = read_layer_norm(f, c); !st) return st;
    if (f.tensor("blk.0.attn_q_norm.weight"))
        return make_error("stablelm: Q and K normed per head with weights of each head's own (StableLM 2 12B); kvlens "
                          "does not compute that");
    c.norm_bias = true;
    c.has_qkv_bias = true;   // where the file has them (StableLM 2)
    if (!f.tensor("blk.0.ffn_norm.weight")) {   // llama.cpp: no ffn_norm, the parallel residual
        c.parallel_blocks = true;
        c.shared_block_norm = true;
        c.parallel_order = parallel_adds::attention_x_ffn;
    }
    return {};
}

status read_nemotron_config(const gguf_file& f, model_config& c) {
    if (auto st = read_layer_norm(f, c); !st) return st;
    biased_block(c, ffn_activation::relu_sqr);
    c.optional_biases = true;
    return {};
}

status read_starcoder2_config(const gguf_file& f, model_config& c) {
    if (auto st = read_layer_norm(f, c); !st) return st;
    biased_block(c, ffn_activation::gelu);
    return {};
}

status read_cohere_config(const gguf_file& f, model_config& c) {
    const std::string p = c.arch_name + ".";
    if (c.arch_name == "command-r" && c.n_layer >= k_command_r_plus_depth)
        return make_error(fmt::format("command-r with {} layers (Command R+) norms Q and K per head with weights of each "
                                      "head's own; kvlens does not compute that",
                                      c.n_layer));
    if (auto st = read_layer_norm(f, c); !st) return st;
    c.parallel_blocks = true;
    c.shared_block_norm = true;

    if (const gguf_value* v = f.find(p + "logit_scale")) {
        if (!v->is_float() && !v->is_integer()) return make_error(fmt::format("metadata '{}logit_scale' is not a number", p));
        const double mul = v->as_float();
        if (!(std::isfinite(mul) && std::fabs(mul) < k_largest_logit_mul))
            return make_error(fmt::format("metadata '{}logit_scale' = {} is not a multiplier", p, mul));
        if (mul != 0) c.logit_mul = static_cast<float>(mul);   // llama.cpp scales only by a value that is not 0
    }
    if (c.arch_name != "cohere2") return {};

    int window = 0;
    if (auto st = read_window_tokens(f, p + "attention.sliding_window", -1, 1, window); !st) return st;
    if (window < 0) return make_error(fmt::format("missing metadata '{}attention.sliding_window'", p));
    if (auto st = read_sliding_windows(f, c, window, k_cohere2_pattern); !st) return st;
    c.rope_freq_base_swa = c.rope_freq_base;
    c.rope_freq_scale_swa = c.rope_freq_scale;
    for (int il = 0; il < c.n_layer; ++il)
        if (!c.is_swa(il)) c.layer_rope[static_cast<std::size_t>(il)] = 0;
    return {};
}

}  // namespace kvlens
