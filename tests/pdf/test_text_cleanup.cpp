// SPDX-License-Identifier: Apache-2.0
// Text cleanup on strings: ligatures and spaces, right-to-left repair, page
// numbers, hyphenation, line unwrapping (Latin and CJK), running headers.
#include "pdf/text_cleanup.h"

#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

using namespace kvlens::pdf;

namespace {
std::string s(const char* utf8) { return utf8; }
}  // namespace

struct normalizeCharacters_row {
    std::string tag;
    std::string input;
    std::string expected;
};

std::vector<normalizeCharacters_row> normalizeCharacters_rows()
{
    std::vector<normalizeCharacters_row> rows;
    rows.push_back({"ligatures", std::string("\uFB01nal \uFB02ow, e\uFB00ort, o\uFB03ce"), "final flow, effort, office"});
    rows.push_back({"nbsp and ideographic space", std::string("a\u00A0b\u3000c\u2009d"), "a b c d"});
    rows.push_back({"zero width removed", std::string("ze\u200Bro\uFEFF"), "zero"});
    rows.push_back({"soft hyphen inside a line", std::string("hy\u00ADphen"), "hyphen"});
    rows.push_back({"soft hyphen at line end", std::string("exam\u00AD\nple"), "exam-\nple"});
    rows.push_back({"crlf", "a\r\nb\rc", "a\nb\nc"});
    rows.push_back({"controls dropped", std::string("a\x04""b\tc"), "ab c"});
    return rows;
}

TEST(TextCleanup, normalizeCharacters)
{
    kvlens::test::for_each_row(normalizeCharacters_rows(), [&](const normalizeCharacters_row& row) {
        ASSERT_EQ(normalize_characters(row.input), row.expected);
    });
}

TEST(TextCleanup, invalidUtf8BecomesReplacement)
{
    ASSERT_EQ(normalize_characters("a\xff" "b"), std::string("a\uFFFDb"));
    ASSERT_EQ(count_code_points("\xe4\xb8\xad\xe6\x96\x87 ok"), std::size_t(5));
}

struct rightToLeft_row {
    std::string tag;
    std::string input;
    std::string expected;
};

std::vector<rightToLeft_row> rightToLeft_rows()
{
    std::vector<rightToLeft_row> rows;
    // As poppler prints habibi.pdf: visual order inside RLE ... PDF.
    rows.push_back({"arabic word", std::string("\u202B \u064A\u0628\u064A\u0628\u064E\u062D\u202C"), std::string("\u062D\u064E\u0628\u064A\u0628\u064A ")});
    rows.push_back({"arabic then latin", std::string("\u202B\u202A habibi\u202C\u064A\u0628\u064A\u0628\u064E\u062D\u202C"), std::string("\u062D\u064E\u0628\u064A\u0628\u064A habibi")});
    rows.push_back({"numbers keep order", std::string("\u202B2024 \u0628\u0627\u202C"), std::string("\u0627\u0628 2024")});
    rows.push_back({"no controls: unchanged", "plain text", "plain text"});
    return rows;
}

TEST(TextCleanup, rightToLeft)
{
    kvlens::test::for_each_row(rightToLeft_rows(), [&](const rightToLeft_row& row) {
        ASSERT_EQ(fix_rtl_visual_order(row.input), row.expected);
    });
}

struct pageNumbers_row {
    std::string tag;
    std::string line;
    bool isPageNumber;
};

std::vector<pageNumbers_row> pageNumbers_rows()
{
    std::vector<pageNumbers_row> rows;
    rows.push_back({"digits", "12", true});
    rows.push_back({"dashes", std::string("– 7 –"), true});
    rows.push_back({"roman", "xiv", true});
    rows.push_back({"page n of m", "Page 3 of 10", true});
    rows.push_back({"slash", "3 / 10", true});
    rows.push_back({"german", "Seite 4 von 9", true});
    rows.push_back({"chinese", std::string("第 3 页"), true});
    rows.push_back({"a year in a sentence", "In 2024 sales rose", false});
    rows.push_back({"a word", "Max", false});
    rows.push_back({"mixed-case roman-like word", "Mix", false});
    rows.push_back({"decimal", "3.5", false});
    return rows;
}

TEST(TextCleanup, pageNumbers)
{
    kvlens::test::for_each_row(pageNumbers_rows(), [&](const pageNumbers_row& row) {
        ASSERT_EQ(is_page_number_line(row.line), row.isPageNumber);
    });
}

struct hyphenation_row {
    std::string tag;
    std::string input;
    std::string expected;
};

std::vector<hyphenation_row> hyphenation_rows()
{
    std::vector<hyphenation_row> rows;
    rows.push_back({"word split", "the exam-\nple shows", "the example shows"});
    rows.push_back({"umlaut", std::string("Stra-\n\u00dfe"), std::string("Stra\u00dfe")});
    rows.push_back({"keeps compound hyphen before capital", "COVID-\n19 cases", "COVID-19 cases"});
    rows.push_back({"dash after space is not hyphenation", "a -\nb", "a -\nb"});
    rows.push_back({"plain newline untouched", "one\ntwo", "one\ntwo"});
    return rows;
}

TEST(TextCleanup, hyphenation)
{
    kvlens::test::for_each_row(hyphenation_rows(), [&](const hyphenation_row& row) {
        ASSERT_EQ(join_hyphenated(row.input), row.expected);
    });
}

struct unwrap_row {
    std::string tag;
    std::string input;
    std::string expected;
};

std::vector<unwrap_row> unwrap_rows()
{
    std::vector<unwrap_row> rows;
    rows.push_back({"paragraph lines joined, short last line ends it", "Results\nThe first quarter brought steady growth in all\nregions, and the second quarter kept the pace\nabove the plan.\nCosts fell in the same period by a small margin\nbut enough to matter for the yearly budget.", "Results\n\nThe first quarter brought steady growth in all regions, and the second quarter kept the pace above the plan.\n\nCosts fell in the same period by a small margin but enough to matter for the yearly budget."});
    rows.push_back({"blank line separates", "first paragraph line one is long enough here\nand ends here.\n\nsecond paragraph starts here and is long\nenough too.", "first paragraph line one is long enough here and ends here.\n\nsecond paragraph starts here and is long enough too."});
    rows.push_back({"hyphenated across lines", "a measurement of the prefill through-\nput on the device was taken twice.", "a measurement of the prefill throughput on the device was taken twice."});
    rows.push_back({"list items stay separate", "The two phases of inference are these:\n- prefill reads the whole prompt at once\n- decode writes one token per step", "The two phases of inference are these:\n\n- prefill reads the whole prompt at once\n\n- decode writes one token per step"});
    rows.push_back({"cjk lines joined without a space", std::string("大模型推理可以分成预填充和解码两个阶段，预填\n充阶段处理整个输入，解码阶段每一步生成一个\n词元。"), std::string("大模型推理可以分成预填充和解码两个阶段，预填充阶段处理整个输入，解码阶段每一步生成一个词元。")});
    rows.push_back({"cjk next to latin gets a space", std::string("这一段的行很长，所以会在这里折行，然后接着写\nKV Cache 保存的是注意力的键和值，长度差不多。"), std::string("这一段的行很长，所以会在这里折行，然后接着写 KV Cache 保存的是注意力的键和值，长度差不多。")});
    rows.push_back({"whitespace collapsed", "  a   b  \n\n\n\n  c ", "a b\n\nc"});
    return rows;
}

TEST(TextCleanup, unwrap)
{
    kvlens::test::for_each_row(unwrap_rows(), [&](const unwrap_row& row) {
        ASSERT_EQ(unwrap_lines(row.input), row.expected);
    });
}

TEST(TextCleanup, runningHeadersAndPageNumbers)
{
    const char* bodies[] = {"Sales grew in the north.", "Costs fell in the south.", "Hiring paused in spring.",
                            "Margins held through summer.", "The outlook is steady."};
    std::vector<std::string> pages;
    for (int p = 1; p <= 5; ++p)
        pages.push_back(std::string("ACME Quarterly Report 2024\n") + bodies[p - 1] + "\nConfidential - page " +
                        std::to_string(p) + " of 5\n" + std::to_string(p));
    cleanup_report report;
    const auto clean = clean_pages(pages, &report);
    ASSERT_EQ(clean.size(), std::size_t(5));
    for (int p = 1; p <= 5; ++p)
        ASSERT_EQ(clean[p - 1], std::string(bodies[p - 1]));
    ASSERT_EQ(report.page_numbers_removed, 5);
    ASSERT_EQ(report.running_lines.size(), std::size_t(6));  // the header once, the footer once per number
    ASSERT_EQ(report.running_lines[0], std::string("ACME Quarterly Report 2024"));
    ASSERT_EQ(report.running_lines[1], std::string("Confidential - page 1 of 5"));
}

TEST(TextCleanup, repeatedLineOnFewPagesIsKept)
{
    // "Summary" starts only 2 of 6 pages: not a running header.
    std::vector<std::string> pages(6, "Ordinary text of a page that is long enough.\nMore ordinary text here.");
    pages[1] = "Summary\n" + pages[1];
    pages[4] = "Summary\n" + pages[4];
    const auto clean = clean_pages(pages);
    ASSERT_TRUE(clean[1].starts_with("Summary"));
    ASSERT_TRUE(clean[4].starts_with("Summary"));
}

TEST(TextCleanup, pageOfOnlyRepeatedLinesKeepsThem)
{
    const std::vector<std::string> pages(4, "same words");
    const auto clean = clean_pages(pages);
    for (const auto& page : clean) ASSERT_EQ(page, std::string("same words"));
}

TEST(TextCleanup, upperCaseRunningHeadOnFewPages)
{
    // LaTeX book style: page number and section title, the title changing by chapter.
    const char* words[] = {"Kugel", "Torus", "Ebene", "Kreis", "Gerade", "Punkt", "Raum", "Menge", "Weg", "Knoten"};
    std::vector<std::string> pages;
    for (int p = 10; p < 20; ++p)
        pages.push_back(std::to_string(p) + "\n" + (p < 15 ? "1.2. METRISCHE R\xc3\x84UME" : "2.1. STETIGKEIT") +
                        "\nDer Satz handelt von: " + words[p - 10]);
    const auto clean = clean_pages(pages);
    ASSERT_EQ(clean[0], std::string("Der Satz handelt von: Kugel"));
    ASSERT_EQ(clean[9], std::string("Der Satz handelt von: Knoten"));
}

struct spacedCjkClosedUp_row {
    std::string tag;
    std::string input;
    std::string expected;
};

std::vector<spacedCjkClosedUp_row> spacedCjkClosedUp_rows()
{
    std::vector<spacedCjkClosedUp_row> rows;
    rows.push_back({"every character spaced", std::string("预 填 充 阶 段 处 理 整 个 输 入 KV Cache"), std::string("预填充阶段处理整个输入 KV Cache")});
    rows.push_back({"normal text keeps its few spaces", std::string("本文档版权适用于 GNU 通用公共许可版本 3 或更高版本的相关条款。"), std::string("本文档版权适用于 GNU 通用公共许可版本 3 或更高版本的相关条款。")});
    rows.push_back({"two words spaced on purpose", std::string("第一章 概述"), std::string("第一章 概述")});
    return rows;
}

TEST(TextCleanup, spacedCjkClosedUp)
{
    kvlens::test::for_each_row(spacedCjkClosedUp_rows(), [&](const spacedCjkClosedUp_row& row) {
        const auto clean = clean_pages({row.input});
        ASSERT_EQ(clean[0], row.expected);
    });
}

TEST(TextCleanup, pageBoundariesKept)
{
    const auto clean = clean_pages({"one", "", "three"});
    ASSERT_EQ(clean.size(), std::size_t(3));
    ASSERT_EQ(clean[1], std::string());
    ASSERT_EQ(clean[2], std::string("three"));
}
