// SPDX-License-Identifier: Apache-2.0
// What a loaded model is, as the model panel and `kvlens-cli info` show it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kvlens {

struct model_info {
    std::string path;
    std::string name;               // general.name
    std::string architecture;       // "llama", "qwen2", ...
    int n_layer = 0;
    int n_head = 0;
    int n_head_kv = 0;
    int head_dim = 0;
    int n_embd = 0;
    int n_ff = 0;
    int n_ctx_train = 0;
    int n_vocab = 0;
    std::int64_t n_params = 0;
    // A mixture of experts: experts per layer, per token, their rows and the
    // shared expert's (qwen2moe); the parameters a token runs through (the
    // others' experts left out). 0: a dense model.
    int n_file_parts = 1;         // a model in parts (gguf_split.h): how many; path is the first
    int n_expert = 0;
    int n_expert_used = 0;
    int n_ff_exp = 0;
    int n_ff_shared = 0;
    int n_dense_lead = 0;         // LFM2-MoE: dense layers before the first experts
    bool expert_sigmoid = false;  // the router's probabilities are sigmoids (with an expert bias), not a softmax
    bool expert_softmax_chosen = false;  // gpt-oss: weights the softmax of the chosen logits; biased experts
    bool expert_softmax_bias = false;    // ERNIE 4.5: chosen by the softmax plus an expert bias, weighted by the softmax
    bool attn_sinks = false;      // gpt-oss: a learned sink logit per head in the softmax's denominator
    std::int64_t n_params_active = 0;
    std::int64_t weight_bytes = 0;          // bytes of all tensors as stored
    std::int64_t kv_bytes_per_token_f16 = 0;  // 2 * n_attention_layers * n_head_kv * head_dim * 2
    std::int64_t kv_bytes_per_token_q8_0 = 0; // same with 34 bytes per 32 elements; 0 where q8_0 cannot hold it
    // A q8_0 cache needs heads of a multiple of 32 dimensions (a block must
    // not straddle two heads): not Phi-2's 80.
    bool kv_q8_0_possible = true;
    int sliding_window = 0;                 // 0: every layer full attention
    int n_window_layers = 0;                // attention layers with a sliding window
    // LFM2's short-convolution layers (no K or V): how many, their taps, and
    // the f32 B*X rows each keeps: n_conv_layers * conv_taps * n_embd * 4 bytes
    // per sequence however long. 0: none.
    int n_conv_layers = 0;
    std::vector<int> conv_layers;   // their indices
    int conv_taps = 0;
    std::int64_t conv_state_bytes = 0;
    int n_attention_layers() const { return n_layer - n_conv_layers; }
    std::map<std::string, int> tensor_types;  // "Q4_1" -> count
    std::string chat_template_kind;         // chat_format's kind: "chatml", "llama3", "gemma", ..., "none"
    // RoPE as the full-attention layers apply it: the frequency base, Llama
    // 3.1's per-pair factors (rope_freqs.weight), a linear scaling factor,
    // phi3's LongRoPE factors (short ones up to rope_original_ctx tokens of
    // context, long ones beyond) and the attention factor on cos and sin.
    double rope_freq_base = 0;
    bool rope_llama3_factors = false;
    double rope_linear_factor = 1;   // positions divided by this (1: none)
    bool rope_longrope_factors = false;
    int rope_original_ctx = 0;       // tokens
    double rope_attn_factor = 1;     // 1: none
    double rope_yarn_factor = 0;     // YaRN's context factor, from rope_original_ctx tokens (0: no YaRN)
    double rope_yarn_log_mul = 0;    // mistral3: YaRN's magnitude set by this log multiplier (0: YaRN's own)
    double rope_magnitude = 1;       // with it: what cos and sin are multiplied by in all
    bool rope_plain_in_windows = false;   // OLMo 3: the windowed layers rotate without the scaling
    double attn_temp_scale = 0;      // Llama 4's query temperature (Ministral 3): 1 + this ln(floor(pos / floor) + 1)
    int attn_temp_floor = 0;         // tokens
    // GPT-2: positions are learned rows added to the embeddings (no RoPE;
    // rope_freq_base 0), n_ctx_train of them: no context is longer.
    bool learned_positions = false;
    int rope_dims = 0;   // dimensions of each head RoPE turns (less than head_dim: GLM-4, Phi-3 small, Pythia)
    std::string rope;                // all in words: "base 500000, Llama 3.1 frequency factors"
    // Gemma's soft-capping, c * tanh(x / c): of the attention scores before
    // the softmax (Gemma 2) and of the logits (Gemma 2, some Gemma 3); 0: none.
    double attn_softcap = 0;
    double final_softcap = 0;
    // Scales besides llama's (1, and scores times 1 / sqrt(head_dim)): the
    // embeddings' (Gemma: sqrt(n_embd); Granite's embedding_scale), the
    // scores' when the file sets it (Granite; 0: 1 / sqrt(head_dim)), the
    // block outputs' before the residual add and the logits' divisor (Granite).
    double embedding_scale = 1;
    double attention_scale = 0;
    double residual_scale = 1;
    double logit_scale = 1;
    double logit_mul = 1;   // Cohere: the logits times this (1: none)
    // Where the RMS norms are: before each block (pre-norm), after each
    // block's output (gemma2, gemma3, olmo2), and on Q and K (per head:
    // qwen3, gemma3; over the whole rows: olmo2).
    bool pre_norms = true;
    bool post_norms = false;
    // Cohere's: LayerNorms (mean subtracted) rather than RMS norms, and one
    // norm per layer whose output attention and the feed-forward block read
    // side by side, both added to the residual stream.
    bool layer_norm = false;
    bool norm_bias = false;   // GPT-2: its LayerNorms add a bias
    bool parallel_blocks = false;
    bool shared_block_norm = false;   // Cohere: one norm read by both; GPT-NeoX: a norm each
    enum class qk_norm_kind { none, per_head, whole_rows, per_head_after_rope };
    qk_norm_kind qk_norm = qk_norm_kind::none;
    std::string norms;                   // all in words: "before each block, Q and K per head"
    std::vector<int> unrotated_layers;   // layers (from 0) without RoPE: SmolLM3's NoPE layers
    std::string scales;                  // all in words: "embeddings x12, scores x0.015625, ..."; empty: none
    std::string file_type;                  // e.g. "Q4_1"
};

}  // namespace kvlens
