// SPDX-License-Identifier: Apache-2.0
// Merge-rank byte-level BPE (tokenizer.ggml.model = gpt2): a word's bytes
// start as one symbol each, and the adjacent pair with the lowest merge rank
// (leftmost on ties) is merged until no ranked pair is left. Symbols are a
// linked list and candidate pairs a min-heap, so a word of n bytes costs
// O(n log n), not the O(n^2) of rescanning.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"
#include "engine/tokenizer/vocab.h"

namespace kvlens {

class bpe_merger {
public:
    // merges: tokenizer.ggml.merges, "left right" in rank order. An entry
    // without a separating space (or with an empty side) is an error.
    static result<bpe_merger> build(const vocab_data& vocab, const std::vector<std::string_view>& merges);

    // Appends the ids of one pre-tokenized word given as raw bytes.
    void encode_word(std::string_view raw, std::vector<token_id>& out) const;

    int n_merges() const { return n_merges_; }

private:
    struct merge_rule {
        std::int32_t rank;
        std::int32_t result;  // piece id of left+right
    };
    static std::uint64_t key(std::int32_t left, std::int32_t right) {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
               static_cast<std::uint32_t>(right);
    }
    std::int32_t intern(std::string_view text, std::unordered_map<std::string, std::int32_t>& extra_index);
    void emit(std::int32_t piece, std::vector<token_id>& out) const;

    const vocab_data* vocab_ = nullptr;
    int n_merges_ = 0;
    // Piece ids: token ids below n_vocab; texts that merges name but the
    // vocabulary lacks get ids n_vocab + i, with their text in extra_text_.
    std::vector<std::string> extra_text_;
    std::array<std::int32_t, 256> byte_piece_{};   // the piece of each single byte
    std::unordered_map<std::uint64_t, merge_rule> rules_;  // (left, right) -> rule
};

}  // namespace kvlens
