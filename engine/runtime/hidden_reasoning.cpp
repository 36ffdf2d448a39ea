// SPDX-License-Identifier: Apache-2.0
// hidden_reasoning: find the next tag in held text + piece; what is left at
// the end and could begin the next tag is held for the next piece.
#include "engine/runtime/hidden_reasoning.h"

#include <algorithm>

namespace kvlens {

namespace {

constexpr std::string_view k_open = "<think>";
constexpr std::string_view k_close = "</think>";

// Length of the longest suffix of s that is a proper prefix of tag.
std::size_t partial_tag_at_end(std::string_view s, std::string_view tag) {
    for (std::size_t n = std::min(s.size(), tag.size() - 1); n > 0; --n)
        if (s.substr(s.size() - n) == tag.substr(0, n)) return n;
    return 0;
}

}  // namespace

const char* to_string(reasoning_evidence e) {
    switch (e) {
    case reasoning_evidence::vocabulary: return "vocabulary";
    case reasoning_evidence::chat_template: return "chat_template";
    case reasoning_evidence::none: break;
    }
    return "none";
}

reasoning_evidence reasoning_evidence_of(bool vocab_has_open_tag, bool vocab_has_close_tag,
                                         std::string_view chat_template) {
    if (vocab_has_open_tag && vocab_has_close_tag) return reasoning_evidence::vocabulary;
    if (chat_template.find(k_open) != std::string_view::npos && chat_template.find(k_close) != std::string_view::npos)
        return reasoning_evidence::chat_template;
    return reasoning_evidence::none;
}

bool hidden_reasoning::push(std::string_view piece) {
    std::string text = held_;
    text.append(piece);
    held_.clear();
    std::string_view rest = text;
    bool answer = false;
    for (;;) {
        const std::string_view tag = inside_ ? k_close : k_open;
        const std::size_t at = rest.find(tag);
        if (at == std::string_view::npos) {
            const std::size_t keep = partial_tag_at_end(rest, tag);
            if (!inside_ && rest.size() > keep) answer = true;
            held_.assign(rest.substr(rest.size() - keep));
            return answer;
        }
        if (!inside_ && at > 0) answer = true;
        inside_ = !inside_;
        rest.remove_prefix(at + tag.size());
    }
}

}  // namespace kvlens
