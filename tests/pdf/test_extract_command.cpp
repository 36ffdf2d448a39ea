// SPDX-License-Identifier: Apache-2.0
// The `extract` subcommand, run in-process on a CLI11 app with stdout and
// stderr captured: text and JSON output, page ranges, and one-line errors.
#include "app/cli/cmd_extract.h"
#include "tests/support/test_paths.h"

#include <CLI/CLI.hpp>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace {

const std::filesystem::path samples = kvlens::test::shared_dir() / "testdata" / "pdfs" / "sample-files";

struct cli_run {
    int exit_code = -1;
    std::string out, err;
};

cli_run run_cli(std::vector<std::string> args) {
    CLI::App app{"kvlens-cli"};
    app.require_subcommand(1);
    cli_run r;
    add_extract_command(app, r.exit_code);
    std::ostringstream out, err;
    auto* old_out = std::cout.rdbuf(out.rdbuf());
    auto* old_err = std::cerr.rdbuf(err.rdbuf());
    std::reverse(args.begin(), args.end());  // CLI11 takes them reversed
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        r.exit_code = app.exit(e);
    }
    std::cout.rdbuf(old_out);
    std::cerr.rdbuf(old_err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

}  // namespace

class TestExtractCommand : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!std::filesystem::exists(samples)) QSKIP("../shared/testdata/pdfs is not here");
        ::setenv("KVLENS_PDF_HELPER", KVLENS_PDF_HELPER_PATH, 1);
    }

    void plainText() {
        const cli_run r = run_cli({"extract", (samples / "001-trivial/minimal-document.pdf").string()});
        QCOMPARE(r.exit_code, 0);
        QVERIFY(QString::fromStdString(r.out).startsWith("Lorem ipsum"));
        QVERIFY(r.err.empty());
    }

    void jsonWithPages() {
        const cli_run r = run_cli({"extract", (samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf").string(),
                                   "--pages", "2-3", "--json"});
        QCOMPARE(r.exit_code, 0);
        const auto j = nlohmann::json::parse(r.out, nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(int(j["pages"].size()), 2);
        QCOMPARE(j["pages"][0]["number"].get<int>(), 2);
        QCOMPARE(j["pages"][1]["number"].get<int>(), 3);
        const std::string text = j["pages"][0]["text"].get<std::string>();
        QCOMPARE(j["pages"][0]["chars"].get<std::size_t>(), std::size_t(QString::fromStdString(text).toUcs4().size()));
        QVERIFY(text.size() > 1000);
        QCOMPARE(j["metadata"]["page_count"].get<int>(), 4);
        QCOMPARE(j["metadata"]["producer"].get<std::string>(), std::string("pdfTeX-1.40.23"));
        QVERIFY(j["warnings"].is_array());
    }

    void password() {
        const auto file = kvlens::test::source_root() / "tests/pdf/data/encrypted-password-kvlens.pdf";
        const cli_run r = run_cli({"extract", file.string(), "--password", "kvlens"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY(QString::fromStdString(r.out).contains("Prefill reads the prompt"));
    }

    void scannedPagesWarnOnStderr() {
        const cli_run r = run_cli({"extract", (samples / "007-imagemagick-images/imagemagick-images.pdf").string()});
        QCOMPARE(r.exit_code, 0);
        QVERIFY(QString::fromStdString(r.err).contains("no text layer: scanned?"));
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        const QString locked = QString::fromStdString(
            (samples / "005-libreoffice-writer-password/libreoffice-writer-password.pdf").string());
        QTest::newRow("needs password") << QStringList{"extract", locked} << "needs a password (use --password)";
        QTest::newRow("wrong password") << QStringList{"extract", locked, "--password", "nope"} << "wrong password";
        QTest::newRow("bad range") << QStringList{"extract", locked, "--pages", "5-2"} << "bad --pages";
        QTest::newRow("not a pdf") << QStringList{"extract", QString::fromStdString((samples / "LICENSE").string())}
                                   << "not a PDF";
    }
    void errors() {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        std::vector<std::string> a;
        for (const QString& s : args) a.push_back(s.toStdString());
        const cli_run r = run_cli(a);
        QCOMPARE(r.exit_code, 1);
        QVERIFY(r.out.empty());
        const QString err = QString::fromStdString(r.err);
        QVERIFY2(err.contains(says), qPrintable(err));
        QCOMPARE(err.count('\n'), 1);  // one line
    }
};

QTEST_APPLESS_MAIN(TestExtractCommand)
#include "test_extract_command.moc"
