// SPDX-License-Identifier: Apache-2.0
// The in-process poppler side of the PDF layer, used only by the helper
// executable (kvlens-pdf-helper): open a file with an optional password,
// classify why it cannot be opened, read metadata and each page's raw text in
// reading order, render a page. Nothing here cleans text; nothing here is
// protected from a crash: that is the helper process's job.
#pragma once

#include "common/result.h"
#include "pdf/document.h"
#include "pdf/page_render.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace kvlens::pdf {

// Raw text of pages [first_page, first_page + pages.size()).
struct raw_document {
    pdf::metadata metadata;
    int first_page = 1;
    std::vector<std::string> pages;      // UTF-8, as poppler gives it (reading order, not cleaned)
    std::vector<double> widths_pt;       // per page, as displayed, PDF points
    std::vector<double> heights_pt;
    std::vector<std::string> warnings;  // damage poppler reported, truncation
};

class poppler_file {
public:
    // Opens `file`; on failure `failure` says why (not_found, empty_file,
    // not_pdf, damaged, needs_password, wrong_password, unreadable).
    static result<std::unique_ptr<poppler_file>> open(const std::filesystem::path& file, const std::string& password,
                                                      failure_kind* failure);
    ~poppler_file();
    poppler_file(const poppler_file&) = delete;
    poppler_file& operator=(const poppler_file&) = delete;

    int page_count() const;
    pdf::metadata read_metadata() const;
    // Raw text of pages `range` (clipped to the document; bad_range when
    // range.first lies past the last page).
    result<raw_document> read_text(page_range range, failure_kind* failure) const;
    result<page_image> render(int page_number, double dpi, failure_kind* failure) const;

private:
    struct impl;
    explicit poppler_file(std::unique_ptr<impl> d);
    std::unique_ptr<impl> d_;
};

}  // namespace kvlens::pdf
