// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any bytes as the PDF helper's answer, decoded both as an
// extract answer and as a render answer: garbage must give bad_output (or
// another failure kind), never a crash; an accepted answer must be consistent.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "pdf/helper_protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    kvlens::pdf::failure_kind kind{};
    auto doc = kvlens::pdf::decode_extract_answer(in, &kind);
    if (doc && (doc->pages.size() != doc->widths_pt.size() || doc->pages.size() != doc->heights_pt.size())) std::abort();
    auto images = kvlens::pdf::decode_render_answer(in, &kind);
    if (images)
        for (const auto& img : *images)
            if (img.pixels.size() != static_cast<std::size_t>(img.stride) * static_cast<std::size_t>(img.height)) std::abort();
    return 0;
}
