// SPDX-License-Identifier: Apache-2.0
// Page images for the document view and thumbnails. Rendering runs in the
// helper process (kvlens-pdf-helper), like text extraction, so a file that
// crashes or hangs poppler's renderer costs an error message, not the window.
// The window wraps a page_image as
//   QImage(img.pixels.data(), img.width, img.height, img.stride, QImage::Format_RGBA8888)
// (copy it, or keep the page_image alive while the QImage is used).
#pragma once

#include "common/result.h"
#include "pdf/document.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kvlens::pdf {

// One rendered page: RGBA8888 (bytes R, G, B, A; A = 255 on the white paper),
// `pixels` holds `height` rows of `stride` bytes (stride >= 4 * width).
struct page_image {
    int page_number = 0;  // 1-based
    double dpi = 0;       // pixels per inch used; 72 gives one pixel per PDF point
    int width = 0;        // pixels
    int height = 0;       // pixels
    int stride = 0;       // bytes per row
    std::vector<std::uint8_t> pixels;  // (height, stride) bytes
};

struct render_options {
    std::string password;                       // empty: none
    std::chrono::milliseconds timeout{30'000};  // for the whole helper run
    std::filesystem::path helper_path;          // empty: find_helper()
    const std::atomic<bool>* cancel = nullptr;  // set it to true from any thread to stop rendering
};

// Limits the helper enforces: dpi in [min_dpi, max_dpi], at most
// max_page_pixels pixels per page (an A4 page at 600 dpi is about 35 M).
inline constexpr double min_dpi = 8.0;
inline constexpr double max_dpi = 1200.0;
inline constexpr std::int64_t max_page_pixels = 64LL * 1024 * 1024;

// Renders page `page_number` (1-based) at `dpi`.
result<page_image> render_page(const std::filesystem::path& file, int page_number, double dpi,
                               const render_options& options = {}, failure_kind* failure = nullptr);

// Renders a range of pages in one helper run (thumbnails). pages.last = 0 or
// past the end means "to the last page".
result<std::vector<page_image>> render_pages(const std::filesystem::path& file, page_range pages, double dpi,
                                             const render_options& options = {},
                                             failure_kind* failure = nullptr);

}  // namespace kvlens::pdf
