// SPDX-License-Identifier: Apache-2.0
// Scalar reference dot products of the 1- to 3-bit types (against q8_K
// activations) and MXFP4 (against q8_0), in llama.cpp's arithmetic: exact
// integer sums per sub-block times the odd multipliers, one float product
// per super-block (IQ1: plus the shift, through q8_K's sums of 16).
#include "common/fp16.h"
#include "engine/backend/cpu/quants_scalar.h"
#include "engine/quant/low_bit_decode.h"

namespace kvlens::scalar_impl {

namespace {

// sum over the super-blocks of d_w d_a sum_ib (m0 sum_{j<16} v q + m1 sum_{j>=16} v q), times unit.
template <class Block>
float dot_grid_q8_K(std::int64_t n, const void* vw, const void* va, float unit) {
    auto* w = static_cast<const Block*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        int bsum = 0;
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const low_bit::sub_block s = low_bit::decode(w[b], ib);
            const std::int8_t* q = a[b].qs + 32 * ib;
            int lo = 0, hi = 0;
            for (int j = 0; j < 16; ++j) lo += s.v[j] * q[j];
            for (int j = 16; j < 32; ++j) hi += s.v[j] * q[j];
            bsum += lo * s.m[0] + hi * s.m[1];
        }
        sum += fp16_to_fp32(w[b].d) * a[b].d * static_cast<float>(bsum);
    }
    return unit * sum;
}

// IQ1: d_w d_a (sum m v q + 1/8 sum m shift q), the shifts' sums from q8_K's bsums.
template <class Block>
float dot_iq1_q8_K(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const Block*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        int grid_sum = 0, shift_sum = 0;
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const low_bit::sub_block s = low_bit::decode(w[b], ib);
            const std::int8_t* q = a[b].qs + 32 * ib;
            for (int h = 0; h < 2; ++h) {
                int vq = 0, shifted = 0;
                for (int l = 2 * h; l < 2 * h + 2; ++l) {
                    int group = 0;
                    for (int j = 8 * l; j < 8 * l + 8; ++j) {
                        vq += s.v[j] * q[j];
                        group += q[j];
                    }
                    shifted += s.shift[l] * group;
                }
                grid_sum += s.m[h] * vq;
                shift_sum += s.m[h] * shifted;
            }
        }
        float d;
        if constexpr (sizeof(Block) == sizeof(block_iq1_m)) d = fp16_to_fp32(iq1_m_d_bits(w[b]));
        else d = fp16_to_fp32(w[b].d);
        sum += d * a[b].d * (static_cast<float>(grid_sum) + k_iq1_delta * static_cast<float>(shift_sum));
    }
    return sum;
}

template <class Block>
float dot_ternary_q8_K(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const Block*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    std::int8_t v[QK_K];
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        low_bit::decode_ternary(w[b], v);
        int sumi = 0;
        for (int j = 0; j < QK_K; ++j) sumi += v[j] * a[b].qs[j];
        sum += static_cast<float>(sumi) * (fp16_to_fp32(w[b].d) * a[b].d);
    }
    return sum;
}

}  // namespace

float dot_iq2_xxs_q8_K(std::int64_t n, const void* w, const void* a) { return dot_grid_q8_K<block_iq2_xxs>(n, w, a, 0.125f); }
float dot_iq2_xs_q8_K(std::int64_t n, const void* w, const void* a) { return dot_grid_q8_K<block_iq2_xs>(n, w, a, 0.125f); }
float dot_iq2_s_q8_K(std::int64_t n, const void* w, const void* a) { return dot_grid_q8_K<block_iq2_s>(n, w, a, 0.125f); }
float dot_iq3_xxs_q8_K(std::int64_t n, const void* w, const void* a) { return dot_grid_q8_K<block_iq3_xxs>(n, w, a, 0.25f); }
float dot_iq3_s_q8_K(std::int64_t n, const void* w, const void* a) { return dot_grid_q8_K<block_iq3_s>(n, w, a, 1.0f); }
float dot_iq1_s_q8_K(std::int64_t n, const void* w, const void* a) { return dot_iq1_q8_K<block_iq1_s>(n, w, a); }
float dot_iq1_m_q8_K(std::int64_t n, const void* w, const void* a) { return dot_iq1_q8_K<block_iq1_m>(n, w, a); }
float dot_tq1_0_q8_K(std::int64_t n, const void* w, const void* a) { return dot_ternary_q8_K<block_tq1_0>(n, w, a); }
float dot_tq2_0_q8_K(std::int64_t n, const void* w, const void* a) { return dot_ternary_q8_K<block_tq2_0>(n, w, a); }

float dot_mxfp4_q8_0(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_mxfp4*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_MXFP4; ++b) {
        int sumi = 0;
        for (int j = 0; j < QK_MXFP4 / 2; ++j) {
            sumi += k_mxfp4_doubled[w[b].qs[j] & 0xF] * a[b].qs[j];
            sumi += k_mxfp4_doubled[w[b].qs[j] >> 4] * a[b].qs[j + 16];
        }
        sum += e8m0_half_to_float(w[b].e) * fp16_to_fp32(a[b].d) * static_cast<float>(sumi);
    }
    return sum;
}

}  // namespace kvlens::scalar_impl
