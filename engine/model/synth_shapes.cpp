// SPDX-License-Identifier: Apache-2.0
// The shapes synth-model writes (synth_model.h): real models' geometries for
// speed tests, and the check-* shapes that hold every architecture to
// llama.cpp (tests/reference/generate_synth_reference.py): each a few
// layers, rows a multiple of 256, norms and biases varied, and the one
// feature of its architecture set so that a wrong reading of it moves the
// logits.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/model/synth_model.h"

namespace kvlens {

std::vector<std::string> synth_shape_names() {
    return {"tiny",         "tiny-gemma3",  "check-llama", "check-llama3", "check-qwen2", "check-qwen3",
            "check-gemma",  "check-gemma2", "check-gemma3", "check-phi3",  "check-granite", "check-smollm3",
            "check-olmo2",  "check-exaone", "check-internlm2",  "check-qwen3-yarn", "check-mixtral",
            "check-qwen3moe", "check-qwen2moe", "check-olmoe", "check-granitemoe", "check-mixtral-split",
            "check-granitemoeshared", "check-olmo3", "check-exaone4", "check-mistral3", "check-ernie4_5",
            "check-arcee",  "check-glm4",   "check-qwen3vl", "check-qwen3vlmoe", "check-lfm2", "check-lfm2moe", "check-gpt-oss",
            "check-minicpm", "check-qwen2vl", "check-ernie4_5-moe", "check-hunyuan-dense", "check-command-r", "check-cohere2", "check-gpt2", "check-gptneox", "check-gptneox-seq", "check-phi2", "check-stablelm", "check-stablelm-par", "check-nemotron", "check-starcoder", "check-starcoder2",
            "smollm2-135m", "lfm2-350m",    "lfm2-1.2b",    "lfm2-8b-a1b",    "gemma3-270m",  "gemma2-2b",    "phi3.5-mini", "granite-3-2b",  "smollm3-3b",
            "llama-1b",     "llama-8b",     "olmoe-1b-7b",  "gpt-oss-20b"};
}

namespace {

// The fields every shape sets; the rest keep synth_shape's defaults.
synth_shape shape_of(std::string name, int n_layer, int n_embd, int n_ff, int n_head, int n_head_kv, int n_vocab,
                     int n_ctx, float rope_base, bool tied_output) {
    synth_shape s;
    s.name = std::move(name);
    s.n_layer = n_layer;
    s.n_embd = n_embd;
    s.n_ff = n_ff;
    s.n_head = n_head;
    s.n_head_kv = n_head_kv;
    s.n_vocab = n_vocab;
    s.n_ctx = n_ctx;
    s.rope_base = rope_base;
    s.tied_output = tied_output;
    return s;
}

// Layers 0 .. n_layer - 1 but those given (an LFM2 shape's convolutions: all but its attention layers).
std::vector<int> layers_other_than(int n_layer, std::initializer_list<int> given) {
    std::vector<int> out;
    for (int il = 0; il < n_layer; ++il)
        if (std::find(given.begin(), given.end(), il) == given.end()) out.push_back(il);
    return out;
}

}  // namespace

result<synth_shape> synth_shape_named(const std::string& name) {
    // Shapes of real models (public configurations); tiny is for tests.
    if (name == "tiny") return shape_of("tiny", 2, 64, 128, 2, 1, 512, 512, 10000.0f, true);
    if (name == "tiny-gemma3") {
        synth_shape g = shape_of("tiny-gemma3", 6, 64, 128, 2, 1, 512, 512, 1000000.0f, true);
        g.arch = "gemma3";
        g.head_dim = 32;
        g.sliding_window = 8;
        return g;
    }
    // The check-* shapes: every matrix row (n_embd, n_ff, n_head * head_dim) a
    // multiple of 256, so every type's blocks fit; grouped-query attention;
    // norms and biases varied; embeddings small enough (0.1) that the layers'
    // share of the residual stream, not the input token, dominates the
    // logits; gemma3 with a window of 8 and a global 6th layer, gemma2 with a
    // window of 8 on its even layers.
    if (name.rfind("check-", 0) == 0) {
        synth_shape c = shape_of(name, 2, 256, 512, 4, 2, 288, 256, 10000.0f, true);
        c.varied_norms = true;
        c.embd_sd = 0.1f;
        c.arch = name.substr(6);
        if (c.arch == "qwen2") {
            c.rope_base = 1000000.0f;
            c.tied_output = false;
            return c;
        }
        if (c.arch == "qwen3") {
            c.rope_base = 1000000.0f;
            return c;
        }
        if (c.arch == "qwen3vl") {   // Qwen3-VL's language model: qwen3's block, sections of 8, 12 and 12
            c.rope_base = 5000000.0f; // pairs (Qwen3-VL's 24, 20, 20 halved), 2 deepstack layers
            c.rope_sections = {8, 12, 12, 0};
            c.n_deepstack = 2;
            return c;
        }
        if (c.arch == "qwen2vl") {   // Qwen2.5-VL's language model: qwen2's block, sections of 8, 12 and 12 pairs
            c.rope_base = 1000000.0f;   // (its 16, 24, 24 halved) one after another, no fourth
            c.rope_sections = {8, 12, 12, 0};
            c.tied_output = false;
            return c;
        }
        if (c.arch == "ernie4_5-moe") {   // ERNIE-4.5-21B-A3B's kind: layer 0 dense, then 4 experts of 256 rows,
            c.n_layer = 3;                  // 2 per token, chosen by the softmax plus a bias N(0, 0.5), and an
            c.n_dense_lead = 1;             // ungated shared expert of 512 rows
            c.n_expert = 4;
            c.n_expert_used = 2;
            c.n_ff_exp = 256;
            c.n_ff_shared = 512;
            return c;
        }
        if (c.arch == "minicpm") {   // MiniCPM4's kind: granite's block with MiniCPM's three scales (scale_emb 12,
            c.granite_embedding_scale = 12.0f;    // scale_depth 1.4 / sqrt(2 layers), hidden 256 / dim_model_base 256;
            c.granite_residual_scale = 1.4f / std::sqrt(2.0f);   // a logit scale of 2 so that it is seen),
            c.granite_logit_scale = 2.0f;         // LongRoPE whose long factors apply under every context tried
            c.longrope_original_ctx = 32;
            return c;
        }
        if (c.arch == "qwen3-yarn") {   // qwen3 with YaRN x4 from an original 1024: pairs 0-3 keep their
            c.arch = "qwen3";           // angles, 4-11 blend, 12-31 are scaled (all of them at every position)
            c.rope_base = 1000000.0f;
            c.yarn_factor = 4.0f;
            c.yarn_original_ctx = 1024;
            c.n_ctx = 4096;
            return c;
        }
        if (c.arch == "gemma2") {   // layers 0 and 2 windowed; caps near the scores' and logits' spread, so they bend them
            c.n_layer = 4;
            c.rope_base = 10000.0f;
            c.head_dim = 64;
            c.sliding_window = 8;
            c.attn_softcap = 0.1f;
            c.final_softcap = 3.0f;
            return c;
        }
        if (c.arch == "gemma3") {
            c.n_layer = 6;
            c.n_head_kv = 1;
            c.rope_base = 1000000.0f;
            c.head_dim = 64;
            c.sliding_window = 8;
            return c;
        }
        if (c.arch == "llama" || c.arch == "gemma" || c.arch == "ernie4_5") return c;
        if (c.arch == "gpt2") {   // GPT-2's kind: every head its own K and V (no grouping)
            c.n_head_kv = c.n_head;
            return c;
        }
        if (c.arch == "stablelm" || c.arch == "stablelm-par") {   // StableLM 2 1.6B's kind: a quarter of each head
            c.sequential_blocks = c.arch == "stablelm";             // rotated, Q/K/V biases, an ffn_norm; -par: the
            c.arch = "stablelm";                                     // 12B's blocks side by side from attn_norm,
            c.n_rot = 16;                                            // no biases on Q/K/V
            c.tied_output = false;
            return c;
        }
        if (c.arch == "starcoder") {   // StarCoder 1's kind: GPT-2's block with one K/V head (multi-query)
            c.n_head_kv = 1;
            return c;
        }
        if (c.arch == "starcoder2") {   // StarCoder 2's kind: grouped queries, every bias, its own output matrix
            c.tied_output = false;
            return c;
        }
        if (c.arch == "nemotron") {   // Nemotron-Mini's kind: half of each head rotated, relu(up)^2, every bias
            c.n_rot = 32;
            c.tied_output = false;
            return c;
        }
        if (c.arch == "phi2") {   // Phi-2's kind: heads of 80 (no multiple of 32), 32 dimensions of each rotated,
            c.n_head = 16;           // its own output matrix with a bias; 16 heads of 80 (1280 rows, a multiple of
            c.n_head_kv = 16;        // the K-quants' 256) and n_embd the same, as Phi-2's 32 x 80 = 2560
            c.head_dim = 80;
            c.n_embd = 1280;
            c.n_rot = 32;
            c.tied_output = false;
            return c;
        }
        if (c.arch == "gptneox" || c.arch == "gptneox-seq") {   // Pythia's kind: a quarter of each head rotated (16 of
            c.sequential_blocks = c.arch == "gptneox-seq";       // 64, NeoX halves), blocks side by side (or one after
            c.arch = "gptneox";                                  // the other), its own output matrix, no grouping
            c.n_head_kv = c.n_head;
            c.n_rot = 16;
            c.tied_output = false;
            return c;
        }
        if (c.arch == "command-r") {   // Command R's kind: LayerNorms, parallel blocks, logits x0.25
            c.cohere_logit_scale = 0.25f;
            return c;
        }
        if (c.arch == "cohere2") {   // Command R7B's kind: windows of 8 in layers 0-2, layer 3 full and unrotated
            c.n_layer = 4;
            c.sliding_window = 8;
            c.rope_base = 50000.0f;
            c.cohere_logit_scale = 0.25f;
            return c;
        }
        if (c.arch == "hunyuan-dense") {   // Hunyuan's dense kind: QK norms per head after NeoX RoPE, the
            c.rope_base = 11158840.0f;      // base its converter writes (10000 x 1000^(128 / 126))
            return c;
        }
        if (c.arch == "glm4") {   // GLM-4-0414's kind: norms before and after, Q/K/V biases, fused gate and up,
            c.n_rot = 32;           // half of each head rotated in adjacent pairs
            return c;
        }
        if (c.arch == "lfm2" || c.arch == "lfm2moe") {   // LFM2's kind: convolutions of 3 taps in layers 0, 2 and 3, attention in 1
            c.n_layer = 4;
            c.rope_base = 1000000.0f;
            c.conv_layers = {0, 2, 3};
            c.conv_taps = 3;
            if (c.arch == "lfm2moe") {   // LFM2-8B-A1B's kind: layer 0 dense, then 4 experts of 256 rows, 2 per token
                c.n_dense_lead = 1;
                c.n_expert = 4;
                c.n_expert_used = 2;
                c.n_ff_exp = 256;
            }
            return c;
        }
        if (c.arch == "gpt-oss") {   // gpt-oss-20b's kind: 8 heads of 64 (n_q 512 against n_embd 256), layers 0 and 2
            c.n_layer = 4;             // windowed (8 tokens), YaRN x4 from 1024, 4 experts of 256 rows, 2 per token,
            c.n_head = 8;              // sinks N(0.5, 1), biases everywhere, its own output matrix
            c.head_dim = 64;
            c.sliding_window = 8;
            c.rope_base = 150000.0f;
            c.yarn_factor = 4.0f;
            c.yarn_original_ctx = 1024;
            c.n_ctx = 4096;
            c.n_expert = 4;
            c.n_expert_used = 2;
            c.n_ff_exp = 256;
            c.tied_output = false;
            return c;
        }
        if (c.arch == "arcee") {   // AFM-4.5B's kind: relu(up)^2 without a gate, Llama 3.1's RoPE factors
            c.llama3_rope_factor = 8.0f;
            c.llama3_original_ctx = 64;
            return c;
        }
        if (c.arch == "granitemoeshared") {   // check-granitemoe's values with a shared expert of 512 rows
            c.arch = "granitemoe";
            c.n_ff_shared = 512;
        }
        if (c.arch == "olmo3") {   // olmo2 with windows of 8 in layers 0-2, YaRN x4 from 1024 in layer 3
            c.arch = "olmo2";
            c.n_layer = 4;
            c.tied_output = false;
            c.sliding_window = 8;
            c.swa_pattern = {1, 1, 1, 0};   // written as OLMo 3's converter writes it
            c.rope_base = 500000.0f;
            c.yarn_factor = 4.0f;
            c.yarn_original_ctx = 1024;
            c.n_ctx = 4096;
            return c;
        }
        if (c.arch == "mistral3") {   // Ministral 3's kind: YaRN x4 from 16 with betas that move its ramp
            c.rope_base = 10000.0f;      // (pairs 5-11, where 32 and 1 give 0-4) and log multiplier 1; queries
            c.yarn_factor = 4.0f;        // x (1 + 0.5 ln(floor(pos / 16) + 1)): 1 up to position 15, 1.35 from 16
            c.yarn_original_ctx = 16;
            c.n_ctx = 4096;
            c.yarn_beta_fast = 0.5f;
            c.yarn_beta_slow = 0.125f;
            c.yarn_log_mul = 1.0f;
            c.attn_temp_scale = 0.5f;
            return c;
        }
        if (c.arch == "exaone4") {   // the 32B's depth (llama.cpp windows no other): windows of 8, every 4th layer full, unrotated
            c.n_layer = 64;
            c.sliding_window = 8;
            c.rope_base = 1000000.0f;
            return c;
        }
        if (c.arch == "granite" || c.arch == "granitemoe") {   // scales as far from 1 as Granite 3's (12, 1/128
            c.granite_embedding_scale = 6.0f;                   // for heads of 128, 0.22, 8)
            c.granite_attention_scale = 0.05f;
            c.granite_residual_scale = 0.4f;
            c.granite_logit_scale = 3.0f;
            if (c.arch == "granite") return c;
        }
        // Mixtures of experts: 4 or 8 experts of 256 rows, 2 per token; Mixtral's files are llama's.
        if (c.arch == "mixtral-split") {   // check-mixtral's values, one tensor per expert
            c.arch = "mixtral";
            c.split_experts = true;
        }
        if (c.arch == "qwen3vlmoe") {   // Qwen3-VL-30B-A3B's language model: check-qwen3moe's experts, qwen3vl's sections
            c.rope_sections = {8, 12, 12, 0};
            c.n_deepstack = 2;
        }
        if (c.arch == "mixtral" || c.arch == "granitemoe" || c.arch == "qwen3moe" || c.arch == "qwen2moe" ||
            c.arch == "qwen3vlmoe" ||
            c.arch == "olmoe") {
            const bool qwen = c.arch == "qwen3moe" || c.arch == "qwen2moe" || c.arch == "qwen3vlmoe";
            c.n_expert = c.arch == "qwen3moe" || c.arch == "qwen3vlmoe" || c.arch == "olmoe" ? 8 : 4;
            c.n_expert_used = 2;
            if (qwen) {
                c.n_ff_exp = 256;   // expert_feed_forward_length
                c.rope_base = 1000000.0f;
            } else {
                c.n_ff = 256;
            }
            if (c.arch == "qwen2moe") c.n_ff_shared = 512;   // granitemoeshared: set above
            // Their own output matrix, as llama.cpp requires; OLMoE has no
            // grouped queries (llama.cpp sizes its K norm by n_embd).
            if (c.arch == "qwen2moe" || c.arch == "olmoe") c.tied_output = false;
            if (c.arch == "olmoe") c.n_head_kv = c.n_head;
            if (c.arch == "mixtral") c.arch = "llama";
            return c;
        }
        if (c.arch == "exaone") {   // EXAONE 3.5's kind: Llama 3.1's RoPE factors, rotated as NeoX pairs
            c.llama3_rope_factor = 8.0f;
            c.llama3_original_ctx = 64;
            c.tied_output = false;
            return c;
        }
        if (c.arch == "olmo2" || c.arch == "internlm2") {   // their own output matrix, as llama.cpp requires
            c.tied_output = false;
            return c;
        }
        if (c.arch == "smollm3") {   // layer 3 unrotated
            c.n_layer = 4;
            c.rope_base = 5000000.0f;
            return c;
        }
        if (c.arch == "llama3") {   // llama with Llama 3.1's RoPE factors, scaled to reach the prompt's positions
            c.arch = "llama";
            c.llama3_rope_factor = 8.0f;
            c.llama3_original_ctx = 64;
            return c;
        }
        if (c.arch == "phi3") {   // Phi-4-mini's kind: partial rotation (3/4 of each head), LongRoPE, own output
            c.n_rot = 48;
            c.tied_output = false;
            // Under every context tried (the tests' 64, llama.cpp's 2048): the long factors apply.
            c.longrope_original_ctx = 32;
            return c;
        }
    }
    if (name == "gemma3-270m") {
        synth_shape g = shape_of("gemma3-270m", 18, 640, 2048, 4, 1, 262144, 32768, 1000000.0f, true);
        g.arch = "gemma3";
        g.head_dim = 256;
        g.sliding_window = 512;
        return g;
    }
    if (name == "gemma2-2b") {   // Gemma 2 2B: windows of 4096 on even layers, llama.cpp's default caps
        synth_shape g = shape_of("gemma2-2b", 26, 2304, 9216, 8, 4, 256000, 8192, 10000.0f, true);
        g.arch = "gemma2";
        g.head_dim = 256;
        g.sliding_window = 4096;
        return g;
    }
    if (name == "phi3.5-mini") {   // Phi-3.5-mini: fused tensors, LongRoPE from an original 4096
        synth_shape p = shape_of("phi3.5-mini", 32, 3072, 8192, 32, 32, 32064, 131072, 10000.0f, false);
        p.arch = "phi3";
        p.longrope_original_ctx = 4096;
        return p;
    }
    if (name == "granite-3-2b") {   // Granite 3.1 2B: its four scales
        synth_shape g = shape_of("granite-3-2b", 40, 2048, 8192, 32, 8, 49155, 131072, 5000000.0f, true);
        g.arch = "granite";
        g.granite_embedding_scale = 12.0f;
        g.granite_attention_scale = 0.015625f;
        g.granite_residual_scale = 0.22f;
        g.granite_logit_scale = 8.0f;
        return g;
    }
    if (name == "smollm3-3b") {   // SmolLM3 3B: 9 of 36 layers unrotated
        synth_shape l = shape_of("smollm3-3b", 36, 2048, 11008, 16, 4, 128256, 65536, 5000000.0f, true);
        l.arch = "smollm3";
        return l;
    }
    if (name == "smollm2-135m") return shape_of("smollm2-135m", 30, 576, 1536, 9, 3, 49152, 8192, 100000.0f, true);
    if (name == "lfm2-350m" || name == "lfm2-1.2b") {   // LFM2: attention in layers 2, 5, 8, 10, 12, 14, else convolutions
        const bool small = name == "lfm2-350m";
        synth_shape l = shape_of(name, 16, small ? 1024 : 2048, small ? 4608 : 8192, small ? 16 : 32, 8, 65536, 128000,
                                 1000000.0f, true);
        l.arch = "lfm2";
        l.conv_layers = layers_other_than(16, {2, 5, 8, 10, 12, 14});
        l.conv_taps = 3;
        return l;
    }
    if (name == "lfm2-8b-a1b") {   // LFM2-8B-A1B's sizes: 2 dense layers, then 32 experts of 1792 rows, 4 per token;
                                   // attention in 6 of 24 layers (which 6 here is a guess at the file's pattern)
        synth_shape l = shape_of(name, 24, 2048, 7168, 32, 8, 65536, 128000, 1000000.0f, true);
        l.arch = "lfm2moe";
        l.conv_layers = layers_other_than(24, {2, 6, 10, 14, 18, 21});
        l.conv_taps = 3;
        l.n_dense_lead = 2;
        l.n_expert = 32;
        l.n_expert_used = 4;
        l.n_ff_exp = 1792;
        return l;
    }
    if (name == "llama-1b") {   // Llama 3.2 1B: its RoPE factors too
        synth_shape l = shape_of("llama-1b", 16, 2048, 8192, 32, 8, 128256, 8192, 500000.0f, true);
        l.llama3_rope_factor = 32.0f;
        return l;
    }
    if (name == "olmoe-1b-7b") {   // OLMoE-1B-7B: 64 experts of 1024 rows per layer, 8 per token
        synth_shape o = shape_of("olmoe-1b-7b", 16, 2048, 1024, 16, 16, 50304, 4096, 10000.0f, false);
        o.arch = "olmoe";
        o.n_expert = 64;
        o.n_expert_used = 8;
        return o;
    }
    if (name == "gpt-oss-20b") {   // gpt-oss-20b: 32 experts of 2880 rows, 4 per token; 64 heads of 64 over 2880
        synth_shape g = shape_of("gpt-oss-20b", 24, 2880, 2880, 64, 8, 201088, 131072, 150000.0f, false);
        g.arch = "gpt-oss";
        g.head_dim = 64;
        g.sliding_window = 128;
        g.yarn_factor = 32.0f;
        g.yarn_original_ctx = 4096;
        g.n_expert = 32;
        g.n_expert_used = 4;
        g.n_ff_exp = 2880;
        return g;
    }
    if (name == "llama-8b") {   // Llama 3.1 8B
        synth_shape l = shape_of("llama-8b", 32, 4096, 14336, 32, 8, 128256, 8192, 500000.0f, false);
        l.llama3_rope_factor = 8.0f;
        return l;
    }
    std::string known;
    for (const auto& n : synth_shape_names()) known += (known.empty() ? "" : ", ") + n;
    return make_error(fmt::format("unknown model shape '{}' (known: {})", name, known));
}

}  // namespace kvlens
