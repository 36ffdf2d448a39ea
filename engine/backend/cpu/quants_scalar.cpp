// SPDX-License-Identifier: Apache-2.0
// Scalar reference dot products for every weight type the CPU backend can
// multiply (the row converters are formats: engine/quant/). These define the
// numerics; the SIMD kernels must agree with them (tests/cpu compares on
// random blocks).
#include <cmath>
#include <cstring>

#include "common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/quant/quant_blocks.h"
#include "engine/quant/quant_formats.h"
#include "engine/backend/cpu/quants_scalar.h"

namespace kvlens::scalar_impl {

using namespace quant;

// ---- dot products -------------------------------------------------------------------

float dot_f32(std::int64_t n, const void* w, const void* a) {
    auto* x = static_cast<const float*>(w);
    auto* y = static_cast<const float*>(a);
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]) * y[i];
    return static_cast<float>(sum);
}
float dot_f16(std::int64_t n, const void* w, const void* a) {
    auto* x = static_cast<const std::uint16_t*>(w);
    auto* y = static_cast<const std::uint16_t*>(a);
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) sum += static_cast<double>(fp16_to_fp32(x[i])) * fp16_to_fp32(y[i]);
    return static_cast<float>(sum);
}
float dot_bf16(std::int64_t n, const void* w, const void* a) {
    auto* x = static_cast<const std::uint16_t*>(w);
    auto* y = static_cast<const std::uint16_t*>(a);
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) sum += static_cast<double>(bf16_to_fp32(x[i])) * bf16_to_fp32(y[i]);
    return static_cast<float>(sum);
}

float dot_q4_0_q8_0(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q4_0*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK8_0; ++b) {
        int sumi = 0;
        for (int j = 0; j < QK4_0 / 2; ++j) {
            sumi += ((w[b].qs[j] & 0x0F) - 8) * a[b].qs[j];
            sumi += ((w[b].qs[j] >> 4) - 8) * a[b].qs[j + QK4_0 / 2];
        }
        sum += sumi * fp16_to_fp32(w[b].d) * fp16_to_fp32(a[b].d);
    }
    return sum;
}

float dot_q4_1_q8_1(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q4_1*>(vw);
    auto* a = static_cast<const block_q8_1*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK8_1; ++b) {
        int sumi = 0;
        for (int j = 0; j < QK4_1 / 2; ++j) {
            sumi += (w[b].qs[j] & 0x0F) * a[b].qs[j];
            sumi += (w[b].qs[j] >> 4) * a[b].qs[j + QK4_1 / 2];
        }
        sum += fp16_to_fp32(w[b].d) * fp16_to_fp32(a[b].d) * sumi + fp16_to_fp32(w[b].m) * fp16_to_fp32(a[b].s);
    }
    return sum;
}

float dot_q5_0_q8_0(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q5_0*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK8_0; ++b) {
        int sumi = 0;
        for (int j = 0; j < QK5_0 / 2; ++j) {
            sumi += (((w[b].qs[j] & 0x0F) | (q5_high_bit(w[b].qh, j) << 4)) - 16) * a[b].qs[j];
            sumi += (((w[b].qs[j] >> 4) | (q5_high_bit(w[b].qh, j + QK5_0 / 2) << 4)) - 16) * a[b].qs[j + QK5_0 / 2];
        }
        sum += sumi * fp16_to_fp32(w[b].d) * fp16_to_fp32(a[b].d);
    }
    return sum;
}

float dot_q5_1_q8_1(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q5_1*>(vw);
    auto* a = static_cast<const block_q8_1*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK8_1; ++b) {
        int sumi = 0;
        for (int j = 0; j < QK5_1 / 2; ++j) {
            sumi += ((w[b].qs[j] & 0x0F) | (q5_high_bit(w[b].qh, j) << 4)) * a[b].qs[j];
            sumi += ((w[b].qs[j] >> 4) | (q5_high_bit(w[b].qh, j + QK5_1 / 2) << 4)) * a[b].qs[j + QK5_1 / 2];
        }
        sum += fp16_to_fp32(w[b].d) * fp16_to_fp32(a[b].d) * sumi + fp16_to_fp32(w[b].m) * fp16_to_fp32(a[b].s);
    }
    return sum;
}

float dot_q8_0_q8_0(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_q8_0*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK8_0; ++b) {
        int sumi = 0;
        for (int j = 0; j < QK8_0; ++j) sumi += w[b].qs[j] * a[b].qs[j];
        sum += sumi * (fp16_to_fp32(w[b].d) * fp16_to_fp32(a[b].d));
    }
    return sum;
}

// K-quant weights against q8_K activations: dequantize a super-block, dot it
// with the integer activations, scale once by the activation scale.
template <to_float_fn dequant, class block>
float dot_k_q8_K(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float wf[QK_K];
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        dequant(&w[b], wf, QK_K);
        float s = 0;
        for (int j = 0; j < QK_K; ++j) s += wf[j] * a[b].qs[j];
        sum += s * a[b].d;
    }
    return sum;
}

float dot_q4_K_q8_K(std::int64_t n, const void* w, const void* a) { return dot_k_q8_K<q4_K_to_float, block_q4_K>(n, w, a); }
float dot_q5_K_q8_K(std::int64_t n, const void* w, const void* a) { return dot_k_q8_K<q5_K_to_float, block_q5_K>(n, w, a); }
float dot_q6_K_q8_K(std::int64_t n, const void* w, const void* a) { return dot_k_q8_K<q6_K_to_float, block_q6_K>(n, w, a); }
float dot_q2_K_q8_K(std::int64_t n, const void* w, const void* a) { return dot_k_q8_K<q2_K_to_float, block_q2_K>(n, w, a); }
float dot_q3_K_q8_K(std::int64_t n, const void* w, const void* a) { return dot_k_q8_K<q3_K_to_float, block_q3_K>(n, w, a); }
float dot_iq4_xs_q8_K(std::int64_t n, const void* w, const void* a) { return dot_k_q8_K<iq4_xs_to_float, block_iq4_xs>(n, w, a); }

// iq4_nl against q8_0: integer sums of the looked-up levels, scaled per block.
float dot_iq4_nl_q8_0(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq4_nl*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK4_NL; ++b) {
        int sumi = 0;
        for (int j = 0; j < QK4_NL / 2; ++j) {
            sumi += k_iq4_values[w[b].qs[j] & 0xF] * a[b].qs[j];
            sumi += k_iq4_values[w[b].qs[j] >> 4] * a[b].qs[j + QK4_NL / 2];
        }
        sum += sumi * (fp16_to_fp32(w[b].d) * fp16_to_fp32(a[b].d));
    }
    return sum;
}

}  // namespace kvlens::scalar_impl
