// SPDX-License-Identifier: Apache-2.0
// Finds special-token text in a prompt before ordinary tokenization: control
// tokens ("<|im_start|>", type 3) only when the caller asks to parse special
// text, user-defined tokens (type 4) always, as the reference tokenizers do.
// The scan is left to right and takes the longest token starting at each
// position; only positions whose byte can start a special token are tried,
// and only the lengths special tokens have, so a vocabulary with thousands of
// them costs a few hash lookups per candidate position.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/tokenizer/vocab.h"

namespace kvlens {

struct text_fragment {
    token_id special = -1;   // the special token, or -1 for ordinary text
    std::string_view text;   // a view into the input
};

class special_token_matcher {
public:
    explicit special_token_matcher(const vocab_data& vocab);

    // The input cut into ordinary text and special tokens, in order.
    std::vector<text_fragment> partition(std::string_view text, bool parse_special) const;

private:
    struct table {
        std::unordered_map<std::string_view, token_id> ids;  // text -> id (views into the vocabulary)
        std::vector<std::size_t> lengths;                     // distinct text lengths, longest first
        std::array<bool, 256> first_byte{};                   // bytes that start some token
        void add(std::string_view text, token_id id);
        token_id match_at(std::string_view text, std::size_t pos, std::size_t& len) const;
    };
    table all_;           // control, user-defined and unknown tokens
    table user_defined_;  // user-defined only
};

}  // namespace kvlens
