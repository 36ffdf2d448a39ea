// SPDX-License-Identifier: Apache-2.0
// poppler-cpp behind the helper: opening and classifying files, metadata,
// per-page text in reading order, page rendering to RGBA.
#include "pdf/poppler_reader.h"

#include "pdf/text_cleanup.h"

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-image.h>
#include <poppler-page-renderer.h>
#include <poppler-page.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <ctime>
#include <fstream>
#include <system_error>

namespace kvlens::pdf {

namespace {

// Poppler reports syntax errors through one global callback; the helper is
// single-threaded, so a process-wide list is enough.
struct poppler_messages {
    int count = 0;
    std::string first;
};
poppler_messages& messages() {
    static poppler_messages m;
    return m;
}
void on_poppler_message(const std::string& msg, void*) {
    auto& m = messages();
    if (m.count++ == 0) m.first = msg;
}

std::string to_utf8(const poppler::ustring& s) {
    const poppler::byte_array bytes = s.to_utf8();
    std::string out(bytes.begin(), bytes.end());
    // Metadata strings may carry BOMs, NULs and controls; keep one tidy line.
    out = normalize_characters(out);
    std::replace(out.begin(), out.end(), '\n', ' ');
    while (!out.empty() && out.back() == ' ') out.pop_back();
    while (!out.empty() && out.front() == ' ') out.erase(out.begin());
    return out;
}

std::string iso_date(time_t t) {
    if (t <= 0) return {};
    std::tm tm{};
    if (!gmtime_r(&t, &tm)) return {};
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// 'name', built by appending (GCC 12 warns falsely on "'" + std::string).
std::string quoted(const std::string& s) {
    std::string q;
    q.reserve(s.size() + 2);
    q += '\'';
    q += s;
    q += '\'';
    return q;
}

error fail(failure_kind* out, failure_kind kind, std::string message) {
    if (out) *out = kind;
    return make_error(std::move(message));
}

}  // namespace

struct poppler_file::impl {
    std::unique_ptr<poppler::document> doc;
    std::filesystem::path path;
    bool looks_truncated = false;
};

poppler_file::poppler_file(std::unique_ptr<impl> d) : d_(std::move(d)) {}
poppler_file::~poppler_file() = default;

result<std::unique_ptr<poppler_file>> poppler_file::open(const std::filesystem::path& file,
                                                          const std::string& password, failure_kind* failure) {
    poppler::set_debug_error_function(on_poppler_message, nullptr);
    const std::string name = file.filename().string();
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return fail(failure, failure_kind::not_found, quoted(file.string()) + ": no such file");
    if (!std::filesystem::is_regular_file(file, ec))
        return fail(failure, failure_kind::not_found, quoted(file.string()) + " is not a regular file");
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) return fail(failure, failure_kind::unreadable, quoted(name) + ": cannot read: " + ec.message());
    if (size == 0) return fail(failure, failure_kind::empty_file, quoted(name) + " is empty (0 bytes), not a PDF");

    std::ifstream in(file, std::ios::binary);
    if (!in) return fail(failure, failure_kind::unreadable, quoted(name) + ": cannot open for reading");
    std::string head(static_cast<std::size_t>(std::min<std::uintmax_t>(size, 1024)), '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    if (head.find("%PDF-") == std::string::npos)
        return fail(failure, failure_kind::not_pdf, quoted(name) + " is not a PDF (no %PDF- header)");
    std::string tail(static_cast<std::size_t>(std::min<std::uintmax_t>(size, 2048)), '\0');
    in.seekg(static_cast<std::streamoff>(size - tail.size()));
    in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
    const bool truncated = tail.find("%%EOF") == std::string::npos;

    std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(file.string(), password, password));
    if (!doc)
        return fail(failure, failure_kind::damaged,
                    quoted(name) + " is a damaged PDF that cannot be opened" + (truncated ? " (truncated: no %%EOF)" : ""));
    if (doc->is_locked()) {
        if (password.empty())
            return fail(failure, failure_kind::needs_password, quoted(name) + " is encrypted and needs a password");
        return fail(failure, failure_kind::wrong_password, quoted(name) + ": wrong password");
    }
    if (doc->pages() <= 0)
        return fail(failure, failure_kind::damaged, quoted(name) + " is damaged: no readable pages");
    auto d = std::make_unique<impl>();
    d->doc = std::move(doc);
    d->path = file;
    d->looks_truncated = truncated;
    return std::unique_ptr<poppler_file>(new poppler_file(std::move(d)));
}

int poppler_file::page_count() const { return d_->doc->pages(); }

metadata poppler_file::read_metadata() const {
    const poppler::document& doc = *d_->doc;
    metadata m;
    m.title = to_utf8(doc.get_title());
    m.author = to_utf8(doc.get_author());
    m.subject = to_utf8(doc.get_subject());
    m.keywords = to_utf8(doc.get_keywords());
    m.creator = to_utf8(doc.get_creator());
    m.producer = to_utf8(doc.get_producer());
    m.creation_date = iso_date(doc.get_creation_date_t());
    m.modification_date = iso_date(doc.get_modification_date_t());
    int major = 0, minor = 0;
    doc.get_pdf_version(&major, &minor);
    m.pdf_version = std::to_string(major) + "." + std::to_string(minor);
    m.page_count = doc.pages();
    m.encrypted = doc.is_encrypted();
    return m;
}

result<raw_document> poppler_file::read_text(page_range range, failure_kind* failure) const {
    const int n = page_count();
    if (range.first < 1 || range.first > n || (range.last != 0 && range.last < range.first))
        return fail(failure, failure_kind::bad_range,
                    "pages " + std::to_string(range.first) + "-" + std::to_string(range.last) +
                        " are outside the document (it has " + std::to_string(n) + " pages)");
    const int last = (range.last == 0 || range.last > n) ? n : range.last;

    raw_document out;
    out.metadata = read_metadata();
    out.first_page = range.first;
    messages() = {};
    std::vector<int> unreadable;
    for (int p = range.first; p <= last; ++p) {
        std::unique_ptr<poppler::page> page(d_->doc->create_page(p - 1));
        if (!page) {
            out.pages.emplace_back();
            out.widths_pt.push_back(0);
            out.heights_pt.push_back(0);
            unreadable.push_back(p);
            continue;
        }
        const poppler::rectf box = page->page_rect(poppler::crop_box);
        const bool turned = page->orientation() == poppler::page::landscape || page->orientation() == poppler::page::seascape;
        out.widths_pt.push_back(turned ? box.height() : box.width());
        out.heights_pt.push_back(turned ? box.width() : box.height());
        // Reading order (columns one after another), as pdftotext's default mode.
        const poppler::ustring text = page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout);
        const poppler::byte_array bytes = text.to_utf8();
        out.pages.emplace_back(bytes.begin(), bytes.end());
    }
    if (!unreadable.empty() && static_cast<int>(unreadable.size()) == n)
        return fail(failure, failure_kind::damaged,
                    quoted(d_->path.filename().string()) + " is damaged: none of its " + std::to_string(n) +
                        " pages can be read");
    if (!unreadable.empty())
        out.warnings.push_back(std::to_string(unreadable.size()) + " page(s) cannot be read, from page " +
                               std::to_string(unreadable.front()) + ": the file is damaged");
    if (d_->looks_truncated) out.warnings.push_back("the file looks truncated (no %%EOF at its end): text may be missing");
    if (messages().count > 0)
        out.warnings.push_back("poppler reported " + std::to_string(messages().count) +
                               " problem(s) in the file (first: " + messages().first + "): text may be incomplete");
    return out;
}

result<page_image> poppler_file::render(int page_number, double dpi, failure_kind* failure) const {
    const int n = page_count();
    if (page_number < 1 || page_number > n)
        return fail(failure, failure_kind::bad_range,
                    "page " + std::to_string(page_number) + " is outside the document (it has " + std::to_string(n) + " pages)");
    if (!(dpi >= min_dpi && dpi <= max_dpi))
        return fail(failure, failure_kind::bad_range, "resolution " + std::to_string(dpi) + " dpi is outside 8..1200");
    std::unique_ptr<poppler::page> page(d_->doc->create_page(page_number - 1));
    if (!page) return fail(failure, failure_kind::damaged, "page " + std::to_string(page_number) + " cannot be read");
    const poppler::rectf box = page->page_rect(poppler::crop_box);
    const double w_px = std::ceil(box.width() * dpi / 72.0), h_px = std::ceil(box.height() * dpi / 72.0);
    if (!(w_px * h_px <= static_cast<double>(max_page_pixels)))
        return fail(failure, failure_kind::bad_range,
                    "page " + std::to_string(page_number) + " at " + std::to_string(static_cast<int>(dpi)) +
                        " dpi would be too large an image");

    poppler::page_renderer renderer;
    renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
    renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
    renderer.set_image_format(poppler::image::format_argb32);
    const poppler::image img = renderer.render_page(page.get(), dpi, dpi);
    if (!img.is_valid() || img.width() <= 0 || img.height() <= 0)
        return fail(failure, failure_kind::damaged, "page " + std::to_string(page_number) + " cannot be rendered");

    page_image out;
    out.page_number = page_number;
    out.dpi = dpi;
    out.width = img.width();
    out.height = img.height();
    out.stride = img.width() * 4;
    out.pixels.resize(static_cast<std::size_t>(out.stride) * static_cast<std::size_t>(out.height));
    // argb32 is a native-endian 0xAARRGGBB word per pixel; write bytes R, G, B, A.
    for (int y = 0; y < out.height; ++y) {
        const auto* src = reinterpret_cast<const std::uint8_t*>(img.const_data() + static_cast<std::ptrdiff_t>(y) * img.bytes_per_row());
        std::uint8_t* dst = out.pixels.data() + static_cast<std::size_t>(y) * out.stride;
        for (int x = 0; x < out.width; ++x) {
            std::uint32_t argb;
            std::memcpy(&argb, src + 4 * x, 4);
            dst[4 * x + 0] = static_cast<std::uint8_t>(argb >> 16);
            dst[4 * x + 1] = static_cast<std::uint8_t>(argb >> 8);
            dst[4 * x + 2] = static_cast<std::uint8_t>(argb);
            dst[4 * x + 3] = static_cast<std::uint8_t>(argb >> 24);
        }
    }
    return out;
}

}  // namespace kvlens::pdf
