// SPDX-License-Identifier: Apache-2.0
// Block layouts of the quantized tensor types, as GGUF stores them. Each block
// covers QK elements; d is the scale, m the minimum, qs the packed quants.
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
// Activations for the K-quants: one f32 scale, 256 quants and 16 partial sums.
struct block_q8_K {
    float d;
    std::int8_t qs[QK_K];
    std::int16_t bsums[QK_K / 16];
};

static_assert(sizeof(block_q4_0) == 18);
static_assert(sizeof(block_q4_1) == 20);
static_assert(sizeof(block_q5_0) == 22);
static_assert(sizeof(block_q5_1) == 24);
static_assert(sizeof(block_q8_0) == 34);
static_assert(sizeof(block_q8_1) == 36);
static_assert(sizeof(block_q4_K) == 144);
static_assert(sizeof(block_q5_K) == 176);
static_assert(sizeof(block_q6_K) == 210);
static_assert(sizeof(block_q8_K) == 292);

}  // namespace kvlens
