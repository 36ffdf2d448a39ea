// SPDX-License-Identifier: Apache-2.0
// Escaping and cutting file-controlled text for messages (see printable.h).
#include "common/printable.h"

#include <cstdint>

namespace kvlens {
namespace {

// Length of the valid UTF-8 sequence at s[i] (1..4), or 0 when it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0, min = 0;
    if (b0 < 0x80) return 1;
    if ((b0 & 0xE0) == 0xC0) { n = 2; cp = b0 & 0x1F; min = 0x80; }
    else if ((b0 & 0xF0) == 0xE0) { n = 3; cp = b0 & 0x0F; min = 0x800; }
    else if ((b0 & 0xF8) == 0xF0) { n = 4; cp = b0 & 0x07; min = 0x10000; }
    else return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

void hex_escape(std::string& out, unsigned value, const char* prefix, int digits) {
    static const char* const hex = "0123456789abcdef";
    out += prefix;
    for (int d = digits - 1; d >= 0; --d) out += hex[(value >> (4 * d)) & 0xF];
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
    std::string out;
    const std::size_t shown = text.size() < max_bytes ? text.size() : max_bytes;
    out.reserve(shown + 16);
    std::size_t i = 0;
    while (i < shown) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = utf8_length(text, i);
        if (n == 0 || i + n > shown) {  // not UTF-8, or a character the cut would split
            if (n != 0) break;
            hex_escape(out, c, "\\x", 2);
            ++i;
            continue;
        }
        if (n == 1) {
            switch (c) {
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            case '\\': out += "\\\\"; break;
            default:
                if (c < 0x20 || c == 0x7F) hex_escape(out, c, "\\x", 2);
                else out += static_cast<char>(c);
            }
        } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
            hex_escape(out, static_cast<unsigned char>(text[i + 1]), "\\u00", 2);  // C1 control (CSI is U+009B)
        } else {
            out.append(text.substr(i, n));
        }
        i += n;
    }
    if (i < text.size()) out += "...(" + std::to_string(text.size() - i) + " more bytes)";
    return out;
}

std::string quoted(std::string_view text, std::size_t max_bytes) { return "'" + printable(text, max_bytes) + "'"; }

}  // namespace kvlens
