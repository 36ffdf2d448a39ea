// SPDX-License-Identifier: Apache-2.0
// Page rendering through the helper process: spawn, time limit, validated
// binary answer (see helper_protocol.h).
#include "pdf/page_render.h"

#include "pdf/helper_protocol.h"
#include "pdf/reader_process.h"
#include "pdf/subprocess.h"

#include <cstring>

namespace kvlens::pdf {

namespace {

error fail(failure_kind* out, failure_kind kind, std::string message) {
    if (out) *out = kind;
    return make_error(std::move(message));
}

}  // namespace

result<std::vector<page_image>> render_pages(const std::filesystem::path& file, page_range pages, double dpi,
                                             const render_options& options, failure_kind* failure) {
    if (failure) *failure = failure_kind::none;
    if (!(dpi >= min_dpi && dpi <= max_dpi))
        return fail(failure, failure_kind::bad_range, "resolution " + std::to_string(dpi) + " dpi is outside 8..1200");
    if (pages.first < 1 || (pages.last != 0 && pages.last < pages.first))
        return fail(failure, failure_kind::bad_range, "bad page range");
    auto helper = find_helper(options.helper_path);
    if (!helper) return fail(failure, failure_kind::helper_missing, helper.message());

    process_request request;
    request.executable = *helper;
    request.args = {"render", std::filesystem::absolute(file).string(), "--first", std::to_string(pages.first),
                    "--last", std::to_string(pages.last), "--dpi", std::to_string(dpi)};
    if (!options.password.empty()) {
        request.args.push_back("--password-stdin");
        request.stdin_data = options.password;
    }
    request.timeout = options.timeout;
    request.max_stdout_bytes = 2048u << 20;
    request.cancel = options.cancel;
    auto run = run_process(request);
    if (!run) return fail(failure, failure_kind::helper_missing, run.message());
    const std::string name = file.filename().string();
    if (run->cancelled) return fail(failure, failure_kind::cancelled, "rendering '" + name + "' was cancelled");
    if (run->timed_out)
        return fail(failure, failure_kind::timeout, "rendering '" + name + "' took too long; the PDF helper was stopped");
    if (run->output_capped) return fail(failure, failure_kind::bad_output, "rendering '" + name + "' produced too much data");
    if (run->term_signal != 0)
        return fail(failure, failure_kind::helper_crashed,
                    "the PDF helper crashed rendering '" + name + "' (signal " + std::to_string(run->term_signal) +
                        ", " + strsignal(run->term_signal) + ")");
    auto images = decode_render_answer(run->out, failure);
    if (!images) return images.err();
    return images;
}

result<page_image> render_page(const std::filesystem::path& file, int page_number, double dpi,
                               const render_options& options, failure_kind* failure) {
    auto images = render_pages(file, page_range{page_number, page_number}, dpi, options, failure);
    if (!images) return images.err();
    if (images->size() != 1 || images->front().page_number != page_number)
        return fail(failure, failure_kind::bad_output, "the PDF helper rendered the wrong page");
    return std::move(images->front());
}

}  // namespace kvlens::pdf
