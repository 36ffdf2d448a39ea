// SPDX-License-Identifier: Apache-2.0
// Turning the text poppler extracts into text a model can read: pure functions
// on UTF-8 strings, testable without any PDF.
//
// Per page: normalise characters (ligatures, odd spaces, zero-width and bidi
// controls; right-to-left runs poppler emits in visual order are put back in
// logical order), re-join words hyphenated across lines, unwrap lines inside a
// paragraph (without a space between CJK characters), close up lines whose
// CJK characters all come spaced apart ("预 填 充"). Across pages: drop
// running headers/footers and bare page numbers. Paragraphs come out separated
// by one blank line; page boundaries are kept (one string per page).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kvlens::pdf {

// The number of Unicode code points in UTF-8 text (an invalid byte counts as one).
std::size_t count_code_points(std::string_view text);

// Ligatures (U+FB00..FB06) spelled out; NBSP, U+2000..200A, U+3000 and tabs
// become spaces; zero-width characters, BOMs and soft hyphens inside lines are
// removed (a soft hyphen at the end of a line becomes '-', so the hyphenation
// rule re-joins it); CR LF and CR become LF; invalid UTF-8 becomes U+FFFD.
std::string normalize_characters(std::string_view text);

// Poppler writes a right-to-left line in visual order wrapped in bidi embedding
// controls (U+202B ... U+202C). This puts each such run back in logical order
// (left-to-right runs inside it, such as Latin words and numbers, keep their
// own order) and strips every bidi control character from the text.
std::string fix_rtl_visual_order(std::string_view text);

// True for a line that is only a page number: "12", "- 12 -", "xiv",
// "Page 3", "3 / 10", "Seite 4 von 9", "第 3 页".
bool is_page_number_line(std::string_view line);

// Re-joins words split across lines: "exam-\nple" -> "example" (a lower-case
// letter on both sides); "COVID-\n19" -> "COVID-19" (keeps the hyphen). Other
// newlines are left alone.
std::string join_hyphenated(std::string_view text);

// Unwraps lines into paragraphs: a line continues the previous one unless a
// blank line separates them, the previous line is clearly shorter than the
// page's full lines (the end of a paragraph, a heading), or the line starts a
// list item. Joined with a space, or with nothing between CJK characters.
// The result has paragraphs separated by "\n\n" and no trailing newline.
std::string unwrap_lines(std::string_view text);

// What clean_pages removed, for warnings and tests.
struct cleanup_report {
    std::vector<std::string> running_lines;  // distinct header/footer lines dropped
    int page_numbers_removed = 0;
};

// The whole pipeline over a document's pages (raw poppler text, one string per
// page); returns one cleaned string per page, same count and order.
std::vector<std::string> clean_pages(const std::vector<std::string>& raw_pages,
                                     cleanup_report* report = nullptr);

}  // namespace kvlens::pdf
