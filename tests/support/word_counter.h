// SPDX-License-Identifier: Apache-2.0
// The tasks suites' "tokenizer": one token per space-separated word, so the
// expected counts in a test are plain to read.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

namespace kvlens::test {

inline int count_words(std::string_view text) {
    std::istringstream in{std::string(text)};
    int n = 0;
    for (std::string w; in >> w;) ++n;
    return n;
}

}  // namespace kvlens::test
