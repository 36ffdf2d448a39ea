// SPDX-License-Identifier: Apache-2.0
// Reading real PDFs through the helper process: every shared test PDF gives
// sensible text or the right error; damaged, empty and non-PDF files; page
// ranges; a helper that crashes, hangs or prints garbage; page rendering.
#include "pdf/page_render.h"
#include "pdf/reader_process.h"
#include "tests/support/test_paths.h"

#include <QtTest>

#include <cstdlib>
#include <fstream>

using namespace kvlens::pdf;

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

QString all_text(const document_text& d) {
    QString s;
    for (const auto& p : d.pages) s += QString::fromStdString(p.text) + "\n\n";
    return s;
}

bool has_warning(const document_text& d, const QString& part) {
    for (const auto& w : d.warnings)
        if (QString::fromStdString(w).contains(part)) return true;
    return false;
}

// Sets an environment variable for the helper for one scope.
struct scoped_env {
    const char* name;
    scoped_env(const char* n, const char* value) : name(n) { ::setenv(n, value, 1); }
    ~scoped_env() { ::unsetenv(name); }
};

}  // namespace

Q_DECLARE_METATYPE(kvlens::pdf::failure_kind)

class TestPdfReader : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!std::filesystem::exists(samples)) QSKIP("../shared/testdata/pdfs is not here");
    }

    // Word counts are checked against what pdftotext (poppler-utils 22.12) gives:
    // cleanup may join hyphenated words and drop headers and page numbers, so a
    // little less, never more.
    void readsText_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("pages");
        QTest::addColumn<int>("pdftotextWords");
        QTest::addColumn<QString>("contains");
        QTest::newRow("001 trivial") << "sample-files/001-trivial/minimal-document.pdf" << 1 << 101 << "Lorem ipsum";
        QTest::newRow("002 libreoffice") << "sample-files/002-trivial-libre-office-writer/002-trivial-libre-office-writer.pdf" << 1 << 100 << "Lorem ipsum";
        QTest::newRow("004 four pages") << "sample-files/004-pdflatex-4-pages/pdflatex-4-pages.pdf" << 4 << 2603 << "Huardest gefburn";
        QTest::newRow("009 thesis") << "sample-files/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf" << 117 << 32753 << "Topologische Grundbegriffe";
        QTest::newRow("011 google doc") << "sample-files/011-google-doc-document/google-doc-document.pdf" << 1 << 178 << "";
        QTest::newRow("021 pdf/a") << "sample-files/021-pdfa/crazyones-pdfa.pdf" << 1 << 170 << "crazy ones";
        QTest::newRow("026 two columns") << "sample-files/026-latex-multicolumn/multicolumn.pdf" << 3 << 1041 << "Two-Column Document";
        QTest::newRow("refcard en") << "debian-refcard-en.pdf" << 2 << 833 << "Debian";
    }
    void readsText() {
        QFETCH(QString, file);
        QFETCH(int, pages);
        QFETCH(int, pdftotextWords);
        QFETCH(QString, contains);
        failure_kind why{};
        auto doc = read_document(pdfs / file.toStdString(), options_with(), &why);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.message().c_str());
        QCOMPARE(why, failure_kind::none);
        QCOMPARE(int(doc->pages.size()), pages);
        QCOMPARE(doc->metadata.page_count, pages);
        for (int i = 0; i < pages; ++i) {
            QCOMPARE(doc->pages[i].number, i + 1);
            QCOMPARE(doc->pages[i].chars, QString::fromStdString(doc->pages[i].text).toUcs4().size());
        }
        const int words = count_words(*doc);
        QVERIFY2(words >= pdftotextWords * 95 / 100 && words <= pdftotextWords,
                 qPrintable(QString("%1 words, pdftotext %2").arg(words).arg(pdftotextWords)));
        QVERIFY(all_text(*doc).contains(contains));
        QVERIFY(doc->pages_without_text.empty());
    }

    // Every PDF in the shared corpus: text with consistent pages, or one of
    // the errors a PDF can honestly give; never a crash, a hang or bad output.
    void everySharedPdf_data() {
        QTest::addColumn<QString>("file");
        for (const auto& entry : std::filesystem::recursive_directory_iterator(pdfs))
            if (entry.path().extension() == ".pdf")
                QTest::newRow(entry.path().filename().string().c_str()) << QString::fromStdString(entry.path().string());
    }
    void everySharedPdf() {
        QFETCH(QString, file);
        failure_kind why{};
        auto doc = read_document(file.toStdString(), options_with(), &why);
        if (!doc) {
            QVERIFY2(why == failure_kind::needs_password || why == failure_kind::damaged, doc.message().c_str());
            QVERIFY(!doc.message().empty());
            return;
        }
        QCOMPARE(int(doc->pages.size()), doc->metadata.page_count);
        for (std::size_t i = 0; i < doc->pages.size(); ++i) {
            QCOMPARE(doc->pages[i].number, int(i) + 1);
            QCOMPARE(doc->pages[i].chars, QString::fromStdString(doc->pages[i].text).toUcs4().size());
            QVERIFY(doc->pages[i].width_pt > 0 && doc->pages[i].height_pt > 0);
        }
        // A document without any text says so.
        if (all_text(*doc).trimmed().isEmpty()) QVERIFY(has_warning(*doc, "no text layer"));
    }

    void metadata() {
        auto doc = read_document(samples / "001-trivial/minimal-document.pdf", options_with());
        QVERIFY(doc.ok());
        QCOMPARE(QString::fromStdString(doc->metadata.producer), QString("pdfTeX-1.40.23"));
        QCOMPARE(QString::fromStdString(doc->metadata.creation_date), QString("2022-04-03T16:05:42Z"));
        QCOMPARE(doc->metadata.encrypted, false);
    }

    void twoColumnsReadColumnByColumn() {
        auto doc = read_document(samples / "026-latex-multicolumn/multicolumn.pdf", options_with(page_range{1, 1}));
        QVERIFY(doc.ok());
        const QString text = all_text(*doc);
        // The foot of the left column comes before the top of the right one.
        const int left_foot = text.indexOf("Nulla malesuada porttitor diam. Donec felis erat, congue non");
        const int right_top = text.indexOf("Quisque ullamcorper placerat ipsum. Cras nibh.");
        QVERIFY(left_foot > 0);
        QVERIFY(right_top > left_foot);
    }

    void thesisDropsPageNumbersAndRunningHeads() {
        auto doc = read_document(samples / "009-pdflatex-geotopo/GeoTopo-komprimiert.pdf", options_with(page_range{12, 12}));
        QVERIFY(doc.ok());
        QCOMPARE(doc->pages.size(), std::size_t(1));
        QCOMPARE(doc->pages[0].number, 12);
        const QString text = QString::fromStdString(doc->pages[0].text);
        QVERIFY(text.startsWith("Beispiel 11"));                 // not "9" nor the running head
        QVERIFY(!text.contains(QString::fromUtf8("METRISCHE RÄUME")));
        QVERIFY(text.contains("hausdorffsch"));
    }

    void chineseText() {
        auto doc = read_document(pdfs / "debian-refcard-zh_CN.pdf", options_with());
        QVERIFY(doc.ok());
        const QString text = all_text(*doc);
        QVERIFY(text.contains(QString::fromUtf8("参考卡片")));
        QVERIFY(text.contains(QString::fromUtf8("本文档版权适用于 GNU 通用公共许可版本 3 或更高版本的相关条款。")));
    }

    void arabicInLogicalOrder_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("pages");
        QTest::newRow("habibi") << "habibi.pdf" << 1;
        QTest::newRow("one-line cmap") << "habibi-oneline-cmap.pdf" << 1;
        QTest::newRow("rotated") << "habibi-rotated.pdf" << 4;
    }
    void arabicInLogicalOrder() {
        QFETCH(QString, file);
        QFETCH(int, pages);
        auto doc = read_document(samples / "015-arabic" / file.toStdString(), options_with());
        QVERIFY(doc.ok());
        QCOMPARE(int(doc->pages.size()), pages);
        if (file == "habibi-rotated.pdf") QVERIFY(doc->pages[0].width_pt > doc->pages[0].height_pt);  // turned page
        const QString habibi = QString::fromUtf8("\u062D\u064E\u0628\u064A\u0628\u064A");  // حَبيبي, logical order
        const QString reversed = QString::fromUtf8("\u064A\u0628\u064A\u0628\u064E\u062D");
        for (const auto& p : doc->pages) {
            const QString text = QString::fromStdString(p.text);
            QVERIFY2(text.contains(habibi), qPrintable(text));
            QVERIFY(!text.contains(reversed));
            QVERIFY(text.contains("habibi"));
            QVERIFY(!text.contains(QChar(0x202B)));  // no bidi controls left
        }
    }

    void imageOnlyPagesReported_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("pages");
        QTest::newRow("images") << "imagemagick-images.pdf" << 6;
        QTest::newRow("ascii85") << "imagemagick-ASCII85Decode.pdf" << 1;
        QTest::newRow("ccitt") << "imagemagick-CCITTFaxDecode.pdf" << 1;
        QTest::newRow("lzw") << "imagemagick-lzw.pdf" << 1;
    }
    void imageOnlyPagesReported() {
        QFETCH(QString, file);
        QFETCH(int, pages);
        auto doc = read_document(samples / "007-imagemagick-images" / file.toStdString(), options_with());
        QVERIFY(doc.ok());
        QCOMPARE(int(doc->pages.size()), pages);
        QCOMPARE(int(doc->pages_without_text.size()), pages);
        QVERIFY(has_warning(*doc, "no text layer: scanned?"));
    }

    void someScannedPagesNamed() {
        QCOMPARE(QString::fromStdString(format_page_list({3, 4, 5, 6, 7})), QString::fromUtf8("3–7"));
        QCOMPARE(QString::fromStdString(format_page_list({9, 1, 3, 2})), QString::fromUtf8("1–3, 9"));
    }

    void errors_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("password");
        QTest::addColumn<kvlens::pdf::failure_kind>("kind");
        QTest::addColumn<QString>("says");
        const QString locked = "sample-files/005-libreoffice-writer-password/libreoffice-writer-password.pdf";
        QTest::newRow("encrypted, no password") << locked << "" << failure_kind::needs_password << "needs a password";
        QTest::newRow("encrypted, wrong password") << locked << "not-it" << failure_kind::wrong_password << "wrong password";
        QTest::newRow("unreadable pages") << "sample-files/017-unreadable-meta-data/unreadablemetadata.pdf" << ""
                                          << failure_kind::damaged << "damaged";
        QTest::newRow("missing") << "no-such-file.pdf" << "" << failure_kind::not_found << "no such file";
    }
    void errors() {
        QFETCH(QString, file);
        QFETCH(QString, password);
        QFETCH(kvlens::pdf::failure_kind, kind);
        QFETCH(QString, says);
        failure_kind why{};
        auto doc = read_document(pdfs / file.toStdString(), options_with(std::nullopt, password.toStdString()), &why);
        QVERIFY(!doc.ok());
        QCOMPARE(why, kind);
        QVERIFY2(QString::fromStdString(doc.message()).contains(says), doc.message().c_str());
        QVERIFY(doc.message().find('\n') == std::string::npos);
    }

    // tests/pdf/data/encrypted-password-kvlens.pdf: one page, user password
    // "kvlens", made with reportlab (canvas with StandardEncryption, 128-bit).
    void passwordOpensEncryptedFile_data() {
        QTest::addColumn<QString>("password");
        QTest::addColumn<kvlens::pdf::failure_kind>("kind");
        QTest::newRow("right") << "kvlens" << failure_kind::none;
        QTest::newRow("owner password also opens") << "owner-kvlens" << failure_kind::none;
        QTest::newRow("wrong") << "kvlen" << failure_kind::wrong_password;
        QTest::newRow("none") << "" << failure_kind::needs_password;
    }
    void passwordOpensEncryptedFile() {
        QFETCH(QString, password);
        QFETCH(kvlens::pdf::failure_kind, kind);
        const auto file = kvlens::test::source_root() / "tests/pdf/data/encrypted-password-kvlens.pdf";
        failure_kind why{};
        auto doc = read_document(file, options_with(std::nullopt, password.toStdString()), &why);
        QCOMPARE(why, kind);
        QCOMPARE(doc.ok(), kind == failure_kind::none);
        if (doc) {
            QVERIFY(doc->metadata.encrypted);
            QVERIFY(all_text(*doc).contains("Prefill reads the prompt, decode writes the answer."));
            render_options ro;
            ro.helper_path = KVLENS_PDF_HELPER_PATH;
            ro.password = password.toStdString();
            auto img = render_page(file, 1, 36, ro);
            QVERIFY(img.ok());
            QCOMPARE(img->page_number, 1);
        }
    }

    void badFiles_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<kvlens::pdf::failure_kind>("kind");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty") << QByteArray() << failure_kind::empty_file << "empty";
        QTest::newRow("text file") << QByteArray("just some notes\n") << failure_kind::not_pdf << "not a PDF";
        QTest::newRow("png header") << QByteArray("\x89PNG\r\n\x1a\n0000") << failure_kind::not_pdf << "not a PDF";
        QByteArray garbage("%PDF-1.4\n");
        for (int i = 0; i < 4000; ++i) garbage.append(char((i * 7919) % 251));
        QTest::newRow("header then garbage") << garbage << failure_kind::damaged << "damaged";
        QFile four(QString::fromStdString((samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf").string()));
        QVERIFY(four.open(QIODevice::ReadOnly));
        const QByteArray whole = four.readAll();
        QTest::newRow("truncated at 40%") << whole.left(whole.size() * 4 / 10) << failure_kind::damaged << "truncated";
        QTest::newRow("truncated at 90%") << whole.left(whole.size() * 9 / 10) << failure_kind::damaged << "truncated";
    }
    void badFiles() {
        QFETCH(QByteArray, bytes);
        QFETCH(kvlens::pdf::failure_kind, kind);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.pdf");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        failure_kind why{};
        auto doc = read_document(path.toStdString(), options_with(), &why);
        QVERIFY(!doc.ok());
        QCOMPARE(why, kind);
        QVERIFY2(QString::fromStdString(doc.message()).contains(says), doc.message().c_str());
    }

    void pageRanges() {
        const auto file = samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf";
        auto middle = read_document(file, options_with(page_range{2, 3}));
        QVERIFY(middle.ok());
        QCOMPARE(qRound(middle->pages[0].width_pt * 100), 59528);  // A4 portrait, points
        QCOMPARE(qRound(middle->pages[0].height_pt * 100), 84189);
        QCOMPARE(middle->pages.size(), std::size_t(2));
        QCOMPARE(middle->pages[0].number, 2);
        QCOMPARE(middle->pages[1].number, 3);
        QCOMPARE(middle->metadata.page_count, 4);

        auto clipped = read_document(file, options_with(page_range{3, 99}));
        QVERIFY(clipped.ok());
        QCOMPARE(clipped->pages.size(), std::size_t(2));
        QVERIFY(has_warning(*clipped, "do not exist"));

        failure_kind why{};
        auto outside = read_document(file, options_with(page_range{9, 9}), &why);
        QVERIFY(!outside.ok());
        QCOMPARE(why, failure_kind::bad_range);
        QCOMPARE(QString::fromStdString(outside.message()),
                 QString("page 9 asked for, but 'pdflatex-4-pages.pdf' has 4 pages"));
        auto just_past = read_document(file, options_with(page_range{5, 6}), &why);
        QVERIFY(!just_past.ok());
        QCOMPARE(why, failure_kind::bad_range);
        QCOMPARE(QString::fromStdString(just_past.message()), QString("page 5 asked for, but 'pdflatex-4-pages.pdf' has 4 pages"));
    }

    void pageRangeParsing_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        QTest::newRow("a-b") << "3-7" << true << 3 << 7;
        QTest::newRow("single") << "5" << true << 5 << 5;
        QTest::newRow("open end") << "4-" << true << 4 << 0;
        QTest::newRow("open start") << "-2" << true << 1 << 2;
        QTest::newRow("reversed") << "7-3" << false << 0 << 0;
        QTest::newRow("zero") << "0-3" << false << 0 << 0;
        QTest::newRow("words") << "all" << false << 0 << 0;
    }
    void pageRangeParsing() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(int, first);
        QFETCH(int, last);
        const auto r = parse_page_range(text.toStdString());
        QCOMPARE(r.has_value(), valid);
        if (r) {
            QCOMPARE(r->first, first);
            QCOMPARE(r->last, last);
        }
    }

    void helperFaults_data() {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<kvlens::pdf::failure_kind>("kind");
        QTest::addColumn<QString>("says");
        QTest::newRow("crash") << "crash" << failure_kind::helper_crashed << "crashed";
        QTest::newRow("hang") << "hang" << failure_kind::timeout << "longer than 1.5 s";
        QTest::newRow("garbage") << "garbage" << failure_kind::bad_output << "invalid answer";
        QTest::newRow("exit") << "exit" << failure_kind::helper_crashed << "exit code 3";
    }
    void helperFaults() {
        QFETCH(QString, fault);
        QFETCH(kvlens::pdf::failure_kind, kind);
        QFETCH(QString, says);
        const QByteArray value = fault.toUtf8();
        scoped_env env("KVLENS_PDF_HELPER_TEST_FAULT", value.constData());
        read_options o = options_with();
        o.timeout = std::chrono::milliseconds(1500);
        failure_kind why{};
        auto doc = read_document(samples / "001-trivial/minimal-document.pdf", o, &why);
        QVERIFY(!doc.ok());
        QCOMPARE(why, kind);
        QVERIFY2(QString::fromStdString(doc.message()).contains(says), doc.message().c_str());
    }

    void cancelStopsTheRead() {
        scoped_env env("KVLENS_PDF_HELPER_TEST_FAULT", "hang");
        std::atomic<bool> cancel{true};  // already cancelled: the helper is stopped at once
        read_options o = options_with();
        o.cancel = &cancel;
        failure_kind why{};
        auto doc = read_document(samples / "001-trivial/minimal-document.pdf", o, &why);
        QVERIFY(!doc.ok());
        QCOMPARE(why, failure_kind::cancelled);
        QVERIFY(QString::fromStdString(doc.message()).contains("cancelled"));
    }

    void helperMissing() {
        read_options o = options_with();
        o.helper_path = "/nonexistent/kvlens-pdf-helper";
        failure_kind why{};
        auto doc = read_document(samples / "001-trivial/minimal-document.pdf", o, &why);
        QVERIFY(!doc.ok());
        QCOMPARE(why, failure_kind::helper_missing);
    }

    void helperFoundThroughEnvironment() {
        scoped_env env("KVLENS_PDF_HELPER", KVLENS_PDF_HELPER_PATH);
        auto found = find_helper();
        QVERIFY(found.ok());
        QCOMPARE(QString::fromStdString(found->string()), QString(KVLENS_PDF_HELPER_PATH));
    }

    void rendersPages() {
        render_options o;
        o.helper_path = KVLENS_PDF_HELPER_PATH;
        auto img = render_page(samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf", 1, 72, o);
        QVERIFY2(img.ok(), img.ok() ? "" : img.message().c_str());
        QCOMPARE(img->page_number, 1);
        QCOMPARE(img->width, 595);   // A4: 595.28 x 841.89 pt at 72 dpi, rounded
        QCOMPARE(img->height, 842);
        QCOMPARE(img->stride, img->width * 4);
        QCOMPARE(img->pixels.size(), std::size_t(img->stride) * std::size_t(img->height));
        // White paper in the corner, ink somewhere on the page.
        QCOMPARE(int(img->pixels[0]), 255);
        QCOMPARE(int(img->pixels[3]), 255);
        std::size_t dark = 0;
        for (std::size_t i = 0; i < img->pixels.size(); i += 4)
            if (img->pixels[i] < 128 && img->pixels[i + 1] < 128 && img->pixels[i + 2] < 128) ++dark;
        QVERIFY(dark > 1000);

        auto thumbs = render_pages(samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf", page_range{2, 0}, 18, o);
        QVERIFY(thumbs.ok());
        QCOMPARE(thumbs->size(), std::size_t(3));
        QCOMPARE((*thumbs)[2].page_number, 4);
        QCOMPARE((*thumbs)[0].width, 149);
    }

    void renderErrors() {
        render_options o;
        o.helper_path = KVLENS_PDF_HELPER_PATH;
        failure_kind why{};
        auto locked = render_page(samples / "005-libreoffice-writer-password/libreoffice-writer-password.pdf", 1, 72, o, &why);
        QVERIFY(!locked.ok());
        QCOMPARE(why, failure_kind::needs_password);
        auto outside = render_page(samples / "001-trivial/minimal-document.pdf", 2, 72, o, &why);
        QVERIFY(!outside.ok());
        QCOMPARE(why, failure_kind::bad_range);
        auto huge = render_page(samples / "001-trivial/minimal-document.pdf", 1, 5000, o, &why);
        QVERIFY(!huge.ok());
        QCOMPARE(why, failure_kind::bad_range);
        scoped_env env("KVLENS_PDF_HELPER_TEST_FAULT", "crash");
        auto crashed = render_page(samples / "001-trivial/minimal-document.pdf", 1, 72, o, &why);
        QVERIFY(!crashed.ok());
        QCOMPARE(why, failure_kind::helper_crashed);
    }
};

QTEST_GUILESS_MAIN(TestPdfReader)
#include "test_pdf_reader.moc"
