// SPDX-License-Identifier: Apache-2.0
// Small UTF-8 and character-class helpers for the text cleanup (internal to
// pdf/): decode to code points, encode back, and the few Unicode classes the
// cleanup needs (CJK, right-to-left, strong left-to-right, case, widths).
#pragma once

#include <string>
#include <string_view>

namespace kvlens::pdf::utf8 {

// Decodes UTF-8; each invalid or truncated sequence becomes U+FFFD.
std::u32string decode(std::string_view text);
std::string encode(std::u32string_view text);
void append(std::string& out, char32_t c);

// Han, kana, CJK punctuation and full-width forms: scripts written without
// spaces between words (Hangul is not: Korean uses spaces).
bool is_cjk(char32_t c);
// Hebrew, Arabic, Syriac, Thaana, NKo and their presentation forms.
bool is_rtl(char32_t c);
// Latin, Greek, Cyrillic letters and ASCII digits: the characters that keep
// their own order inside a right-to-left line.
bool is_strong_ltr(char32_t c);
bool is_letter(char32_t c);  // approximate: alphabetic scripts, CJK, RTL scripts
bool is_lower(char32_t c);   // approximate: Latin, Greek, Cyrillic lower case
bool is_upper(char32_t c);
bool is_digit(char32_t c);
bool is_space(char32_t c);   // ' ' and '\t' after normalisation
// Columns a character takes in a line: 2 for CJK, 0 for combining marks, else 1.
int display_width(char32_t c);
int display_width(std::u32string_view text);

}  // namespace kvlens::pdf::utf8
