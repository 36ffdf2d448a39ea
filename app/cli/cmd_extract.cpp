// SPDX-License-Identifier: Apache-2.0
// The `extract` subcommand: options, then pdf::read_document, then text or
// JSON on stdout. Warnings go to stderr so stdout stays the document's text.
#include "app/cli/cmd_extract.h"
#include "app/cli/signals.h"

#include "pdf/metadata_json.h"
#include "pdf/reader_process.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <string>

namespace {

struct extract_options {
    std::string file;
    std::string pages;
    std::string password;
    bool json = false;
    bool raw = false;
    double timeout_s = 30;
};

nlohmann::json to_json(const std::string& file, const kvlens::pdf::document_text& doc) {
    nlohmann::json pages = nlohmann::json::array();
    for (const auto& p : doc.pages) pages.push_back({{"number", p.number}, {"text", p.text}, {"chars", p.chars}});
    return {{"file", file},
            {"metadata", kvlens::pdf::metadata_to_json(doc.metadata)},
            {"pages", pages},
            {"pages_without_text", doc.pages_without_text},
            {"warnings", doc.warnings}};
}

int run_extract(const extract_options& o) {
    kvlens::pdf::read_options options;
    options.password = o.password;
    options.clean = !o.raw;
    if (!(o.timeout_s > 0 && o.timeout_s <= 86'400)) {
        std::cerr << "kvlens-cli extract: --timeout must be between 0 and 86400 seconds\n";
        return 1;
    }
    options.timeout = std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000));
    if (!o.pages.empty()) {
        options.pages = kvlens::pdf::parse_page_range(o.pages);
        if (!options.pages) {
            std::cerr << "kvlens-cli extract: bad --pages '" << o.pages << "' (expected A-B, A-, -B or A; pages count from 1)\n";
            return 1;
        }
    }
    kvlens::pdf::failure_kind why{};
    options.cancel = &kvlens::cli::stop_flag();  // Ctrl-C stops the helper
    auto doc = [&] {
        kvlens::cli::cancel_scope reading;
        return kvlens::pdf::read_document(o.file, options, &why);
    }();
    if (!doc) {
        std::cerr << "kvlens-cli extract: " << doc.message();
        if (why == kvlens::pdf::failure_kind::needs_password) std::cerr << " (use --password)";
        std::cerr << "\n";
        return 1;
    }
    if (o.json) {
        std::cout << to_json(o.file, *doc).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
        for (const std::string& w : doc->warnings) std::cerr << "warning: " << w << "\n";
        bool first = true;
        for (const auto& p : doc->pages) {
            if (p.text.empty()) continue;
            std::cout << (first ? "" : "\n\n") << p.text;
            first = false;
        }
        if (!first) std::cout << "\n";
    }
    std::cout.flush();
    return std::cout ? 0 : 1;
}

}  // namespace

void add_extract_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<extract_options>();
    CLI::App* cmd = app.add_subcommand("extract", "Print a PDF's text, cleaned for a model (or JSON with --json)");
    cmd->add_option("report", options->file, "the PDF file")->required();
    cmd->add_option("--pages", options->pages, "page range A-B, 1-based and inclusive (A-, -B, A also work)");
    cmd->add_option("--password", options->password, "password of an encrypted PDF");
    cmd->add_flag("--json", options->json, "one JSON document: pages (number, text, chars), metadata, warnings");
    cmd->add_flag("--raw", options->raw, "the text as poppler gives it, without cleanup");
    cmd->add_option("--timeout", options->timeout_s, "seconds before a stuck PDF reader is stopped (default 30)");
    cmd->callback([options, &exit_code] { exit_code = run_extract(*options); });
}
