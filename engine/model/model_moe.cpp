// SPDX-License-Identifier: Apache-2.0
// Mixture-of-experts metadata, as llama.cpp (0.3.16) reads it for the
// architectures whose feed-forward blocks are experts:
//   - llama with llama.expert_count > 0 (Mixtral): experts of
//     feed_forward_length rows, weights renormalized over the chosen ones;
//   - qwen3moe (Qwen3-30B-A3B and kin): experts of
//     expert_feed_forward_length rows, weights renormalized;
//   - qwen2moe (Qwen1.5-MoE, Qwen2-57B-A14B): experts of
//     expert_feed_forward_length rows, weights as the softmax gave them, and
//     a shared expert of expert_shared_feed_forward_length rows gated by a
//     sigmoid;
//   - olmoe (OLMoE): experts of feed_forward_length rows, weights as given;
//   - granitemoe (Granite 3.x MoE 1B and 3B): granite's scales, experts of
//     feed_forward_length rows, weights renormalized; with
//     expert_shared_feed_forward_length (GraniteMoeShared) also a shared
//     expert of that many rows, added ungated.
//   - lfm2moe (LFM2-8B-A1B, LFM2-24B-A2B: LFM2's layers, 0.3.36): the first
//     leading_dense_block_count layers dense, then experts of
//     expert_feed_forward_length rows (one count, or one per layer) chosen
//     by expert_gating_func (2: sigmoid) plus each layer's expert bias,
//     weighted by the sigmoids renormalized.
//   - ernie4_5-moe (ERNIE-4.5-21B-A3B, -300B-A47B): the first
//     leading_dense_block_count layers dense, then experts of
//     expert_feed_forward_length rows in every layer (interleave_moe_layer_step
//     1, the only step llama.cpp runs), chosen by the softmax plus each
//     layer's expert bias where the file has one, weighted by the softmax
//     renormalized, and a shared expert of expert_shared_feed_forward_length
//     rows (where given) added ungated.
//   - gpt-oss: experts of expert_feed_forward_length rows, chosen by the
//     router's logits plus its bias, weighed by the softmax of the chosen
//     logits; biases on the experts' products (gpt_oss.cpp).
// Other architectures ignore an expert_count key, as llama.cpp does.
#include <fmt/format.h>

#include "engine/model/model_config.h"

namespace kvlens {

namespace {

constexpr int k_most_experts = 4096;

// lfm2moe's expert rows: one count, or one per layer whose MoE layers agree.
status read_lfm2moe_expert_rows(const gguf_file& f, model_config& c) {
    const std::string key = c.arch_name + ".expert_feed_forward_length";
    const gguf_value* v = f.find(key);
    if (!v) return make_error(fmt::format("missing metadata '{}'", key));
    if (const gguf_array* rows = v->as_array()) {
        if (static_cast<int>(rows->size()) != c.n_layer || !rows->is_integer())
            return make_error(fmt::format("{} must hold {} integers (one per layer)", key, c.n_layer));
        for (int il = c.n_dense_lead; il < c.n_layer; ++il) {
            const std::int64_t n = rows->int_at(static_cast<std::size_t>(il));
            if (n < 1 || n > (1 << 24)) return make_error(fmt::format("{}[{}] = {} is not a row count", key, il, n));
            if (c.n_ff_exp != 0 && n != c.n_ff_exp)
                return make_error(fmt::format("{} differs between expert layers ({} and {}); kvlens needs one count", key,
                                              c.n_ff_exp, n));
            c.n_ff_exp = static_cast<int>(n);
        }
        return {};
    }
    if (!v->is_integer() || v->as_int() < 1 || v->as_int() > (1 << 24))
        return make_error(fmt::format("{} is not a row count", key));
    c.n_ff_exp = static_cast<int>(v->as_int());
    return {};
}

// lfm2moe: the dense lead, the gating and the expert rows.
status read_lfm2moe_config(const gguf_file& f, model_config& c) {
    const std::string p = c.arch_name + ".";
    auto lead = f.get_int_in(p + "leading_dense_block_count", 0, 0, c.n_layer - 1);
    if (!lead) return lead.err();
    c.n_dense_lead = *lead;
    const gguf_value* gating = f.find(p + "expert_gating_func");
    if (!gating || !gating->is_integer())
        return make_error(fmt::format("missing metadata '{}expert_gating_func' (how the router picks experts)", p));
    if (gating->as_int() != 1 && gating->as_int() != 2)
        return make_error(fmt::format("{}expert_gating_func = {} is not supported (1: softmax, 2: sigmoid)", p,
                                      gating->as_int()));
    c.moe_sigmoid = gating->as_int() == 2;
    c.moe_expert_bias = true;
    c.moe_norm_weights = true;
    return read_lfm2moe_expert_rows(f, c);
}

// ernie4_5-moe: the dense lead, the step between expert layers, the rows.
status read_ernie4_5_moe_config(const gguf_file& f, model_config& c) {
    const std::string p = c.arch_name + ".";
    for (const char* key : {"leading_dense_block_count", "interleave_moe_layer_step", "expert_feed_forward_length"})
        if (!f.find(p + key)) return make_error(fmt::format("missing metadata '{}{}'", p, key));
    auto lead = f.get_int_in(p + "leading_dense_block_count", 0, 0, c.n_layer - 1);
    if (!lead) return lead.err();
    c.n_dense_lead = *lead;
    auto step = f.get_int_in(p + "interleave_moe_layer_step", 0, 0, c.n_layer);
    if (!step) return step.err();
    // llama.cpp loads experts for every layer past the lead and runs a step
    // of 1 only (the released models' interval); kvlens reads what it runs.
    if (*step != 1)
        return make_error(fmt::format("{}interleave_moe_layer_step = {}: only experts in every layer past the dense "
                                      "ones (step 1) are supported",
                                      p, *step));
    auto rows = f.get_int_in(p + "expert_feed_forward_length", 0, 1, 1 << 24);
    if (!rows) return rows.err();
    c.n_ff_exp = *rows;
    auto shared = f.get_int_in(p + "expert_shared_feed_forward_length", 0, 0, 1 << 24);
    if (!shared) return shared.err();
    c.n_ff_shared = *shared;
    c.moe_expert_bias = true;   // ffn_exp_probs_b, where a layer has it
    c.moe_expert_bias_optional = true;
    c.moe_norm_weights = true;
    return {};
}

}  // namespace

status read_moe_config(const gguf_file& f, model_config& c) {
    const bool lfm2moe = c.arch_name == "lfm2moe";
    const bool ernie_moe = c.arch_name == "ernie4_5-moe";
    const bool expert_arch = c.architecture == arch::qwen2moe || c.architecture == arch::qwen3moe ||
                             c.architecture == arch::olmoe || c.architecture == arch::granitemoe || lfm2moe ||
                             c.architecture == arch::gpt_oss || ernie_moe;
    if (!expert_arch && c.architecture != arch::llama) return {};
    const std::string p = c.arch_name + ".";
    auto count = f.get_int_in(p + "expert_count", 0, 0, k_most_experts);
    if (!count) return count.err();
    c.n_expert = *count;
    if (c.n_expert == 0) {
        if (expert_arch) return make_error(fmt::format("missing metadata '{}expert_count' (a {} model has experts)", p, c.arch_name));
        return {};
    }
    auto used = f.get_int_in(p + "expert_used_count", 0, 1, c.n_expert);
    if (!used) return used.err();
    if (*used == 0)
        return make_error(fmt::format("missing metadata '{}expert_used_count' (experts per token)", p));
    c.n_expert_used = *used;
    if (lfm2moe) return read_lfm2moe_config(f, c);
    if (ernie_moe) return read_ernie4_5_moe_config(f, c);
    c.n_ff_exp = c.n_ff;
    if (c.architecture == arch::qwen2moe || c.architecture == arch::qwen3moe || c.architecture == arch::gpt_oss) {
        auto rows = f.get_int_in(p + "expert_feed_forward_length", 0, 1, 1 << 24);
        if (!rows) return rows.err();
        if (*rows == 0) return make_error(fmt::format("missing metadata '{}expert_feed_forward_length'", p));
        c.n_ff_exp = *rows;
    }
    if (c.architecture == arch::qwen2moe || c.architecture == arch::granitemoe) {
        auto rows = f.get_int_in(p + "expert_shared_feed_forward_length", 0, 1, 1 << 24);
        if (!rows) return rows.err();
        if (*rows == 0 && c.architecture == arch::qwen2moe)
            return make_error(fmt::format("missing metadata '{}expert_shared_feed_forward_length'", p));
        c.n_ff_shared = *rows;
    }
    c.moe_norm_weights = c.architecture == arch::llama || c.architecture == arch::qwen3moe || c.architecture == arch::granitemoe;
    c.moe_softmax_chosen = c.moe_biases = c.architecture == arch::gpt_oss;
    return {};
}

}  // namespace kvlens
