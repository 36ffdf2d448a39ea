// SPDX-License-Identifier: Apache-2.0
// One forward pass's input: tokens from one or more sequences (a prefill
// chunk, a batch of decode steps, or both), where each token's K/V go in the
// cache, and which tokens' logits are wanted.
#pragma once

#include <cstdint>
#include <vector>

namespace kvlens {

struct forward_batch {
    std::vector<std::int32_t> tokens;                 // (n) token ids
    std::vector<std::int32_t> positions;              // (n) position of each token in its sequence
    std::vector<const std::int32_t*> block_tables;    // (n) the block table of each token's sequence
    std::vector<std::int32_t> logit_rows;             // indices into tokens whose logits are computed, in order

    std::size_t size() const { return tokens.size(); }
    void clear() { tokens.clear(); positions.clear(); block_tables.clear(); logit_rows.clear(); }
};

// What a forward pass did, counted (not timed): the roofline figures.
struct forward_counts {
    double flop = 0;          // multiply-adds x 2 of the matrix products and attention
    double weight_bytes = 0;  // bytes of weights read
    double kv_bytes = 0;      // bytes of K/V read by attention
};

}  // namespace kvlens
