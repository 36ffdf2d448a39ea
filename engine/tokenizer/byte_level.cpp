// SPDX-License-Identifier: Apache-2.0
// The byte <-> code point tables of the byte-level BPE alphabet (byte_level.h).
#include "engine/tokenizer/byte_level.h"

#include <array>

#include "engine/tokenizer/utf8.h"

namespace kvlens::byte_level {
namespace {

struct tables {
    std::array<std::uint32_t, 256> to_cp{};   // byte -> code point
    std::array<std::int16_t, 324> to_byte{};  // code point (< 324) -> byte, or -1
    std::array<std::string, 256> to_utf8;     // byte -> its code point as UTF-8

    tables() {
        to_byte.fill(-1);
        std::uint32_t next = 256;  // the bytes without a printable self, in order
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
            const std::uint32_t cp = printable ? static_cast<std::uint32_t>(b) : next++;
            to_cp[b] = cp;
            to_byte[cp] = static_cast<std::int16_t>(b);
            utf8::append(to_utf8[b], cp);
        }
    }
};

const tables& get() {
    static const tables t;
    return t;
}

}  // namespace

std::uint32_t code_point_of(std::uint8_t b) { return get().to_cp[b]; }

int byte_of(std::uint32_t cp) { return cp < get().to_byte.size() ? get().to_byte[cp] : -1; }

std::string encode(std::string_view raw) {
    const auto& t = get();
    std::string out;
    out.reserve(raw.size() * 2);
    for (char c : raw) out += t.to_utf8[static_cast<unsigned char>(c)];
    return out;
}

bool decode(std::string_view text, std::string& out) {
    bool all_known = true;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const int n = utf8::valid_sequence_at(text, pos);
        if (n == 0) {  // not UTF-8: keep the byte as it is
            out += text[pos++];
            all_known = false;
            continue;
        }
        const int b = byte_of(utf8::decode_at(text, pos, n));
        if (b >= 0) {
            out += static_cast<char>(b);
        } else {
            out.append(text.substr(pos, n));
            all_known = false;
        }
        pos += n;
    }
    return all_known;
}

}  // namespace kvlens::byte_level
