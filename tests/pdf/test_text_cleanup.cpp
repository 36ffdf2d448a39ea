// SPDX-License-Identifier: Apache-2.0
// Text cleanup on strings: ligatures and spaces, right-to-left repair, page
// numbers, hyphenation, line unwrapping (Latin and CJK), running headers.
#include "pdf/text_cleanup.h"

#include <QtTest>

using namespace kvlens::pdf;

Q_DECLARE_METATYPE(std::string)

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
std::string s(const char* utf8) { return utf8; }
}  // namespace

class TestTextCleanup : public QObject {
    Q_OBJECT
private slots:
    void normalizeCharacters_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ligatures") << QString::fromUtf8("\uFB01nal \uFB02ow, e\uFB00ort, o\uFB03ce") << "final flow, effort, office";
        QTest::newRow("nbsp and ideographic space") << QString::fromUtf8("a\u00A0b\u3000c\u2009d") << "a b c d";
        QTest::newRow("zero width removed") << QString::fromUtf8("ze\u200Bro\uFEFF") << "zero";
        QTest::newRow("soft hyphen inside a line") << QString::fromUtf8("hy\u00ADphen") << "hyphen";
        QTest::newRow("soft hyphen at line end") << QString::fromUtf8("exam\u00AD\nple") << "exam-\nple";
        QTest::newRow("crlf") << "a\r\nb\rc" << "a\nb\nc";
        QTest::newRow("controls dropped") << QString::fromUtf8("a\x04""b\tc") << "ab c";
    }
    void normalizeCharacters() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(q(normalize_characters(input.toStdString())), expected);
    }

    void invalidUtf8BecomesReplacement() {
        QCOMPARE(q(normalize_characters("a\xff" "b")), QString::fromUtf8("a\uFFFDb"));
        QCOMPARE(count_code_points("\xe4\xb8\xad\xe6\x96\x87 ok"), std::size_t(5));
    }

    void rightToLeft_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        // As poppler prints habibi.pdf: visual order inside RLE ... PDF.
        QTest::newRow("arabic word") << QString::fromUtf8("\u202B \u064A\u0628\u064A\u0628\u064E\u062D\u202C")
                                     << QString::fromUtf8("\u062D\u064E\u0628\u064A\u0628\u064A ");
        QTest::newRow("arabic then latin") << QString::fromUtf8("\u202B\u202A habibi\u202C\u064A\u0628\u064A\u0628\u064E\u062D\u202C")
                                           << QString::fromUtf8("\u062D\u064E\u0628\u064A\u0628\u064A habibi");
        QTest::newRow("numbers keep order") << QString::fromUtf8("\u202B2024 \u0628\u0627\u202C")
                                            << QString::fromUtf8("\u0627\u0628 2024");
        QTest::newRow("no controls: unchanged") << "plain text" << "plain text";
    }
    void rightToLeft() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(q(fix_rtl_visual_order(input.toStdString())), expected);
    }

    void pageNumbers_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("isPageNumber");
        QTest::newRow("digits") << "12" << true;
        QTest::newRow("dashes") << QString::fromUtf8("– 7 –") << true;
        QTest::newRow("roman") << "xiv" << true;
        QTest::newRow("page n of m") << "Page 3 of 10" << true;
        QTest::newRow("slash") << "3 / 10" << true;
        QTest::newRow("german") << "Seite 4 von 9" << true;
        QTest::newRow("chinese") << QString::fromUtf8("第 3 页") << true;
        QTest::newRow("a year in a sentence") << "In 2024 sales rose" << false;
        QTest::newRow("a word") << "Max" << false;
        QTest::newRow("mixed-case roman-like word") << "Mix" << false;
        QTest::newRow("decimal") << "3.5" << false;
    }
    void pageNumbers() {
        QFETCH(QString, line);
        QFETCH(bool, isPageNumber);
        QCOMPARE(is_page_number_line(line.toStdString()), isPageNumber);
    }

    void hyphenation_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("word split") << "the exam-\nple shows" << "the example shows";
        QTest::newRow("umlaut") << QString::fromUtf8("Stra-\n\u00dfe") << QString::fromUtf8("Stra\u00dfe");
        QTest::newRow("keeps compound hyphen before capital") << "COVID-\n19 cases" << "COVID-19 cases";
        QTest::newRow("dash after space is not hyphenation") << "a -\nb" << "a -\nb";
        QTest::newRow("plain newline untouched") << "one\ntwo" << "one\ntwo";
    }
    void hyphenation() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(q(join_hyphenated(input.toStdString())), expected);
    }

    void unwrap_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("paragraph lines joined, short last line ends it")
            << "Results\nThe first quarter brought steady growth in all\nregions, and the second quarter kept the pace\nabove the plan.\nCosts fell in the same period by a small margin\nbut enough to matter for the yearly budget."
            << "Results\n\nThe first quarter brought steady growth in all regions, and the second quarter kept the pace above the plan.\n\nCosts fell in the same period by a small margin but enough to matter for the yearly budget.";
        QTest::newRow("blank line separates")
            << "first paragraph line one is long enough here\nand ends here.\n\nsecond paragraph starts here and is long\nenough too."
            << "first paragraph line one is long enough here and ends here.\n\nsecond paragraph starts here and is long enough too.";
        QTest::newRow("hyphenated across lines")
            << "a measurement of the prefill through-\nput on the device was taken twice."
            << "a measurement of the prefill throughput on the device was taken twice.";
        QTest::newRow("list items stay separate")
            << "The two phases of inference are these:\n- prefill reads the whole prompt at once\n- decode writes one token per step"
            << "The two phases of inference are these:\n\n- prefill reads the whole prompt at once\n\n- decode writes one token per step";
        QTest::newRow("cjk lines joined without a space")
            << QString::fromUtf8("大模型推理可以分成预填充和解码两个阶段，预填\n充阶段处理整个输入，解码阶段每一步生成一个\n词元。")
            << QString::fromUtf8("大模型推理可以分成预填充和解码两个阶段，预填充阶段处理整个输入，解码阶段每一步生成一个词元。");
        QTest::newRow("cjk next to latin gets a space")
            << QString::fromUtf8("这一段的行很长，所以会在这里折行，然后接着写\nKV Cache 保存的是注意力的键和值，长度差不多。")
            << QString::fromUtf8("这一段的行很长，所以会在这里折行，然后接着写 KV Cache 保存的是注意力的键和值，长度差不多。");
        QTest::newRow("whitespace collapsed") << "  a   b  \n\n\n\n  c " << "a b\n\nc";
    }
    void unwrap() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(q(unwrap_lines(input.toStdString())), expected);
    }

    void runningHeadersAndPageNumbers() {
        const char* bodies[] = {"Sales grew in the north.", "Costs fell in the south.", "Hiring paused in spring.",
                                "Margins held through summer.", "The outlook is steady."};
        std::vector<std::string> pages;
        for (int p = 1; p <= 5; ++p)
            pages.push_back(std::string("ACME Quarterly Report 2024\n") + bodies[p - 1] + "\nConfidential - page " +
                            std::to_string(p) + " of 5\n" + std::to_string(p));
        cleanup_report report;
        const auto clean = clean_pages(pages, &report);
        QCOMPARE(clean.size(), std::size_t(5));
        for (int p = 1; p <= 5; ++p)
            QCOMPARE(q(clean[p - 1]), QString(bodies[p - 1]));
        QCOMPARE(report.page_numbers_removed, 5);
        QCOMPARE(report.running_lines.size(), std::size_t(6));  // the header once, the footer once per number
        QCOMPARE(q(report.running_lines[0]), QString("ACME Quarterly Report 2024"));
        QCOMPARE(q(report.running_lines[1]), QString("Confidential - page 1 of 5"));
    }

    void repeatedLineOnFewPagesIsKept() {
        // "Summary" starts only 2 of 6 pages: not a running header.
        std::vector<std::string> pages(6, "Ordinary text of a page that is long enough.\nMore ordinary text here.");
        pages[1] = "Summary\n" + pages[1];
        pages[4] = "Summary\n" + pages[4];
        const auto clean = clean_pages(pages);
        QVERIFY(q(clean[1]).startsWith("Summary"));
        QVERIFY(q(clean[4]).startsWith("Summary"));
    }

    void pageOfOnlyRepeatedLinesKeepsThem() {
        const std::vector<std::string> pages(4, "same words");
        const auto clean = clean_pages(pages);
        for (const auto& page : clean) QCOMPARE(q(page), QString("same words"));
    }

    void upperCaseRunningHeadOnFewPages() {
        // LaTeX book style: page number and section title, the title changing by chapter.
        const char* words[] = {"Kugel", "Torus", "Ebene", "Kreis", "Gerade", "Punkt", "Raum", "Menge", "Weg", "Knoten"};
        std::vector<std::string> pages;
        for (int p = 10; p < 20; ++p)
            pages.push_back(std::to_string(p) + "\n" + (p < 15 ? "1.2. METRISCHE R\xc3\x84UME" : "2.1. STETIGKEIT") +
                            "\nDer Satz handelt von: " + words[p - 10]);
        const auto clean = clean_pages(pages);
        QCOMPARE(q(clean[0]), QString("Der Satz handelt von: Kugel"));
        QCOMPARE(q(clean[9]), QString("Der Satz handelt von: Knoten"));
    }

    void spacedCjkClosedUp_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("every character spaced")
            << QString::fromUtf8("预 填 充 阶 段 处 理 整 个 输 入 KV Cache")
            << QString::fromUtf8("预填充阶段处理整个输入 KV Cache");
        QTest::newRow("normal text keeps its few spaces")
            << QString::fromUtf8("本文档版权适用于 GNU 通用公共许可版本 3 或更高版本的相关条款。")
            << QString::fromUtf8("本文档版权适用于 GNU 通用公共许可版本 3 或更高版本的相关条款。");
        QTest::newRow("two words spaced on purpose") << QString::fromUtf8("第一章 概述") << QString::fromUtf8("第一章 概述");
    }
    void spacedCjkClosedUp() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        const auto clean = clean_pages({input.toStdString()});
        QCOMPARE(q(clean[0]), expected);
    }

    void pageBoundariesKept() {
        const auto clean = clean_pages({"one", "", "three"});
        QCOMPARE(clean.size(), std::size_t(3));
        QCOMPARE(q(clean[1]), QString());
        QCOMPARE(q(clean[2]), QString("three"));
    }
};

QTEST_APPLESS_MAIN(TestTextCleanup)
#include "test_text_cleanup.moc"
