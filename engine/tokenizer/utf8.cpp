// SPDX-License-Identifier: Apache-2.0
// UTF-8 validation, decoding and encoding for the tokenizer (see utf8.h).
#include "engine/tokenizer/utf8.h"

namespace kvlens::utf8 {

int valid_sequence_at(std::string_view s, std::size_t pos) {
    if (pos >= s.size()) return 0;
    const auto b0 = static_cast<unsigned char>(s[pos]);
    const int n = sequence_length(b0);
    if (n <= 1 || pos + static_cast<std::size_t>(n) > s.size()) return n == 1 ? 1 : 0;
    for (int i = 1; i < n; ++i)
        if (!is_continuation(static_cast<unsigned char>(s[pos + i]))) return 0;
    const auto b1 = static_cast<unsigned char>(s[pos + 1]);
    // The second byte's range excludes overlong forms, surrogates and > U+10FFFF.
    if (b0 == 0xE0 && b1 < 0xA0) return 0;
    if (b0 == 0xED && b1 > 0x9F) return 0;
    if (b0 == 0xF0 && b1 < 0x90) return 0;
    if (b0 == 0xF4 && b1 > 0x8F) return 0;
    return n;
}

std::uint32_t decode_at(std::string_view s, std::size_t pos, int n) {
    const auto b = [&](int i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[pos + i])); };
    switch (n) {
    case 1: return b(0);
    case 2: return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
    case 3: return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    default: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
    }
}

void append(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

}  // namespace kvlens::utf8
