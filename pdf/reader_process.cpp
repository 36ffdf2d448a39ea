// SPDX-License-Identifier: Apache-2.0
// read_document: helper process -> validated raw text -> cleaned pages.
#include "pdf/reader_process.h"

#include "pdf/helper_protocol.h"
#include "pdf/helper_launch.h"
#include "pdf/text_cleanup.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <signal.h>

namespace kvlens::pdf {

namespace {

// The longest answer the helper may give: 64 MiB of page text (a 1,000-page
// report has 3 to 5 MiB) plus its JSON escapes.
constexpr std::size_t max_answer_bytes = std::size_t(96) << 20;

error fail(failure_kind* out, failure_kind kind, std::string message) {
    if (out) *out = kind;
    return make_error(std::move(message));
}

// The last non-empty line of the helper's stderr, for a crash message.
std::string last_line(const std::string& err) {
    std::string_view s = err;
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
    const auto nl = s.rfind('\n');
    std::string line(nl == std::string_view::npos ? s : s.substr(nl + 1));
    if (line.size() > 200) line.resize(200);
    return line;
}

std::string past_the_end(int page, const std::string& name, int n_pages) {
    return "page " + std::to_string(page) + " asked for, but '" + name + "' has " + std::to_string(n_pages) + " page" +
           (n_pages == 1 ? "" : "s");
}

}  // namespace

std::string format_page_list(const std::vector<int>& pages_in) {
    std::vector<int> pages = pages_in;
    std::sort(pages.begin(), pages.end());
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
    std::string out;
    for (std::size_t i = 0; i < pages.size();) {
        std::size_t j = i;
        while (j + 1 < pages.size() && pages[j + 1] == pages[j] + 1) ++j;
        if (!out.empty()) out += ", ";
        out += std::to_string(pages[i]);
        if (j > i) out += "\u2013" + std::to_string(pages[j]);
        i = j + 1;
    }
    return out;
}

result<document_text> read_document(const std::filesystem::path& file, const read_options& options,
                                    failure_kind* failure) {
    if (failure) *failure = failure_kind::none;
    // Checked here, before the helper: an empty path has no absolute form, and
    // poppler opening a FIFO or a device would block until the time limit.
    if (file.empty()) return fail(failure, failure_kind::not_found, "no PDF file given (the path is empty)");
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(file, ec);
    if (ec || !std::filesystem::exists(st))
        return fail(failure, failure_kind::not_found, "'" + file.string() + "': no such file");
    if (!std::filesystem::is_regular_file(st))
        return fail(failure, failure_kind::not_found, "'" + file.string() + "' is not a regular file");
    const std::filesystem::path absolute = std::filesystem::absolute(file, ec);
    if (ec) return fail(failure, failure_kind::not_found, "'" + file.string() + "': " + ec.message());

    // Running headers are found by comparing pages, so a short range is read
    // with two pages of context on each side, which are dropped afterwards.
    const page_range want = options.pages.value_or(page_range{});
    constexpr int context_pages = 2;
    page_range ask = want;
    if (options.pages && options.clean) {
        ask.first = std::max(1, want.first - context_pages);
        if (want.last != 0) ask.last = want.last + context_pages;
    }

    helper_launch launch;
    launch.subcommand = "extract";
    launch.file = absolute;
    launch.args = {"--first", std::to_string(ask.first), "--last", std::to_string(ask.last)};
    launch.password = options.password;
    launch.timeout = options.timeout;
    launch.max_stdout_bytes = max_answer_bytes;
    launch.cancel = options.cancel;
    launch.helper_path = options.helper_path;
    launch.doing = "reading";
    auto run = launch_helper(launch, failure);
    if (!run) return run.err();
    const process_outcome& p = *run;
    const std::string name = file.filename().string();
    if (p.output_capped)
        return fail(failure, failure_kind::bad_output,
                    "'" + name + "' is too large to read: its text passes " + std::to_string(max_answer_bytes >> 20) +
                        " MiB");
    // poppler's own allocator aborts when the helper's memory cap is reached.
    if (p.term_signal == SIGABRT && (p.err.find("Out of memory") != std::string::npos ||
                                     p.err.find("bad_alloc") != std::string::npos))
        return fail(failure, failure_kind::damaged,
                    "'" + name + "' is too large to read: the PDF helper ran out of its memory cap");
    if (p.term_signal != 0)
        return fail(failure, failure_kind::helper_crashed,
                    "the PDF helper crashed on '" + name + "' (signal " + std::to_string(p.term_signal) + ", " +
                        strsignal(p.term_signal) + "): the file is probably damaged");

    failure_kind kind = failure_kind::none;
    auto raw = decode_extract_answer(p.out, &kind);
    if (!raw) {
        if (kind == failure_kind::bad_output && p.exit_code != 0)
            return fail(failure, failure_kind::helper_crashed,
                        "the PDF helper failed on '" + name + "' (exit code " + std::to_string(p.exit_code) +
                            (p.err.empty() ? "" : ": " + last_line(p.err)) + ")");
        if (kind == failure_kind::bad_range) {
            // The helper names the widened range; name the one asked for.
            const std::string& m = raw.message();
            const auto has = m.find("(it has ");
            const int n = has == std::string::npos ? 0 : std::atoi(m.c_str() + has + 8);
            if (n > 0) return fail(failure, kind, past_the_end(want.first, name, n));
        }
        return fail(failure, kind, raw.message());
    }

    // Requested pages past the end: an error when none remain, else clipped.
    const int n_total = raw->metadata.page_count;
    document_text doc;
    doc.metadata = raw->metadata;
    doc.warnings = raw->warnings;
    if (want.first > n_total)
        return fail(failure, failure_kind::bad_range, past_the_end(want.first, name, n_total));
    if (want.last > n_total)
        doc.warnings.push_back("pages past " + std::to_string(n_total) + " do not exist; read up to page " +
                               std::to_string(n_total));

    cleanup_report report;
    const std::vector<std::string> texts = options.clean ? clean_pages(raw->pages, &report) : raw->pages;
    const int last = want.last == 0 ? n_total : std::min(want.last, n_total);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const int number = raw->first_page + static_cast<int>(i);
        if (number < want.first || number > last) continue;
        page_text page;
        page.number = number;
        page.text = texts[i];
        page.chars = count_code_points(page.text);
        page.width_pt = raw->widths_pt[i];
        page.height_pt = raw->heights_pt[i];
        // A page whose raw text has no letters or digits has no usable text layer.
        const std::string& r = raw->pages[i];
        const bool has_text = std::any_of(r.begin(), r.end(), [](char c) {
            return (static_cast<unsigned char>(c) & 0x80) || std::isalnum(static_cast<unsigned char>(c));
        });
        if (!has_text) doc.pages_without_text.push_back(number);
        doc.pages.push_back(std::move(page));
    }

    if (const std::size_t n = doc.pages_without_text.size(); n > 0) {
        if (n == doc.pages.size() && n > 1)
            doc.warnings.push_back("all " + std::to_string(n) + " pages have no text layer: scanned?");
        else if (n == doc.pages.size())
            doc.warnings.push_back("the page has no text layer: scanned?");
        else
            doc.warnings.push_back((n == 1 ? "page " : "pages ") + format_page_list(doc.pages_without_text) +
                                   (n == 1 ? " has" : " have") + " no text layer: scanned?");
    }
    if (!report.running_lines.empty()) {
        std::string list;
        for (std::size_t i = 0; i < report.running_lines.size() && i < 3; ++i)
            list += (i ? "\", \"" : "") + report.running_lines[i];
        doc.warnings.push_back("dropped running headers/footers: \"" + list + "\"" +
                               (report.running_lines.size() > 3 ? " and more" : ""));
    }
    return doc;
}

}  // namespace kvlens::pdf
