// SPDX-License-Identifier: Apache-2.0
// The sampler: greedy, or penalty -> top-k -> temperature -> top-p -> min-p -> draw.
#include "engine/runtime/sampling.h"

#include <algorithm>
#include <cmath>

namespace kvlens {

std::int32_t argmax(std::span<const float> logits) {
    std::int32_t best = 0;
    for (std::size_t i = 1; i < logits.size(); ++i)
        if (logits[i] > logits[static_cast<std::size_t>(best)]) best = static_cast<std::int32_t>(i);
    return best;
}

sampler::sampler(const sampling_params& p) : p_(p), rng_(p.seed) {}

void sampler::accept(std::int32_t token) {
    if (p_.repeat_last_n <= 0) return;
    recent_.push_back(token);
    if (static_cast<int>(recent_.size()) > p_.repeat_last_n) recent_.erase(recent_.begin());
}

bool sampler::distribution(std::span<const float> logits, std::int32_t& pick, double& total) {
    const bool penalize = p_.repeat_penalty != 1.0f && !recent_.empty();
    if (p_.temperature <= 0 && !penalize) {
        pick = argmax(logits);
        return false;
    }

    cand_.clear();
    cand_.reserve(logits.size());
    for (std::size_t i = 0; i < logits.size(); ++i) cand_.emplace_back(logits[i], static_cast<std::int32_t>(i));
    if (penalize) {
        // Applied once per distinct recent token.
        unique_.assign(recent_.begin(), recent_.end());
        std::sort(unique_.begin(), unique_.end());
        unique_.erase(std::unique(unique_.begin(), unique_.end()), unique_.end());
        for (std::int32_t t : unique_) {
            if (t < 0 || static_cast<std::size_t>(t) >= cand_.size()) continue;
            float& l = cand_[static_cast<std::size_t>(t)].first;
            l = l > 0 ? l / p_.repeat_penalty : l * p_.repeat_penalty;
        }
    }
    auto by_logit = [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); };
    if (p_.temperature <= 0) {
        pick = std::min_element(cand_.begin(), cand_.end(), by_logit)->second;
        return false;
    }

    std::size_t k = cand_.size();
    if (p_.top_k > 0 && static_cast<std::size_t>(p_.top_k) < k) k = static_cast<std::size_t>(p_.top_k);
    std::partial_sort(cand_.begin(), cand_.begin() + static_cast<std::ptrdiff_t>(k), cand_.end(), by_logit);
    cand_.resize(k);

    // Softmax at the temperature, in place (first: probability).
    const float max = cand_[0].first;
    double sum = 0;
    for (auto& c : cand_) {
        c.first = std::exp((c.first - max) / p_.temperature);
        sum += c.first;
    }
    for (auto& c : cand_) c.first = static_cast<float>(c.first / sum);

    if (p_.top_p < 1.0f) {
        double cum = 0;
        std::size_t keep = cand_.size();
        for (std::size_t i = 0; i < cand_.size(); ++i) {
            cum += cand_[i].first;
            if (cum >= p_.top_p) { keep = i + 1; break; }
        }
        cand_.resize(keep);
    }
    if (p_.min_p > 0) {
        const float floor = cand_[0].first * p_.min_p;
        std::size_t keep = 1;
        while (keep < cand_.size() && cand_[keep].first >= floor) ++keep;
        cand_.resize(keep);
    }
    total = 0;
    for (const auto& c : cand_) total += c.first;
    return true;
}

std::int32_t sampler::sample(std::span<const float> logits) {
    std::int32_t pick = 0;
    double total = 0;
    if (!distribution(logits, pick, total)) return pick;
    std::uniform_real_distribution<double> u(0.0, total);
    double r = u(rng_);
    for (const auto& c : cand_) {
        r -= c.first;
        if (r <= 0) return c.second;
    }
    return cand_.back().second;
}

std::int32_t sampler::verify(std::span<const float> logits, std::int32_t draft) {
    std::int32_t pick = 0;
    double total = 0;
    if (!distribution(logits, pick, total)) return pick;
    double p_draft = 0;
    for (const auto& c : cand_)
        if (c.second == draft) p_draft = c.first;
    std::uniform_real_distribution<double> u(0.0, total);
    if (u(rng_) < p_draft) return draft;
    // Rejected: a draw from the rest (the draft's share taken out).
    const double rest = total - p_draft;
    if (rest <= 0) return draft;   // the draft held all the mass: cannot be rejected
    double r = std::uniform_real_distribution<double>(0.0, rest)(rng_);
    std::int32_t last = draft;
    for (const auto& c : cand_) {
        if (c.second == draft) continue;
        last = c.second;
        r -= c.first;
        if (r <= 0) return c.second;
    }
    return last;
}

}  // namespace kvlens
