// SPDX-License-Identifier: Apache-2.0
// Regrouping q4_0 / q4_1 / q5_0 / q5_1 / q8_0 matrices from the file's row order into the
// rows8 layout (rows8.h), once, when the CPU backend copies the weights in;
// the K-quants through k_quant_groups.h.
#include "engine/backend/cpu/rows8.h"

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "engine/backend/cpu/k_quant_groups.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/quant/quant_blocks.h"

namespace kvlens {

namespace {

// The file block of one row: its f16 fields (d, then m for q4_1 / q5_1),
// q5's 32 high bits and its quant bytes (16 for q4 / q5, 32 for q8_0).
struct block_fields {
    std::uint16_t d = 0, m = 0;
    const std::uint8_t* qh = nullptr;
    const std::uint8_t* qs = nullptr;
};

template <class Block>
block_fields fields_from(const std::uint8_t* block) {
    const auto* b = reinterpret_cast<const Block*>(block);
    block_fields f;
    f.d = b->d;
    if constexpr (requires { b->m; }) f.m = b->m;
    if constexpr (requires { b->qh; }) f.qh = b->qh;
    f.qs = reinterpret_cast<const std::uint8_t*>(b->qs);
    return f;
}

block_fields fields_of(ggml_type t, const std::uint8_t* block) {
    switch (t) {
    case ggml_type::q8_0: return fields_from<block_q8_0>(block);
    case ggml_type::q4_1: return fields_from<block_q4_1>(block);
    case ggml_type::q5_0: return fields_from<block_q5_0>(block);
    case ggml_type::q5_1: return fields_from<block_q5_1>(block);
    default: return fields_from<block_q4_0>(block);
    }
}

}  // namespace

bool rows8_applies(const weight_view& w) {
    static const bool disabled = std::getenv("KVLENS_NO_ROWS8") != nullptr;   // to compare the layouts
    const bool type_ok = w.type == ggml_type::q4_0 || w.type == ggml_type::q4_1 || w.type == ggml_type::q5_0 ||
                         w.type == ggml_type::q5_1 || w.type == ggml_type::q8_0 || w.type == ggml_type::iq4_nl ||
                         is_groupable_k_quant(w);
    return !disabled && type_ok && w.layout == weight_layout::rows && w.n_out > 0 && w.n_out % k_rows8_group == 0 &&
           w.n_in > 0 && w.n_in % 32 == 0 && std::string_view(cpu_kernel_level()) == "avx2";
}

std::int64_t rows8_row_bytes(const weight_view& w) {
    return is_groupable_k_quant(w) ? k_quant_group_row_bytes(w.type, w.n_in) : w.row_bytes;
}

void repack_rows8(const weight_view& w, std::uint8_t* dst) {
    if (is_groupable_k_quant(w)) {
        repack_k_quant_groups(w, k_rows8_group, dst);
        return;
    }
    const rows8_header h = rows8_header_of(w.type);
    const std::int64_t file_block = row_bytes(w.type, 32);
    const std::int64_t nb = w.n_in / 32;
    const int words = w.type == ggml_type::q8_0 ? 8 : 4;   // 4-byte words of quants per row and block
    for (std::int64_t g = 0; g < w.n_out / k_rows8_group; ++g)
        for (std::int64_t b = 0; b < nb; ++b) {
            std::uint8_t* out = dst + (g * nb + b) * k_rows8_group * file_block;
            for (int r = 0; r < k_rows8_group; ++r) {
                const block_fields f = fields_of(w.type, w.data + (g * k_rows8_group + r) * w.row_bytes + b * file_block);
                std::memcpy(out + 2 * r, &f.d, 2);
                if (h.m_at) std::memcpy(out + h.m_at + 2 * r, &f.m, 2);
                if (h.qh_at) {
                    const std::uint32_t planes = rows8_fifth_bit_planes(f.qh);
                    std::memcpy(out + h.qh_at + 4 * r, &planes, 4);
                }
                for (int j = 0; j < words; ++j) std::memcpy(out + h.qs_at + 32 * j + 4 * r, f.qs + 4 * j, 4);
            }
        }
}

}  // namespace kvlens
