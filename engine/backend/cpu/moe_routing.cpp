// SPDX-License-Identifier: Apache-2.0
// Softmax, sigmoids or the logits themselves, top-k (and gpt-oss's softmax
// over the chosen), grouping by expert for moe_routing.h.
#include "engine/backend/cpu/moe_routing.h"

#include <algorithm>
#include <cmath>

#include "engine/backend/cpu/ops.h"

namespace kvlens {

void route_tokens(const float* logits, int n, int n_expert, int n_used, const moe_gating& gating, moe_routes& out) {
    out.n_expert = n_expert;
    out.n_used = n_used;
    const auto N = static_cast<std::size_t>(n), E = static_cast<std::size_t>(n_expert), K = static_cast<std::size_t>(n_used);
    out.expert.resize(N * K);
    out.weight.resize(N * K);
    std::vector<float> prob(E), choose(E);
    std::vector<int> order(E);
    for (std::size_t t = 0; t < N; ++t) {
        std::copy_n(logits + t * E, E, prob.begin());
        if (gating.sigmoid)
            for (float& p : prob) p = moe_sigmoid(p);
        else if (!gating.softmax_chosen)
            softmax(prob.data(), n_expert);
        for (std::size_t e = 0; e < E; ++e) {
            order[e] = static_cast<int>(e);
            choose[e] = gating.selection_bias ? prob[e] + gating.selection_bias[e] : prob[e];
        }
        // The n_used largest, most probable first; NaN ranks last.
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(K), order.end(), [&](int a, int b) {
            const float pa = choose[static_cast<std::size_t>(a)], pb = choose[static_cast<std::size_t>(b)];
            if (pa > pb) return true;
            if (pa < pb) return false;
            if (std::isnan(pa) != std::isnan(pb)) return std::isnan(pb);
            return a < b;
        });
        float kept = 0;
        for (std::size_t j = 0; j < K; ++j) {
            out.expert[t * K + j] = order[j];
            out.weight[t * K + j] = prob[static_cast<std::size_t>(order[j])];
            kept += out.weight[t * K + j];
        }
        if (gating.softmax_chosen) softmax(&out.weight[t * K], n_used);
        if (gating.renormalize) {
            const float sum = kept < 6.103515625e-5f ? 6.103515625e-5f : kept;   // NaN stays NaN
            for (std::size_t j = 0; j < K; ++j) out.weight[t * K + j] /= sum;
        }
    }
    // Group the pairs by expert (a counting sort, tokens ascending within each).
    out.first.assign(E + 1, 0);
    for (const int e : out.expert) ++out.first[static_cast<std::size_t>(e) + 1];
    for (std::size_t e = 0; e < E; ++e) out.first[e + 1] += out.first[e];
    std::vector<int> at(out.first.begin(), out.first.end() - 1);
    out.token.resize(N * K);
    out.token_weight.resize(N * K);
    for (std::size_t t = 0; t < N; ++t)
        for (std::size_t j = 0; j < K; ++j) {
            const auto slot = static_cast<std::size_t>(at[static_cast<std::size_t>(out.expert[t * K + j])]++);
            out.token[slot] = static_cast<int>(t);
            out.token_weight[slot] = out.weight[t * K + j];
        }
}

float moe_sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

}  // namespace kvlens
