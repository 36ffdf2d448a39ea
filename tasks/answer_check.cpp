// SPDX-License-Identifier: Apache-2.0
// Degenerate repetition: n-gram counts over words (or UTF-8 characters).
#include "tasks/answer_check.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace kvlens::tasks {

namespace {

// Words split at ASCII whitespace; with fewer than 4 words (e.g. Chinese),
// UTF-8 characters instead.
std::vector<std::string_view> units_of(std::string_view s)
{
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
        std::size_t j = i;
        while (j < s.size() && !(s[j] == ' ' || s[j] == '\n' || s[j] == '\t' || s[j] == '\r')) ++j;
        if (j > i) words.push_back(s.substr(i, j - i));
        i = j;
    }
    if (words.size() >= 8) return words;
    std::vector<std::string_view> chars;
    for (std::size_t k = 0; k < s.size();) {
        std::size_t n = 1;
        while (k + n < s.size() && (static_cast<unsigned char>(s[k + n]) & 0xC0) == 0x80) ++n;
        if (s[k] != ' ' && s[k] != '\n') chars.push_back(s.substr(k, n));
        k += n;
    }
    return chars;
}

}  // namespace

bool is_degenerate_repetition(std::string_view answer)
{
    const std::vector<std::string_view> u = units_of(answer);
    if (u.size() < 8) return false;
    for (std::size_t n = 2; n <= 12 && n * 4 <= u.size(); ++n) {
        std::map<std::vector<std::string_view>, int> counts;
        // Non-overlapping repeats are what a loop produces; count every start.
        for (std::size_t i = 0; i + n <= u.size(); ++i)
            ++counts[std::vector<std::string_view>(u.begin() + std::ptrdiff_t(i), u.begin() + std::ptrdiff_t(i + n))];
        for (const auto& [gram, c] : counts) {
            if (c >= 4 && double(c) * double(n) >= 0.4 * double(u.size())) return true;
        }
    }
    return false;
}

}  // namespace kvlens::tasks
