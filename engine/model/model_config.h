// SPDX-License-Identifier: Apache-2.0
// Model hyper-parameters read from GGUF metadata (keys prefixed by the
// architecture name) and checked for consistency before any tensor is used.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "common/result.h"
#include "engine/gguf/gguf_reader.h"

namespace kvlens {

enum class arch { llama, qwen2, qwen3, gemma, gemma2, gemma3, phi3, granite, smollm3, olmo2, exaone, internlm2,
                  qwen2moe, qwen3moe, olmoe, granitemoe, exaone4, mistral3, ernie4_5, arcee, glm4, lfm2, gpt_oss,
                  hunyuan_dense, command_r, gpt2, gptneox, phi2, stablelm, nemotron, starcoder2 };

// The feed-forward block's activation: silu (SwiGLU) or GELU, tanh form
// (GeGLU), of the gate times up; or relu_sqr, no gate: relu(up)^2 (Arcee's);
// or swiglu_oai (gpt-oss's experts): g' = min(g, 7), g' sigmoid(1.702 g')
// times clamp(up, -7, 7) + 1.
// gelu: no gate either: gelu(up) (tanh form), GPT-2's.
enum class ffn_activation { silu, gelu_tanh, relu_sqr, swiglu_oai, gelu };

// The order in which a layer of parallel blocks adds its two outputs to x,
// as each model's llama.cpp graph adds them (the same sum, other roundings):
// ffn_x_attention: (ffn + x) + attention (Cohere, GPT-NeoX);
// branches_x: (attention + ffn) + x (Phi-2);
// attention_x_ffn: (attention + x) + ffn (StableLM).
enum class parallel_adds { ffn_x_attention, branches_x, attention_x_ffn };

struct model_config {
    arch architecture = arch::llama;
    std::string arch_name;        // "llama", "qwen2", ..., "granite", "smollm3" (supported_architectures())
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
    // rope.scaling.attn_factor: RoPE's cosines and sines are multiplied by it
    // (ggml_rope_ext's attn_factor), so every score by its square; LongRoPE
    // files (Phi-3 128k, Phi-3.5, Phi-4-mini) carry it. 1: none.
    float rope_attn_factor = 1.0f;
    // rope.scaling.original_context_length (else context_length): a phi3
    // file's short RoPE factors serve contexts up to it, the long ones beyond;
    // YaRN places its ramp by it.
    int rope_original_ctx = 0;
    // YaRN (rope.scaling.type "yarn": Qwen2.5 and Qwen3 128K, SmolLM3 128k),
    // as ggml_rope_ext applies it: the slow pairs take the scaled angles
    // (rope_freq_scale = 1 / rope.scaling.factor), the fast ones keep their
    // own, a ramp between the pairs of yarn_corr_dims blends the two by
    // yarn_ext_factor, and cos and sin grow by 1 + 0.1 ln(1 / freq_scale).
    // ext_factor 0: no YaRN (llama.cpp's 1 for yarn files); beta_fast and
    // beta_slow are llama.cpp's 32 and 1 (the rotations per original context
    // where the ramp starts and ends).
    float yarn_ext_factor = 0.0f;
    // Llama 4's attention temperature (mistral3: Ministral 3): each query
    // times 1 + attn_temp_scale ln(floor(pos / attn_temp_floor) + 1), after
    // RoPE; 1 up to attn_temp_floor tokens (the original context), a little
    // more for each stretch of it beyond. 0: none.
    float attn_temp_scale = 0.0f;
    int attn_temp_floor = 0;
    float yarn_log_mul = 0.0f;   // mistral3's rope.scaling.yarn_log_multiplier (folded into rope_attn_factor); 0: none
    float yarn_beta_fast = 32.0f;
    float yarn_beta_slow = 1.0f;
    bool rope_neox = false;       // pairs (i, i + n_rot/2) rather than (2i, 2i+1)
    // rope.scaling.type "longrope": the file's rope_factors_short / _long
    // pair divides the angles (short up to rope_original_ctx, long beyond);
    // phi3 files carry the pair whatever this says, granite and minicpm
    // files only with it (and rope_freqs.weight only without it).
    bool rope_longrope = false;
    bool has_qkv_bias = false;    // qwen2, glm4, gpt-oss
    bool has_attn_out_bias = false;  // gpt-oss: attn_output.bias added to the attention block's output
    // gpt-oss: each query head's learned sink logit (attn_sinks) joins its
    // softmax's denominator, exp(sink - max), and weighs no value.
    bool has_attn_sinks = false;
    bool has_qk_norm = false;     // qwen3, gemma3, olmo2, exaone4, hunyuan-dense
    bool qk_norm_after_rope = false;  // hunyuan-dense: Q and K normed per head after RoPE, not before
    bool qk_norm_whole = false;   // olmo2: Q's and K's norms span the whole row (n_q(), n_kv()), not a head
    bool has_pre_norms = true;    // attn_norm and ffn_norm before each block (not olmo2, exaone4)
    // Cohere's Command R and R7B (command-r, cohere2): the norms are
    // LayerNorms without a bias, (x - mean) / sqrt(variance + eps) times the
    // weight (ggml_norm), eps from ARCH.attention.layer_norm_epsilon (rms_eps
    // holds it); and each layer's attention and feed-forward block read the
    // one attn_norm of the layer's input side by side, their outputs both
    // added to the residual stream (no ffn_norm).
    bool layer_norm = false;
    bool parallel_blocks = false;
    // Parallel blocks with one norm (Cohere's); GPT-NeoX's parallel blocks
    // norm x twice, attn_norm for attention and ffn_norm for the feed-forward block.
    bool shared_block_norm = false;
    parallel_adds parallel_order = parallel_adds::ffn_x_attention;
    bool has_output_bias = false;   // Phi-2: output.bias added to the logits
    // GPT-2: every LayerNorm adds its bias (attn_norm.bias, ffn_norm.bias,
    // output_norm.bias); the feed-forward products add theirs (ffn_up.bias,
    // ffn_down.bias); and positions are learned: row p of position_embd is
    // added to token p's embedding, no layer rotates, and no position past
    // n_ctx_train (the table's rows) exists.
    bool norm_bias = false;
    bool has_ffn_bias = false;
    // Nemotron: the attention output's and feed-forward products' biases
    // where the file has them (llama.cpp's optional tensors).
    bool optional_biases = false;
    bool learned_positions = false;
    std::vector<int> layer_window;  // (n_layer) sliding window, 0: full attention
    // LFM2's short-convolution layers, in place of attention where the file's
    // per-layer head_count_kv is 0: in_proj makes B, C and X (n_embd each),
    // a depthwise causal convolution of shortconv_l_cache taps runs over B*X
    // along the tokens, C gates its output, out_proj brings it back. Such a
    // layer's window (layer_window) is shortconv_l_cache tokens: the B*X rows
    // it reads, kept in the KV cache's local group (kv_geometry::layer_conv).
    std::vector<char> layer_conv;   // (n_layer) 1: a short-convolution layer
    int shortconv_l_cache = 0;      // the convolution's taps (LFM2: 3)

    // Gemma 3 and its kind; the defaults are the llama family's.
    float rope_freq_base_swa = 10000.0f;  // RoPE base of sliding-window layers
    float rope_freq_scale_swa = 1.0f;     // and their linear scaling (none)
    // OLMo 3: sliding-window layers rotate plainly, whatever the file's
    // scaling (no YaRN ramp, no attention factor); full layers take it.
    bool swa_plain_rope = false;
    float attn_scale = 0.0f;              // score scale; 0: 1 / sqrt(head_dim)
    float embd_scale = 1.0f;              // embeddings times this (gemma3: sqrt(n_embd))
    float final_logit_softcap = 0.0f;     // logits = c * tanh(logits / c); 0: none
    float attn_logit_softcap = 0.0f;      // scaled scores = c * tanh(s / c) before the softmax (gemma2); 0: none
    bool has_post_norms = false;          // post_attention_norm and post_ffw_norm (gemma2, gemma3, olmo2, exaone4)
    ffn_activation ffn_act = ffn_activation::silu;

    // Granite: each block's output (attention's, the feed-forward's) times
    // residual_scale before it joins the residual stream; the logits divided
    // by logit_scale. 1: none.
    float residual_scale = 1.0f;
    float logit_scale = 1.0f;
    // Cohere: the logits times ARCH.logit_scale (a multiplier, where
    // Granite's divides). 1: none.
    float logit_mul = 1.0f;
    // (n_layer) 1 where the layer rotates Q and K; SmolLM3 leaves every
    // fourth layer unrotated (NoPE), a Granite file with
    // rope.scaling.finetuned false every layer.
    std::vector<char> layer_rope;

    // Mixture of experts (Mixtral's llama files, qwen2moe, qwen3moe, olmoe):
    // each layer's feed-forward block is n_expert blocks of n_ff_exp rows; a
    // router's softmax over the experts picks each token's n_expert_used most
    // probable ones, whose outputs are summed weighted by those probabilities
    // (renormalized to sum 1 where moe_norm_weights: Mixtral, Qwen3-MoE), as
    // llama.cpp's build_moe_ffn does. qwen2moe adds a shared expert of
    // n_ff_shared rows, gated per token by sigmoid(x . ffn_gate_inp_shexp).
    // n_expert 0: a dense feed-forward block of n_ff rows. LFM2-MoE
    // (lfm2moe) keeps its first n_dense_lead layers dense (n_ff rows), picks
    // experts by sigmoid(logit) + a per-layer expert bias (ffn_exp_probs_b)
    // and weighs them by the sigmoids, renormalized.
    int n_expert = 0;
    int n_expert_used = 0;
    int n_ff_exp = 0;
    int n_ff_shared = 0;
    bool moe_norm_weights = false;
    bool moe_sigmoid = false;        // the router's probabilities are sigmoids, not a softmax
    bool moe_expert_bias = false;    // each layer's ffn_exp_probs_b.bias is added to choose (not to weigh)
    bool moe_expert_bias_optional = false;   // ERNIE 4.5: a layer without it chooses by the probabilities alone
    // gpt-oss: the router's logits (plus its bias) choose directly, and the
    // weights are the softmax of the chosen logits alone; each expert's
    // products add their biases (ffn_*_exps.bias).
    bool moe_softmax_chosen = false;
    bool moe_biases = false;
    int n_dense_lead = 0;            // layers before the first mixture of experts

    bool moe() const { return n_expert > 0; }
    bool layer_moe(int il) const { return n_expert > 0 && il >= n_dense_lead; }
    int n_moe_layers() const { return n_expert > 0 ? n_layer - n_dense_lead : 0; }
    // Rows of the widest feed-forward product a token runs (dense, expert or shared).
    int n_ff_widest() const { return std::max(n_ff, std::max(n_ff_exp, n_ff_shared)); }
    int n_q() const { return n_head * head_dim; }       // width of Q and attention output
    int n_kv() const { return n_head_kv * head_dim; }   // width of K and V rows
    // The positions a backend of max_ctx can take: GPT-2's end with its table of n_ctx_train.
    int position_limit(int max_ctx) const { return learned_positions ? std::min(max_ctx, n_ctx_train) : max_ctx; }
    bool is_swa(int il) const { return layer_window[static_cast<std::size_t>(il)] > 0 && !is_conv(il); }
    bool is_conv(int il) const { return !layer_conv.empty() && layer_conv[static_cast<std::size_t>(il)] != 0; }
    bool has_conv() const { return shortconv_l_cache > 0; }
    bool rotates(int il) const { return layer_rope[static_cast<std::size_t>(il)] != 0; }
    float rope_base(int il) const { return is_swa(il) ? rope_freq_base_swa : rope_freq_base; }
    float rope_scale(int il) const { return is_swa(il) ? rope_freq_scale_swa : rope_freq_scale; }
    bool yarn() const { return yarn_ext_factor != 0.0f; }
    float attn_temperature(int pos) const {
        if (attn_temp_scale == 0.0f) return 1.0f;
        return 1.0f + attn_temp_scale * std::log(std::floor(static_cast<float>(pos) / static_cast<float>(attn_temp_floor)) + 1.0f);
    }
    // Whether layer il's rotation takes YaRN's ramp and the attention factor
    // (all layers of a file with them, but OLMo 3's windowed ones).
    bool scaled_rope(int il) const { return !(swa_plain_rope && is_swa(il)); }
    // YaRN's ramp for a RoPE base (ggml_rope_yarn_corr_dims, model_config.cpp):
    // pairs up to [0] keep their angles, pairs from [1] on take the scaled ones.
    std::array<float, 2> yarn_corr_dims(float freq_base) const;
    float score_scale() const { return attn_scale > 0 ? attn_scale : 1.0f / std::sqrt(static_cast<float>(head_dim)); }
};

// Reads and validates the configuration; names the missing or bad key.
result<model_config> read_model_config(const gguf_file& f);

// The architectures read_model_config knows, for error messages: "llama, qwen2, ...".
const char* supported_architectures();

// Gemma 3's part of the configuration (gemma3.cpp): the layer pattern and
// window, RoPE bases, scales; called with the common keys already read.
status read_gemma3_config(const gguf_file& f, model_config& c);
// Gemma 2's (gemma2.cpp): alternating windows, soft-capped scores and logits.
status read_gemma2_config(const gguf_file& f, model_config& c);
// The llama family's variants (llama_variants.cpp): Gemma (1)'s scales and
// GeGLU, Granite's four scales, SmolLM3's unrotated layers.
status read_gemma_config(const gguf_file& f, model_config& c);
status read_granite_config(const gguf_file& f, model_config& c);
status read_smollm3_config(const gguf_file& f, model_config& c);
status read_mistral3_config(const gguf_file& f, model_config& c);
status read_glm4_config(const gguf_file& f, model_config& c);
// Qwen3-VL's and Qwen2-VL's multimodal RoPE sections, checked to turn a text token as NeoX RoPE does.
status read_qwen3vl_config(const gguf_file& f, model_config& c);
// LFM2's (lfm2.cpp): which layers convolve (head_count_kv per layer, 0 for
// those), their taps; read in place of the common head_count_kv.
status read_lfm2_layers(const gguf_file& f, model_config& c);
status read_olmo2_config(const gguf_file& f, model_config& c);
// gpt-oss's (gpt_oss.cpp): biases, sinks, alternating windows, its experts' gating and activation.
status read_gpt_oss_config(const gguf_file& f, model_config& c);
status read_exaone4_config(const gguf_file& f, model_config& c);
// Command R's and Command R7B's (layer_norm_archs.cpp): LayerNorms, parallel
// blocks, the logit multiplier; R7B's windows and its unrotated full layers.
status read_cohere_config(const gguf_file& f, model_config& c);
// GPT-2's (layer_norm_archs.cpp): LayerNorms and products with biases, GELU,
// learned positions.
status read_gpt2_config(const gguf_file& f, model_config& c);
// GPT-NeoX's (layer_norm_archs.cpp): GPT-2's biases and GELU with NeoX RoPE
// over rope.dimension_count dimensions, parallel blocks where the file says.
status read_gptneox_config(const gguf_file& f, model_config& c);
// Phi-2's (layer_norm_archs.cpp): Cohere's one norm and side-by-side blocks
// with GPT-2's biases and GELU, partial NeoX RoPE, a bias on the logits.
status read_phi2_config(const gguf_file& f, model_config& c);
// StableLM's (layer_norm_archs.cpp): LayerNorms with biases, optional Q/K/V
// biases, SwiGLU, partial NeoX RoPE; parallel blocks where a file has no ffn_norm.
status read_stablelm_config(const gguf_file& f, model_config& c);
// Nemotron's (layer_norm_archs.cpp): LayerNorms with biases, relu(up)^2,
// optional biases, NeoX RoPE over part of each head.
status read_nemotron_config(const gguf_file& f, model_config& c);
// StarCoder 2's (layer_norm_archs.cpp): GPT-2's biases and GELU on apart
// Q, K, V with RoPE in NeoX halves.
status read_starcoder2_config(const gguf_file& f, model_config& c);
// Which layers of an olmo2 (OLMo 3) or exaone4 file slide a window, as
// llama.cpp's load_swa_pattern reads it: ARCH.attention.sliding_window_pattern
// as one bool per layer (true: windowed), or as a period P (layer il windowed
// unless il % P == P - 1), else `default_period`; each windowed layer gets
// `window` tokens (sliding_windows.cpp).
status read_sliding_windows(const gguf_file& f, model_config& c, int window, int default_period);
// A window in tokens under `key`: absent, `fallback`; else an integer in
// [least, 2^24], or an error naming the key (gemma2, gemma3, olmo2, exaone4).
status read_window_tokens(const gguf_file& f, const std::string& key, int fallback, int least, int& out);
// The flags alone, from `key` (Gemma 3 reads its pattern before it knows its window).
result<std::vector<bool>> window_layer_flags(const gguf_file& f, const std::string& key, int n_layer, int default_period);
// The experts' counts and sizes (model_moe.cpp), for every architecture: a
// file with {arch}.expert_count > 0 is a mixture of experts.
status read_moe_config(const gguf_file& f, model_config& c);

}  // namespace kvlens
