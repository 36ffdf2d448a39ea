// SPDX-License-Identifier: Apache-2.0
// Regrouping q4_0 / q4_1 / q8_0 matrices from the file's row order into the
// rows8 layout (rows8.h), once, when the CPU backend copies the weights in.
#include "engine/backend/cpu/rows8.h"

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "engine/backend/cpu/kernels.h"
#include "engine/quant/quant_blocks.h"

namespace kvlens {

namespace {

// The file block of one row: its f16 fields (d, then m for q4_1) and its
// quant bytes (16 for q4_0 / q4_1, 32 for q8_0).
struct block_fields {
    std::uint16_t d = 0, m = 0;
    const std::uint8_t* qs = nullptr;
};

block_fields fields_of(ggml_type t, const std::uint8_t* block) {
    block_fields f;
    if (t == ggml_type::q8_0) {
        const auto* b = reinterpret_cast<const block_q8_0*>(block);
        f.d = b->d;
        f.qs = reinterpret_cast<const std::uint8_t*>(b->qs);
    } else if (t == ggml_type::q4_1) {
        const auto* b = reinterpret_cast<const block_q4_1*>(block);
        f.d = b->d;
        f.m = b->m;
        f.qs = b->qs;
    } else {
        const auto* b = reinterpret_cast<const block_q4_0*>(block);
        f.d = b->d;
        f.qs = b->qs;
    }
    return f;
}

}  // namespace

bool rows8_applies(const weight_view& w) {
    static const bool disabled = std::getenv("KVLENS_NO_ROWS8") != nullptr;   // to compare the layouts
    return !disabled && (w.type == ggml_type::q4_0 || w.type == ggml_type::q4_1 || w.type == ggml_type::q8_0) &&
           w.layout == weight_layout::rows &&
           w.n_out > 0 && w.n_out % k_rows8_group == 0 && w.n_in > 0 && w.n_in % 32 == 0 &&
           std::string_view(cpu_kernel_level()) == "avx2";
}

void repack_rows8(const weight_view& w, std::uint8_t* dst) {
    const bool has_min = w.type == ggml_type::q4_1;
    const std::int64_t file_block = row_bytes(w.type, 32);
    const std::int64_t nb = w.n_in / 32;
    const int scale_bytes = has_min ? 32 : 16;      // d[8] (and m[8]) before the quants
    const int words = w.type == ggml_type::q8_0 ? 8 : 4;   // 4-byte words of quants per row and block
    for (std::int64_t g = 0; g < w.n_out / k_rows8_group; ++g)
        for (std::int64_t b = 0; b < nb; ++b) {
            std::uint8_t* out = dst + (g * nb + b) * k_rows8_group * file_block;
            for (int r = 0; r < k_rows8_group; ++r) {
                const block_fields f = fields_of(w.type, w.data + (g * k_rows8_group + r) * w.row_bytes + b * file_block);
                std::memcpy(out + 2 * r, &f.d, 2);
                if (has_min) std::memcpy(out + 16 + 2 * r, &f.m, 2);
                for (int j = 0; j < words; ++j) std::memcpy(out + scale_bytes + 32 * j + 4 * r, f.qs + 4 * j, 4);
            }
        }
}

}  // namespace kvlens
