// SPDX-License-Identifier: Apache-2.0
// Small string predicates the plain C++ suites use where Qt Test suites used
// QString::contains / startsWith / endsWith / trimmed().isEmpty() and
// toUcs4().size().
#pragma once

#include <cstddef>
#include <string_view>

namespace kvlens::test {

inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }
inline bool starts_with(std::string_view text, std::string_view part) { return text.starts_with(part); }
inline bool ends_with(std::string_view text, std::string_view part) { return text.ends_with(part); }

// Code points in valid UTF-8: the bytes that do not continue a sequence.
inline std::size_t code_points(std::string_view utf8) {
    std::size_t n = 0;
    for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
    return n;
}

// True when the text is empty or only spaces, tabs and line breaks.
inline bool is_blank(std::string_view text) {
    return text.find_first_not_of(" \t\n\r\v\f") == std::string_view::npos;
}

}  // namespace kvlens::test
