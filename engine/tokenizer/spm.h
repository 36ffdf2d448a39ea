// SPDX-License-Identifier: Apache-2.0
// SentencePiece-style encoding (tokenizer.ggml.model = llama): the text's
// UTF-8 characters start as symbols, and the adjacent pair whose joined text
// is a token with the highest score (leftmost on ties) is merged until none
// is left. A leftover character that is not a token becomes its bytes'
// <0xXX> tokens (byte fallback). Spaces are '▁' (U+2581) in the vocabulary.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/vocab.h"

namespace kvlens {

class spm_merger {
public:
    explicit spm_merger(const vocab_data& vocab);

    // Appends the ids of text, whose spaces the caller has already turned into '▁'.
    void encode(std::string_view text, std::vector<token_id>& out) const;

    // The <0xXX> token of a byte, or -1 when the vocabulary lacks it.
    token_id byte_token(unsigned char b) const { return byte_token_[b]; }

    // ' ' -> '▁' (what encode expects) and back.
    static std::string escape_spaces(std::string_view text);
    static std::string unescape_spaces(std::string_view text);

private:
    // The id of a token text, -1 if none: an open-addressing table over the
    // vocabulary's texts (FNV-1a hashes), cheaper than the shared index in
    // the merge loop, which looks up every candidate pair.
    token_id lookup(std::string_view s) const;

    const vocab_data* vocab_;
    std::vector<token_id> slots_;            // (capacity, a power of two) ids, -1 empty
    std::vector<std::uint32_t> slot_hash_;   // (capacity) the hash of each slot's text
    std::size_t max_len_ = 0;                // bytes of the longest token text
    token_id unk_;
    std::array<token_id, 256> byte_token_{};  // <0xXX> ids, -1 when absent
};

}  // namespace kvlens
