// SPDX-License-Identifier: Apache-2.0
// Block layouts of the quantized tensor types, as GGUF stores them (facts of
// the format, shared by the model and every backend). Each block covers QK
// elements; d is the scale, m the minimum, qs the packed quants.
#pragma once

#include <cstdint>

namespace kvlens {

constexpr int QK4_0 = 32;
constexpr int QK4_1 = 32;
constexpr int QK5_0 = 32;
constexpr int QK5_1 = 32;
constexpr int QK8_0 = 32;
constexpr int QK8_1 = 32;
constexpr int QK_K = 256;
constexpr int QK4_NL = 32;
constexpr int K_SCALE_SIZE = 12;

// value = d * (q - 8), q in 0..15; low nibbles hold elements 0..15, high 16..31.
struct block_q4_0 { std::uint16_t d; std::uint8_t qs[QK4_0 / 2]; };
// value = d * q + m, q in 0..15; same nibble order as q4_0.
struct block_q4_1 { std::uint16_t d; std::uint16_t m; std::uint8_t qs[QK4_1 / 2]; };
// value = d * (q - 16), q in 0..31: the low 4 bits as in q4_0, bit 4 of
// element j is bit j of qh (read as a little-endian uint32).
struct block_q5_0 { std::uint16_t d; std::uint8_t qh[4]; std::uint8_t qs[QK5_0 / 2]; };
// value = d * q + m, q in 0..31; bits as in q5_0.
struct block_q5_1 { std::uint16_t d; std::uint16_t m; std::uint8_t qh[4]; std::uint8_t qs[QK5_1 / 2]; };
// value = d * q, q in -127..127.
struct block_q8_0 { std::uint16_t d; std::int8_t qs[QK8_0]; };
// Activations for q4_1: s = d * sum(qs), so the weights' minimum folds in once per block.
struct block_q8_1 { std::uint16_t d; std::uint16_t s; std::int8_t qs[QK8_1]; };

// K-quants (super-blocks of 256).
// value = d * (sc & 15) * q - dmin * (sc >> 4), q in 0..3, sc = scales[e / 16];
// element e = 128 h + 32 s + l (h 0..1, s 0..3, l 0..31) is bits 2s..2s+1 of qs[32 h + l].
struct block_q2_K {
    std::uint8_t scales[QK_K / 16];
    std::uint8_t qs[QK_K / 4];
    std::uint16_t d, dmin;
};
// value = d * (sc - 32) * (q - (bit ? 0 : 4)), q in 0..3 as in q2_K, bit = bit
// (e / 32) of hmask[e % 32]; sc: sixteen 6-bit scales, low 4 bits in
// scales[0..8) (nibble e/16 / 8 of byte e/16 % 8), high 2 bits in scales[8..12).
struct block_q3_K {
    std::uint8_t hmask[QK_K / 8];
    std::uint8_t qs[QK_K / 4];
    std::uint8_t scales[12];
    std::uint16_t d;
};
struct block_q4_K {
    std::uint16_t d, dmin;
    std::uint8_t scales[K_SCALE_SIZE];   // 8 six-bit scales and 8 six-bit mins
    std::uint8_t qs[QK_K / 2];
};
struct block_q5_K {
    std::uint16_t d, dmin;
    std::uint8_t scales[K_SCALE_SIZE];
    std::uint8_t qh[QK_K / 8];
    std::uint8_t qs[QK_K / 2];
};
struct block_q6_K {
    std::uint8_t ql[QK_K / 2];
    std::uint8_t qh[QK_K / 4];
    std::int8_t scales[QK_K / 16];
    std::uint16_t d;
};
// Non-linear 4-bit: value = d * k_iq4_values[q], q in 0..15, nibbles as in q4_0.
struct block_iq4_nl { std::uint16_t d; std::uint8_t qs[QK4_NL / 2]; };
// Eight sub-blocks of 32 in iq4_nl's nibble order (qs[16 ib ..]), each with a
// 6-bit scale: value = d * (ls - 32) * k_iq4_values[q], ls = low nibble of
// scales_l[ib / 2] (high nibble for odd ib) | bits 2ib..2ib+1 of scales_h << 4.
struct block_iq4_xs {
    std::uint16_t d;
    std::uint16_t scales_h;
    std::uint8_t scales_l[QK_K / 64];
    std::uint8_t qs[QK_K / 2];
};
// The sixteen levels of iq4_nl / iq4_xs.
inline constexpr std::int8_t k_iq4_values[16] = {-127, -104, -83, -65, -49, -35, -22, -10,
                                                 1,    13,   25,  38,  53,  69,  89,  113};
// The levels plus 128 (1..241): the unsigned bytes the grouped CPU kernels multiply.
struct iq4_levels_plus_128 {
    alignas(16) std::uint8_t bytes[16];
};
inline constexpr iq4_levels_plus_128 k_iq4_values_plus_128 = [] {
    iq4_levels_plus_128 l{};
    for (int i = 0; i < 16; ++i) l.bytes[i] = static_cast<std::uint8_t>(k_iq4_values[i] + 128);
    return l;
}();

// Activations for the K-quants: one f32 scale, 256 quants and 16 partial sums.
struct block_q8_K {
    float d;
    std::int8_t qs[QK_K];
    std::int16_t bsums[QK_K / 16];
};

// Bit 4 of element j (0..31) of a q5_0 / q5_1 block.
inline int q5_high_bit(const std::uint8_t qh[4], int j) { return (qh[j / 8] >> (j % 8)) & 1; }
inline void q5_set_high_bit(std::uint8_t qh[4], int j) { qh[j / 8] = static_cast<std::uint8_t>(qh[j / 8] | (1u << (j % 8))); }

// The j-th (0..7) six-bit scale d and minimum m of a q4_K / q5_K super-block.
inline void q4_K_scale_min(int j, const std::uint8_t* q, std::uint8_t& d, std::uint8_t& m) {
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = static_cast<std::uint8_t>((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        m = static_cast<std::uint8_t>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

// The i-th (0..15) signed 6-bit scale of a q3_K super-block.
inline int q3_K_scale(const std::uint8_t* scales, int i) {
    const int low = (scales[i % 8] >> (4 * (i / 8))) & 0xF;
    const int high = (scales[8 + i % 4] >> (2 * (i / 4))) & 3;
    return (low | (high << 4)) - 32;
}

// The ib-th (0..7) signed 6-bit sub-block scale of an iq4_xs super-block.
inline int iq4_xs_scale(const block_iq4_xs& x, int ib) {
    const int low = (x.scales_l[ib / 2] >> (4 * (ib % 2))) & 0xF;
    const int high = (x.scales_h >> (2 * ib)) & 3;
    return (low | (high << 4)) - 32;
}

static_assert(sizeof(block_q4_0) == 18);
static_assert(sizeof(block_q4_1) == 20);
static_assert(sizeof(block_q5_0) == 22);
static_assert(sizeof(block_q5_1) == 24);
static_assert(sizeof(block_q8_0) == 34);
static_assert(sizeof(block_q8_1) == 36);
static_assert(sizeof(block_q2_K) == 84);
static_assert(sizeof(block_q3_K) == 110);
static_assert(sizeof(block_q4_K) == 144);
static_assert(sizeof(block_q5_K) == 176);
static_assert(sizeof(block_q6_K) == 210);
static_assert(sizeof(block_q8_K) == 292);
static_assert(sizeof(block_iq4_nl) == 18);
static_assert(sizeof(block_iq4_xs) == 136);

}  // namespace kvlens
