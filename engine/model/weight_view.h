// SPDX-License-Identifier: Apache-2.0
// A weight matrix as the file stores it: what the model hands the backends.
#pragma once

#include <cstdint>

#include "engine/gguf/gguf_types.h"

namespace kvlens {

// How a matrix's bytes are ordered.
enum class weight_layout : std::uint8_t {
    rows,    // the file's order: row after row, each row_bytes long
    rows8,   // the CPU backend's interleaved groups of 8 rows (engine/backend/cpu/rows8.h)
    rows16,  // its interleaved groups of 16 rows (engine/backend/cpu/rows16.h)
};

// n_out rows of n_in elements in `type`, rows row_bytes apart (mapped file
// memory), or (layout rows8 / rows16) the same bytes regrouped by the CPU backend.
struct weight_view {
    ggml_type type = ggml_type::f32;
    std::int64_t n_in = 0;      // elements per row (ne[0])
    std::int64_t n_out = 0;     // rows (ne[1])
    const std::uint8_t* data = nullptr;
    std::int64_t row_bytes = 0; // bytes per row (the same in every layout: rows8 / rows16 only regroup them)
    weight_layout layout = weight_layout::rows;
};

}  // namespace kvlens
