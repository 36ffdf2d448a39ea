// SPDX-License-Identifier: Apache-2.0
// What the chat-format suites share: a conversation written as (role,
// content) pairs, a row of the official-template table that
// chat_formats_reference.py generates (the template, a conversation, whether
// the generation prompt is asked for, what jinja2 renders), the control
// segments of a rendering as their texts, and a template revision's text.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "engine/tokenizer/chat_template.h"

namespace kvlens::test {

inline std::vector<chat_message> conv(std::initializer_list<std::pair<const char*, const char*>> turns) {
    std::vector<chat_message> out;
    for (const auto& [role, content] : turns) out.push_back({role, content});
    return out;
}

struct reference_row {
    std::string tag;                      // names the row in a failure
    std::string tmpl;                     // the template's text
    std::vector<chat_message> messages;
    bool generation;                      // add_generation_prompt
    std::string expected;                 // jinja2's rendering, the BOS the template writes first left out
};

// text with its one occurrence of `from` replaced by `to` (a template's
// revision written as its change); empty when `from` does not occur once.
inline std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    if (at == std::string::npos || text.find(from, at + 1) != std::string::npos) return {};
    return text.substr(0, at) + to + text.substr(at + from.size());
}

// The texts of the control segments, in order.
inline std::vector<std::string> controls(const std::vector<chat_segment>& segments) {
    std::vector<std::string> out;
    for (const chat_segment& s : segments)
        if (s.control) out.push_back(s.text);
    return out;
}

}  // namespace kvlens::test
