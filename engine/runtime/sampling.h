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
