// SPDX-License-Identifier: Apache-2.0
// Regrouping q4_0 / q4_1 / q5_0 / q8_0 / iq4_nl (q4_0's bytes) matrices from the file's row order into the
// rows16 layout (rows16.h), once, when the CPU backend copies the weights in;
// the K-quants through k_quant_groups.h.
#include "engine/backend/cpu/rows16.h"

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "engine/backend/cpu/k_quant_groups.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/quant/quant_blocks.h"

namespace kvlens {

bool rows16_applies(const weight_view& w) {
    static const bool disabled = std::getenv("KVLENS_NO_ROWS16") != nullptr;   // to compare the layouts
    const bool type = w.type == ggml_type::q4_0 || w.type == ggml_type::q4_1 || w.type == ggml_type::q8_0 ||
                      w.type == ggml_type::q5_0 || w.type == ggml_type::iq4_nl || is_groupable_k_quant(w);
    return !disabled && type && w.layout == weight_layout::rows && w.n_out > 0 && w.n_out % k_rows16_group == 0 &&
           w.n_in > 0 && w.n_in % 32 == 0 && std::string_view(cpu_kernel_level()) == "avx512" && !amx_usable();
}

std::int64_t rows16_row_bytes(const weight_view& w) {
    return is_groupable_k_quant(w) ? k_quant_group_row_bytes(w.type, w.n_in) : w.row_bytes;
}

void repack_rows16(const weight_view& w, std::uint8_t* dst) {
    if (is_groupable_k_quant(w)) {
        repack_k_quant_groups(w, k_rows16_group, dst);
        return;
    }
    const bool q8 = w.type == ggml_type::q8_0;
    const bool has_min = w.type == ggml_type::q4_1;
    const bool q5 = w.type == ggml_type::q5_0;
    const std::int64_t file_block = q8 ? sizeof(block_q8_0) : has_min ? sizeof(block_q4_1) : q5 ? sizeof(block_q5_0)
                                                                                                 : sizeof(block_q4_0);
    const int head_bytes = has_min ? 4 : q5 ? 6 : 2;   // f16 d (and m, or q5_0's 32 fifth bits) before the quants
    const int scale_bytes = has_min ? 64 : q5 ? 96 : 32;   // d[16] (and m[16], or the 16 planes words)
    const int quad_count = q8 ? 8 : 4;               // 4-byte groups of quants per row and block
    const std::int64_t nb = w.n_in / 32;
    for (std::int64_t g = 0; g < w.n_out / k_rows16_group; ++g)
        for (std::int64_t b = 0; b < nb; ++b) {
            std::uint8_t* out = dst + (g * nb + b) * k_rows16_group * file_block;
            for (int r = 0; r < k_rows16_group; ++r) {
                const std::uint8_t* blk = w.data + (g * k_rows16_group + r) * w.row_bytes + b * file_block;
                std::memcpy(out + 2 * r, blk, 2);                              // d
                if (has_min) std::memcpy(out + 32 + 2 * r, blk + 2, 2);        // m
                if (q5) {   // the fifth bits transposed as rows8's (rows8_fifth_bit_planes)
                    const std::uint32_t planes = rows8_fifth_bit_planes(blk + 2);
                    std::memcpy(out + 32 + 4 * r, &planes, 4);
                }
                const std::uint8_t* qs = blk + head_bytes;
                for (int j = 0; j < quad_count; ++j)
                    for (int i = 0; i < 4; ++i) {
                        const std::uint8_t byte = qs[4 * j + i];
                        out[scale_bytes + 64 * j + 4 * r + i] = q8 ? static_cast<std::uint8_t>(byte ^ 0x80) : byte;
                    }
            }
        }
}

}  // namespace kvlens
