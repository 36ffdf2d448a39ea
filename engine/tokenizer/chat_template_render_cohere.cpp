// SPDX-License-Identifier: Apache-2.0
// Rendering Cohere's Command R conversations (Command R, R+, Aya 23, Aya
// Expanse) as their official Hugging Face template does
// (tests/tokenizer/chat_formats_reference.py renders it with jinja2 for the
// tests): "<|START_OF_TURN_TOKEN|>" + a role token + content +
// "<|END_OF_TURN_TOKEN|>", the system turn only for a first system message
// (as it is), questions and answers stripped of surrounding whitespace as
// Python's str.strip() strips them. Command R7B's templates (a fixed safety
// preamble, answers between "<|START_RESPONSE|>" and "<|END_RESPONSE|>") are
// rendered the same way, as llama.cpp's built-in renderer renders them.
#include "engine/tokenizer/chat_template_render.h"

namespace kvlens::chat_render {

namespace {

constexpr const char* k_start = "<|START_OF_TURN_TOKEN|>";
constexpr const char* k_end = "<|END_OF_TURN_TOKEN|>";

// The length of the whitespace character Python's str.isspace() accepts at
// s[i], in UTF-8 bytes; 0 when s[i] starts none. ASCII's \t..\r, space and
// \x1c..\x1f, and U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029,
// U+202F, U+205F, U+3000.
std::size_t space_at(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    const unsigned c = b(0);
    if (c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f)) return 1;
    if (c == 0xc2 && (b(1) == 0x85 || b(1) == 0xa0)) return 2;
    if (c == 0xe1 && b(1) == 0x9a && b(2) == 0x80) return 3;
    if (c == 0xe2 && b(1) == 0x80 && (b(2) <= 0x8a || b(2) == 0xa8 || b(2) == 0xa9 || b(2) == 0xaf)) return 3;
    if (c == 0xe2 && b(1) == 0x81 && b(2) == 0x9f) return 3;
    if (c == 0xe3 && b(1) == 0x80 && b(2) == 0x80) return 3;
    return 0;
}

// Python's str.strip() of UTF-8 text.
std::string_view py_strip(std::string_view s) {
    std::size_t begin = 0;
    while (begin < s.size()) {
        const std::size_t n = space_at(s, begin);
        if (n == 0) break;
        begin += n;
    }
    // From the front, the end of the last character that is not whitespace.
    std::size_t end = begin;
    for (std::size_t i = begin; i < s.size();) {
        const std::size_t n = space_at(s, i);
        if (n > 0) {
            i += n;
            continue;
        }
        ++i;
        while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xc0) == 0x80) ++i;   // the character's other bytes
        end = i;
    }
    return s.substr(begin, end - begin);
}

void turn(segment_writer& w, const char* role, std::string_view content) {
    w.control(k_start);
    w.control(role);
    w.text(content);
    w.control(k_end);
}

}  // namespace

// A system message that does not come first is left out: the template loops
// over the rest for user and assistant turns only (and refuses roles that do
// not alternate, which kvlens renders as they come).
std::vector<chat_segment> render_command_r(const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    std::size_t first = 0;
    if (!msgs.empty() && msgs.front().role == "system") {
        turn(w, "<|SYSTEM_TOKEN|>", msgs.front().content);
        first = 1;
    }
    for (std::size_t i = first; i < msgs.size(); ++i) {
        const chat_message& m = msgs[i];
        if (m.role == "user") turn(w, "<|USER_TOKEN|>", py_strip(m.content));
        else if (m.role == "assistant") turn(w, "<|CHATBOT_TOKEN|>", py_strip(m.content));
    }
    if (gen) {
        w.control(k_start);
        w.control("<|CHATBOT_TOKEN|>");
    }
    return w.take();
}

}  // namespace kvlens::chat_render
