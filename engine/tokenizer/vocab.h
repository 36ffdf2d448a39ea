// SPDX-License-Identifier: Apache-2.0
// The vocabulary as read from GGUF (tokenizer.ggml.tokens / scores /
// token_type): plain arrays indexed by token id, and a text -> id index.
// Shared by the BPE and SentencePiece encoders and the tokenizer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kvlens {

using token_id = std::int32_t;

// tokenizer.ggml.token_type values.
enum class token_type : std::uint8_t {
    undefined = 0, normal = 1, unknown = 2, control = 3, user_defined = 4, unused = 5, byte = 6,
};

struct vocab_data {
    struct text_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    std::vector<std::string> text;    // (n_vocab) token text as the file stores it
    std::vector<float> score;         // (n_vocab) SentencePiece scores; 0 when the file has none
    std::vector<token_type> type;     // (n_vocab)
    // text -> id; for a text that occurs twice, the later id (as llama.cpp).
    std::unordered_map<std::string, token_id, text_hash, std::equal_to<>> index;

    int size() const { return static_cast<int>(text.size()); }
    token_id find(std::string_view s) const {
        const auto it = index.find(s);
        return it == index.end() ? -1 : it->second;
    }
};

}  // namespace kvlens
