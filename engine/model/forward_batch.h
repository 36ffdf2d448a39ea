// SPDX-License-Identifier: Apache-2.0
// One forward pass's input: tokens from one or more sequences (a prefill
// chunk, a batch of decode steps, or both), where each token's K/V go in the
// cache, and which tokens' logits are wanted. Built with append(), one run of
// a sequence's consecutive tokens at a time; checked by every backend with
// check_forward_batch() before it touches a buffer.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "common/result.h"

namespace kvlens {

struct forward_batch {
    std::vector<std::int32_t> tokens;                 // (n) token ids
    std::vector<std::int32_t> positions;              // (n) position of each token in its sequence
    std::vector<const std::int32_t*> block_tables;    // (n) the block table of each token's sequence
    // (n) its sliding-window layers' block table (kv_sequence::local_block_table), nullptr without such layers
    std::vector<const std::int32_t*> local_block_tables;
    std::vector<std::int32_t> logit_rows;             // indices into tokens whose logits are computed, in order
    // (n, or empty) what each token is. 1: a decode step, computed exactly as
    // that token's decode step alone would be, whatever else the batch holds
    // (a run of its own, the decode kernels, a lone decode token's attention
    // split); speculative verification relies on it (each checked draft's
    // logits then equal, bit for bit on the CPU, those of decoding without
    // drafts). 0: a prompt token (prefill), computed the same way whatever
    // chunk it is in, even a chunk of one token. Empty (a batch built by
    // hand): a run of one token is a decode step, longer runs are prompt
    // tokens. Every append below fills it. The CPU backend follows it; other
    // backends may batch steps together.
    std::vector<std::uint8_t> step;

    std::size_t size() const { return tokens.size(); }
    // Whether token t continues token t - 1's run (the same sequence, the next position).
    bool continues_run(std::size_t t) const {
        return t > 0 && block_tables[t] == block_tables[t - 1] && positions[t] == positions[t - 1] + 1;
    }
    bool is_step(std::size_t t) const {
        if (!step.empty()) return step[t] != 0;
        return !continues_run(t) && !(t + 1 < size() && continues_run(t + 1));
    }
    void clear() {
        tokens.clear(); positions.clear(); block_tables.clear(); local_block_tables.clear(); logit_rows.clear();
        step.clear();
    }

    // Appends a run of one sequence: ids at positions pos0, pos0 + 1, ...,
    // whose K/V go through block_table (and, for sliding-window layers,
    // local_block_table). One id is a decode step, more are prompt tokens
    // (append_prompt says which explicitly). With want_logits the run's last
    // token gets a logits row; returns that row's index among the logits, else -1.
    int append(std::span<const std::int32_t> ids, std::int32_t pos0, const std::int32_t* block_table,
               bool want_logits, const std::int32_t* local_block_table = nullptr) {
        return append_run(ids, pos0, block_table, want_logits, local_block_table, ids.size() == 1);
    }

    // Appends a run of prompt tokens (prefill), however short: a chunk of one
    // token computes as it would in a longer chunk.
    int append_prompt(std::span<const std::int32_t> ids, std::int32_t pos0, const std::int32_t* block_table,
                      bool want_logits, const std::int32_t* local_block_table = nullptr) {
        return append_run(ids, pos0, block_table, want_logits, local_block_table, false);
    }

    // Appends a run whose every token is a decode step (computed as its
    // decode step alone would be) and gets a logits row; returns the first
    // row's index among the logits (the others follow it).
    int append_steps(std::span<const std::int32_t> ids, std::int32_t pos0, const std::int32_t* block_table,
                     const std::int32_t* local_block_table = nullptr) {
        const int first_row = static_cast<int>(logit_rows.size());
        for (std::size_t i = 0; i < ids.size(); ++i) {
            append_run(ids.subspan(i, 1), pos0 + static_cast<std::int32_t>(i), block_table, false, local_block_table, true);
            logit_rows.push_back(static_cast<std::int32_t>(tokens.size() - 1));
        }
        return first_row;
    }

private:
    int append_run(std::span<const std::int32_t> ids, std::int32_t pos0, const std::int32_t* block_table,
                   bool want_logits, const std::int32_t* local_block_table, bool is_decode_step) {
        // Tokens added by hand before the first append keep what they were.
        if (step.size() < tokens.size()) {
            std::vector<std::uint8_t> inferred(tokens.size());
            for (std::size_t t = 0; t < tokens.size(); ++t) inferred[t] = is_step(t) ? 1 : 0;
            step = std::move(inferred);
        }
        for (std::size_t i = 0; i < ids.size(); ++i) {
            tokens.push_back(ids[i]);
            positions.push_back(pos0 + static_cast<std::int32_t>(i));
            block_tables.push_back(block_table);
            local_block_tables.push_back(local_block_table);
            step.push_back(is_decode_step ? 1 : 0);
        }
        if (!want_logits || ids.empty()) return -1;
        logit_rows.push_back(static_cast<std::int32_t>(tokens.size() - 1));
        return static_cast<int>(logit_rows.size() - 1);
    }
};

// The input check every backend runs before a forward pass: the batch fits
// the backend (max_batch tokens, positions below max_ctx), its arrays agree in
// length, every token id is in the vocabulary and every logit row is a token
// of the batch. An empty batch is valid (nothing to do).
inline status check_forward_batch(const forward_batch& b, int n_vocab, int max_batch, int max_ctx) {
    const std::size_t n = b.size();
    if (n > static_cast<std::size_t>(max_batch))
        return make_error(fmt::format("batch of {} tokens exceeds the backend's {}", n, max_batch));
    if (b.positions.size() != n || b.block_tables.size() != n)
        return make_error("forward batch: tokens, positions and block tables differ in length");
    if (!b.local_block_tables.empty() && b.local_block_tables.size() != n)
        return make_error("forward batch: local block tables and tokens differ in length");
    if (!b.step.empty() && b.step.size() != n)
        return make_error("forward batch: step marks and tokens differ in length");
    for (std::size_t t = 0; t < n; ++t) {
        if (b.tokens[t] < 0 || b.tokens[t] >= n_vocab)
            return make_error(fmt::format("token id {} out of range (vocabulary {})", b.tokens[t], n_vocab));
        if (b.positions[t] < 0 || b.positions[t] >= max_ctx)
            return make_error(fmt::format("position {} beyond the context of {}", b.positions[t], max_ctx));
        if (b.block_tables[t] == nullptr) return make_error(fmt::format("token {} has no block table", t));
    }
    for (std::int32_t r : b.logit_rows)
        if (r < 0 || static_cast<std::size_t>(r) >= n)
            return make_error(fmt::format("logit row {} outside the batch of {}", r, n));
    return {};
}

// What a forward pass did, counted (not timed): the roofline figures.
struct forward_counts {
    double flop = 0;          // multiply-adds x 2 of the matrix products and attention
    double weight_bytes = 0;  // bytes of weights read
    double kv_bytes = 0;      // bytes of K/V read by attention
};

}  // namespace kvlens
