// SPDX-License-Identifier: Apache-2.0
// Synthetic GGUF models: random weights in the shapes of real models, with a
// small valid byte-level tokenizer and a ChatML template. They let speed and
// CUDA-vs-CPU checks run where real weights cannot travel, give the tests a
// tiny model that loads in milliseconds, and, in the check-* shapes (every
// architecture, rows a multiple of 256 so every type fits), hold each
// architecture and tensor type to llama.cpp (tests/reference/synth).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "engine/gguf/gguf_types.h"

namespace kvlens {

struct synth_shape {
    std::string name;         // "tiny", "check-qwen2", "gemma3-270m", ... (synth_shape_names())
    int n_layer = 0;
    int n_embd = 0;
    int n_ff = 0;
    int n_head = 0;
    int n_head_kv = 0;
    int n_vocab = 0;
    int n_ctx = 0;
    float rope_base = 10000.0f;
    bool tied_output = true;
    std::string arch = "llama";   // "llama", "qwen2" (Q/K/V biases), "qwen3" (QK norms),
                                  // "gemma3" (post-norms, QK norms, GeGLU, windows),
                                  // "gemma2" (post-norms, GeGLU, every other layer windowed,
                                  // soft-capped scores and logits) or
                                  // "phi3" (Q, K and V fused into attn_qkv, gate and up into ffn_up),
                                  // "gemma" (Gemma 1: GeGLU, scaled embeddings), "granite" (the
                                  // granite_* scales below), "smollm3" (every 4th layer unrotated) or
                                  // "olmo2" (norms after the blocks and over whole Q and K rows only),
                                  // "exaone" (llama with NeoX pairs), "exaone4" (olmo2's norms after the
                                  // blocks, QK norms per head; windows in 64-layer files) or "internlm2" (llama),
                                  // "qwen2moe", "qwen3moe", "olmoe" (experts: below),
                                  // "lfm2" (short convolutions in conv_layers, QK norms per head), "lfm2moe" (and experts),
                                  // "gpt-oss" (biases, sinks, every other layer windowed, biased experts),
                                  // "command-r" (LayerNorms, parallel blocks, one norm per layer) or
                                  // "cohere2" (and windows in 3 of 4 layers, the 4th unrotated) or
                                  // "gpt2" (LayerNorms and products with biases, GELU, learned positions) or
                                  // "gptneox" (the same with NeoX RoPE over n_rot, no learned positions,
                                  // blocks side by side unless sequential_blocks) or "phi2" (one norm,
                                  // blocks side by side, biases, partial NeoX RoPE, the logits' bias) or
                                  // "stablelm" (LayerNorms with biases, partial NeoX RoPE, SwiGLU; below) or
                                  // "nemotron" (LayerNorms with biases, relu(up)^2, every optional bias),
                                  // "starcoder" (gpt2's block), "starcoder2" (gpt2's biases and GELU on
                                  // apart Q/K/V, NeoX RoPE)
    int head_dim = 0;             // 0: n_embd / n_head
    int n_rot = 0;                // dimensions RoPE rotates per head; 0: head_dim
    int sliding_window = 0;       // gemma2/3, olmo2: ARCH.attention.sliding_window (0: key not written)
    float attn_softcap = 0.0f;    // gemma2: gemma2.attn_logit_softcapping (0: not written, llama.cpp's 50)
    float final_softcap = 0.0f;   // gemma2: gemma2.final_logit_softcapping (0: not written, llama.cpp's 30)
    std::vector<int> swa_pattern; // gemma3 (int32s), olmo2 (bools, as OLMo 3's converter): written as
                                  // sliding_window_pattern when not empty (1: windowed)
    bool varied_norms = false;    // norm weights 1 + N(0, 0.2) and biases N(0, 0.05), not 1 and 0,
                                  // so a norm or bias applied wrongly shows in the logits
    float embd_sd = 1.0f;         // deviation of the token embeddings (the layers' weights: 0.02)
    // llama: Llama 3.1's RoPE scaling, written as rope_freqs.weight the way
    // llama.cpp's converter computes it (factor, low and high frequency
    // factors, original context); factor 0: no tensor.
    float llama3_rope_factor = 0.0f;
    float llama3_low_freq_factor = 1.0f;
    float llama3_high_freq_factor = 4.0f;
    int llama3_original_ctx = 8192;
    // phi3: LongRoPE as Phi-3.5 and Phi-4-mini files carry it: short and
    // long per-pair factors (phi3_rope_factors), the original context and
    // the attention factor sqrt(1 + ln(n_ctx / original) / ln(original));
    // 0: none of it written.
    int longrope_original_ctx = 0;
    // YaRN as Qwen2.5 / Qwen3 128K files carry it: rope.scaling.type "yarn",
    // .factor and .original_context_length, and a context_length of factor
    // times the original; factor 0: none of it written.
    float yarn_factor = 0.0f;
    int yarn_original_ctx = 0;
    // mistral3 (Ministral 3): YaRN's betas and log multiplier, and Llama 4's
    // query temperature (ARCH.attention.temperature_scale); 0: not written.
    float yarn_beta_fast = 0.0f;
    float yarn_beta_slow = 0.0f;
    float yarn_log_mul = 0.0f;
    float attn_temp_scale = 0.0f;
    // lfm2: the short-convolution layers (head_count_kv 0 there, written as
    // one count per layer) and their taps (lfm2.shortconv.l_cache).
    std::vector<int> conv_layers;
    int conv_taps = 0;
    // qwen3vl: rope.dimension_sections (empty: not written) and n_deepstack_layers.
    std::vector<int> rope_sections;
    int n_deepstack = 0;
    // granite: granite.embedding_scale, .attention.scale, .residual_scale and
    // .logit_scale (the last one always written: llama.cpp requires it).
    float granite_embedding_scale = 0.0f;   // 0: not written
    float granite_attention_scale = 0.0f;   // 0: not written
    float granite_residual_scale = 0.0f;    // 0: not written
    float granite_logit_scale = 1.0f;
    // command-r, cohere2: ARCH.logit_scale, the logits' multiplier (0: not written).
    float cohere_logit_scale = 0.0f;
    // gptneox: gptneox.use_parallel_residual false. stablelm: ffn_norm in every
    // layer and Q/K/V biases (StableLM 2 1.6B's kind); false: neither (the
    // parallel kind, StableLM 2 12B's, without its per-head Q/K norms).
    bool sequential_blocks = false;
    // A mixture of experts (arch "llama" as Mixtral, "qwen2moe", "qwen3moe",
    // "olmoe"): n_expert experts per layer, n_expert_used per token, of
    // n_ff_exp rows (0: n_ff); qwen2moe's shared expert of n_ff_shared rows.
    // The router (ffn_gate_inp, F32 as llama.cpp's converter keeps it) has
    // weights of deviation 0.25, so a token's experts stand well apart.
    int n_expert = 0;
    int n_expert_used = 0;
    int n_ff_exp = 0;
    int n_ff_shared = 0;
    // Each expert's matrices as 2-D tensors blk.N.ffn_gate.E.weight (early
    // 2024 Mixtral files), holding the same values as the 3-D tensors would.
    bool split_experts = false;
    // lfm2moe: the first n_dense_lead layers dense (leading_dense_block_count),
    // the router's sigmoids (expert_gating_func 2) and an expert bias per
    // layer (exp_probs_b.bias, deviation 0.5: it changes which experts a token gets).
    int n_dense_lead = 0;
};

// The synthetic LongRoPE factors of n_rot / 2 pairs: short ones from 1 to
// 1.25, long ones from 1.5 to 8, rising with the pair index like real ones.
std::vector<float> phi3_rope_factors(int n_rot, bool long_factors);

// Llama 3.1's per-pair RoPE frequency factors for head size n_rot and base:
// 1 for wavelengths under original_ctx / high, `factor` above
// original_ctx / low, a smooth blend between (what rope_freqs.weight holds).
std::vector<float> llama3_rope_factors(int n_rot, float base, float factor, float low, float high, int original_ctx);

// The known shapes; an unknown name gives an error listing them.
result<synth_shape> synth_shape_named(const std::string& name);
std::vector<std::string> synth_shape_names();

// The weight type named as GGUF tools spell it ("Q4_K", "IQ4_XS", "F16"), of
// those write_synth_model takes; an unknown name gives an error listing them.
result<ggml_type> synth_type_named(const std::string& name);
std::vector<std::string> synth_type_names();

// Writes a model of that shape with weights of `type` (matrices; norms and
// biases are F32, the embedding Q8_0 unless type is F32/F16/BF16). Types with
// a reference quantizer quantize N(0, 0.02)-like values; the others (K-quants,
// IQ4) get random blocks whose scales are set for a zero mean and that
// deviation. Any type the model accepts; deterministic for a seed.
status write_synth_model(const synth_shape& shape, ggml_type type, const std::string& path,
                         std::uint64_t seed = 1);

}  // namespace kvlens
