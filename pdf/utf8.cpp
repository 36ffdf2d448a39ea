// SPDX-License-Identifier: Apache-2.0
// UTF-8 decoding/encoding and character classes for the text cleanup.
#include "pdf/utf8.h"

namespace kvlens::pdf::utf8 {

std::u32string decode(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char b0 = static_cast<unsigned char>(s[i]);
        int len = 0;
        char32_t c = 0;
        if (b0 < 0x80) {
            len = 1;
            c = b0;
        } else if ((b0 & 0xE0) == 0xC0) {
            len = 2;
            c = b0 & 0x1F;
        } else if ((b0 & 0xF0) == 0xE0) {
            len = 3;
            c = b0 & 0x0F;
        } else if ((b0 & 0xF8) == 0xF0) {
            len = 4;
            c = b0 & 0x07;
        }
        bool ok = len > 0 && i + len <= s.size();
        for (int k = 1; ok && k < len; ++k) {
            const unsigned char b = static_cast<unsigned char>(s[i + k]);
            if ((b & 0xC0) != 0x80) ok = false;
            c = (c << 6) | (b & 0x3F);
        }
        // Overlong forms, surrogates and out-of-range values are invalid too.
        if (ok && ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
                   c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)))
            ok = false;
        if (!ok) {
            out.push_back(0xFFFD);
            i += 1;
            continue;
        }
        out.push_back(c);
        i += len;
    }
    return out;
}

void append(std::string& out, char32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

std::string encode(std::u32string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char32_t c : text) append(out, c);
    return out;
}

bool is_cjk(char32_t c) {
    return (c >= 0x2E80 && c <= 0x2FDF)      // radicals
           || (c >= 0x3000 && c <= 0x30FF)   // CJK punctuation, hiragana, katakana
           || (c >= 0x3100 && c <= 0x312F)   // bopomofo
           || (c >= 0x31C0 && c <= 0x31FF)   // strokes, katakana extensions
           || (c >= 0x3400 && c <= 0x4DBF)   // extension A
           || (c >= 0x4E00 && c <= 0x9FFF)   // unified ideographs
           || (c >= 0xF900 && c <= 0xFAFF)   // compatibility ideographs
           || (c >= 0xFE30 && c <= 0xFE4F)   // compatibility forms
           || (c >= 0xFF00 && c <= 0xFF60)   // full-width forms
           || (c >= 0x20000 && c <= 0x3134F);
}

bool is_rtl(char32_t c) {
    return (c >= 0x0590 && c <= 0x08FF) || (c >= 0xFB1D && c <= 0xFDFF) ||
           (c >= 0xFE70 && c <= 0xFEFF && c != 0xFEFF);
}

bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }

bool is_lower(char32_t c) {
    if (c >= 'a' && c <= 'z') return true;
    if (c >= 0xDF && c <= 0xFF) return c != 0xF7;
    if (c >= 0x100 && c <= 0x17F) return (c & 1) == 1;  // Latin Extended-A alternates
    if (c >= 0x3B1 && c <= 0x3C9) return true;           // Greek
    if (c >= 0x430 && c <= 0x45F) return true;           // Cyrillic
    return false;
}

bool is_upper(char32_t c) {
    if (c >= 'A' && c <= 'Z') return true;
    if (c >= 0xC0 && c <= 0xDE) return c != 0xD7;
    if (c >= 0x100 && c <= 0x17F) return (c & 1) == 0;
    if (c >= 0x391 && c <= 0x3A9) return true;
    if (c >= 0x400 && c <= 0x42F) return true;
    return false;
}

bool is_strong_ltr(char32_t c) {
    return is_digit(c) || is_lower(c) || is_upper(c) || (c >= 0x180 && c <= 0x24F) ||
           (c >= 0x370 && c <= 0x3FF) || (c >= 0x400 && c <= 0x4FF);
}

bool is_letter(char32_t c) {
    return is_strong_ltr(c) && !is_digit(c) ? true : (is_cjk(c) || is_rtl(c) || (c >= 0xAC00 && c <= 0xD7AF));
}

bool is_space(char32_t c) { return c == ' ' || c == '\t'; }

int display_width(char32_t c) {
    if (is_cjk(c) || (c >= 0xAC00 && c <= 0xD7AF)) return 2;
    if ((c >= 0x300 && c <= 0x36F) || (c >= 0x64B && c <= 0x65F) || c == 0x670) return 0;
    return 1;
}

int display_width(std::u32string_view text) {
    int w = 0;
    for (char32_t c : text) w += display_width(c);
    return w;
}

}  // namespace kvlens::pdf::utf8
