// SPDX-License-Identifier: Apache-2.0
// Regrouping q4_0 / q4_1 / q8_0 / q4_K matrices from the file's row order into the
// rows16 layout (rows16.h), once, when the CPU backend copies the weights in.
#include "engine/backend/cpu/rows16.h"

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/quant/quant_blocks.h"

namespace kvlens {

bool rows16_applies(const weight_view& w) {
    static const bool disabled = std::getenv("KVLENS_NO_ROWS16") != nullptr;   // to compare the layouts
    const bool type = w.type == ggml_type::q4_0 || w.type == ggml_type::q4_1 || w.type == ggml_type::q8_0 ||
                      w.type == ggml_type::q5_0 ||
                      ((w.type == ggml_type::q4_K || w.type == ggml_type::q5_K || w.type == ggml_type::q6_K) &&
                       w.n_in % QK_K == 0);
    return !disabled && type && w.layout == weight_layout::rows && w.n_out > 0 && w.n_out % k_rows16_group == 0 &&
           w.n_in > 0 && w.n_in % 32 == 0 && std::string_view(cpu_kernel_level()) == "avx512" && !amx_usable();
}

std::int64_t rows16_row_bytes(const weight_view& w) {
    if (w.type == ggml_type::q4_K) return w.n_in / QK_K * k_rows16_q4_K_row_bytes;
    if (w.type == ggml_type::q5_K) return w.n_in / QK_K * k_rows16_q5_K_row_bytes;
    return w.row_bytes;
}

namespace {

// q4_K's group super-blocks (rows16.h).
// q4_K's and q5_K's group super-blocks (rows16.h); Block is block_q4_K or block_q5_K.
template <class Block>
void repack_rows16_k4(const weight_view& w, std::uint8_t* dst) {
    constexpr bool q5 = std::is_same_v<Block, block_q5_K>;
    const std::int64_t nsb = w.n_in / QK_K;
    const int sub_bytes = q5 ? 320 : 256;   // a sub-block's quants (and q5_K's fifth-bit plane)
    const std::int64_t group_bytes = k_rows16_group * rows16_row_bytes(w) / nsb;
    for (std::int64_t g = 0; g < w.n_out / k_rows16_group; ++g)
        for (std::int64_t s = 0; s < nsb; ++s) {
            std::uint8_t* out = dst + (g * nsb + s) * group_bytes;
            for (int r = 0; r < k_rows16_group; ++r) {
                const auto* b = reinterpret_cast<const Block*>(w.data + (g * k_rows16_group + r) * w.row_bytes) + s;
                std::memcpy(out + 2 * r, &b->d, 2);
                std::memcpy(out + 32 + 2 * r, &b->dmin, 2);
                for (int j = 0; j < 8; ++j) {
                    std::uint8_t sc = 0, m = 0;
                    q4_K_scale_min(j, b->scales, sc, m);
                    out[64 + 16 * j + r] = sc;
                    out[192 + 16 * j + r] = m;
                    // Sub-block j: the low (even j) or high nibbles of bytes 32 (j / 2) ..
                    const std::uint8_t* qs = b->qs + 32 * (j / 2);
                    const int shift = 4 * (j % 2);
                    std::uint8_t* sub = out + 320 + sub_bytes * j;
                    for (int k = 0; k < 16; ++k) {
                        const int lo = (qs[k] >> shift) & 0xF, hi = (qs[k + 16] >> shift) & 0xF;
                        sub[64 * (k / 4) + 4 * r + k % 4] = static_cast<std::uint8_t>(lo | (hi << 4));
                    }
                    if constexpr (q5) {   // element e's fifth bit is bit j of qh[e]; bit i of byte k: element 4 i + k
                        std::uint32_t plane = 0;
                        for (int e = 0; e < 32; ++e)
                            plane |= static_cast<std::uint32_t>((b->qh[e] >> j) & 1) << (8 * (e % 4) + e / 4);
                        std::memcpy(sub + 256 + 4 * r, &plane, 4);
                    }
                }
            }
        }
}

// Element e (0..255) of a q6_K super-block, 0..63 (the value is d * scale * (q - 32)).
int q6_K_quant(const block_q6_K& b, int e) {
    const int part = e / 128, quarter = (e % 128) / 32, l = e % 32;
    const std::uint8_t low = b.ql[64 * part + 32 * (quarter % 2) + l];
    const int nibble = quarter < 2 ? low & 0xF : low >> 4;
    return nibble | (((b.qh[32 * part + l] >> (2 * quarter)) & 3) << 4);
}

// q6_K's group super-blocks (rows16.h).
void repack_rows16_q6_K(const weight_view& w, std::uint8_t* dst) {
    const std::int64_t nsb = w.n_in / QK_K;
    constexpr int group_bytes = k_rows16_group * static_cast<int>(sizeof(block_q6_K));
    for (std::int64_t g = 0; g < w.n_out / k_rows16_group; ++g)
        for (std::int64_t s = 0; s < nsb; ++s) {
            std::uint8_t* out = dst + (g * nsb + s) * group_bytes;
            std::memset(out, 0, group_bytes);
            for (int r = 0; r < k_rows16_group; ++r) {
                const auto& b = reinterpret_cast<const block_q6_K*>(w.data + (g * k_rows16_group + r) * w.row_bytes)[s];
                std::memcpy(out + 2 * r, &b.d, 2);
                for (int k = 0; k < 16; ++k) out[32 + 16 * k + r] = static_cast<std::uint8_t>(b.scales[k]);
                for (int j = 0; j < 8; ++j) {
                    std::uint8_t* sub = out + 288 + 384 * j;
                    int q[32];
                    for (int e = 0; e < 32; ++e) q[e] = q6_K_quant(b, 32 * j + e);
                    for (int k = 0; k < 16; ++k)
                        sub[64 * (k / 4) + 4 * r + k % 4] = static_cast<std::uint8_t>((q[k] & 0xF) | ((q[k + 16] & 0xF) << 4));
                    std::uint32_t plane4 = 0, plane5 = 0;   // bit j of byte k: element 4 j + k's bit 4 (5)
                    for (int e = 0; e < 32; ++e) {
                        const int bit = 8 * (e % 4) + e / 4;
                        plane4 |= static_cast<std::uint32_t>((q[e] >> 4) & 1) << bit;
                        plane5 |= static_cast<std::uint32_t>((q[e] >> 5) & 1) << bit;
                    }
                    std::memcpy(sub + 256 + 4 * r, &plane4, 4);
                    std::memcpy(sub + 320 + 4 * r, &plane5, 4);
                }
            }
        }
}

}  // namespace

void repack_rows16(const weight_view& w, std::uint8_t* dst) {
    if (w.type == ggml_type::q4_K) {
        repack_rows16_k4<block_q4_K>(w, dst);
        return;
    }
    if (w.type == ggml_type::q5_K) {
        repack_rows16_k4<block_q5_K>(w, dst);
        return;
    }
    if (w.type == ggml_type::q6_K) {
        repack_rows16_q6_K(w, dst);
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
