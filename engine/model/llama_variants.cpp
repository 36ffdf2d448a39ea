// SPDX-License-Identifier: Apache-2.0
// The llama family's variants, as llama.cpp (0.3.16's) reads their GGUF
// metadata; each is the llama block with a few numbers changed:
//   - gemma (Gemma 1): embeddings times sqrt(n_embd), GeGLU (tanh), NeoX
//     RoPE, the output matrix always the embedding (an output.weight in the
//     file is not read, as llama.cpp does not read it).
//   - granite (Granite 3.x dense; granitemoe, Granite 3.x MoE, the same with
//     experts, its keys under granitemoe.): embeddings times granite.embedding_scale,
//     scores times granite.attention.scale (for 1 / sqrt(head_dim)), each
//     block's output times granite.residual_scale before the residual add,
//     logits divided by granite.logit_scale (required, as in llama.cpp); an
//     absent optional scale, or one of 0, is none. With
//     granite.rope.scaling.finetuned false no layer rotates.
//   - minicpm (MiniCPM 1 and 2, MiniCPM4): granite's block, which llama.cpp
//     builds for it, with its three scales required (scale_emb, scale_depth
//     / sqrt(layers), hidden / dim_model_base), the default score scale, every
//     layer rotated in adjacent pairs; MiniCPM4's LongRoPE as a
//     rope_factors_short / _long pair (rope.scaling.type "longrope", which
//     granite files may carry too).
//   - smollm3: layer il rotates unless (il + 1) % 4 == 0 (llama.cpp's
//     n_no_rope_layer_step, fixed at 4, no key in the file).
//   - olmo2 (OLMo 2): no norm before a block; RMS norms over the whole Q and
//     K rows (not per head) before RoPE (NeoX pairs), and after each block's
//     output before its residual add. OLMo 3 is the same block with
//     olmo2.attention.sliding_window > 0: windowed layers by the pattern
//     (sliding_windows.cpp, period 4 by default: 3 windowed, 1 full), and
//     those rotate plainly (the file's base, no YaRN, no attention factor)
//     while the full layers take the file's scaling, as llama.cpp's olmo2
//     graph does since OLMo 3 (checked against llama-cpp-python 0.3.36;
//     0.3.16 refuses such files).
//   - mistral3 (Ministral 3; Mistral Small 3.1's text): the llama block,
//     adjacent pairs, rope_freqs where the file has it; YaRN with the betas
//     and log multiplier the file names (model_config.cpp); and, with
//     mistral3.attention.temperature_scale, Llama 4's query temperature
//     (model_config.h) over rope.scaling.original_context_length. Checked
//     against llama-cpp-python 0.3.36 (0.3.16 has no mistral3).
//   - glm4 (GLM-4-0414, GLM-Z1): norms before and after each block (as
//     Gemma 2 and 3), Q/K/V biases, gate and up fused in ffn_up (gate's rows
//     first, as phi3), adjacent pairs over rope.dimension_count of each head
//     (half of it in GLM-4). Files with rope.dimension_sections (GLM-4.1V's
//     multimodal RoPE) are refused.
//   - qwen3vl, qwen3vlmoe (Qwen3-VL's language models, text in, as kvlens
//     reads documents): qwen3's and qwen3moe's blocks. Their interleaved
//     multimodal RoPE (rope.dimension_sections over the time, height and
//     width positions) turns each pair by one of a token's three positions,
//     and a text token has the same in all three: plain NeoX RoPE. The
//     deepstack inputs added to the first n_deepstack_layers layers' outputs
//     are image features, zeros for text. Checked against llama-cpp-python
//     0.3.36 (0.3.16 has no Qwen3-VL).
//   - qwen2vl (Qwen2-VL, Qwen2.5-VL's language models): qwen2's block; their
//     multimodal RoPE's sections lie one after another, and a text token
//     turns every pair by its position (no fourth section) as NeoX RoPE.
//   - exaone4 (EXAONE 4.0): OLMo 2's norms after the blocks, but Q and K
//     normed per head; NeoX pairs; Llama 3.1's RoPE factors where the file
//     has them. As llama.cpp: a 64-layer file (the 32B) slides windows of
//     exaone4.attention.sliding_window tokens (else 4096) by the pattern
//     (period 4), and its full layers do not rotate (NoPE); a file of
//     another depth (the 1.2B) has full attention, rotated, in every layer,
//     whatever its window keys say.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "engine/model/model_config.h"

namespace kvlens {

namespace {

constexpr int k_smollm3_no_rope_step = 4;
constexpr double k_largest_scale = 1e6;
constexpr int k_olmo3_pattern = 4;             // llama.cpp's load_swa_pattern(ml, 4) for olmo2
constexpr int k_exaone4_windowed_depth = 64;   // llama.cpp windows EXAONE 4.0 files of this depth only
constexpr int k_exaone4_window = 4096;         // and their window when the file names none
constexpr int k_exaone4_pattern = 4;

// An optional positive scale `key`; absent or 0 (llama.cpp's "unset") gives `fallback`.
status read_scale(const gguf_file& f, const std::string& key, bool required, float fallback, float& out) {
    const gguf_value* v = f.find(key);
    if (!v) {
        if (required) return make_error(fmt::format("missing metadata '{}'", key));
        out = fallback;
        return {};
    }
    if (!v->is_float() && !v->is_integer()) return make_error(fmt::format("metadata '{}' is not a number", key));
    const double x = v->as_float();
    if (x == 0 && !required) {
        out = fallback;
        return {};
    }
    if (!(x > 0 && x < k_largest_scale))
        return make_error(fmt::format("metadata '{}' = {} is not a positive scale", key, x));
    out = static_cast<float>(x);
    return {};
}

}  // namespace

status read_gemma_config(const gguf_file&, model_config& c) {
    c.ffn_act = ffn_activation::gelu_tanh;
    c.embd_scale = std::sqrt(static_cast<float>(c.n_embd));
    return {};
}

status read_granite_config(const gguf_file& f, model_config& c) {
    const std::string p = c.arch_name + ".";   // granite., granitemoe. or minicpm.
    // MiniCPM's converter writes its three scales always (llama.cpp requires
    // them), no attention scale (llama.cpp reads none: 1 / sqrt(head_dim)),
    // and every layer rotates.
    const bool minicpm = c.arch_name == "minicpm";
    if (auto st = read_scale(f, p + "logit_scale", true, 1.0f, c.logit_scale); !st) return st;
    if (auto st = read_scale(f, p + "embedding_scale", minicpm, 1.0f, c.embd_scale); !st) return st;
    if (auto st = read_scale(f, p + "residual_scale", minicpm, 1.0f, c.residual_scale); !st) return st;
    if (minicpm) return {};
    if (auto st = read_scale(f, p + "attention.scale", false, 0.0f, c.attn_scale); !st) return st;
    if (!f.get_bool(p + "rope.scaling.finetuned", true)) c.layer_rope.assign(c.layer_rope.size(), 0);
    return {};
}

status read_olmo2_config(const gguf_file& f, model_config& c) {
    c.has_pre_norms = false;
    c.has_post_norms = true;
    c.has_qk_norm = true;
    c.qk_norm_whole = true;
    int window = 0;
    if (auto st = read_window_tokens(f, "olmo2.attention.sliding_window", 0, 0, window); !st) return st;
    if (window == 0) return {};
    c.swa_plain_rope = true;
    c.rope_freq_base_swa = c.rope_freq_base;
    c.rope_freq_scale_swa = 1.0f;
    return read_sliding_windows(f, c, window, k_olmo3_pattern);
}

status read_mistral3_config(const gguf_file& f, model_config& c) {
    const gguf_value* v = f.find("mistral3.attention.temperature_scale");
    if (!v) return {};
    if (!v->is_float() && !v->is_integer()) return make_error("metadata 'mistral3.attention.temperature_scale' is not a number");
    const double scale = v->as_float();
    if (!(std::isfinite(scale) && std::fabs(scale) <= 100))
        return make_error(fmt::format("metadata 'mistral3.attention.temperature_scale' = {} is not a scale in [-100, 100]", scale));
    c.attn_temp_scale = static_cast<float>(scale);
    c.attn_temp_floor = c.rope_original_ctx;   // llama.cpp's n_ctx_orig_yarn, at least 1
    return {};
}

status read_glm4_config(const gguf_file& f, model_config& c) {
    if (const gguf_value* v = f.find("glm4.rope.dimension_sections")) {
        bool any = false;
        if (const auto* arr = v->as_array(); arr && arr->is_integer())
            for (std::size_t i = 0; i < arr->size(); ++i) any = any || arr->int_at(i) != 0;
        if (any || !v->as_array())
            return make_error("glm4.rope.dimension_sections: multimodal RoPE (GLM-4.1V) is not supported");
    }
    c.has_post_norms = true;
    return {};
}

status read_qwen3vl_config(const gguf_file& f, model_config& c) {
    const std::string key = c.arch_name + ".rope.dimension_sections";
    const gguf_value* v = f.find(key);
    const auto* arr = v ? v->as_array() : nullptr;
    if (!arr || !arr->is_integer() || arr->size() < 3 || arr->size() > 4)
        return make_error(fmt::format("missing or malformed metadata '{}' (3 or 4 section sizes)", key));
    std::int64_t pairs = 0;
    for (std::size_t i = 0; i < arr->size(); ++i) {
        const std::int64_t n = arr->int_at(i);
        if (n < 0 || n > c.n_rot) return make_error(fmt::format("metadata '{}' holds a section of {} pairs", key, n));
        pairs += n;
    }
    if (pairs > c.n_rot / 2)
        return make_error(fmt::format("metadata '{}' sections {} pairs, more than the {} rotated", key, pairs, c.n_rot / 2));
    // Qwen2-VL's sections lie one after another and repeat over the pairs (a
    // pair's section is its index modulo their sum); a text token turns by its
    // position in the first three and by 0 in a fourth, so with no fourth
    // every pair turns as in NeoX RoPE. Its files (Qwen2-VL, Qwen2.5-VL) have none.
    if (c.arch_name == "qwen2vl") {
        if (pairs == 0) return make_error(fmt::format("metadata '{}' sections no pairs", key));
        if (arr->size() == 4 && arr->int_at(3) != 0)
            return make_error(fmt::format("metadata '{}' has a fourth section of {} pairs, which leaves text tokens "
                                          "unrotated there; kvlens does not compute that",
                                          key, arr->int_at(3)));
    }
    return {};
}

status read_exaone4_config(const gguf_file& f, model_config& c) {
    c.has_pre_norms = false;
    c.has_post_norms = true;
    c.has_qk_norm = true;
    if (c.n_layer != k_exaone4_windowed_depth) return {};
    int window = 0;
    if (auto st = read_window_tokens(f, "exaone4.attention.sliding_window", k_exaone4_window, 0, window); !st) return st;
    if (window == 0) return make_error("exaone4.attention.sliding_window is 0 in a 64-layer file (windowed layers need one)");
    if (auto st = read_sliding_windows(f, c, window, k_exaone4_pattern); !st) return st;
    // Windowed layers rotate with the file's base and scaling; full ones not at all.
    c.rope_freq_base_swa = c.rope_freq_base;
    c.rope_freq_scale_swa = c.rope_freq_scale;
    for (int il = 0; il < c.n_layer; ++il)
        if (!c.is_swa(il)) c.layer_rope[static_cast<std::size_t>(il)] = 0;
    return {};
}

status read_smollm3_config(const gguf_file&, model_config& c) {
    for (int il = 0; il < c.n_layer; ++il)
        if ((il + 1) % k_smollm3_no_rope_step == 0) c.layer_rope[static_cast<std::size_t>(il)] = 0;
    return {};
}

}  // namespace kvlens
