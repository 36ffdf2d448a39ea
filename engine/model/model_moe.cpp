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
// Other architectures ignore an expert_count key, as llama.cpp does.
#include <fmt/format.h>

#include "engine/model/model_config.h"

namespace kvlens {

namespace {

constexpr int k_most_experts = 4096;

}  // namespace

status read_moe_config(const gguf_file& f, model_config& c) {
    const bool expert_arch = c.architecture == arch::qwen2moe || c.architecture == arch::qwen3moe ||
                             c.architecture == arch::olmoe || c.architecture == arch::granitemoe;
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
    c.n_ff_exp = c.n_ff;
    if (c.architecture == arch::qwen2moe || c.architecture == arch::qwen3moe) {
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
    return {};
}

}  // namespace kvlens
