// SPDX-License-Identifier: Apache-2.0
// Prompt lookup: the latest earlier occurrence of the history's suffix.
#include "engine/runtime/prompt_lookup.h"

#include <algorithm>

namespace kvlens {

std::vector<std::int32_t> prompt_lookup_draft(std::span<const std::int32_t> history, int ngram, int max_tokens,
                                              int ngram_min) {
    const std::int64_t len = static_cast<std::int64_t>(history.size());
    if (max_tokens <= 0 || ngram <= 0 || len < 2) return {};
    for (std::int64_t n = std::min<std::int64_t>(ngram, len - 1); n >= std::max(1, ngram_min); --n) {
        const std::span<const std::int32_t> suffix = history.subspan(static_cast<std::size_t>(len - n));
        // Candidate starts from the latest (len - n - 1) back to 0: the match
        // ends before the suffix, so at least one token follows it.
        for (std::int64_t start = len - n - 1; start >= 0; --start) {
            if (!std::equal(suffix.begin(), suffix.end(), history.begin() + start)) continue;
            const std::int64_t from = start + n;
            const std::int64_t count = std::min<std::int64_t>(max_tokens, len - from);
            return {history.begin() + from, history.begin() + from + count};
        }
    }
    return {};
}

}  // namespace kvlens
