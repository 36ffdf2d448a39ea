// SPDX-License-Identifier: Apache-2.0
// The PDF layer's result values: a document's pages of text, its metadata and
// the warnings met on the way, plus the options and error kinds of a read.
// Plain structs, no poppler, no Qt: the window and the CLI use them as they are.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kvlens::pdf {

// One page of text. `number` counts from 1 as a reader does; `text` is UTF-8
// (cleaned for the model unless read_options::clean is false); `chars` is the
// number of Unicode code points in `text`.
struct page_text {
    int number = 0;
    std::string text;
    std::size_t chars = 0;
    double width_pt = 0;   // page size as displayed (rotation applied), PDF points (1/72 inch);
    double height_pt = 0;  // lets the window lay out pages before rendering them
};

// The document information dictionary. Strings are UTF-8 and empty when absent;
// dates are ISO 8601 in UTC ("2022-04-03T18:05:42Z"), empty when absent.
struct metadata {
    std::string title;
    std::string author;
    std::string subject;
    std::string keywords;
    std::string creator;
    std::string producer;
    std::string creation_date;
    std::string modification_date;
    std::string pdf_version;  // "1.5"
    int page_count = 0;       // all pages of the file, not only those read
    bool encrypted = false;
};

// What a read produced. `pages` holds the pages asked for, in order.
// `pages_without_text` lists (1-based) pages whose text layer is empty, so the
// window can mark them; `warnings` are one-line messages for people
// ("pages 3–7 have no text layer: scanned?").
struct document_text {
    std::vector<page_text> pages;
    pdf::metadata metadata;
    std::vector<std::string> warnings;
    std::vector<int> pages_without_text;
};

// A page range, 1-based and inclusive. `last` = 0 means "to the end".
struct page_range {
    int first = 1;
    int last = 0;
};

// Parses "A-B", "A-", "-B" or "A" (1-based, inclusive); nullopt when malformed
// or when A > B.
std::optional<page_range> parse_page_range(const std::string& text);

// Why a read failed, for callers that react differently (the window asks for
// a password on needs_password and wrong_password).
enum class failure_kind {
    none,
    not_found,       // no such file, or not a regular file
    unreadable,      // the file exists but cannot be opened or read
    empty_file,      // zero bytes
    not_pdf,         // no "%PDF-" header
    damaged,         // a PDF that poppler cannot open (corrupt or truncated)
    needs_password,  // encrypted, and no password given
    wrong_password,  // encrypted, and the password given does not open it
    bad_range,       // the page range lies outside the document
    helper_missing,  // kvlens-pdf-helper was not found or cannot be started
    helper_crashed,  // the helper died on a signal or exited without an answer
    timeout,         // the helper ran past the time limit and was killed
    bad_output,      // the helper's answer failed validation
    cancelled,       // the caller's cancel flag was set
};

// A stable short name for a failure kind ("needs_password"), used in the
// helper's JSON.
const char* failure_kind_name(failure_kind kind);
failure_kind failure_kind_from_name(const std::string& name);

}  // namespace kvlens::pdf
