// SPDX-License-Identifier: Apache-2.0
// Streaming detokenization: tokens end in the middle of UTF-8 characters
// (byte-level BPE, <0xXX> byte tokens), so the bytes of each token's piece go
// through a utf8_stream, which hands out only whole characters and keeps an
// unfinished one until the bytes that complete it arrive. Bytes that can never
// form a character come out as U+FFFD, so the output is always valid UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace kvlens {

class utf8_stream {
public:
    // The complete characters now available (possibly none).
    std::string push(std::string_view bytes);
    // The end of the stream: an unfinished character becomes U+FFFD.
    std::string flush();
    // Bytes held back, waiting for the rest of their character.
    std::size_t pending() const { return held_.size(); }

private:
    std::string held_;  // (0..3 bytes) the start of an unfinished character
};

}  // namespace kvlens
