// SPDX-License-Identifier: Apache-2.0
// Splitting special-token text out of a prompt (see special_tokens.h).
#include "engine/tokenizer/special_tokens.h"

#include <algorithm>
#include <functional>

namespace kvlens {

void special_token_matcher::table::add(std::string_view text, token_id id) {
    if (text.empty()) return;
    // Of two tokens with one text, the later wins, like the vocabulary index.
    ids[text] = id;
    first_byte[static_cast<unsigned char>(text[0])] = true;
    if (std::find(lengths.begin(), lengths.end(), text.size()) == lengths.end()) {
        lengths.push_back(text.size());
        std::sort(lengths.begin(), lengths.end(), std::greater<>());
    }
}

token_id special_token_matcher::table::match_at(std::string_view text, std::size_t pos, std::size_t& len) const {
    if (!first_byte[static_cast<unsigned char>(text[pos])]) return -1;
    for (std::size_t n : lengths) {
        if (pos + n > text.size()) continue;
        const auto it = ids.find(text.substr(pos, n));
        if (it != ids.end()) {
            len = n;
            return it->second;
        }
    }
    return -1;
}

special_token_matcher::special_token_matcher(const vocab_data& vocab) {
    for (token_id id = 0; id < vocab.size(); ++id) {
        const token_type t = vocab.type[id];
        if (t == token_type::control || t == token_type::user_defined || t == token_type::unknown)
            all_.add(vocab.text[id], id);
        if (t == token_type::user_defined) user_defined_.add(vocab.text[id], id);
    }
}

std::vector<text_fragment> special_token_matcher::partition(std::string_view text, bool parse_special) const {
    const table& t = parse_special ? all_ : user_defined_;
    std::vector<text_fragment> out;
    if (t.ids.empty()) {
        if (!text.empty()) out.push_back({-1, text});
        return out;
    }
    std::size_t plain_from = 0;  // start of the ordinary text not yet emitted
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t len = 0;
        const token_id id = t.match_at(text, pos, len);
        if (id < 0) {
            ++pos;
            continue;
        }
        if (pos > plain_from) out.push_back({-1, text.substr(plain_from, pos - plain_from)});
        out.push_back({id, text.substr(pos, len)});
        pos += len;
        plain_from = pos;
    }
    if (plain_from < text.size()) out.push_back({-1, text.substr(plain_from)});
    return out;
}

}  // namespace kvlens
