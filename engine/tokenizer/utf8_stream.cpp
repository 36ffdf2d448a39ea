// SPDX-License-Identifier: Apache-2.0
// The streaming UTF-8 assembler (see utf8_stream.h).
#include "engine/tokenizer/utf8_stream.h"

#include "engine/tokenizer/utf8.h"

namespace kvlens {
namespace {

constexpr std::string_view k_replacement = "\xEF\xBF\xBD";  // U+FFFD

// True when s[pos..] could still grow into a valid character: a lead byte
// followed only by fitting continuation bytes, fewer than it needs.
bool could_complete(std::string_view s, std::size_t pos) {
    const auto b0 = static_cast<unsigned char>(s[pos]);
    const int n = utf8::sequence_length(b0);
    const std::size_t have = s.size() - pos;
    if (n <= 1 || have >= static_cast<std::size_t>(n)) return false;
    for (std::size_t i = 1; i < have; ++i)
        if (!utf8::is_continuation(static_cast<unsigned char>(s[pos + i]))) return false;
    if (have >= 2) {
        const auto b1 = static_cast<unsigned char>(s[pos + 1]);
        if ((b0 == 0xE0 && b1 < 0xA0) || (b0 == 0xED && b1 > 0x9F) || (b0 == 0xF0 && b1 < 0x90) ||
            (b0 == 0xF4 && b1 > 0x8F))
            return false;
    }
    return true;
}

// Bytes at s[pos] that begin a character without completing it (at least 1).
std::size_t maximal_prefix(std::string_view s, std::size_t pos) {
    std::size_t k = 1;
    while (k < s.size() - pos && could_complete(s.substr(0, pos + k + 1), pos)) ++k;
    return k;
}

}  // namespace

std::string utf8_stream::push(std::string_view bytes) {
    held_.append(bytes);
    std::string out;
    const std::string_view s = held_;
    std::size_t pos = 0;
    while (pos < s.size()) {
        const int n = utf8::valid_sequence_at(s, pos);
        if (n > 0) {
            out.append(s.substr(pos, n));
            pos += n;
        } else if (could_complete(s, pos)) {
            break;  // wait for the rest
        } else {
            // Not a character and never will be: one U+FFFD for the longest
            // start of a character found here (or for the single stray byte).
            out += k_replacement;
            pos += maximal_prefix(s, pos);
        }
    }
    held_.erase(0, pos);
    return out;
}

std::string utf8_stream::flush() {
    std::string out;
    if (!held_.empty()) out = std::string(k_replacement);
    held_.clear();
    return out;
}

}  // namespace kvlens
