// SPDX-License-Identifier: Apache-2.0
// Random K-quant and iq4 matrices (kvlens quantizes nothing to q2_K .. q6_K, iq4_nl or iq4_xs)
// for the suites that check the grouped layouts against the file's rows
// (tests/cpu/test_rows8.cpp, test_rows16.cpp): random quants and six-bit
// scales and minimums, d and dmin small positive halves; random_matrix
// gives any type, the others quantized from random floats.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>

#include "common/fp16.h"
#include "engine/quant/quant_blocks.h"
#include "tests/support/random_quant_matrix.h"

namespace kvlens::test {

// A q4_K matrix of random super-blocks (kvlens quantizes nothing to q4_K):
// random quants and six-bit scales and minimums, d and dmin small positive halves.
inline quant_matrix random_q4_K_matrix(std::mt19937& rng, std::int64_t n_out, std::int64_t n_in)
{
    quant_matrix m;
    m.view.type = ggml_type::q4_K;
    m.view.n_in = n_in;
    m.view.n_out = n_out;
    m.view.row_bytes = row_bytes(ggml_type::q4_K, n_in);
    m.bytes.resize(static_cast<std::size_t>(m.view.row_bytes * n_out));
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_real_distribution<float> scale(0.001f, 0.02f);
    auto* blocks = reinterpret_cast<block_q4_K*>(m.bytes.data());
    for (std::int64_t b = 0; b < n_out * n_in / QK_K; ++b) {
        blocks[b].d = fp32_to_fp16(scale(rng));
        blocks[b].dmin = fp32_to_fp16(scale(rng));
        for (auto& x : blocks[b].scales) x = static_cast<std::uint8_t>(byte(rng));
        for (auto& x : blocks[b].qs) x = static_cast<std::uint8_t>(byte(rng));
    }
    m.view.data = m.bytes.data();
    return m;
}

// A q6_K matrix of random super-blocks: random quants and signed scales, d a small positive half.
inline quant_matrix random_q6_K_matrix(std::mt19937& rng, std::int64_t n_out, std::int64_t n_in)
{
    quant_matrix m;
    m.view.type = ggml_type::q6_K;
    m.view.n_in = n_in;
    m.view.n_out = n_out;
    m.view.row_bytes = row_bytes(ggml_type::q6_K, n_in);
    m.bytes.resize(static_cast<std::size_t>(m.view.row_bytes * n_out));
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_real_distribution<float> scale(0.0005f, 0.005f);
    auto* blocks = reinterpret_cast<block_q6_K*>(m.bytes.data());
    for (std::int64_t b = 0; b < n_out * n_in / QK_K; ++b) {
        blocks[b].d = fp32_to_fp16(scale(rng));
        for (auto& x : blocks[b].ql) x = static_cast<std::uint8_t>(byte(rng));
        for (auto& x : blocks[b].qh) x = static_cast<std::uint8_t>(byte(rng));
        for (auto& x : blocks[b].scales) x = static_cast<std::int8_t>(byte(rng) - 128);
    }
    m.view.data = m.bytes.data();
    return m;
}

// A q5_K matrix: q4_K's random super-blocks with random fifth bits.
inline quant_matrix random_q5_K_matrix(std::mt19937& rng, std::int64_t n_out, std::int64_t n_in)
{
    const quant_matrix q4 = random_q4_K_matrix(rng, n_out, n_in);
    quant_matrix m;
    m.view = q4.view;
    m.view.type = ggml_type::q5_K;
    m.view.row_bytes = row_bytes(ggml_type::q5_K, n_in);
    m.bytes.resize(static_cast<std::size_t>(m.view.row_bytes * n_out));
    std::uniform_int_distribution<int> byte(0, 255);
    const auto* from = reinterpret_cast<const block_q4_K*>(q4.bytes.data());
    auto* blocks = reinterpret_cast<block_q5_K*>(m.bytes.data());
    for (std::int64_t b = 0; b < n_out * n_in / QK_K; ++b) {
        blocks[b].d = from[b].d;
        blocks[b].dmin = from[b].dmin;
        std::memcpy(blocks[b].scales, from[b].scales, sizeof(blocks[b].scales));
        std::memcpy(blocks[b].qs, from[b].qs, sizeof(blocks[b].qs));
        for (auto& x : blocks[b].qh) x = static_cast<std::uint8_t>(byte(rng));
    }
    m.view.data = m.bytes.data();
    return m;
}

// An iq4_nl or iq4_xs matrix of random blocks: random indices (and iq4_xs's
// six-bit scales), d a small positive half.
inline quant_matrix random_iq4_matrix(std::mt19937& rng, ggml_type t, std::int64_t n_out, std::int64_t n_in)
{
    quant_matrix m;
    m.view.type = t;
    m.view.n_in = n_in;
    m.view.n_out = n_out;
    m.view.row_bytes = row_bytes(t, n_in);
    m.bytes.resize(static_cast<std::size_t>(m.view.row_bytes * n_out));
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_real_distribution<float> scale(0.0005f, 0.005f);
    for (auto& x : m.bytes) x = static_cast<std::uint8_t>(byte(rng));
    const std::size_t block = t == ggml_type::iq4_nl ? sizeof(block_iq4_nl) : sizeof(block_iq4_xs);
    for (std::size_t at = 0; at < m.bytes.size(); at += block) {
        const std::uint16_t d = fp32_to_fp16(scale(rng));
        std::memcpy(m.bytes.data() + at, &d, 2);   // d leads both blocks
    }
    m.view.data = m.bytes.data();
    return m;
}

// A q2_K or q3_K matrix of random super-blocks: random quants, scales (and
// q2_K's minimums) and high bits, d (and dmin) small positive halves.
inline quant_matrix random_low_bit_k_matrix(std::mt19937& rng, ggml_type t, std::int64_t n_out, std::int64_t n_in)
{
    quant_matrix m;
    m.view.type = t;
    m.view.n_in = n_in;
    m.view.n_out = n_out;
    m.view.row_bytes = row_bytes(t, n_in);
    m.bytes.resize(static_cast<std::size_t>(m.view.row_bytes * n_out));
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_real_distribution<float> scale(0.001f, 0.02f);
    for (auto& x : m.bytes) x = static_cast<std::uint8_t>(byte(rng));
    for (std::int64_t b = 0; b < n_out * n_in / QK_K; ++b) {
        if (t == ggml_type::q2_K) {
            auto& blk = reinterpret_cast<block_q2_K*>(m.bytes.data())[b];
            blk.d = fp32_to_fp16(scale(rng));
            blk.dmin = fp32_to_fp16(scale(rng));
        } else {
            reinterpret_cast<block_q3_K*>(m.bytes.data())[b].d = fp32_to_fp16(scale(rng));
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
    if (t == ggml_type::q2_K || t == ggml_type::q3_K) return random_low_bit_k_matrix(rng, t, n_out, n_in);
    if (t == ggml_type::iq4_nl || t == ggml_type::iq4_xs) return random_iq4_matrix(rng, t, n_out, n_in);
    if (t == ggml_type::q4_K) return random_q4_K_matrix(rng, n_out, n_in);
    if (t == ggml_type::q5_K) return random_q5_K_matrix(rng, n_out, n_in);
    if (t == ggml_type::q6_K) return random_q6_K_matrix(rng, n_out, n_in);
    return random_quant_matrix(rng, t, n_out, n_in);
}

}  // namespace kvlens::test
