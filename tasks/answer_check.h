// SPDX-License-Identifier: Apache-2.0
// Checks on a model's answer that a reader should be told about: degenerate
// repetition (a small model looping on the same phrase). Plain C++.
#pragma once

#include <string_view>

namespace kvlens::tasks {

// True when one phrase of 2 to 12 words (characters, for text without
// spaces) repeats at least 4 times and its repeats cover at least 40 % of
// the answer: "the cache the cache the cache the cache ...".
bool is_degenerate_repetition(std::string_view answer);

}  // namespace kvlens::tasks
