// SPDX-License-Identifier: Apache-2.0
// Text cleanup for the model: character normalisation, right-to-left repair,
// hyphenation, line unwrapping, running headers/footers and page numbers.
// Works on code points (std::u32string) internally; UTF-8 at the edges.
#include "pdf/text_cleanup.h"

#include "pdf/utf8.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>

namespace kvlens::pdf {

namespace {

using u32 = std::u32string;
using u32v = std::u32string_view;

bool is_bidi_control(char32_t c) {
    return c == 0x200E || c == 0x200F || c == 0x061C || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069);
}

std::vector<u32> split_lines(u32v text) {
    std::vector<u32> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == U'\n') {
            lines.emplace_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    return lines;
}

// Trims both ends and collapses inner runs of spaces to one.
u32 tidy_line(u32v line) {
    u32 out;
    out.reserve(line.size());
    bool pending_space = false;
    for (char32_t c : line) {
        if (utf8::is_space(c)) {
            pending_space = !out.empty();
            continue;
        }
        if (pending_space) out.push_back(U' ');
        pending_space = false;
        out.push_back(c);
    }
    return out;
}

bool is_hyphen(char32_t c) { return c == U'-' || c == 0x2010; }

// How a line that ends in `left` meets a next line that starts with `after`
// at a hyphen: "exam-" + "ple" drops it ("example"), "COVID-" + "19" keeps it
// ("COVID-19"); anything else is no hyphenation. The one rule both
// join_hyphenated() and the paragraph unwrapping (join_into) apply.
enum class hyphen_join { none, drop_hyphen, keep_hyphen };
hyphen_join hyphen_rule(u32v left, char32_t after) {
    const std::size_t n = left.size();
    if (n < 2 || !is_hyphen(left[n - 1]) || !utf8::is_letter(left[n - 2])) return hyphen_join::none;
    if (utf8::is_lower(left[n - 2]) && utf8::is_lower(after)) return hyphen_join::drop_hyphen;
    if (utf8::is_upper(after) || utf8::is_digit(after)) return hyphen_join::keep_hyphen;
    return hyphen_join::none;
}

// Some PDFs place every CJK character separately and poppler prints a space
// between each ("预 填 充 阶 段"). When most CJK pairs of a line are spaced so,
// the spaces are removed; a line with a few spaced pairs is left alone.
u32 close_cjk_spacing(u32v line) {
    int spaced = 0, tight = 0;
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (utf8::is_cjk(line[i - 1]) && utf8::is_cjk(line[i])) ++tight;
        if (i + 1 < line.size() && line[i] == U' ' && utf8::is_cjk(line[i - 1]) && utf8::is_cjk(line[i + 1])) ++spaced;
    }
    if (spaced < 4 || spaced < 4 * tight) return u32(line);
    u32 out;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == U' ' && i > 0 && i + 1 < line.size() && utf8::is_cjk(line[i - 1]) && utf8::is_cjk(line[i + 1]))
            continue;
        out.push_back(line[i]);
    }
    return out;
}

// How two lines of one paragraph meet: "exam-" + "ple" -> "example",
// "COVID-" + "19" -> "COVID-19", CJK + CJK -> no space, else a space.
void join_into(u32& paragraph, u32v next) {
    const std::size_t n = paragraph.size();
    const hyphen_join h = next.empty() ? hyphen_join::none : hyphen_rule(paragraph, next[0]);
    if (h != hyphen_join::none) {
        if (h == hyphen_join::drop_hyphen) paragraph.pop_back();
        paragraph.append(next);
        return;
    }
    if (n > 0 && !next.empty() && utf8::is_cjk(paragraph[n - 1]) && utf8::is_cjk(next[0])) {
        paragraph.append(next);
        return;
    }
    if (n > 0) paragraph.push_back(U' ');
    paragraph.append(next);
}

bool starts_list_item(u32v line) {
    if (line.empty()) return false;
    static const u32 bullets = U"•◦▪‣●○■□–—*·-";
    if (bullets.find(line[0]) != u32::npos) return line.size() > 1 && line[1] == U' ';
    // "1. ", "12) ", "(a) ", "a) "
    std::size_t i = 0;
    if (line[0] == U'(') i = 1;
    const std::size_t label_start = i;
    while (i < line.size() && i - label_start < 3 && (utf8::is_digit(line[i]) || (line[i] >= U'a' && line[i] <= U'z')))
        ++i;
    if (i == label_start || i + 1 >= line.size()) return false;
    const bool digits = utf8::is_digit(line[label_start]);
    if (!digits && i - label_start > 1) return false;  // "ab)" is a word, not a label
    const char32_t close = line[i];
    if (!(close == U')' || (close == U'.' && digits && label_start == 0))) return false;
    return line[i + 1] == U' ';
}

bool ends_sentence(u32v line) {
    if (line.empty()) return false;
    std::size_t i = line.size();
    while (i > 0 && (line[i - 1] == U'"' || line[i - 1] == U'\'' || line[i - 1] == 0x201D ||
                     line[i - 1] == 0x2019 || line[i - 1] == U')' || line[i - 1] == 0x300D ||
                     line[i - 1] == 0x300F || line[i - 1] == 0xFF09))
        --i;
    if (i == 0) return false;
    static const u32 terminal = U".!?:;。！？：；…";
    return terminal.find(line[i - 1]) != u32::npos;
}

// Running-header key: lower case, digit runs as '#', spaces collapsed.
std::string header_key(u32v line) {
    u32 key;
    for (char32_t c : line) {
        if (utf8::is_digit(c)) {
            if (key.empty() || key.back() != U'#') key.push_back(U'#');
        } else if (c >= U'A' && c <= U'Z') {
            key.push_back(c - U'A' + U'a');
        } else if (c != U' ') {
            key.push_back(c);
        }
    }
    return utf8::encode(key);
}

// A LaTeX-style running head: upper-case letters only, at least four of them.
bool is_upper_case_heading(u32v line) {
    int letters = 0;
    for (char32_t c : line) {
        if (utf8::is_lower(c)) return false;
        if (utf8::is_upper(c)) ++letters;
    }
    return letters >= 4;
}

// Indices of the first and last `n` non-empty lines of a page.
std::vector<std::size_t> edge_lines(const std::vector<u32>& lines, std::size_t n) {
    std::vector<std::size_t> nonempty;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (!lines[i].empty()) nonempty.push_back(i);
    std::set<std::size_t> picked;
    for (std::size_t k = 0; k < nonempty.size() && k < n; ++k) picked.insert(nonempty[k]);
    for (std::size_t k = 0; k < nonempty.size() && k < n; ++k) picked.insert(nonempty[nonempty.size() - 1 - k]);
    return {picked.begin(), picked.end()};
}

// Reorders one right-to-left embedding's content (visual order) into logical
// order. `pos` points just after the opening RLE/RLO; on return it points just
// after the matching PDF (or at the end).
u32 logical_from_visual(u32v text, std::size_t& pos);

// Content of a left-to-right embedding: kept in order, nested RTL runs fixed.
u32 ltr_embedding(u32v text, std::size_t& pos) {
    u32 out;
    while (pos < text.size()) {
        const char32_t c = text[pos++];
        if (c == 0x202C) break;
        if (c == 0x202B || c == 0x202E) {
            out += logical_from_visual(text, pos);
        } else if (c == 0x202A || c == 0x202D) {
            out += ltr_embedding(text, pos);
        } else if (!is_bidi_control(c)) {
            out.push_back(c);
        }
    }
    return out;
}

char32_t mirrored(char32_t c) {
    switch (c) {
        case U'(': return U')';
        case U')': return U'(';
        case U'[': return U']';
        case U']': return U'[';
        case U'{': return U'}';
        case U'}': return U'{';
        case U'<': return U'>';
        case U'>': return U'<';
        case 0xAB: return 0xBB;
        case 0xBB: return 0xAB;
        default: return c;
    }
}

u32 logical_from_visual(u32v text, std::size_t& pos) {
    std::vector<u32> units;  // in visual order; each unit keeps its inner order
    while (pos < text.size()) {
        const char32_t c = text[pos];
        if (c == 0x202C) {
            ++pos;
            break;
        }
        if (c == 0x202A || c == 0x202D) {
            ++pos;
            units.push_back(ltr_embedding(text, pos));
        } else if (c == 0x202B || c == 0x202E) {
            ++pos;
            units.push_back(logical_from_visual(text, pos));
        } else if (is_bidi_control(c)) {
            ++pos;
        } else if (utf8::is_strong_ltr(c)) {
            // A left-to-right run: strong LTR characters and the neutrals between them.
            std::size_t end = pos, last_strong = pos;
            while (end < text.size() && !is_bidi_control(text[end]) && !utf8::is_rtl(text[end])) {
                if (utf8::is_strong_ltr(text[end])) last_strong = end;
                ++end;
            }
            units.emplace_back(text.substr(pos, last_strong + 1 - pos));
            pos = last_strong + 1;
        } else {
            units.emplace_back(1, mirrored(c));
            ++pos;
        }
    }
    std::reverse(units.begin(), units.end());
    u32 out;
    for (const u32& u : units) out += u;
    return out;
}

u32 fix_rtl_line(u32v line) {
    u32 out;
    std::size_t pos = 0;
    while (pos < line.size()) {
        const char32_t c = line[pos++];
        if (c == 0x202B || c == 0x202E) {
            out += logical_from_visual(line, pos);
        } else if (c == 0x202A || c == 0x202D) {
            out += ltr_embedding(line, pos);
        } else if (!is_bidi_control(c)) {
            out.push_back(c);
        }
    }
    return out;
}

u32 normalize_u32(u32v in) {
    u32 out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const char32_t c = in[i];
        switch (c) {
            case 0xFB00: out += U"ff"; continue;
            case 0xFB01: out += U"fi"; continue;
            case 0xFB02: out += U"fl"; continue;
            case 0xFB03: out += U"ffi"; continue;
            case 0xFB04: out += U"ffl"; continue;
            case 0xFB05:
            case 0xFB06: out += U"st"; continue;
            case U'\r':
                if (i + 1 < in.size() && in[i + 1] == U'\n') continue;
                out.push_back(U'\n');
                continue;
            case U'\f':
            case 0x2028: out.push_back(U'\n'); continue;
            case 0x2029: out += U"\n\n"; continue;
            case 0x00AD: {  // soft hyphen: a break opportunity, visible only at a line end
                std::size_t j = i + 1;
                while (j < in.size() && utf8::is_space(in[j])) ++j;
                if (j < in.size() && in[j] == U'\n') out.push_back(U'-');
                continue;
            }
            default: break;
        }
        if (c == U'\t' || c == U'\v' || c == 0xA0 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F ||
            c == 0x205F || c == 0x3000) {
            out.push_back(U' ');
        } else if (c == 0x200B || c == 0x2060 || c == 0xFEFF || c == 0xFFFE || (c < 0x20 && c != U'\n') ||
                   (c >= 0x7F && c < 0xA0)) {
            // zero-width and control characters carry nothing a reader sees
        } else {
            out.push_back(c);
        }
    }
    return out;
}

u32 unwrap_u32(u32v text) {
    std::vector<u32> lines = split_lines(text);
    for (u32& l : lines) l = tidy_line(l);

    // The width of the page's full lines: the median width of lines of at least
    // ten columns. (A median, not a maximum: poppler prints a line pair it
    // de-hyphenated as one long line, and figure labels are short.)
    std::vector<int> widths, all_widths;
    for (const u32& l : lines) {
        if (l.empty()) continue;
        const int w = utf8::display_width(l);
        all_widths.push_back(w);
        if (w >= 10) widths.push_back(w);
    }
    if (all_widths.empty()) return {};
    if (widths.empty()) widths = all_widths;
    std::sort(widths.begin(), widths.end());
    const int full = widths[widths.size() / 2];

    std::vector<u32> paragraphs;
    u32 current;
    const u32* previous = nullptr;  // the previous non-empty line, when no blank line followed it
    for (const u32& line : lines) {
        if (line.empty()) {
            if (!current.empty()) paragraphs.push_back(std::move(current));
            current.clear();
            previous = nullptr;
            continue;
        }
        bool breaks = current.empty();
        if (!breaks && previous) {
            const int w = utf8::display_width(*previous);
            breaks = w < full / 2 || (w * 10 < full * 8 && ends_sentence(*previous)) || starts_list_item(line);
        }
        if (breaks) {
            if (!current.empty()) paragraphs.push_back(std::move(current));
            current = line;
        } else {
            join_into(current, line);
        }
        previous = &line;
    }
    if (!current.empty()) paragraphs.push_back(std::move(current));

    u32 out;
    for (std::size_t i = 0; i < paragraphs.size(); ++i) {
        if (i) out += U"\n\n";
        out += paragraphs[i];
    }
    return out;
}

}  // namespace

std::size_t count_code_points(std::string_view text) {
    std::size_t n = 0;
    for (unsigned char b : text)
        if ((b & 0xC0) != 0x80) ++n;
    return n;
}

std::string normalize_characters(std::string_view text) {
    return utf8::encode(normalize_u32(utf8::decode(text)));
}

std::string fix_rtl_visual_order(std::string_view text) {
    std::vector<u32> lines = split_lines(utf8::decode(text));
    u32 out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i) out.push_back(U'\n');
        out += fix_rtl_line(lines[i]);
    }
    return utf8::encode(out);
}

bool is_page_number_line(std::string_view line) {
    // Case-sensitive on purpose: roman numerals are all lower or all upper case ("Mix" is a word).
    static const std::regex pattern(
        R"(^(-|–|—|\s)*([Pp]age|PAGE|[Ss]eite|SEITE|p\.|S\.|pg\.?|第)?\s*([0-9]{1,4}|[ivxlcdm]{1,7}|[IVXLCDM]{1,7})\s*((/|of|von|de|sur)\s*[0-9]{1,4})?\s*(页|頁)?(-|–|—|\s)*$)",
        std::regex::ECMAScript);
    if (line.empty() || line.size() > 40) return false;
    return std::regex_match(line.begin(), line.end(), pattern);
}

std::string join_hyphenated(std::string_view text) {
    const u32 in = utf8::decode(text);
    u32 out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const char32_t c = in[i];
        if (c == U'\n') {
            std::size_t j = i + 1;
            while (j < in.size() && utf8::is_space(in[j])) ++j;
            const hyphen_join h = j < in.size() ? hyphen_rule(out, in[j]) : hyphen_join::none;
            if (h != hyphen_join::none) {
                if (h == hyphen_join::drop_hyphen) out.pop_back();
                i = j - 1;
                continue;
            }
        }
        out.push_back(c);
    }
    return utf8::encode(out);
}

std::string unwrap_lines(std::string_view text) { return utf8::encode(unwrap_u32(utf8::decode(text))); }

std::vector<std::string> clean_pages(const std::vector<std::string>& raw_pages, cleanup_report* report) {
    const std::size_t n_pages = raw_pages.size();
    constexpr std::size_t edge_depth = 3;  // lines from the top and the bottom that may be running
    const u32 removed_line = U"\x01";     // marks a dropped line until the lines are joined again

    // 1. characters and right-to-left order, then lines
    std::vector<std::vector<u32>> pages(n_pages);
    for (std::size_t p = 0; p < n_pages; ++p) {
        const u32 normal = normalize_u32(utf8::decode(raw_pages[p]));
        for (const u32& line : split_lines(normal)) pages[p].push_back(close_cjk_spacing(tidy_line(fix_rtl_line(line))));
    }

    // 2. running lines: count on how many pages each edge line's key appears
    std::map<std::string, int> pages_with_key;
    for (const auto& lines : pages) {
        std::set<std::string> keys;
        for (std::size_t i : edge_lines(lines, edge_depth))
            if (!is_page_number_line(utf8::encode(lines[i]))) keys.insert(header_key(lines[i]));
        for (const std::string& k : keys) ++pages_with_key[k];
    }
    std::set<std::string> reported;
    for (auto& lines : pages) {
        std::vector<std::size_t> running;
        for (std::size_t i : edge_lines(lines, edge_depth)) {
            const std::string text = utf8::encode(lines[i]);
            if (is_page_number_line(text)) {
                lines[i] = removed_line;
                if (report) ++report->page_numbers_removed;
                continue;
            }
            const int count = pages_with_key[header_key(lines[i])];
            const bool most_pages = n_pages >= 3 && count >= 3 && static_cast<std::size_t>(count) * 2 >= n_pages;
            const bool running_head = count >= 3 && is_upper_case_heading(lines[i]);
            if (most_pages || running_head) running.push_back(i);
        }
        // A page made only of repeated lines (the same short text on every
        // page) keeps them: they are its content, not its header.
        const auto kept = std::count_if(lines.begin(), lines.end(), [&](const u32& l) { return !l.empty() && l != removed_line; });
        if (static_cast<std::size_t>(kept) <= running.size()) continue;
        for (std::size_t i : running) {
            const std::string text = utf8::encode(lines[i]);
            if (report && reported.insert(text).second) report->running_lines.push_back(text);
            lines[i] = removed_line;
        }
    }

    // 3. per page: paragraphs
    std::vector<std::string> out;
    out.reserve(n_pages);
    for (auto& lines : pages) {
        u32 joined;
        bool first = true;
        for (const u32& l : lines) {
            if (l == removed_line) continue;  // dropped, not blank: it must not split a paragraph
            if (!first) joined.push_back(U'\n');
            joined += l;
            first = false;
        }
        out.push_back(utf8::encode(unwrap_u32(joined)));
    }
    return out;
}

}  // namespace kvlens::pdf
