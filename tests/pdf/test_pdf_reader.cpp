// SPDX-License-Identifier: Apache-2.0
// Reading real PDFs through the helper process: every shared test PDF gives
// sensible text or the right error; damaged, empty and non-PDF files; page
// ranges; a helper that crashes, hangs or prints garbage; page rendering.
#include "pdf/page_render.h"
#include "pdf/reader_process.h"
#include "tests/support/test_paths.h"
#include "tests/support/float_compare.h"
#include "tests/support/temp_dir.h"
#include "tests/support/text_checks.h"

#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace kvlens::pdf;
using kvlens::test::code_points;
using kvlens::test::contains;

namespace {

const std::filesystem::path pdfs = kvlens::test::shared_dir() / "testdata" / "pdfs";
const std::filesystem::path samples = pdfs / "sample-files";

read_options options_with(std::optional<page_range> pages = std::nullopt, std::string password = {}) {
    read_options o;
    o.helper_path = KVLENS_PDF_HELPER_PATH;
    o.pages = pages;
    o.password = std::move(password);
    return o;
}

int count_words(const document_text& d) {
    int n = 0;
    for (const auto& p : d.pages) {
        bool in_word = false;
        for (char c : p.text) {
            const bool space = c == ' ' || c == '\n';
            if (!space && !in_word) ++n;
            in_word = !space;
        }
    }
    return n;
}

std::string all_text(const document_text& d) {
    std::string s;
    for (const auto& p : d.pages) s += p.text + "\n\n";
    return s;
}

bool has_warning(const document_text& d, const std::string& part) {
    for (const auto& w : d.warnings)
        if (contains(w, part)) return true;
    return false;
}

// Sets an environment variable for the helper for one scope.
struct scoped_env {
    const char* name;
    scoped_env(const char* n, const char* value) : name(n) { ::setenv(n, value, 1); }
    ~scoped_env() { ::unsetenv(name); }
};

}  // namespace

// Every test skips when the shared test PDFs are not here.
class PdfReader : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!std::filesystem::exists(samples)) GTEST_SKIP() << "../shared/testdata/pdfs is not here";
    }
};

// Word counts are checked against what pdftotext (poppler-utils 22.12) gives:
// cleanup may join hyphenated words and drop headers and page numbers, so a
// little less, never more.
struct readsText_row {
    std::string tag;
    std::string file;
    int pages;
    int pdftotextWords;
    std::string must_contain;
};

std::vector<readsText_row> readsText_rows()
{
    std::vector<readsText_row> rows;
    rows.push_back({"001 trivial", "sample-files/001-trivial/minimal-document.pdf", 1, 101, "Lorem ipsum"});
    rows.push_back({"002 libreoffice", "sample-files/002-trivial-libre-office-writer/002-trivial-libre-office-writer.pdf", 1, 100, "Lorem ipsum"});
    rows.push_back({"004 four pages", "sample-files/004-pdflatex-4-pages/pdflatex-4-pages.pdf", 4, 2603, "Huardest gefburn"});
    rows.push_back({"009 thesis", "sample-files/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf", 117, 32753, "Topologische Grundbegriffe"});
    rows.push_back({"011 google doc", "sample-files/011-google-doc-document/google-doc-document.pdf", 1, 178, ""});
    rows.push_back({"021 pdf/a", "sample-files/021-pdfa/crazyones-pdfa.pdf", 1, 170, "crazy ones"});
    rows.push_back({"026 two columns", "sample-files/026-latex-multicolumn/multicolumn.pdf", 3, 1041, "Two-Column Document"});
    rows.push_back({"refcard en", "debian-refcard-en.pdf", 2, 833, "Debian"});
    return rows;
}

TEST_F(PdfReader, readsText)
{
    kvlens::test::for_each_row(readsText_rows(), [&](const readsText_row& row) {
        failure_kind why{};
        auto doc = read_document(pdfs / row.file, options_with(), &why);
        ASSERT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.message().c_str());
        ASSERT_EQ(why, failure_kind::none);
        ASSERT_EQ(int(doc->pages.size()), row.pages);
        ASSERT_EQ(doc->metadata.page_count, row.pages);
        for (int i = 0; i < row.pages; ++i) {
            ASSERT_EQ(doc->pages[i].number, i + 1);
            ASSERT_EQ(doc->pages[i].chars, code_points(doc->pages[i].text));
        }
        const int words = count_words(*doc);
        ASSERT_TRUE(words >= row.pdftotextWords * 95 / 100 && words <= row.pdftotextWords) << words << " words, pdftotext " << row.pdftotextWords;
        ASSERT_TRUE(contains(all_text(*doc), row.must_contain));
        ASSERT_TRUE(doc->pages_without_text.empty());
    });
}

// Every PDF in the shared corpus: text with consistent pages, or one of
// the errors a PDF can honestly give; never a crash, a hang or bad output.
struct everySharedPdf_row {
    std::string tag;
    std::string file;
};

std::vector<everySharedPdf_row> everySharedPdf_rows()
{
    std::vector<everySharedPdf_row> rows;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(pdfs))
        if (entry.path().extension() == ".pdf")
            rows.push_back({entry.path().filename().string().c_str(), entry.path().string()});
    return rows;
}

TEST_F(PdfReader, everySharedPdf)
{
    kvlens::test::for_each_row(everySharedPdf_rows(), [&](const everySharedPdf_row& row) {
        failure_kind why{};
        auto doc = read_document(row.file, options_with(), &why);
        if (!doc) {
            ASSERT_TRUE(why == failure_kind::needs_password || why == failure_kind::damaged) << doc.message().c_str();
            ASSERT_TRUE(!doc.message().empty());
            return;
        }
        ASSERT_EQ(int(doc->pages.size()), doc->metadata.page_count);
        for (std::size_t i = 0; i < doc->pages.size(); ++i) {
            ASSERT_EQ(doc->pages[i].number, int(i) + 1);
            ASSERT_EQ(doc->pages[i].chars, code_points(doc->pages[i].text));
            ASSERT_TRUE(doc->pages[i].width_pt > 0 && doc->pages[i].height_pt > 0);
        }
        // A document without any text says so.
        if (kvlens::test::is_blank(all_text(*doc))) ASSERT_TRUE(has_warning(*doc, "no text layer"));
    });
}

TEST_F(PdfReader, metadata)
{
    auto doc = read_document(samples / "001-trivial/minimal-document.pdf", options_with());
    ASSERT_TRUE(doc.ok());
    ASSERT_EQ(doc->metadata.producer, std::string("pdfTeX-1.40.23"));
    ASSERT_EQ(doc->metadata.creation_date, std::string("2022-04-03T16:05:42Z"));
    ASSERT_EQ(doc->metadata.encrypted, false);
}

TEST_F(PdfReader, twoColumnsReadColumnByColumn)
{
    auto doc = read_document(samples / "026-latex-multicolumn/multicolumn.pdf", options_with(page_range{1, 1}));
    ASSERT_TRUE(doc.ok());
    const std::string text = all_text(*doc);
    // The foot of the left column comes before the top of the right one.
    const std::size_t left_foot = text.find("Nulla malesuada porttitor diam. Donec felis erat, congue non");
    const std::size_t right_top = text.find("Quisque ullamcorper placerat ipsum. Cras nibh.");
    ASSERT_TRUE(left_foot != std::string::npos && left_foot > 0);
    ASSERT_TRUE(right_top != std::string::npos && right_top > left_foot);
}

TEST_F(PdfReader, thesisDropsPageNumbersAndRunningHeads)
{
    auto doc = read_document(samples / "009-pdflatex-geotopo/GeoTopo-komprimiert.pdf", options_with(page_range{12, 12}));
    ASSERT_TRUE(doc.ok());
    ASSERT_EQ(doc->pages.size(), std::size_t(1));
    ASSERT_EQ(doc->pages[0].number, 12);
    const std::string text = doc->pages[0].text;
    ASSERT_TRUE(text.starts_with("Beispiel 11"));                 // not "9" nor the running head
    ASSERT_TRUE(!contains(text, std::string("METRISCHE RÄUME")));
    ASSERT_TRUE(contains(text, "hausdorffsch"));
}

TEST_F(PdfReader, chineseText)
{
    auto doc = read_document(pdfs / "debian-refcard-zh_CN.pdf", options_with());
    ASSERT_TRUE(doc.ok());
    const std::string text = all_text(*doc);
    ASSERT_TRUE(contains(text, std::string("参考卡片")));
    ASSERT_TRUE(contains(text, std::string("本文档版权适用于 GNU 通用公共许可版本 3 或更高版本的相关条款。")));
}

struct arabicInLogicalOrder_row {
    std::string tag;
    std::string file;
    int pages;
};

std::vector<arabicInLogicalOrder_row> arabicInLogicalOrder_rows()
{
    std::vector<arabicInLogicalOrder_row> rows;
    rows.push_back({"habibi", "habibi.pdf", 1});
    rows.push_back({"one-line cmap", "habibi-oneline-cmap.pdf", 1});
    rows.push_back({"rotated", "habibi-rotated.pdf", 4});
    return rows;
}

TEST_F(PdfReader, arabicInLogicalOrder)
{
    kvlens::test::for_each_row(arabicInLogicalOrder_rows(), [&](const arabicInLogicalOrder_row& row) {
        auto doc = read_document(samples / "015-arabic" / row.file, options_with());
        ASSERT_TRUE(doc.ok());
        ASSERT_EQ(int(doc->pages.size()), row.pages);
        if (row.file == "habibi-rotated.pdf") ASSERT_TRUE(doc->pages[0].width_pt > doc->pages[0].height_pt);  // turned page
        const std::string habibi = std::string("\u062D\u064E\u0628\u064A\u0628\u064A");  // حَبيبي, logical order
        const std::string reversed = std::string("\u064A\u0628\u064A\u0628\u064E\u062D");
        for (const auto& p : doc->pages) {
            const std::string text = p.text;
            ASSERT_TRUE(contains(text, habibi)) << text;
            ASSERT_TRUE(!contains(text, reversed));
            ASSERT_TRUE(contains(text, "habibi"));
            ASSERT_TRUE(!contains(text, "\u202B"));  // no bidi controls left
        }
    });
}

struct imageOnlyPagesReported_row {
    std::string tag;
    std::string file;
    int pages;
};

std::vector<imageOnlyPagesReported_row> imageOnlyPagesReported_rows()
{
    std::vector<imageOnlyPagesReported_row> rows;
    rows.push_back({"images", "imagemagick-images.pdf", 6});
    rows.push_back({"ascii85", "imagemagick-ASCII85Decode.pdf", 1});
    rows.push_back({"ccitt", "imagemagick-CCITTFaxDecode.pdf", 1});
    rows.push_back({"lzw", "imagemagick-lzw.pdf", 1});
    return rows;
}

TEST_F(PdfReader, imageOnlyPagesReported)
{
    kvlens::test::for_each_row(imageOnlyPagesReported_rows(), [&](const imageOnlyPagesReported_row& row) {
        auto doc = read_document(samples / "007-imagemagick-images" / row.file, options_with());
        ASSERT_TRUE(doc.ok());
        ASSERT_EQ(int(doc->pages.size()), row.pages);
        ASSERT_EQ(int(doc->pages_without_text.size()), row.pages);
        ASSERT_TRUE(has_warning(*doc, "no text layer: scanned?"));
    });
}

TEST_F(PdfReader, someScannedPagesNamed)
{
    ASSERT_EQ((format_page_list({3, 4, 5, 6, 7})), std::string("3–7"));
    ASSERT_EQ((format_page_list({9, 1, 3, 2})), std::string("1–3, 9"));
}

struct errors_row {
    std::string tag;
    std::string file;
    std::string password;
    kvlens::pdf::failure_kind kind;
    std::string says;
};

std::vector<errors_row> errors_rows()
{
    std::vector<errors_row> rows;
    const std::string locked = "sample-files/005-libreoffice-writer-password/libreoffice-writer-password.pdf";
    rows.push_back({"encrypted, no password", locked, "", failure_kind::needs_password, "needs a password"});
    rows.push_back({"encrypted, wrong password", locked, "not-it", failure_kind::wrong_password, "wrong password"});
    rows.push_back({"unreadable pages", "sample-files/017-unreadable-meta-data/unreadablemetadata.pdf", "", failure_kind::damaged, "damaged"});
    rows.push_back({"missing", "no-such-file.pdf", "", failure_kind::not_found, "no such file"});
    return rows;
}

TEST_F(PdfReader, errors)
{
    kvlens::test::for_each_row(errors_rows(), [&](const errors_row& row) {
        failure_kind why{};
        auto doc = read_document(pdfs / row.file, options_with(std::nullopt, row.password), &why);
        ASSERT_TRUE(!doc.ok());
        ASSERT_EQ(why, row.kind);
        ASSERT_TRUE(contains(doc.message(), row.says)) << doc.message().c_str();
        ASSERT_TRUE(doc.message().find('\n') == std::string::npos);
    });
}

// tests/pdf/data/encrypted-password-kvlens.pdf: one page, user password
// "kvlens", made with reportlab (canvas with StandardEncryption, 128-bit).
struct passwordOpensEncryptedFile_row {
    std::string tag;
    std::string password;
    kvlens::pdf::failure_kind kind;
};

std::vector<passwordOpensEncryptedFile_row> passwordOpensEncryptedFile_rows()
{
    std::vector<passwordOpensEncryptedFile_row> rows;
    rows.push_back({"right", "kvlens", failure_kind::none});
    rows.push_back({"owner password also opens", "owner-kvlens", failure_kind::none});
    rows.push_back({"wrong", "kvlen", failure_kind::wrong_password});
    rows.push_back({"none", "", failure_kind::needs_password});
    return rows;
}

TEST_F(PdfReader, passwordOpensEncryptedFile)
{
    kvlens::test::for_each_row(passwordOpensEncryptedFile_rows(), [&](const passwordOpensEncryptedFile_row& row) {
        const auto file = kvlens::test::source_root() / "tests/pdf/data/encrypted-password-kvlens.pdf";
        failure_kind why{};
        auto doc = read_document(file, options_with(std::nullopt, row.password), &why);
        ASSERT_EQ(why, row.kind);
        ASSERT_EQ(doc.ok(), row.kind == failure_kind::none);
        if (doc) {
            ASSERT_TRUE(doc->metadata.encrypted);
            ASSERT_TRUE(contains(all_text(*doc), "Prefill reads the prompt, decode writes the answer."));
            render_options ro;
            ro.helper_path = KVLENS_PDF_HELPER_PATH;
            ro.password = row.password;
            auto img = render_page(file, 1, 36, ro);
            ASSERT_TRUE(img.ok());
            ASSERT_EQ(img->page_number, 1);
        }
    });
}

struct badFiles_row {
    std::string tag;
    std::string bytes;
    kvlens::pdf::failure_kind kind;
    std::string says;
};

std::vector<badFiles_row> badFiles_rows()
{
    std::vector<badFiles_row> rows;
    rows.push_back({"empty", std::string(), failure_kind::empty_file, "empty"});
    rows.push_back({"text file", std::string("just some notes\n"), failure_kind::not_pdf, "not a PDF"});
    rows.push_back({"png header", std::string("\x89PNG\r\n\x1a\n0000"), failure_kind::not_pdf, "not a PDF"});
    std::string garbage("%PDF-1.4\n");
    for (int i = 0; i < 4000; ++i) garbage.push_back(char((i * 7919) % 251));
    rows.push_back({"header then garbage", garbage, failure_kind::damaged, "damaged"});
    std::ifstream four(samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf", std::ios::binary);
    const std::string whole{std::istreambuf_iterator<char>(four), std::istreambuf_iterator<char>()};
    rows.push_back({"truncated at 40%", whole.substr(0, whole.size() * 4 / 10), failure_kind::damaged, "truncated"});
    rows.push_back({"truncated at 90%", whole.substr(0, whole.size() * 9 / 10), failure_kind::damaged, "truncated"});
    return rows;
}

TEST_F(PdfReader, badFiles)
{
    // The four-page sample the truncated rows are cut from must be readable.
    ASSERT_TRUE(std::filesystem::exists(samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf"));
    kvlens::test::for_each_row(badFiles_rows(), [&](const badFiles_row& row) {
        const kvlens::test::temp_dir dir;
        const std::string path = (dir.path / "bad.pdf").string();
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        ASSERT_TRUE(f.is_open());
        f.write(row.bytes.data(), static_cast<std::streamsize>(row.bytes.size()));
        f.close();
        failure_kind why{};
        auto doc = read_document(path, options_with(), &why);
        ASSERT_TRUE(!doc.ok());
        ASSERT_EQ(why, row.kind);
        ASSERT_TRUE(contains(doc.message(), row.says)) << doc.message().c_str();
    });
}

TEST_F(PdfReader, pageRanges)
{
    const auto file = samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf";
    auto middle = read_document(file, options_with(page_range{2, 3}));
    ASSERT_TRUE(middle.ok());
    ASSERT_EQ(kvlens::test::qt_round(middle->pages[0].width_pt * 100), 59528);  // A4 portrait, points
    ASSERT_EQ(kvlens::test::qt_round(middle->pages[0].height_pt * 100), 84189);
    ASSERT_EQ(middle->pages.size(), std::size_t(2));
    ASSERT_EQ(middle->pages[0].number, 2);
    ASSERT_EQ(middle->pages[1].number, 3);
    ASSERT_EQ(middle->metadata.page_count, 4);

    auto clipped = read_document(file, options_with(page_range{3, 99}));
    ASSERT_TRUE(clipped.ok());
    ASSERT_EQ(clipped->pages.size(), std::size_t(2));
    ASSERT_TRUE(has_warning(*clipped, "do not exist"));

    failure_kind why{};
    auto outside = read_document(file, options_with(page_range{9, 9}), &why);
    ASSERT_TRUE(!outside.ok());
    ASSERT_EQ(why, failure_kind::bad_range);
    ASSERT_EQ(outside.message(), std::string("page 9 asked for, but 'pdflatex-4-pages.pdf' has 4 pages"));
    auto just_past = read_document(file, options_with(page_range{5, 6}), &why);
    ASSERT_TRUE(!just_past.ok());
    ASSERT_EQ(why, failure_kind::bad_range);
    ASSERT_EQ(just_past.message(), std::string("page 5 asked for, but 'pdflatex-4-pages.pdf' has 4 pages"));
}

struct pageRangeParsing_row {
    std::string tag;
    std::string text;
    bool valid;
    int first;
    int last;
};

std::vector<pageRangeParsing_row> pageRangeParsing_rows()
{
    std::vector<pageRangeParsing_row> rows;
    rows.push_back({"a-b", "3-7", true, 3, 7});
    rows.push_back({"single", "5", true, 5, 5});
    rows.push_back({"open end", "4-", true, 4, 0});
    rows.push_back({"open start", "-2", true, 1, 2});
    rows.push_back({"reversed", "7-3", false, 0, 0});
    rows.push_back({"zero", "0-3", false, 0, 0});
    rows.push_back({"words", "all", false, 0, 0});
    return rows;
}

TEST_F(PdfReader, pageRangeParsing)
{
    kvlens::test::for_each_row(pageRangeParsing_rows(), [&](const pageRangeParsing_row& row) {
        const auto r = parse_page_range(row.text);
        ASSERT_EQ(r.has_value(), row.valid);
        if (r) {
            ASSERT_EQ(r->first, row.first);
            ASSERT_EQ(r->last, row.last);
        }
    });
}

struct helperFaults_row {
    std::string tag;
    std::string fault;
    kvlens::pdf::failure_kind kind;
    std::string says;
};

std::vector<helperFaults_row> helperFaults_rows()
{
    std::vector<helperFaults_row> rows;
    rows.push_back({"crash", "crash", failure_kind::helper_crashed, "crashed"});
    rows.push_back({"hang", "hang", failure_kind::timeout, "longer than 1.5 s"});
    rows.push_back({"garbage", "garbage", failure_kind::bad_output, "invalid answer"});
    rows.push_back({"exit", "exit", failure_kind::helper_crashed, "exit code 3"});
    return rows;
}

TEST_F(PdfReader, helperFaults)
{
    kvlens::test::for_each_row(helperFaults_rows(), [&](const helperFaults_row& row) {
        scoped_env env("KVLENS_PDF_HELPER_TEST_FAULT", row.fault.c_str());
        read_options o = options_with();
        o.timeout = std::chrono::milliseconds(1500);
        failure_kind why{};
        auto doc = read_document(samples / "001-trivial/minimal-document.pdf", o, &why);
        ASSERT_TRUE(!doc.ok());
        ASSERT_EQ(why, row.kind);
        ASSERT_TRUE(contains(doc.message(), row.says)) << doc.message().c_str();
    });
}

TEST_F(PdfReader, cancelStopsTheRead)
{
    scoped_env env("KVLENS_PDF_HELPER_TEST_FAULT", "hang");
    std::atomic<bool> cancel{true};  // already cancelled: the helper is stopped at once
    read_options o = options_with();
    o.cancel = &cancel;
    failure_kind why{};
    auto doc = read_document(samples / "001-trivial/minimal-document.pdf", o, &why);
    ASSERT_TRUE(!doc.ok());
    ASSERT_EQ(why, failure_kind::cancelled);
    ASSERT_TRUE(contains(doc.message(), "cancelled"));
}

TEST_F(PdfReader, helperMissing)
{
    read_options o = options_with();
    o.helper_path = "/nonexistent/kvlens-pdf-helper";
    failure_kind why{};
    auto doc = read_document(samples / "001-trivial/minimal-document.pdf", o, &why);
    ASSERT_TRUE(!doc.ok());
    ASSERT_EQ(why, failure_kind::helper_missing);
}

TEST_F(PdfReader, helperFoundThroughEnvironment)
{
    scoped_env env("KVLENS_PDF_HELPER", KVLENS_PDF_HELPER_PATH);
    auto found = find_helper();
    ASSERT_TRUE(found.ok());
    ASSERT_EQ(found->string(), std::string(KVLENS_PDF_HELPER_PATH));
}

TEST_F(PdfReader, rendersPages)
{
    render_options o;
    o.helper_path = KVLENS_PDF_HELPER_PATH;
    auto img = render_page(samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf", 1, 72, o);
    ASSERT_TRUE(img.ok()) << (img.ok() ? "" : img.message().c_str());
    ASSERT_EQ(img->page_number, 1);
    ASSERT_EQ(img->width, 595);   // A4: 595.28 x 841.89 pt at 72 dpi, rounded
    ASSERT_EQ(img->height, 842);
    ASSERT_EQ(img->stride, img->width * 4);
    ASSERT_EQ(img->pixels.size(), std::size_t(img->stride) * std::size_t(img->height));
    // White paper in the corner, ink somewhere on the page.
    ASSERT_EQ(int(img->pixels[0]), 255);
    ASSERT_EQ(int(img->pixels[3]), 255);
    std::size_t dark = 0;
    for (std::size_t i = 0; i < img->pixels.size(); i += 4)
        if (img->pixels[i] < 128 && img->pixels[i + 1] < 128 && img->pixels[i + 2] < 128) ++dark;
    ASSERT_TRUE(dark > 1000);

    auto thumbs = render_pages(samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf", page_range{2, 0}, 18, o);
    ASSERT_TRUE(thumbs.ok());
    ASSERT_EQ(thumbs->size(), std::size_t(3));
    ASSERT_EQ((*thumbs)[2].page_number, 4);
    ASSERT_EQ((*thumbs)[0].width, 149);
}

TEST_F(PdfReader, renderErrors)
{
    render_options o;
    o.helper_path = KVLENS_PDF_HELPER_PATH;
    failure_kind why{};
    auto locked = render_page(samples / "005-libreoffice-writer-password/libreoffice-writer-password.pdf", 1, 72, o, &why);
    ASSERT_TRUE(!locked.ok());
    ASSERT_EQ(why, failure_kind::needs_password);
    auto outside = render_page(samples / "001-trivial/minimal-document.pdf", 2, 72, o, &why);
    ASSERT_TRUE(!outside.ok());
    ASSERT_EQ(why, failure_kind::bad_range);
    auto huge = render_page(samples / "001-trivial/minimal-document.pdf", 1, 5000, o, &why);
    ASSERT_TRUE(!huge.ok());
    ASSERT_EQ(why, failure_kind::bad_range);
    scoped_env env("KVLENS_PDF_HELPER_TEST_FAULT", "crash");
    auto crashed = render_page(samples / "001-trivial/minimal-document.pdf", 1, 72, o, &why);
    ASSERT_TRUE(!crashed.ok());
    ASSERT_EQ(why, failure_kind::helper_crashed);
}
