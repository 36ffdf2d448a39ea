// SPDX-License-Identifier: Apache-2.0
// Regrouping q2_K / q3_K / q4_K / q5_K / q6_K / iq4_xs matrices from the file's row order into
// groups of 8 or 16 rows (k_quant_groups.h), once, when the CPU backend
// copies the weights in.
#include "engine/backend/cpu/k_quant_groups.h"

#include <cstring>
#include <type_traits>

#include "engine/quant/quant_blocks.h"

namespace kvlens {

bool is_groupable_k_quant(const weight_view& w) {
    return (w.type == ggml_type::q2_K || w.type == ggml_type::q3_K || w.type == ggml_type::q4_K ||
            w.type == ggml_type::q5_K || w.type == ggml_type::q6_K || w.type == ggml_type::iq4_xs) &&
           w.n_in > 0 && w.n_in % QK_K == 0;
}

std::int64_t k_quant_group_row_bytes(ggml_type t, std::int64_t n_in) {
    switch (t) {
    case ggml_type::q2_K: return n_in / QK_K * 84;
    case ggml_type::q3_K: return n_in / QK_K * 114;
    case ggml_type::q4_K: return n_in / QK_K * 148;
    case ggml_type::q5_K: return n_in / QK_K * 180;
    case ggml_type::iq4_xs: return n_in / QK_K * 138;
    default: return n_in / QK_K * 210;   // q6_K
    }
}

namespace {

// Row r's two crumbs (2-bit values c[e], e < 32, of one sub-block) in the
// sub-block's two crumb vectors at out (4G bytes each): bits 2 i, 2 i + 1 of
// byte 4 r + k hold element 4 i + k (first vector) or 16 + 4 i + k (second).
void write_crumbs(std::uint8_t* out, int G, int r, const int c[32]) {
    for (int half = 0; half < 2; ++half)
        for (int k = 0; k < 4; ++k) {
            std::uint8_t crumbs = 0;
            for (int i = 0; i < 4; ++i) crumbs |= static_cast<std::uint8_t>((c[16 * half + 4 * i + k] & 3) << (2 * i));
            out[4 * G * half + 4 * r + k] = crumbs;
        }
}

// Row r's word of a bit plane (one bit b[e] per element of a sub-block) at
// out: bit i of byte k is element 4 i + k's.
void write_plane(std::uint8_t* out, int r, const int b[32]) {
    std::uint32_t plane = 0;
    for (int e = 0; e < 32; ++e) plane |= static_cast<std::uint32_t>(b[e] & 1) << (8 * (e % 4) + e / 4);
    std::memcpy(out + 4 * r, &plane, 4);
}

// q4_K's and q5_K's group super-blocks; Block is block_q4_K or block_q5_K.
template <class Block>
void repack_k4(const weight_view& w, const int G, std::uint8_t* dst) {
    constexpr bool q5 = std::is_same_v<Block, block_q5_K>;
    const std::int64_t nsb = w.n_in / QK_K;
    const int sub_bytes = (q5 ? 20 : 16) * G;   // a sub-block's quants (and q5_K's fifth-bit plane)
    const std::int64_t group_bytes = 20 * G + 8 * sub_bytes;
    for (std::int64_t g = 0; g < w.n_out / G; ++g)
        for (std::int64_t s = 0; s < nsb; ++s) {
            std::uint8_t* out = dst + (g * nsb + s) * group_bytes;
            for (int r = 0; r < G; ++r) {
                const auto* b = reinterpret_cast<const Block*>(w.data + (g * G + r) * w.row_bytes) + s;
                std::memcpy(out + 2 * r, &b->d, 2);
                std::memcpy(out + 2 * G + 2 * r, &b->dmin, 2);
                for (int j = 0; j < 8; ++j) {
                    std::uint8_t sc = 0, m = 0;
                    q4_K_scale_min(j, b->scales, sc, m);
                    out[4 * G + G * j + r] = sc;
                    out[12 * G + G * j + r] = m;
                    // Sub-block j: the low (even j) or high nibbles of bytes 32 (j / 2) ..
                    const std::uint8_t* qs = b->qs + 32 * (j / 2);
                    const int shift = 4 * (j % 2);
                    std::uint8_t* sub = out + 20 * G + sub_bytes * j;
                    for (int k = 0; k < 16; ++k) {
                        const int lo = (qs[k] >> shift) & 0xF, hi = (qs[k + 16] >> shift) & 0xF;
                        sub[4 * G * (k / 4) + 4 * r + k % 4] = static_cast<std::uint8_t>(lo | (hi << 4));
                    }
                    if constexpr (q5) {   // element e's fifth bit is bit j of qh[e]
                        int fifth[32];
                        for (int e = 0; e < 32; ++e) fifth[e] = (b->qh[e] >> j) & 1;
                        write_plane(sub + 16 * G, r, fifth);
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

// q6_K's group super-blocks.
void repack_q6_K(const weight_view& w, const int G, std::uint8_t* dst) {
    const std::int64_t nsb = w.n_in / QK_K;
    const std::int64_t group_bytes = G * static_cast<std::int64_t>(sizeof(block_q6_K));
    for (std::int64_t g = 0; g < w.n_out / G; ++g)
        for (std::int64_t s = 0; s < nsb; ++s) {
            std::uint8_t* out = dst + (g * nsb + s) * group_bytes;
            std::memset(out, 0, static_cast<std::size_t>(group_bytes));
            for (int r = 0; r < G; ++r) {
                const auto& b = reinterpret_cast<const block_q6_K*>(w.data + (g * G + r) * w.row_bytes)[s];
                std::memcpy(out + 2 * r, &b.d, 2);
                for (int k = 0; k < 16; ++k) out[2 * G + G * k + r] = static_cast<std::uint8_t>(b.scales[k]);
                for (int j = 0; j < 8; ++j) {
                    std::uint8_t* sub = out + 18 * G + 24 * G * j;
                    int q[32];
                    for (int e = 0; e < 32; ++e) q[e] = q6_K_quant(b, 32 * j + e);
                    for (int k = 0; k < 16; ++k)
                        sub[4 * G * (k / 4) + 4 * r + k % 4] =
                            static_cast<std::uint8_t>((q[k] & 0xF) | ((q[k + 16] & 0xF) << 4));
                    int high[32];   // bits 4 and 5
                    for (int e = 0; e < 32; ++e) high[e] = q[e] >> 4;
                    write_crumbs(sub + 16 * G, G, r, high);
                }
            }
        }
}

// q2_K's group super-blocks: the file's packed scale and minimum bytes, the quants as crumbs.
void repack_q2_K(const weight_view& w, const int G, std::uint8_t* dst) {
    const std::int64_t nsb = w.n_in / QK_K;
    const std::int64_t group_bytes = G * static_cast<std::int64_t>(sizeof(block_q2_K));
    for (std::int64_t g = 0; g < w.n_out / G; ++g)
        for (std::int64_t s = 0; s < nsb; ++s) {
            std::uint8_t* out = dst + (g * nsb + s) * group_bytes;
            for (int r = 0; r < G; ++r) {
                const auto& b = reinterpret_cast<const block_q2_K*>(w.data + (g * G + r) * w.row_bytes)[s];
                std::memcpy(out + 2 * r, &b.d, 2);
                std::memcpy(out + 2 * G + 2 * r, &b.dmin, 2);
                for (int k = 0; k < 16; ++k) out[4 * G + G * k + r] = b.scales[k];
                for (int j = 0; j < 8; ++j) {   // element 32 j + l: bits 2 (j % 4) of qs[32 (j / 4) + l]
                    int q[32];
                    for (int l = 0; l < 32; ++l) q[l] = (b.qs[32 * (j / 4) + l] >> (2 * (j % 4))) & 3;
                    write_crumbs(out + 20 * G + 8 * G * j, G, r, q);
                }
            }
        }
}

// q3_K's group super-blocks: scales - 32 as int8, the quants' low two bits
// as crumbs and their third bit (hmask) as a plane, so the stored value is
// the quant plus 4 (0..7).
void repack_q3_K(const weight_view& w, const int G, std::uint8_t* dst) {
    const std::int64_t nsb = w.n_in / QK_K;
    const std::int64_t group_bytes = 18 * G + 8 * 12 * G;
    for (std::int64_t g = 0; g < w.n_out / G; ++g)
        for (std::int64_t s = 0; s < nsb; ++s) {
            std::uint8_t* out = dst + (g * nsb + s) * group_bytes;
            for (int r = 0; r < G; ++r) {
                const auto& b = reinterpret_cast<const block_q3_K*>(w.data + (g * G + r) * w.row_bytes)[s];
                std::memcpy(out + 2 * r, &b.d, 2);
                for (int k = 0; k < 16; ++k)
                    out[2 * G + G * k + r] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q3_K_scale(b.scales, k)));
                for (int j = 0; j < 8; ++j) {   // element 32 j + l: bits 2 (j % 4) of qs[32 (j / 4) + l], bit j of hmask[l]
                    int low[32], third[32];
                    for (int l = 0; l < 32; ++l) {
                        low[l] = (b.qs[32 * (j / 4) + l] >> (2 * (j % 4))) & 3;
                        third[l] = (b.hmask[l] >> j) & 1;
                    }
                    std::uint8_t* sub = out + 18 * G + 12 * G * j;
                    write_crumbs(sub, G, r, low);
                    write_plane(sub + 8 * G, r, third);
                }
            }
        }
}

// iq4_xs's group super-blocks.
void repack_iq4_xs(const weight_view& w, const int G, std::uint8_t* dst) {
    const std::int64_t nsb = w.n_in / QK_K;
    const std::int64_t group_bytes = 10 * G + 8 * 16 * G;
    for (std::int64_t g = 0; g < w.n_out / G; ++g)
        for (std::int64_t s = 0; s < nsb; ++s) {
            std::uint8_t* out = dst + (g * nsb + s) * group_bytes;
            for (int r = 0; r < G; ++r) {
                const auto& b = reinterpret_cast<const block_iq4_xs*>(w.data + (g * G + r) * w.row_bytes)[s];
                std::memcpy(out + 2 * r, &b.d, 2);
                for (int j = 0; j < 8; ++j) {
                    out[2 * G + G * j + r] = static_cast<std::uint8_t>(static_cast<std::int8_t>(iq4_xs_scale(b, j)));
                    const std::uint8_t* qs = b.qs + 16 * j;   // element k low nibble, k + 16 high, as q4_0's
                    std::uint8_t* sub = out + 10 * G + 16 * G * j;
                    for (int k = 0; k < 16; ++k) sub[4 * G * (k / 4) + 4 * r + k % 4] = qs[k];
                }
            }
        }
}

}  // namespace

void repack_k_quant_groups(const weight_view& w, int group, std::uint8_t* dst) {
    if (w.type == ggml_type::q4_K) repack_k4<block_q4_K>(w, group, dst);
    else if (w.type == ggml_type::q5_K) repack_k4<block_q5_K>(w, group, dst);
    else if (w.type == ggml_type::q6_K) repack_q6_K(w, group, dst);
    else if (w.type == ggml_type::iq4_xs) repack_iq4_xs(w, group, dst);
    else if (w.type == ggml_type::q2_K) repack_q2_K(w, group, dst);
    else if (w.type == ggml_type::q3_K) repack_q3_K(w, group, dst);
}

}  // namespace kvlens
