// SPDX-License-Identifier: Apache-2.0
// Quoting text that came from a file (metadata keys, tensor names, template
// strings, PDF text) before it goes into a message or onto a terminal: control
// characters (C0, DEL, C1) and bytes that are not UTF-8 are escaped, so no
// escape sequence reaches the terminal, and the text is cut to a length a
// one-line message can carry, saying how much was cut.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kvlens {

// At most max_bytes of the input are shown; the rest is replaced by
// "...(N more bytes)". Escapes: \n \t \r \\ and \xNN (C1 as \u0080..\u009f).
inline constexpr std::size_t k_printable_default_bytes = 160;
std::string printable(std::string_view text, std::size_t max_bytes = k_printable_default_bytes);

// printable() in single quotes: 'blk.0.attn_q.weight'.
std::string quoted(std::string_view text, std::size_t max_bytes = k_printable_default_bytes);

}  // namespace kvlens
