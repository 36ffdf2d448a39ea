// SPDX-License-Identifier: Apache-2.0
// The `extract` subcommand, run in-process on a CLI11 app with stdout and
// stderr captured: text and JSON output, page ranges, and one-line errors.
#include "app/cli/cmd_extract.h"
#include "tests/support/test_paths.h"
#include "tests/support/text_checks.h"

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using kvlens::test::contains;

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

// Every test skips when the shared test PDFs are not here, and finds the
// helper through $KVLENS_PDF_HELPER.
class ExtractCommand : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!std::filesystem::exists(samples)) GTEST_SKIP() << "../shared/testdata/pdfs is not here";
        ::setenv("KVLENS_PDF_HELPER", KVLENS_PDF_HELPER_PATH, 1);
    }
};

TEST_F(ExtractCommand, plainText)
{
    const cli_run r = run_cli({"extract", (samples / "001-trivial/minimal-document.pdf").string()});
    ASSERT_EQ(r.exit_code, 0);
    ASSERT_TRUE(r.out.starts_with("Lorem ipsum"));
    ASSERT_TRUE(r.err.empty());
}

TEST_F(ExtractCommand, jsonWithPages)
{
    const cli_run r = run_cli({"extract", (samples / "004-pdflatex-4-pages/pdflatex-4-pages.pdf").string(),
                               "--pages", "2-3", "--json"});
    ASSERT_EQ(r.exit_code, 0);
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(!j.is_discarded());
    ASSERT_EQ(int(j["pages"].size()), 2);
    ASSERT_EQ(j["pages"][0]["number"].get<int>(), 2);
    ASSERT_EQ(j["pages"][1]["number"].get<int>(), 3);
    const std::string text = j["pages"][0]["text"].get<std::string>();
    ASSERT_EQ(j["pages"][0]["chars"].get<std::size_t>(), kvlens::test::code_points(text));
    ASSERT_TRUE(text.size() > 1000);
    ASSERT_EQ(j["metadata"]["page_count"].get<int>(), 4);
    ASSERT_EQ(j["metadata"]["producer"].get<std::string>(), std::string("pdfTeX-1.40.23"));
    ASSERT_TRUE(j["warnings"].is_array());
}

TEST_F(ExtractCommand, password)
{
    const auto file = kvlens::test::source_root() / "tests/pdf/data/encrypted-password-kvlens.pdf";
    const cli_run r = run_cli({"extract", file.string(), "--password", "kvlens"});
    ASSERT_EQ(r.exit_code, 0);
    ASSERT_TRUE(contains(r.out, "Prefill reads the prompt"));
}

TEST_F(ExtractCommand, scannedPagesWarnOnStderr)
{
    const cli_run r = run_cli({"extract", (samples / "007-imagemagick-images/imagemagick-images.pdf").string()});
    ASSERT_EQ(r.exit_code, 0);
    ASSERT_TRUE(contains(r.err, "no text layer: scanned?"));
}

struct errors_row {
    std::string tag;
    std::vector<std::string> args;
    std::string says;
};

std::vector<errors_row> errors_rows()
{
    std::vector<errors_row> rows;
    const std::string locked = ((samples / "005-libreoffice-writer-password/libreoffice-writer-password.pdf").string());
    rows.push_back({"needs password", std::vector<std::string>{"extract", locked}, "needs a password (use --password)"});
    rows.push_back({"wrong password", std::vector<std::string>{"extract", locked, "--password", "nope"}, "wrong password"});
    rows.push_back({"bad range", std::vector<std::string>{"extract", locked, "--pages", "5-2"}, "bad --pages"});
    rows.push_back({"not a pdf", std::vector<std::string>{"extract", ((samples / "LICENSE").string())}, "not a PDF"});
    return rows;
}

TEST_F(ExtractCommand, errors)
{
    kvlens::test::for_each_row(errors_rows(), [&](const errors_row& row) {
        std::vector<std::string> a;
        for (const std::string& s : row.args) a.push_back(s);
        const cli_run r = run_cli(a);
        ASSERT_EQ(r.exit_code, 1);
        ASSERT_TRUE(r.out.empty());
        const std::string err = r.err;
        ASSERT_TRUE(contains(err, row.says)) << err;
        ASSERT_EQ(std::count(err.begin(), err.end(), '\n'), 1);  // one line
    });
}
