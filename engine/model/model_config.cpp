// SPDX-License-Identifier: Apache-2.0
// Model configuration from GGUF metadata. Every integer is read as the 64-bit
// value the file holds and checked against its range before it is narrowed,
// and the layer count is checked against the tensors the file has, before
// anything is sized from it.
#include "engine/model/model_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/printable.h"

namespace kvlens {

namespace {

// A required positive integer `{arch}.{key}`.
bool required_int(const gguf_file& f, const std::string& key, int& out, std::string& why) {
    const gguf_value* v = f.find(key);
    if (!v || !v->is_integer()) {
        why = fmt::format("missing or non-integer metadata '{}'", key);
        return false;
    }
    auto x = f.get_int_in(key, 0, 1, 1 << 24);
    if (!x) {
        why = x.message();
        return false;
    }
    out = *x;
    return true;
}

// An optional integer in [min, max]; 64-bit values are never cut to 32 bits.
bool optional_int(const gguf_file& f, const std::string& key, int fallback, int min, int max, int& out, std::string& why) {
    auto x = f.get_int_in(key, fallback, min, max);
    if (!x) {
        why = x.message();
        return false;
    }
    out = *x;
    return true;
}

// Tensors each layer has at least: norms, q, k, v, output, gate, up, down;
// phi3 fuses q, k and v into one tensor and gate and up into another; arcee
// has no gate.
constexpr std::int64_t k_min_tensors_per_layer = 9;
constexpr std::int64_t k_min_tensors_per_phi3_layer = 6;
constexpr std::int64_t k_min_tensors_per_arcee_layer = 8;
constexpr std::int64_t k_min_tensors_per_cohere_layer = 8;   // one norm, Q, K, V, output, gate, up, down
constexpr std::int64_t k_min_tensors_per_lfm2_layer = 8;   // a convolution layer: 2 norms, kernel, in, out, gate, up, down

// YaRN as llama.cpp 0.3.16 reads it for every architecture here:
// rope.scaling.factor (freq_scale = 1 / factor), the original context (read
// by the caller, else context_length), and the rest from llama.cpp's context
// defaults: ext_factor 1 (its "unset" becomes 1 for a yarn file), beta_fast
// 32, beta_slow 1, the attention factor rope.scaling.attn_factor alone.
// Later llama.cpp reads yarn_* keys for other architectures, and changed
// what yarn_log_multiplier does; 0.3.16 reads none of them here, so a file
// that sets one to anything but the value llama.cpp uses is refused by the
// key: no reference could hold kvlens to it. mistral3, which came after
// 0.3.16, is read as 0.3.36 reads it: yarn_beta_fast and yarn_beta_slow, and
// yarn_log_multiplier m (HF's mscale_all_dim): the cosines and sines then
// take mscale(factor, 1) / mscale(factor, m) with mscale(s, x) = 1 + 0.1 x
// ln s, instead of YaRN's 1 + 0.1 ln(factor) (Ministral 3's m = 1: neither).
status read_yarn_config(const gguf_file& f, model_config& c) {
    const std::string p = c.arch_name + ".";
    const double factor = f.get_float(p + "rope.scaling.factor", 1.0);
    if (!(factor >= 1 && factor <= 1024))
        return make_error(fmt::format("metadata '{}rope.scaling.factor' = {} is not a YaRN factor in [1, 1024]", p, factor));
    c.rope_freq_scale = static_cast<float>(1.0 / factor);
    c.yarn_ext_factor = 1.0f;
    struct unread_key {
        const char* key;
        double llama_cpp_value;
    };
    const unread_key unread[] = {{"yarn_ext_factor", 1.0}, {"yarn_attn_factor", 1.0}, {"yarn_beta_fast", 32.0},
                                 {"yarn_beta_slow", 1.0}, {"yarn_log_multiplier", 0.0}};
    const bool read_betas = c.architecture == arch::mistral3;
    for (const unread_key& u : unread) {
        const std::string key = p + "rope.scaling." + u.key;
        const std::string_view name = u.key;
        if (read_betas && (name == "yarn_beta_fast" || name == "yarn_beta_slow" || name == "yarn_log_multiplier")) {
            const double x = f.get_float(key, u.llama_cpp_value);
            if (!(std::isfinite(x) && x >= 0 && x <= 1024))
                return make_error(fmt::format("metadata '{}' = {} is not a YaRN parameter in [0, 1024]", key, x));
            if (name == "yarn_beta_fast") c.yarn_beta_fast = static_cast<float>(x);
            else if (name == "yarn_beta_slow") c.yarn_beta_slow = static_cast<float>(x);
            else if (x != 0) {
                c.yarn_log_mul = static_cast<float>(x);
                // The rotation multiplies in YaRN's own mscale(factor, 1), so the
                // factor that makes mscale(factor, 1) / mscale(factor, m) is 1 / mscale(factor, m).
                c.rope_attn_factor = static_cast<float>(c.rope_attn_factor / (1.0 + 0.1 * x * std::log(factor)));
            }
            continue;
        }
        const gguf_value* v = f.find(key);
        if (!v) continue;
        if (!v->is_float() && !v->is_integer())
            return make_error(fmt::format("metadata '{}' is not a number", key));
        const double x = v->as_float();
        if (!std::isfinite(x)) return make_error(fmt::format("metadata '{}' = {} is not a finite number", key, x));
        if (x != u.llama_cpp_value)
            return make_error(fmt::format("metadata '{}' = {:g}: llama.cpp (0.3.16) does not read it for {} and "
                                          "uses {:g}, so kvlens cannot be held to a reference for it",
                                          key, x, c.arch_name, u.llama_cpp_value));
    }
    return {};
}

}  // namespace

// ggml's correction dimension for a number of rotations over the original
// context: the pair that turns that many times over it,
// n_rot ln(n_ctx_orig / (2 pi rotations)) / (2 ln base); the ramp runs from the
// floor of beta_fast's to the ceiling of beta_slow's, clamped to the pairs.
// In float, as ggml computes it, so the floor and ceiling fall the same way.
std::array<float, 2> model_config::yarn_corr_dims(float freq_base) const {
    const auto corr_dim = [&](float n_rotations) {
        return static_cast<float>(n_rot) *
               std::log(static_cast<float>(rope_original_ctx) / (n_rotations * 2.0f * static_cast<float>(M_PI))) /
               (2.0f * std::log(freq_base));
    };
    const float start = std::floor(corr_dim(yarn_beta_fast));
    const float end = std::ceil(corr_dim(yarn_beta_slow));
    return {std::max(0.0f, start), std::min(static_cast<float>(n_rot - 1), end)};
}

const char* supported_architectures() {
    return "llama, qwen2, qwen2moe, qwen3, qwen3moe, gemma, gemma2, gemma3, phi3, granite, granitemoe, smollm3, "
           "minicpm, olmo2, olmoe, exaone, exaone4, internlm2, mistral3, ernie4_5, ernie4_5-moe, arcee, glm4, hunyuan-dense, lfm2, lfm2moe, qwen2vl, "
           "qwen3vl, qwen3vlmoe (text), gpt-oss, command-r, cohere2, gpt2, gptneox, phi2, stablelm, nemotron, starcoder, starcoder2";
}

result<model_config> read_model_config(const gguf_file& f) {
    model_config c;
    c.arch_name = f.get_string("general.architecture");
    if (c.arch_name.empty()) return make_error("missing metadata 'general.architecture'");
    if (c.arch_name == "llama") c.architecture = arch::llama;
    else if (c.arch_name == "qwen2") c.architecture = arch::qwen2;
    else if (c.arch_name == "qwen3") c.architecture = arch::qwen3;
    else if (c.arch_name == "gemma") c.architecture = arch::gemma;
    else if (c.arch_name == "gemma2") c.architecture = arch::gemma2;
    else if (c.arch_name == "gemma3") c.architecture = arch::gemma3;
    else if (c.arch_name == "phi3") c.architecture = arch::phi3;
    else if (c.arch_name == "granite") c.architecture = arch::granite;
    else if (c.arch_name == "minicpm") c.architecture = arch::granite;       // granite's block and scales (read_granite_config)
    else if (c.arch_name == "smollm3") c.architecture = arch::smollm3;
    else if (c.arch_name == "olmo2") c.architecture = arch::olmo2;
    else if (c.arch_name == "exaone") c.architecture = arch::exaone;         // the llama block, NeoX pairs
    else if (c.arch_name == "internlm2") c.architecture = arch::internlm2;   // the llama block
    else if (c.arch_name == "qwen2moe") c.architecture = arch::qwen2moe;     // qwen2's attention, experts
    else if (c.arch_name == "qwen3moe") c.architecture = arch::qwen3moe;     // qwen3's attention, experts
    // Qwen3-VL's language models: qwen3's (and qwen3moe's) block; their
    // interleaved multimodal RoPE gives a text token the same position in
    // every section, which is plain NeoX RoPE, and the deepstack inputs of a
    // text token are zeros (read_qwen3vl_config).
    else if (c.arch_name == "qwen3vl") c.architecture = arch::qwen3;
    else if (c.arch_name == "qwen2vl") c.architecture = arch::qwen2;        // Qwen2-VL, Qwen2.5-VL (read_qwen2vl_config)
    else if (c.arch_name == "qwen3vlmoe") c.architecture = arch::qwen3moe;
    else if (c.arch_name == "olmoe") c.architecture = arch::olmoe;           // whole-row Q and K norms, experts
    else if (c.arch_name == "granitemoe") c.architecture = arch::granitemoe; // granite's scales, experts
    else if (c.arch_name == "exaone4") c.architecture = arch::exaone4;       // norms after the blocks, windows
    else if (c.arch_name == "mistral3") c.architecture = arch::mistral3;     // the llama block, YaRN, temperature
    else if (c.arch_name == "ernie4_5") c.architecture = arch::ernie4_5;     // the llama block
    else if (c.arch_name == "ernie4_5-moe") c.architecture = arch::ernie4_5; // the same with experts (model_moe.cpp)
    else if (c.arch_name == "arcee") c.architecture = arch::arcee;           // the llama block, relu(up)^2
    else if (c.arch_name == "glm4") c.architecture = arch::glm4;             // norms before and after, biases
    else if (c.arch_name == "lfm2" || c.arch_name == "lfm2moe") c.architecture = arch::lfm2;   // short convolutions and attention (and experts)
    else if (c.arch_name == "gpt-oss") c.architecture = arch::gpt_oss;       // sinks, windows, biased experts
    else if (c.arch_name == "hunyuan-dense") c.architecture = arch::hunyuan_dense;   // QK norms after RoPE
    else if (c.arch_name == "command-r" || c.arch_name == "cohere2") c.architecture = arch::command_r;   // LayerNorms, parallel blocks
    else if (c.arch_name == "gpt2" || c.arch_name == "starcoder") c.architecture = arch::gpt2;   // LayerNorms, biases, GELU, learned positions
    else if (c.arch_name == "starcoder2") c.architecture = arch::starcoder2; // LayerNorms, biases, GELU, NeoX RoPE
    else if (c.arch_name == "gptneox") c.architecture = arch::gptneox;       // GPT-2's biases, NeoX RoPE, parallel blocks
    else if (c.arch_name == "phi2") c.architecture = arch::phi2;             // one norm, parallel blocks, biases, partial RoPE
    else if (c.arch_name == "stablelm") c.architecture = arch::stablelm;     // LayerNorms, partial NeoX RoPE, SwiGLU
    else if (c.arch_name == "nemotron") c.architecture = arch::nemotron;     // LayerNorms, relu(up)^2, optional biases
    else return make_error(fmt::format("unsupported architecture {} (supported: {})", quoted(c.arch_name), supported_architectures()));

    const std::string p = c.arch_name + ".";
    std::string why;
    if (!required_int(f, p + "block_count", c.n_layer, why) ||
        !required_int(f, p + "embedding_length", c.n_embd, why) ||
        !required_int(f, p + "feed_forward_length", c.n_ff, why) ||
        !required_int(f, p + "attention.head_count", c.n_head, why))
        return make_error(why);
    // A layer count the tensors cannot back is refused before anything is sized by it.
    const auto n_tensors = static_cast<std::int64_t>(f.tensors().size());
    const std::int64_t per_layer = c.architecture == arch::phi3    ? k_min_tensors_per_phi3_layer
                                   : c.architecture == arch::arcee ? k_min_tensors_per_arcee_layer
                                   : c.architecture == arch::command_r ? k_min_tensors_per_cohere_layer
                                   : c.architecture == arch::lfm2  ? k_min_tensors_per_lfm2_layer
                                                                   : k_min_tensors_per_layer;
    if (static_cast<std::int64_t>(c.n_layer) * per_layer > n_tensors)
        return make_error(fmt::format("metadata '{}block_count' = {} needs at least {} tensors; the file has {}", p,
                                      c.n_layer, static_cast<std::int64_t>(c.n_layer) * per_layer, n_tensors));
    if (c.architecture == arch::lfm2) {   // per layer, 0 where the layer convolves
        if (status st = read_lfm2_layers(f, c); !st) return st.err();
    } else if (!optional_int(f, p + "attention.head_count_kv", c.n_head, 1, 1 << 24, c.n_head_kv, why)) {
        return make_error(why);
    }
    if (c.n_head % c.n_head_kv != 0)
        return make_error(fmt::format("head_count_kv {} does not divide head_count {}", c.n_head_kv, c.n_head));
    if (!optional_int(f, p + "attention.key_length", c.n_embd / c.n_head, 1, 1024, c.head_dim, why)) return make_error(why);
    if (c.head_dim <= 0 || c.head_dim % 2 != 0 || c.head_dim > 1024)
        return make_error(fmt::format("head dimension {} is not supported", c.head_dim));
    if (!optional_int(f, p + "rope.dimension_count", c.head_dim, 1, 1024, c.n_rot, why)) return make_error(why);
    if (c.n_rot <= 0 || c.n_rot > c.head_dim || c.n_rot % 2 != 0)
        return make_error(fmt::format("rope.dimension_count {} is not valid for head dimension {}", c.n_rot, c.head_dim));
    if (!optional_int(f, p + "context_length", 2048, 1, std::numeric_limits<int>::max(), c.n_ctx_train, why))
        return make_error(why);
    c.rms_eps = static_cast<float>(f.get_float(p + "attention.layer_norm_rms_epsilon", 1e-5));
    c.rope_freq_base = static_cast<float>(f.get_float(p + "rope.freq_base", 10000.0));
    // RoPE scaling: none, linear or YaRN (read_yarn_config). Llama 3.1's
    // "llama3" scaling comes as the rope_freqs.weight tensor, and phi3's
    // LongRoPE as the rope_factors_long / _short tensors with the attention
    // factor below (model.cpp), whatever this key says (Phi-3's converter
    // writes none). A scaling kvlens does not compute (LongRoPE in a file of
    // another architecture, a name it does not know) changes every angle, so
    // such a file is refused rather than run with the wrong positions.
    const std::string scaling = f.get_string(p + "rope.scaling.type", "none");
    if (scaling == "linear") {
        const double factor = f.get_float(p + "rope.scaling.factor", 1.0);
        if (factor > 0) c.rope_freq_scale = static_cast<float>(1.0 / factor);
    } else if (scaling != "none" && scaling != "" && scaling != "llama3" && scaling != "yarn" &&
               !(scaling == "longrope" && (c.architecture == arch::phi3 || c.architecture == arch::granite ||
                                           c.architecture == arch::granitemoe))) {
        return make_error(fmt::format("RoPE scaling {} is not supported (supported: none, linear, llama3, yarn, and "
                                      "longrope in phi3, granite and minicpm files)",
                                      quoted(scaling)));
    }
    // LongRoPE's factor pair in place of rope_freqs.weight (model.cpp), as
    // llama.cpp loads one or the other in granite and minicpm files.
    c.rope_longrope = scaling == "longrope";
    const double attn_factor = f.get_float(p + "rope.scaling.attn_factor", 1.0);
    if (!(attn_factor > 0 && attn_factor <= 16))
        return make_error(fmt::format("metadata '{}rope.scaling.attn_factor' = {} is not a factor in (0, 16]", p,
                                      attn_factor));
    c.rope_attn_factor = static_cast<float>(attn_factor);
    if (!optional_int(f, p + "rope.scaling.original_context_length", c.n_ctx_train, 1,
                      std::numeric_limits<int>::max(), c.rope_original_ctx, why))
        return make_error(why);
    if (scaling == "yarn")
        if (status st = read_yarn_config(f, c); !st) return st.err();
    // llama.cpp's rope type: adjacent pairs for these, NeoX's halves for the rest.
    c.rope_neox = c.architecture != arch::llama && c.architecture != arch::granite &&
                  c.architecture != arch::granitemoe && c.architecture != arch::smollm3 &&
                  c.architecture != arch::internlm2 && c.architecture != arch::mistral3 &&
                  c.architecture != arch::ernie4_5 && c.architecture != arch::arcee && c.architecture != arch::glm4 &&
                  c.architecture != arch::command_r;
    c.has_qkv_bias = c.architecture == arch::qwen2 || c.architecture == arch::qwen2moe || c.architecture == arch::glm4;
    if (c.architecture == arch::arcee) c.ffn_act = ffn_activation::relu_sqr;
    c.has_qk_norm = c.architecture == arch::qwen3 || c.architecture == arch::qwen3moe || c.architecture == arch::olmoe ||
                    c.architecture == arch::lfm2 || c.architecture == arch::hunyuan_dense;
    // Hunyuan's dense models (0.5B-7B, Hunyuan-MT) rotate Q and K first and
    // norm them per head after, as llama.cpp's graph does.
    c.qk_norm_after_rope = c.architecture == arch::hunyuan_dense;
    c.qk_norm_whole = c.architecture == arch::olmoe;
    if (status st = read_moe_config(f, c); !st) return st.err();
    c.layer_window.assign(static_cast<std::size_t>(c.n_layer), 0);
    for (int il = 0; il < c.n_layer; ++il)   // LFM2: a convolution layer holds its taps' rows
        if (c.is_conv(il)) c.layer_window[static_cast<std::size_t>(il)] = c.shortconv_l_cache;
    c.layer_rope.assign(static_cast<std::size_t>(c.n_layer), 1);
    if (c.architecture == arch::gemma)
        if (status st = read_gemma_config(f, c); !st) return st.err();
    if (c.architecture == arch::granite || c.architecture == arch::granitemoe)
        if (status st = read_granite_config(f, c); !st) return st.err();
    if (c.architecture == arch::smollm3)
        if (status st = read_smollm3_config(f, c); !st) return st.err();
    if (c.architecture == arch::olmo2)
        if (status st = read_olmo2_config(f, c); !st) return st.err();
    if (c.architecture == arch::exaone4)
        if (status st = read_exaone4_config(f, c); !st) return st.err();
    if (c.architecture == arch::mistral3)
        if (status st = read_mistral3_config(f, c); !st) return st.err();
    if (c.architecture == arch::glm4)
        if (status st = read_glm4_config(f, c); !st) return st.err();
    if (c.architecture == arch::gpt_oss)
        if (status st = read_gpt_oss_config(f, c); !st) return st.err();
    if (c.architecture == arch::command_r)
        if (status st = read_cohere_config(f, c); !st) return st.err();
    if (c.architecture == arch::gpt2)
        if (status st = read_gpt2_config(f, c); !st) return st.err();
    if (c.architecture == arch::gptneox)
        if (status st = read_gptneox_config(f, c); !st) return st.err();
    if (c.architecture == arch::phi2)
        if (status st = read_phi2_config(f, c); !st) return st.err();
    if (c.architecture == arch::stablelm)
        if (status st = read_stablelm_config(f, c); !st) return st.err();
    if (c.architecture == arch::nemotron)
        if (status st = read_nemotron_config(f, c); !st) return st.err();
    if (c.architecture == arch::starcoder2)
        if (status st = read_starcoder2_config(f, c); !st) return st.err();
    if (c.arch_name == "qwen3vl" || c.arch_name == "qwen3vlmoe" || c.arch_name == "qwen2vl")
        if (status st = read_qwen3vl_config(f, c); !st) return st.err();
    if (c.architecture == arch::gemma3)
        if (status st = read_gemma3_config(f, c); !st) return st.err();
    if (c.architecture == arch::gemma2)
        if (status st = read_gemma2_config(f, c); !st) return st.err();

    const gguf_value* tokens = f.find("tokenizer.ggml.tokens");
    const std::uint64_t n_tokens = tokens && tokens->as_array() ? tokens->as_array()->count : 0;
    if (n_tokens > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        return make_error(fmt::format("tokenizer.ggml.tokens has {} entries, more than a token id can count", n_tokens));
    if (!optional_int(f, p + "vocab_size", static_cast<int>(n_tokens), 0, std::numeric_limits<int>::max(), c.n_vocab, why))
        return make_error(why);
    if (c.n_vocab <= 0) return make_error("vocabulary size unknown: no tokenizer.ggml.tokens and no vocab_size");
    return c;
}

}  // namespace kvlens
