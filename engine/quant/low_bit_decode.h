// SPDX-License-Identifier: Apache-2.0
// The 1- to 3-bit types' sub-blocks decoded to integers: for sub-block ib
// (elements 32 ib .. 32 ib + 31) of a super-block, its 32 signed codebook
// values (int8, signs applied) and the odd integer multiplier 2 s + 1 of each
// half (16 elements). A value is then
//   IQ2_XXS, IQ2_XS, IQ2_S:  d / 8 * m * v
//   IQ3_XXS:                 d / 4 * m * v
//   IQ3_S:                   d * m * v
//   IQ1_S, IQ1_M:            d * m * (v + shift / 8), shift +-1 per group of 8
// which is how both the reference dequantizers (engine/quant) and the CPU dot
// products (exact integer sums per sub-block, as llama.cpp's) read them.
#pragma once

#include <cstdint>
#include <cstring>

#include "engine/quant/iq_grids.h"
#include "engine/quant/quant_blocks_low_bit.h"

namespace kvlens::low_bit {

struct sub_block {
    std::int8_t v[32];
    int m[2];          // 2 s + 1 of elements 0..15 and 16..31
    int shift[4] = {}; // IQ1_S / IQ1_M: +1 or -1 per group of 8 (else 0)
};

// 8 codebook bytes (grid entry) into v[0..8), element j negated where bit j of signs is set.
inline void put_signed8(std::int8_t* v, std::uint64_t entry, unsigned signs) {
    for (int j = 0; j < 8; ++j) {
        const auto g = static_cast<std::int8_t>(entry >> (8 * j));
        v[j] = static_cast<std::int8_t>((signs >> j) & 1 ? -g : g);
    }
}
inline void put_signed4(std::int8_t* v, std::uint32_t entry, unsigned signs) {
    for (int j = 0; j < 4; ++j) {
        const auto g = static_cast<std::int8_t>(entry >> (8 * j));
        v[j] = static_cast<std::int8_t>((signs >> j) & 1 ? -g : g);
    }
}

inline sub_block decode(const block_iq2_xxs& x, int ib) {
    sub_block s;
    std::uint32_t w[2];
    std::memcpy(w, x.qs + 4 * ib, 8);
    for (int l = 0; l < 4; ++l)
        put_signed8(s.v + 8 * l, iq2xxs_grid[(w[0] >> (8 * l)) & 0xFF], iq_sign_byte(w[1] >> (7 * l)));
    s.m[0] = s.m[1] = 2 * static_cast<int>(w[1] >> 28) + 1;
    return s;
}

inline sub_block decode(const block_iq2_xs& x, int ib) {
    sub_block s;
    for (int l = 0; l < 4; ++l) {
        const std::uint16_t q = x.qs[4 * ib + l];
        put_signed8(s.v + 8 * l, iq2xs_grid[q & 511], iq_sign_byte(q >> 9));
    }
    s.m[0] = 2 * (x.scales[ib] & 0xF) + 1;
    s.m[1] = 2 * (x.scales[ib] >> 4) + 1;
    return s;
}

inline sub_block decode(const block_iq2_s& x, int ib) {
    sub_block s;
    for (int l = 0; l < 4; ++l) {
        const int index = x.qs[4 * ib + l] | ((x.qh[ib] >> (2 * l)) & 3) << 8;
        put_signed8(s.v + 8 * l, iq2s_grid[index], x.signs[4 * ib + l]);
    }
    s.m[0] = 2 * (x.scales[ib] & 0xF) + 1;
    s.m[1] = 2 * (x.scales[ib] >> 4) + 1;
    return s;
}

inline sub_block decode(const block_iq3_xxs& x, int ib) {
    sub_block s;
    std::uint32_t w;
    std::memcpy(&w, x.scales_signs + 4 * ib, 4);
    for (int l = 0; l < 4; ++l) {
        const unsigned signs = iq_sign_byte(w >> (7 * l));
        put_signed4(s.v + 8 * l, iq3xxs_grid[x.grid[8 * ib + 2 * l]], signs);
        put_signed4(s.v + 8 * l + 4, iq3xxs_grid[x.grid[8 * ib + 2 * l + 1]], signs >> 4);
    }
    s.m[0] = s.m[1] = 2 * static_cast<int>(w >> 28) + 1;
    return s;
}

inline sub_block decode(const block_iq3_s& x, int ib) {
    sub_block s;
    for (int k = 0; k < 8; ++k) {
        const int index = x.qs[8 * ib + k] | ((x.qh[ib] >> k) & 1) << 8;
        put_signed4(s.v + 4 * k, iq3s_grid[index], x.signs[4 * ib + k / 2] >> (4 * (k % 2)));
    }
    s.m[0] = s.m[1] = 2 * ((x.scales[ib / 2] >> (4 * (ib % 2))) & 0xF) + 1;
    return s;
}

inline sub_block decode(const block_iq1_s& x, int ib) {
    sub_block s;
    const unsigned qh = x.qh[ib];
    for (int l = 0; l < 4; ++l) {
        const int index = x.qs[4 * ib + l] | ((qh >> (3 * l)) & 7) << 8;
        put_signed8(s.v + 8 * l, iq1s_grid[index], 0);
        s.shift[l] = qh & 0x8000 ? -1 : 1;
    }
    s.m[0] = s.m[1] = 2 * static_cast<int>((qh >> 12) & 7) + 1;
    return s;
}

inline sub_block decode(const block_iq1_m& x, int ib) {
    sub_block s;
    for (int l = 0; l < 4; ++l) {
        const unsigned nibble = (x.qh[2 * ib + l / 2] >> (4 * (l % 2))) & 0xF;
        put_signed8(s.v + 8 * l, iq1s_grid[x.qs[4 * ib + l] | (nibble & 7) << 8], 0);
        s.shift[l] = nibble & 8 ? -1 : 1;
    }
    std::uint16_t w;
    std::memcpy(&w, x.scales + 2 * (ib / 2), 2);
    for (int h = 0; h < 2; ++h) s.m[h] = 2 * ((w >> (6 * (ib % 2) + 3 * h)) & 7) + 1;
    return s;
}

// Trit k (0..4) of a TQ1_0 byte, as t - 1 in -1..1.
inline int tq1_trit(std::uint8_t b, int k) {
    static constexpr std::uint8_t pow3[5] = {1, 3, 9, 27, 81};
    const auto q = static_cast<std::uint8_t>(b * pow3[k]);
    return ((q * 3) >> 8) - 1;
}

// The 256 values t - 1 of a TQ1_0 / TQ2_0 block, in element order.
inline void decode_ternary(const block_tq1_0& x, std::int8_t v[QK_K]) {
    for (int k = 0; k < 5; ++k) {
        for (int b = 0; b < 32; ++b) v[32 * k + b] = static_cast<std::int8_t>(tq1_trit(x.qs[b], k));
        for (int b = 0; b < 16; ++b) v[160 + 16 * k + b] = static_cast<std::int8_t>(tq1_trit(x.qs[32 + b], k));
    }
    for (int k = 0; k < 4; ++k)
        for (int b = 0; b < 4; ++b) v[240 + 4 * k + b] = static_cast<std::int8_t>(tq1_trit(x.qh[b], k));
}
inline void decode_ternary(const block_tq2_0& x, std::int8_t v[QK_K]) {
    for (int h = 0; h < 2; ++h)
        for (int k = 0; k < 4; ++k)
            for (int l = 0; l < 32; ++l)
                v[128 * h + 32 * k + l] = static_cast<std::int8_t>(((x.qs[32 * h + l] >> (2 * k)) & 3) - 1);
}

}  // namespace kvlens::low_bit
