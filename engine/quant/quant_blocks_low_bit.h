// SPDX-License-Identifier: Apache-2.0
// Block layouts of the 1- to 3-bit tensor types (the i-quants IQ1_S .. IQ3_S,
// the ternary TQ1_0 / TQ2_0) and MXFP4, as GGUF stores them: facts of the
// format, shared by the model and the backends. Every type but MXFP4 covers a
// super-block of QK_K = 256 elements in 8 sub-blocks of 32 (ib = e / 32); the
// i-quants' values come from codebooks (iq_grids.h) in groups of 8 or 4.
// "d" is an f16 scale unless said otherwise; sub-scales s are 3 or 4 bits.
#pragma once

#include <cstdint>

#include "engine/quant/quant_blocks.h"

namespace kvlens {

constexpr int QK_MXFP4 = 32;
// IQ1_S and IQ1_M shift each group by +-1/8 of a step.
constexpr float k_iq1_delta = 0.125f;

// value = d (2 s + 1) / 8 * grid[g][j] * sign. Per sub-block ib, the two
// uint32 words qs[4 ib ..]: the first holds the 4 groups' grid indices (a
// byte each, iq2xxs_grid), the second 4 sign indices of 7 bits (iq_sign_byte)
// then s in its top 4 bits.
struct block_iq2_xxs { std::uint16_t d; std::uint16_t qs[QK_K / 8]; };
// value = d (2 s + 1) / 8 * grid[g][j] * sign. qs[g] (g = e / 8): grid index
// in the low 9 bits (iq2xs_grid), sign index in the top 7. s: low nibble of
// scales[ib] for the sub-block's first 16 elements, high nibble for the rest.
struct block_iq2_xs { std::uint16_t d; std::uint16_t qs[QK_K / 8]; std::uint8_t scales[QK_K / 32]; };
// value = d (2 s + 1) / 8 * grid[g][j] * sign. Group g = 4 ib + l: grid index
// qs[g] | bits 2l..2l+1 of qh[ib] << 8 (iq2s_grid); signs[g]'s bit j negates
// element j; s as in iq2_xs.
struct block_iq2_s {
    std::uint16_t d;
    std::uint8_t qs[QK_K / 8];
    std::uint8_t signs[QK_K / 8];
    std::uint8_t qh[QK_K / 32];
    std::uint8_t scales[QK_K / 32];
};
// value = d (2 s + 1) / 4 * grid[k][j] * sign, in groups of 4 (k = e / 4, a
// byte of grid[] each: iq3xxs_grid). Per sub-block, the uint32 word
// scales_signs[ib] holds 4 sign indices of 7 bits (one per 8 elements) and s
// in its top 4 bits.
struct block_iq3_xxs {
    std::uint16_t d;
    std::uint8_t grid[QK_K / 4];
    std::uint8_t scales_signs[QK_K / 8];   // 8 little-endian uint32 words
};
// value = d (2 s + 1) * grid[k][j] * sign, groups of 4: index qs[k] | bit
// (k % 8) of qh[ib] << 8 (iq3s_grid); signs as in iq2_s; s: nibble ib % 2 of
// scales[ib / 2].
struct block_iq3_s {
    std::uint16_t d;
    std::uint8_t qs[QK_K / 4];
    std::uint8_t qh[QK_K / 32];
    std::uint8_t signs[QK_K / 8];
    std::uint8_t scales[QK_K / 64];
};
// value = d (2 s + 1) (grid[g][j] +- 1/8), grid int8 -1, 0, 1 (iq1s_grid).
// qh[ib]: bits 3l..3l+2 are the high bits of group 4 ib + l's index (low
// bits: qs[4 ib + l]), bits 12..14 s, bit 15 set: the shift is -1/8.
struct block_iq1_s { std::uint16_t d; std::uint8_t qs[QK_K / 8]; std::uint16_t qh[QK_K / 32]; };
// value = d (2 s + 1) (grid[g][j] +- 1/8) with a sub-scale per 16 elements.
// Group g's nibble of qh (g % 2 of byte g / 2): 3 high index bits, bit 3 set:
// -1/8. scales as 4 uint16 words: s of half h of sub-block ib is bits
// 6 (ib % 2) + 3 h .. +2 of word ib / 2; d (f16) is the words' top nibbles,
// word 0's lowest.
struct block_iq1_m { std::uint8_t qs[QK_K / 8]; std::uint8_t qh[QK_K / 16]; std::uint8_t scales[QK_K / 32]; };
// Ternary, value = d (t - 1), t in 0..2, five trits per byte packed as
// the byte = ceil(256 * (base-3 number) / 243): trit k (k = 0..4) of byte b
// is ((b * 3^k mod 256) * 3) >> 8. Bytes qs[0..32) give elements 32 k + b,
// qs[32..48) elements 160 + 16 k + (b - 32), qh[0..4) (4 trits each)
// elements 240 + 4 k + b.
struct block_tq1_0 { std::uint8_t qs[(QK_K - 4 * QK_K / 64) / 5]; std::uint8_t qh[QK_K / 64]; std::uint16_t d; };
// Ternary, value = d (t - 1): element 128 h + 32 k + l is bits 2k..2k+1 of qs[32 h + l].
struct block_tq2_0 { std::uint8_t qs[QK_K / 4]; std::uint16_t d; };
// OCP microscaling FP4: value = 2^(e - 127) * E2M1 level of the nibble (low
// nibbles elements 0..15, high 16..31); k_mxfp4_doubled holds twice the
// levels, so value = 2^(e - 128) * k_mxfp4_doubled[q].
struct block_mxfp4 { std::uint8_t e; std::uint8_t qs[QK_MXFP4 / 2]; };
inline constexpr std::int8_t k_mxfp4_doubled[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

// 2^(e - 128) as an f32 (e = 0: 2^-128 and e = 1: 2^-127 are subnormal), half
// the E8M0 scale: the factor the doubled levels take.
inline float e8m0_half_to_float(std::uint8_t e) {
    const std::uint32_t bits = e < 2 ? 0x00200000u << e : static_cast<std::uint32_t>(e - 1) << 23;
    float f;
    __builtin_memcpy(&f, &bits, 4);
    return f;
}

// The f16 bits of an iq1_m block's d, gathered from its scale words.
inline std::uint16_t iq1_m_d_bits(const block_iq1_m& x) {
    std::uint16_t w[4];
    __builtin_memcpy(w, x.scales, 8);
    return static_cast<std::uint16_t>((w[0] >> 12) | ((w[1] >> 8) & 0x00F0) | ((w[2] >> 4) & 0x0F00) | (w[3] & 0xF000));
}

static_assert(sizeof(block_iq2_xxs) == 66);
static_assert(sizeof(block_iq2_xs) == 74);
static_assert(sizeof(block_iq2_s) == 82);
static_assert(sizeof(block_iq3_xxs) == 98);
static_assert(sizeof(block_iq3_s) == 110);
static_assert(sizeof(block_iq1_s) == 50);
static_assert(sizeof(block_iq1_m) == 56);
static_assert(sizeof(block_tq1_0) == 54);
static_assert(sizeof(block_tq2_0) == 66);
static_assert(sizeof(block_mxfp4) == 17);

}  // namespace kvlens
