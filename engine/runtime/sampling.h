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
// temperature, top-p, min-p, then a draw from the seeded generator.
class sampler {
public:
    explicit sampler(const sampling_params& p);

    std::int32_t sample(std::span<const float> logits);
    // Remembers a token for the repetition penalty (prompt and generated).
    void accept(std::int32_t token);

private:
    sampling_params p_;
    std::mt19937_64 rng_;
    std::vector<std::int32_t> recent_;            // last repeat_last_n tokens
    std::vector<std::int32_t> unique_;            // distinct recent tokens (penalty)
    std::vector<std::pair<float, std::int32_t>> cand_;  // (n_vocab) working candidates
};

// Index of the largest value (the lowest index among equals).
std::int32_t argmax(std::span<const float> logits);

}  // namespace kvlens
