// SPDX-License-Identifier: Apache-2.0
// Sampling parameters and the sampler: greedy, temperature, top-k, top-p,
// min-p, repetition penalty, seeded.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace kvlens {

struct sampling_params {
    float temperature = 0.0f;       // 0: greedy (argmax)
    int top_k = 40;                 // 0: off
    float top_p = 0.95f;            // 1: off
    float min_p = 0.05f;            // 0: off
    float repeat_penalty = 1.0f;    // 1: off
    int repeat_last_n = 64;         // tokens the penalty looks back over
    std::uint64_t seed = 0;
};

}  // namespace kvlens

namespace kvlens {

// Picks the next token from a row of logits. Greedy (temperature 0) is the
// argmax (ties: the lowest id) and deterministic; otherwise, in order: the
// repetition penalty over the last repeat_last_n tokens, top-k, softmax at the
// temperature, top-p, min-p, then a draw from the seeded generator. verify()
// is the same choice for speculative decoding, given a draft token.
class sampler {
public:
    explicit sampler(const sampling_params& p);

    std::int32_t sample(std::span<const float> logits);
    // Speculative decoding's check of a draft token against the target's
    // logits: the token to emit, which is the draft when it is accepted.
    // Greedy: sample(), so the draft is accepted only where it is the argmax.
    // Otherwise the draft is accepted with its probability under the
    // distribution sample() draws from, and on a rejection the token is drawn
    // from that distribution without the draft (renormalized): for a draft
    // chosen without sampling (prompt lookup) the emitted token then has the
    // same distribution as sample()'s.
    std::int32_t verify(std::span<const float> logits, std::int32_t draft);
    // Remembers a token for the repetition penalty (prompt and generated).
    void accept(std::int32_t token);

private:
    // The distribution sample() draws from, in cand_ as (probability, id)
    // with the sum in total; false (and the token in pick) when the choice is
    // deterministic (greedy).
    bool distribution(std::span<const float> logits, std::int32_t& pick, double& total);

    sampling_params p_;
    std::mt19937_64 rng_;
    std::vector<std::int32_t> recent_;            // last repeat_last_n tokens
    std::vector<std::int32_t> unique_;            // distinct recent tokens (penalty)
    std::vector<std::pair<float, std::int32_t>> cand_;  // (n_vocab) working candidates
};

// Index of the largest value (the lowest index among equals).
std::int32_t argmax(std::span<const float> logits);

}  // namespace kvlens
