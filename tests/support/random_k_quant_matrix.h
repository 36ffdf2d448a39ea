// SPDX-License-Identifier: Apache-2.0
// Random K-quant and iq4 matrices (kvlens quantizes nothing to q2_K .. q6_K, iq4_nl or iq4_xs)
// for the suites that check the grouped layouts against the file's rows
// (tests/cpu/test_rows8.cpp, test_rows16.cpp): random quants and six-bit
// scales and minimums, d and dmin small positive halves; random_matrix
// gives any type, the others quantized from random floats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>

#include "common/fp16.h"
#include "engine/quant/quant_blocks.h"
#include "tests/support/random_quant_matrix.h"

namespace kvlens::test {

// A matrix of t with every byte random, then each block's f16 scale fields
// (d, and dmin where the type has one) set to small positive halves: random
// quants, six-bit scales and minimums, iq4 indices, high bits.
inline quant_matrix random_blocks_matrix(std::mt19937& rng, ggml_type t, std::int64_t n_out, std::int64_t n_in)
{
    quant_matrix m;
    m.view.type = t;
    m.view.n_in = n_in;
    m.view.n_out = n_out;
    m.view.row_bytes = row_bytes(t, n_in);
    m.bytes.resize(static_cast<std::size_t>(m.view.row_bytes * n_out));
    std::uniform_int_distribution<int> byte(0, 255);
    for (auto& x : m.bytes) x = static_cast<std::uint8_t>(byte(rng));
    std::uniform_real_distribution<float> scale(0.001f, 0.02f);
    const auto set_half = [&](std::uint8_t* at) {
        const std::uint16_t h = fp32_to_fp16(scale(rng));
        std::memcpy(at, &h, 2);
    };
    const std::int64_t n_blocks = n_out * n_in / (t == ggml_type::iq4_nl ? 32 : QK_K);
    for (std::int64_t b = 0; b < n_blocks; ++b) {
        std::uint8_t* blk = m.bytes.data() + b * row_bytes(t, t == ggml_type::iq4_nl ? 32 : QK_K);
        switch (t) {
        case ggml_type::q4_K: set_half(blk + offsetof(block_q4_K, d)); set_half(blk + offsetof(block_q4_K, dmin)); break;
        case ggml_type::q5_K: set_half(blk + offsetof(block_q5_K, d)); set_half(blk + offsetof(block_q5_K, dmin)); break;
        case ggml_type::q2_K: set_half(blk + offsetof(block_q2_K, d)); set_half(blk + offsetof(block_q2_K, dmin)); break;
        case ggml_type::q3_K: set_half(blk + offsetof(block_q3_K, d)); break;
        case ggml_type::q6_K: set_half(blk + offsetof(block_q6_K, d)); break;
        default: set_half(blk); break;   // iq4_nl, iq4_xs: d leads the block
        }
    }
    m.view.data = m.bytes.data();
    return m;
}

// Whether t's rows are super-blocks of 256 (the K-quants and iq4_xs).
inline bool has_super_blocks(ggml_type t)
{
    return t == ggml_type::q2_K || t == ggml_type::q3_K || t == ggml_type::q4_K || t == ggml_type::q5_K ||
           t == ggml_type::q6_K || t == ggml_type::iq4_xs;
}

inline quant_matrix random_matrix(std::mt19937& rng, ggml_type t, std::int64_t n_out, std::int64_t n_in)
{
    if (has_super_blocks(t) || t == ggml_type::iq4_nl) return random_blocks_matrix(rng, t, n_out, n_in);
    return random_quant_matrix(rng, t, n_out, n_in);
}

}  // namespace kvlens::test
