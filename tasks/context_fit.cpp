// SPDX-License-Identifier: Apache-2.0
// Context fitting, the largest range that fits, and page-aligned sectioning
// for map-reduce summaries.
#include "tasks/context_fit.h"

#include <algorithm>

namespace kvlens::tasks {

namespace {

// Split levels for a page larger than the limit, coarsest first.
const std::vector<std::string_view>& split_levels() {
    static const std::vector<std::string_view> levels = {"\n\n", "\n", ". ", "\u3002", "! ", "? ", "\uFF01", "\uFF1F", " "};
    return levels;
}

// Pieces of `text` cut after each occurrence of `sep` (the separator stays
// with the piece before it, so joining the pieces gives the text back).
std::vector<std::string> cut_after(std::string_view text, std::string_view sep) {
    std::vector<std::string> pieces;
    std::size_t start = 0;
    for (std::size_t at = text.find(sep); at != std::string_view::npos; at = text.find(sep, at + sep.size())) {
        pieces.emplace_back(text.substr(start, at + sep.size() - start));
        start = at + sep.size();
    }
    if (start < text.size()) pieces.emplace_back(text.substr(start));
    return pieces;
}

std::size_t utf8_boundary_before(std::string_view s, std::size_t i) {
    while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
    return i;
}

std::string trimmed(std::string_view s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
    while (!s.empty() && (s.front() == '\n' || s.front() == ' ')) s.remove_prefix(1);
    return std::string(s);
}

// Splits text into parts of at most max_tokens each (see make_sections).
void split_to_fit(std::string_view text, const token_counter& count, int max_tokens, std::size_t level,
                  std::vector<std::string>& out) {
    if (text.empty()) return;
    if (count(text) <= max_tokens) {
        out.emplace_back(text);
        return;
    }
    if (level >= split_levels().size()) {
        // No separator left: the longest prefix that fits, by bisection on bytes.
        std::size_t lo = 1, hi = text.size();
        while (lo < hi) {
            const std::size_t mid = (lo + hi + 1) / 2;
            const std::size_t cut = utf8_boundary_before(text, mid);
            if (cut > 0 && count(text.substr(0, cut)) <= max_tokens)
                lo = mid;
            else
                hi = mid - 1;
        }
        std::size_t cut = utf8_boundary_before(text, lo);
        if (cut == 0) {  // even one character is over the limit: take it anyway, to make progress
            cut = 1;
            while (cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) ++cut;
        }
        out.emplace_back(text.substr(0, cut));
        split_to_fit(text.substr(cut), count, max_tokens, level, out);
        return;
    }
    const std::vector<std::string> pieces = cut_after(text, split_levels()[level]);
    if (pieces.size() <= 1) {
        split_to_fit(text, count, max_tokens, level + 1, out);
        return;
    }
    std::string current;
    for (const std::string& piece : pieces) {
        if (!current.empty() && count(current + piece) <= max_tokens) {
            current += piece;
            continue;
        }
        if (!current.empty()) out.push_back(std::move(current));
        current.clear();
        if (count(piece) <= max_tokens)
            current = piece;
        else
            split_to_fit(piece, count, max_tokens, level + 1, out);
    }
    if (!current.empty()) out.push_back(std::move(current));
}

}  // namespace

std::string joined_text(const document_text& doc) {
    std::string out;
    for (const page_text& p : doc.pages) {
        if (p.text.empty()) continue;
        if (!out.empty()) out += page_separator;
        out += p.text;
    }
    return out;
}

fit_report check_fit(const document_text& doc, const token_counter& count_tokens, int context_length,
                     int answer_tokens, int prompt_overhead_tokens) {
    fit_report r;
    r.context_length = context_length;
    r.needed_tokens = count_tokens ? count_tokens(joined_text(doc)) : 0;
    r.available_tokens = context_length - answer_tokens - prompt_overhead_tokens;
    r.fits = r.needed_tokens <= r.available_tokens;
    return r;
}

page_span largest_fitting_range(const document_text& doc, const token_counter& count_tokens,
                                int available_tokens, int first_page) {
    // Pages from first_page on, in order.
    std::size_t start = doc.pages.size();
    for (std::size_t i = 0; i < doc.pages.size(); ++i)
        if (doc.pages[i].number == first_page) { start = i; break; }
    if (start == doc.pages.size() || !count_tokens) return {};
    auto tokens_of = [&](std::size_t end) {   // pages [start, end)
        document_text part;
        part.pages.assign(doc.pages.begin() + std::ptrdiff_t(start), doc.pages.begin() + std::ptrdiff_t(end));
        return count_tokens(joined_text(part));
    };
    // Tokens grow with every page added, so the last page that fits is found
    // by bisection: lo pages fit, hi + 1 do not.
    std::size_t lo = 0, hi = doc.pages.size() - start;
    while (lo < hi) {
        const std::size_t mid = (lo + hi + 1) / 2;
        if (tokens_of(start + mid) <= available_tokens)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (lo == 0) return {};
    return {first_page, doc.pages[start + lo - 1].number, tokens_of(start + lo)};
}

result<std::vector<section>> make_sections(const document_text& doc, const token_counter& count_tokens,
                                           int max_tokens) {
    if (!count_tokens) return make_error("no tokenizer given to count tokens");
    if (max_tokens < 1) return make_error("section limit must be at least 1 token, got " + std::to_string(max_tokens));

    std::vector<section> sections;
    section current;
    auto flush = [&] {
        if (!current.text.empty()) sections.push_back(std::move(current));
        current = section{};
    };
    for (const page_text& page : doc.pages) {
        if (page.text.empty()) continue;
        const int tokens = count_tokens(page.text);
        if (tokens > max_tokens) {
            flush();
            std::vector<std::string> parts;
            split_to_fit(page.text, count_tokens, max_tokens, 0, parts);
            for (const std::string& part : parts) {
                section s{page.number, page.number, trimmed(part), 0};
                if (s.text.empty()) continue;
                s.tokens = count_tokens(s.text);
                sections.push_back(std::move(s));
            }
            continue;
        }
        if (!current.text.empty()) {
            std::string candidate = current.text;
            candidate += page_separator;
            candidate += page.text;
            const int candidate_tokens = count_tokens(candidate);
            if (candidate_tokens <= max_tokens) {
                current.text = std::move(candidate);
                current.tokens = candidate_tokens;
                current.last_page = page.number;
                continue;
            }
            flush();
        }
        current = section{page.number, page.number, page.text, tokens};
    }
    flush();
    return sections;
}

}  // namespace kvlens::tasks
