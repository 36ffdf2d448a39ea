// SPDX-License-Identifier: Apache-2.0
// A loaded model: the mapped GGUF file, its configuration, and views of every
// weight tensor, checked for presence, shape and a supported type at load.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "engine/gguf/gguf_reader.h"
#include "engine/model/model_config.h"
#include "engine/model/forward_batch.h"
#include "engine/model/model_info.h"
#include "engine/model/weight_view.h"

namespace kvlens {

// Small vectors (norms, biases) are converted to f32 and owned.
using f32_vector = std::vector<float>;

struct layer_weights {
    f32_vector attn_norm;         // (n_embd)
    f32_vector attn_norm_b;       // (n_embd) its bias (GPT-2's LayerNorms); else empty
    weight_view wq;               // (n_q, n_embd)
    weight_view wk;               // (n_kv, n_embd)
    weight_view wv;               // (n_kv, n_embd)
    weight_view wo;               // (n_embd, n_q)
    f32_vector bq, bk, bv;        // (n_q), (n_kv), (n_kv); empty without biases
    f32_vector bo;                // (n_embd) attn_output.bias (gpt-oss); else empty
    f32_vector attn_sinks;        // (n_head) each query head's sink logit (gpt-oss); else empty
    f32_vector q_norm, k_norm;    // (head_dim); empty without per-head norms
    f32_vector post_attn_norm;    // (n_embd) on the attention output; empty unless gemma2 or gemma3
    f32_vector ffn_norm;          // (n_embd)
    f32_vector ffn_norm_b;        // (n_embd) its bias (GPT-2); else empty
    f32_vector post_ffw_norm;     // (n_embd) on the feed-forward output; empty unless gemma2 or gemma3
    weight_view w_gate;           // (n_ff, n_embd); a mixture of experts has none (n_out 0)
    weight_view w_up;             // (n_ff, n_embd)
    weight_view w_down;           // (n_embd, n_ff)
    f32_vector up_b, down_b;      // (n_ff), (n_embd) the products' biases (GPT-2); else empty
    // A mixture of experts (model_config::layer_moe(il)): the router, each expert's
    // three matrices (views of the file's 3-D ffn_*_exps tensors, one slice
    // per expert) and qwen2moe's shared expert and its gate.
    weight_view router;                   // (n_expert, n_embd) ffn_gate_inp
    std::vector<weight_view> exp_gate;    // (n_expert) x (n_ff_exp, n_embd)
    std::vector<weight_view> exp_up;      // (n_expert) x (n_ff_exp, n_embd)
    std::vector<weight_view> exp_down;    // (n_expert) x (n_embd, n_ff_exp)
    weight_view shared_gate, shared_up;   // (n_ff_shared, n_embd); n_out 0 without a shared expert
    weight_view shared_down;              // (n_embd, n_ff_shared)
    f32_vector shared_gate_inp;           // (n_embd) the shared expert's gate: sigmoid(x . this)
    f32_vector expert_bias;               // (n_expert) LFM2-MoE's exp_probs_b: added to choose experts; else empty
    // gpt-oss: the router's bias, added to its logits, and each expert's
    // products' biases, expert e's at [e * rows, (e + 1) * rows); else empty.
    f32_vector router_bias;               // (n_expert)
    f32_vector exp_gate_bias, exp_up_bias;  // (n_expert, n_ff_exp)
    f32_vector exp_down_bias;             // (n_expert, n_embd)
    // LFM2's short-convolution layer (model_config::is_conv), in place of Q, K, V and wo:
    weight_view conv_in;                  // (3 n_embd, n_embd) shortconv.in_proj: B's rows, C's, X's
    weight_view conv_out;                 // (n_embd, n_embd) shortconv.out_proj
    f32_vector conv_kernel;               // (n_embd, taps) shortconv.conv: each channel's taps, oldest token first
};

struct model_weights {
    weight_view tok_embd;         // (n_vocab, n_embd) rows looked up by token id
    f32_vector output_norm;       // (n_embd)
    f32_vector output_norm_b;     // (n_embd) its bias (GPT-2); else empty
    f32_vector output_b;          // (n_vocab) the logits' bias (Phi-2); else empty
    // (n_ctx_train, n_embd) GPT-2's learned positions: row p added to the
    // embedding of the token at position p; n_out 0 without.
    weight_view pos_embd;
    weight_view output;           // (n_vocab, n_embd); token_embd when tied
    // (n_rot / 2) or empty: a llama file's rope_freqs.weight (Llama 3.1 and
    // later, written from the checkpoint's "llama3" RoPE scaling): each
    // rotated pair's angle is divided by its factor, in every layer, as
    // llama.cpp does (ggml_rope_ext's freq_factors).
    f32_vector rope_freqs;
    // (n_rot / 2) each, or empty: a phi3 file's LongRoPE factors
    // (rope_factors_short.weight, rope_factors_long.weight), used like
    // rope_freqs; which of the two depends on the context (model::rope_factors_for).
    f32_vector rope_factors_short, rope_factors_long;
    std::vector<layer_weights> layers;
};

class model {
public:
    static result<std::unique_ptr<model>> load(const std::string& path);
    static result<std::unique_ptr<model>> from_file(std::shared_ptr<gguf_file> f);

    const model_config& config() const { return config_; }
    const model_weights& weights() const { return weights_; }
    const model_info& info() const { return info_; }
    const gguf_file& file() const { return *file_; }
    std::shared_ptr<gguf_file> file_ptr() const { return file_; }

    // The RoPE frequency factors for a context of n_ctx positions per
    // sequence, as llama.cpp picks them: rope_freqs when the file has it,
    // else LongRoPE's long factors when n_ctx exceeds the original context
    // (model_config::rope_original_ctx), else its short ones; empty: none.
    const f32_vector& rope_factors_for(int n_ctx) const;

    // FLOPs of the matrix products for one token (2 x multiply-adds).
    double matmul_flop_per_token() const { return matmul_flop_; }
    // Bytes of the weights a decode step reads (every matrix once, embedding
    // row aside; of a mixture of experts, the router and n_expert_used experts per layer).
    double decode_weight_bytes() const { return decode_weight_bytes_; }
    // Of those, the bytes every token reads whatever the router picks (all of a dense model's).
    double dense_weight_bytes() const { return dense_weight_bytes_; }
    // What one forward pass of `batch` does, counted: FLOPs of the matrix
    // products (the output matrix only for logit rows) and of attention, bytes
    // of weights, and bytes of K/V read with rows of kv_row_bytes per layer.
    forward_counts count_forward(const forward_batch& batch, std::int64_t kv_row_bytes) const;

private:
    std::shared_ptr<gguf_file> file_;
    model_config config_;
    model_weights weights_;
    model_info info_;
    double matmul_flop_ = 0;
    double decode_weight_bytes_ = 0;
    double dense_weight_bytes_ = 0;
};

}  // namespace kvlens
