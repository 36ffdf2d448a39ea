// SPDX-License-Identifier: Apache-2.0
// Reference dequantizers of the 1- to 3-bit types and MXFP4 (layouts in
// quant_blocks_low_bit.h, sub-blocks decoded by low_bit_decode.h). The
// arithmetic is gguf-py's, operation for operation, so the floats agree bit
// for bit (tests/quant): e.g. IQ2's scale is d * (0.5 + s) * 0.25.
#include "engine/quant/quant_formats.h"

#include "common/fp16.h"
#include "engine/quant/low_bit_decode.h"

namespace kvlens::quant {

namespace {

// y[0..32) = scale of each half * v, the scale d * (0.5 + s) * unit (the IQ2 and IQ3_XXS form).
void put_half_scaled(const low_bit::sub_block& s, float d, float unit, float* y) {
    for (int h = 0; h < 2; ++h) {
        const float db = d * (0.5f + static_cast<float>((s.m[h] - 1) / 2)) * unit;
        for (int j = 16 * h; j < 16 * h + 16; ++j) y[j] = db * static_cast<float>(s.v[j]);
    }
}

template <class Block>
void iq2_or_iq3xxs_to_float(const void* vx, float* y, std::int64_t n, float unit) {
    auto* x = static_cast<const Block*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const float d = fp16_to_fp32(x[b].d);
        for (int ib = 0; ib < QK_K / 32; ++ib, y += 32) put_half_scaled(low_bit::decode(x[b], ib), d, unit, y);
    }
}

// The IQ1 form: d * m * (v + shift / 8).
void put_iq1(const low_bit::sub_block& s, float d, float* y) {
    for (int j = 0; j < 32; ++j) {
        const float dl = d * static_cast<float>(s.m[j / 16]);
        y[j] = dl * (static_cast<float>(s.v[j]) + static_cast<float>(s.shift[j / 8]) * k_iq1_delta);
    }
}

}  // namespace

void iq2_xxs_to_float(const void* x, float* y, std::int64_t n) { iq2_or_iq3xxs_to_float<block_iq2_xxs>(x, y, n, 0.25f); }
void iq2_xs_to_float(const void* x, float* y, std::int64_t n) { iq2_or_iq3xxs_to_float<block_iq2_xs>(x, y, n, 0.25f); }
void iq2_s_to_float(const void* x, float* y, std::int64_t n) { iq2_or_iq3xxs_to_float<block_iq2_s>(x, y, n, 0.25f); }
void iq3_xxs_to_float(const void* x, float* y, std::int64_t n) { iq2_or_iq3xxs_to_float<block_iq3_xxs>(x, y, n, 0.5f); }

void iq3_s_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_iq3_s*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const float d = fp16_to_fp32(x[b].d);
        for (int ib = 0; ib < QK_K / 32; ++ib, y += 32) {
            const low_bit::sub_block s = low_bit::decode(x[b], ib);
            const float db = d * static_cast<float>(s.m[0]);
            for (int j = 0; j < 32; ++j) y[j] = db * static_cast<float>(s.v[j]);
        }
    }
}

void iq1_s_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_iq1_s*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const float d = fp16_to_fp32(x[b].d);
        for (int ib = 0; ib < QK_K / 32; ++ib, y += 32) put_iq1(low_bit::decode(x[b], ib), d, y);
    }
}

void iq1_m_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_iq1_m*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const float d = fp16_to_fp32(iq1_m_d_bits(x[b]));
        for (int ib = 0; ib < QK_K / 32; ++ib, y += 32) put_iq1(low_bit::decode(x[b], ib), d, y);
    }
}

template <class Block>
void ternary_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const Block*>(vx);
    std::int8_t v[QK_K];
    for (std::int64_t b = 0; b < n / QK_K; ++b, y += QK_K) {
        low_bit::decode_ternary(x[b], v);
        const float d = fp16_to_fp32(x[b].d);
        for (int j = 0; j < QK_K; ++j) y[j] = d * static_cast<float>(v[j]);
    }
}
void tq1_0_to_float(const void* x, float* y, std::int64_t n) { ternary_to_float<block_tq1_0>(x, y, n); }
void tq2_0_to_float(const void* x, float* y, std::int64_t n) { ternary_to_float<block_tq2_0>(x, y, n); }

void mxfp4_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_mxfp4*>(vx);
    for (std::int64_t b = 0; b < n / QK_MXFP4; ++b, y += QK_MXFP4) {
        const float d = e8m0_half_to_float(x[b].e);
        for (int j = 0; j < QK_MXFP4 / 2; ++j) {
            y[j] = d * static_cast<float>(k_mxfp4_doubled[x[b].qs[j] & 0xF]);
            y[j + 16] = d * static_cast<float>(k_mxfp4_doubled[x[b].qs[j] >> 4]);
        }
    }
}

}  // namespace kvlens::quant
