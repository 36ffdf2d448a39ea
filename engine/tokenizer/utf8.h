// SPDX-License-Identifier: Apache-2.0
// Small UTF-8 helpers shared by the tokenizer's parts: sequence lengths,
// decoding one code point, encoding one code point.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kvlens::utf8 {

// Length in bytes of the sequence a lead byte starts (1..4); 0 for a byte that
// cannot start a sequence (a continuation byte, 0xC0, 0xC1, 0xF5..0xFF).
inline int sequence_length(unsigned char lead) {
    if (lead < 0x80) return 1;
    if (lead < 0xC2) return 0;
    if (lead < 0xE0) return 2;
    if (lead < 0xF0) return 3;
    if (lead < 0xF5) return 4;
    return 0;
}

inline bool is_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// Length of the valid sequence at s[pos], or 0 when the bytes there are not a
// complete, well-formed UTF-8 sequence (truncated, overlong, surrogate, > U+10FFFF).
int valid_sequence_at(std::string_view s, std::size_t pos);

// The code point of the valid sequence at s[pos] (caller checked with
// valid_sequence_at); n is its length.
std::uint32_t decode_at(std::string_view s, std::size_t pos, int n);

void append(std::string& out, std::uint32_t cp);

}  // namespace kvlens::utf8
