// SPDX-License-Identifier: Apache-2.0
// Draft tokens for speculative decoding by prompt lookup (the "n-gram"
// drafter of vLLM and llama.cpp's lookup decoding): a summary or an answer
// about a report repeats the report's phrases, so the tokens that followed
// the latest earlier occurrence of the text's last few tokens are a cheap
// guess at what comes next. The target model checks the guess in one forward
// pass (engine_impl.cpp, "speculative decoding").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace kvlens {

// Speculative decoding settings of one request.
struct speculation_params {
    int draft_tokens = 0;   // most draft tokens per decode step; 0: off (at most k_max_draft_tokens)
    int ngram = 3;          // longest suffix looked up; shorter ones down to ngram_min when it is not found
    int ngram_min = 2;      // shortest suffix that may propose a draft
};

// The most draft tokens a step may check (the engine sizes its batch for them).
inline constexpr int k_max_draft_tokens = 8;

// history: prompt then generated tokens, the last one not yet fed to the
// model. For n = ngram down to ngram_min, looks for the latest earlier place
// where history's last n tokens occur and returns up to max_tokens of the
// tokens that followed it (never past the history's end); empty when no
// suffix of ngram_min..ngram tokens occurs earlier, or max_tokens <= 0.
std::vector<std::int32_t> prompt_lookup_draft(std::span<const std::int32_t> history, int ngram, int max_tokens,
                                              int ngram_min = 1);

}  // namespace kvlens
