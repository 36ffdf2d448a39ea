// SPDX-License-Identifier: Apache-2.0
// Page rendering through the helper process (started by helper_launch.h),
// validated binary answer (see helper_protocol.h).
#include "pdf/page_render.h"

#include "pdf/helper_protocol.h"
#include "pdf/helper_launch.h"

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
    helper_launch launch;
    launch.subcommand = "render";
    launch.file = std::filesystem::absolute(file);
    launch.args = {"--first", std::to_string(pages.first), "--last", std::to_string(pages.last), "--dpi",
                   std::to_string(dpi)};
    launch.password = options.password;
    launch.timeout = options.timeout;
    launch.max_stdout_bytes = 2048u << 20;
    launch.cancel = options.cancel;
    launch.helper_path = options.helper_path;
    launch.doing = "rendering";
    auto run = launch_helper(launch, failure);
    if (!run) return run.err();
    const std::string name = file.filename().string();
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
