// SPDX-License-Identifier: Apache-2.0
// The byte-level BPE alphabet (GPT-2's bytes_to_unicode): every byte 0..255 is
// shown as one printable code point, so that vocabularies hold only visible
// text. Printable Latin-1 bytes stand for themselves; the other 68 bytes map,
// in order, to U+0100.. (so ' ' is 'Ġ' U+0120 and '\n' is 'Ċ' U+010A).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kvlens::byte_level {

// The code point that stands for byte b.
std::uint32_t code_point_of(std::uint8_t b);
// The byte a code point stands for, or -1 when it is not in the alphabet.
int byte_of(std::uint32_t cp);

// Raw bytes -> vocabulary text (each byte becomes one code point, 1-2 UTF-8 bytes).
std::string encode(std::string_view raw);
// Vocabulary text -> raw bytes. Code points outside the alphabet (or invalid
// UTF-8) are copied through unchanged; returns false when that happened.
bool decode(std::string_view text, std::string& out);

}  // namespace kvlens::byte_level
