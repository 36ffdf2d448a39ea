// SPDX-License-Identifier: Apache-2.0
// Fitting a document into a model's context: does it fit with room for the
// answer, the largest page range that does, and page-aligned sections under a
// token limit for map-reduce summarization. The tokenizer comes in as a
// function, so this knows nothing of the engine (and nothing of Qt: the CLI,
// the window and headless mode share it).
#pragma once

#include "common/result.h"
#include "pdf/document.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kvlens::tasks {

using pdf::document_text;
using pdf::page_text;

// Tokens of a text, as the model's tokenizer counts them (no BOS).
using token_counter = std::function<int(std::string_view)>;

// The document text the model sees: the pages' text joined by a blank line.
std::string joined_text(const document_text& doc);
inline constexpr std::string_view page_separator = "\n\n";

struct fit_report {
    bool fits = false;
    int needed_tokens = 0;     // the document's text
    int available_tokens = 0;  // context_length - answer_tokens - prompt_overhead_tokens (may be < 0)
    int context_length = 0;
};

// Fits when needed_tokens <= context_length - answer_tokens - prompt_overhead_tokens.
// prompt_overhead_tokens covers the chat template and instruction around the text.
fit_report check_fit(const document_text& doc, const token_counter& count_tokens, int context_length,
                     int answer_tokens, int prompt_overhead_tokens = 0);

// The largest run of consecutive pages starting at page number `first_page`
// whose joined text needs at most `available_tokens` tokens. {0, 0} when not
// even that page fits (or it is not in the document); 1-based, inclusive.
struct page_span {
    int first_page = 0;
    int last_page = 0;
    int tokens = 0;      // count_tokens of the pages' joined text
    bool empty() const { return first_page == 0; }
};
page_span largest_fitting_range(const document_text& doc, const token_counter& count_tokens,
                                int available_tokens, int first_page);

struct section {
    int first_page = 0;  // 1-based, inclusive
    int last_page = 0;
    std::string text;    // pages joined by a blank line (or a part of one page)
    int tokens = 0;      // count_tokens(text)
};

// Cuts the document into sections of at most max_tokens tokens each, whole
// pages packed greedily in order. A page larger than the limit is split at
// paragraph boundaries (then lines, then sentences, then characters if it
// must), each part a section with first_page == last_page. Empty pages are
// skipped. An error when max_tokens < 1 or count_tokens is empty.
result<std::vector<section>> make_sections(const document_text& doc, const token_counter& count_tokens,
                                           int max_tokens);

}  // namespace kvlens::tasks
