// SPDX-License-Identifier: Apache-2.0
// Reading a PDF's text safely: runs kvlens-pdf-helper (helper_launch.h) with a time limit,
// validates its JSON answer, cleans the text for the model (text_cleanup.h)
// and reports pages without a text layer. This is what the CLI and the window
// call; poppler never runs inside the caller's process.
//
//   kvlens::pdf::read_options opt;
//   opt.password = "secret";                  // optional
//   opt.pages = kvlens::pdf::page_range{3, 7}; // optional, 1-based inclusive
//   kvlens::pdf::failure_kind why{};
//   auto doc = kvlens::pdf::read_document("report.pdf", opt, &why);
//   if (!doc) { if (why == failure_kind::needs_password) ask(); else show(doc.message()); }
#pragma once

#include "common/result.h"
#include "pdf/document.h"
#include "pdf/helper_launch.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace kvlens::pdf {

struct read_options {
    std::string password;                       // empty: none
    std::optional<page_range> pages;            // nullopt: all pages
    bool clean = true;                          // false: the raw text poppler gives (page boundaries kept)
    std::chrono::milliseconds timeout{30'000};  // for the whole helper run
    std::filesystem::path helper_path;          // empty: find_helper()
    const std::atomic<bool>* cancel = nullptr;  // set it to true from any thread to stop the read
};

// Reads and cleans. On failure the message names the cause in one line and
// `failure` (when given) says which kind it was.
result<document_text> read_document(const std::filesystem::path& file, const read_options& options = {},
                                    failure_kind* failure = nullptr);

// "3", "3–7", "3, 5–9": a compact list of 1-based page numbers (sorted).
std::string format_page_list(const std::vector<int>& pages);

}  // namespace kvlens::pdf
