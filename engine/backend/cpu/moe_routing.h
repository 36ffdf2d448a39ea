// SPDX-License-Identifier: Apache-2.0
// A mixture of experts' routing, as llama.cpp's build_moe_ffn does it: each
// token's router logits (n_expert) through a softmax (or, LFM2-MoE, each
// through a sigmoid; gpt-oss: as they are, softmax over the chosen), its n_used most probable experts (by probability plus
// an expert bias where the architecture has one) kept with their
// probabilities as weights (renormalized to sum 1 where the architecture
// asks), and the batch's (token, weight) pairs grouped by expert, so that
// each expert multiplies its tokens' rows in one product.
#pragma once

#include <cstdint>
#include <vector>

namespace kvlens {

struct moe_routes {
    int n_expert = 0;
    int n_used = 0;
    std::vector<int> expert;        // (n, n_used) each token's experts, most probable first
    std::vector<float> weight;      // (n, n_used) their weights
    std::vector<int> first;         // (n_expert + 1) expert e's pairs are [first[e], first[e + 1]) below
    std::vector<int> token;         // (n * n_used) the tokens of each expert's pairs, ascending
    std::vector<float> token_weight;  // (n * n_used) and their weights
    int tokens_of(int e) const { return first[static_cast<std::size_t>(e) + 1] - first[static_cast<std::size_t>(e)]; }
};

// How the router's logits become choices and weights.
struct moe_gating {
    bool sigmoid = false;                  // each probability sigmoid(logit), not a softmax over the experts
    bool renormalize = false;              // the kept weights divided by their sum (at least 2^-14, as llama.cpp clamps it)
    const float* selection_bias = nullptr; // (n_expert) added to the probabilities to choose, not to weigh; or none
    // gpt-oss: the logits choose as they are, and the weights are the softmax
    // of the chosen logits alone (llama.cpp's SOFTMAX_WEIGHT gating).
    bool softmax_chosen = false;
};

// Routes n tokens from their router logits (n, n_expert), f32. Ties in
// probability go to the lower expert index. A token whose logits are not
// finite still gets n_used distinct experts (its weights then carry the NaN,
// as llama.cpp's would).
void route_tokens(const float* logits, int n, int n_expert, int n_used, const moe_gating& gating, moe_routes& out);

// sigmoid(x) = 1 / (1 + e^-x): qwen2moe's shared-expert gate.
float moe_sigmoid(float x);

}  // namespace kvlens
