// SPDX-License-Identifier: Apache-2.0
// Reference (scalar) conversions between f32 and every tensor type's block
// layout: row quantizers and dequantizers. They are facts of the formats, so
// the model (load-time conversion of norms, synth-model's writer) and every
// backend use them; the backends' SIMD and device kernels must agree with
// them (tests/cpu, tests/quant).
#include "engine/quant/quant_formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/fp16.h"
#include "engine/quant/quant_blocks.h"

namespace kvlens::quant {

// ---- activations and plain types ------------------------------------------------

void f32_from_float(const float* x, void* y, std::int64_t n) { std::memcpy(y, x, n * sizeof(float)); }
void f32_to_float(const void* x, float* y, std::int64_t n) { std::memcpy(y, x, n * sizeof(float)); }

void f16_from_float(const float* x, void* y, std::int64_t n) {
    auto* out = static_cast<std::uint16_t*>(y);
    for (std::int64_t i = 0; i < n; ++i) out[i] = fp32_to_fp16(x[i]);
}
void f16_to_float(const void* x, float* y, std::int64_t n) {
    auto* in = static_cast<const std::uint16_t*>(x);
    for (std::int64_t i = 0; i < n; ++i) y[i] = fp16_to_fp32(in[i]);
}
void bf16_from_float(const float* x, void* y, std::int64_t n) {
    auto* out = static_cast<std::uint16_t*>(y);
    for (std::int64_t i = 0; i < n; ++i) out[i] = fp32_to_bf16(x[i]);
}
void bf16_to_float(const void* x, float* y, std::int64_t n) {
    auto* in = static_cast<const std::uint16_t*>(x);
    for (std::int64_t i = 0; i < n; ++i) y[i] = bf16_to_fp32(in[i]);
}

// q8_0: d = max|x| / 127, q = nearest(x * 127 / max|x|), ties to even.
void q8_0_from_float(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q8_0*>(vy);
    for (std::int64_t b = 0; b < n / QK8_0; ++b, x += QK8_0) {
        float amax = 0;
        for (int j = 0; j < QK8_0; ++j) amax = std::max(amax, std::fabs(x[j]));
        const float d = amax / 127.0f;
        const float id = amax != 0 ? 127.0f / amax : 0.0f;
        y[b].d = fp32_to_fp16(d);
        for (int j = 0; j < QK8_0; ++j) {
            const float v = x[j] * id;  // saturated as in q8_1_from_float
            y[b].qs[j] = static_cast<std::int8_t>(v >= 127.0f ? 127 : v > -128.0f ? std::nearbyint(v) : -128);
        }
    }
}
void q8_0_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q8_0*>(vx);
    for (std::int64_t b = 0; b < n / QK8_0; ++b) {
        const float d = fp16_to_fp32(x[b].d);
        for (int j = 0; j < QK8_0; ++j) y[b * QK8_0 + j] = d * x[b].qs[j];
    }
}

// q8_1: as q8_0, plus s = d * sum(q) for the weights' minimum term.
void q8_1_from_float(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q8_1*>(vy);
    for (std::int64_t b = 0; b < n / QK8_1; ++b, x += QK8_1) {
        float amax = 0;
        for (int j = 0; j < QK8_1; ++j) amax = std::max(amax, std::fabs(x[j]));
        const float d = amax / 127.0f;
        const float id = amax != 0 ? 127.0f / amax : 0.0f;
        int sum = 0;
        for (int j = 0; j < QK8_1; ++j) {
            // Saturated as the SIMD stores do; a NaN (which no int can hold) gives -128 as they do.
            const float v = x[j] * id;
            const int q = v >= 127.0f ? 127 : v > -128.0f ? static_cast<int>(std::nearbyint(v)) : -128;
            y[b].qs[j] = static_cast<std::int8_t>(q);
            sum += q;
        }
        y[b].d = fp32_to_fp16(d);
        y[b].s = fp32_to_fp16(d * static_cast<float>(sum));
    }
}

// q8_K: one f32 scale per 256, quants from the signed extreme, 16-element sums.
void q8_K_from_float(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q8_K*>(vy);
    for (std::int64_t b = 0; b < n / QK_K; ++b, x += QK_K) {
        float max = 0, amax = 0;
        for (int j = 0; j < QK_K; ++j) {
            const float ax = std::fabs(x[j]);
            if (ax > amax) { amax = ax; max = x[j]; }
        }
        if (amax == 0) {
            y[b].d = 0;
            std::memset(y[b].qs, 0, sizeof(y[b].qs));
            std::memset(y[b].bsums, 0, sizeof(y[b].bsums));
            continue;
        }
        const float iscale = -127.0f / max;
        for (int j = 0; j < QK_K; ++j) {
            int v = static_cast<int>(std::nearbyint(iscale * x[j]));
            y[b].qs[j] = static_cast<std::int8_t>(std::min(127, v));
        }
        for (int j = 0; j < QK_K / 16; ++j) {
            int sum = 0;
            for (int i = 0; i < 16; ++i) sum += y[b].qs[j * 16 + i];
            y[b].bsums[j] = static_cast<std::int16_t>(sum);
        }
        y[b].d = 1 / iscale;
    }
}

// ---- 4-bit weights ----------------------------------------------------------------

void q4_0_from_float(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q4_0*>(vy);
    for (std::int64_t b = 0; b < n / QK4_0; ++b, x += QK4_0) {
        float amax = 0, max = 0;
        for (int j = 0; j < QK4_0; ++j)
            if (std::fabs(x[j]) > amax) { amax = std::fabs(x[j]); max = x[j]; }
        const float d = max / -8;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        y[b].d = fp32_to_fp16(d);
        for (int j = 0; j < QK4_0 / 2; ++j) {
            const int q0 = std::min(15, static_cast<int>(x[j] * id + 8.5f));
            const int q1 = std::min(15, static_cast<int>(x[j + QK4_0 / 2] * id + 8.5f));
            y[b].qs[j] = static_cast<std::uint8_t>(q0 | (q1 << 4));
        }
    }
}
void q4_0_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q4_0*>(vx);
    for (std::int64_t b = 0; b < n / QK4_0; ++b, y += QK4_0) {
        const float d = fp16_to_fp32(x[b].d);
        for (int j = 0; j < QK4_0 / 2; ++j) {
            y[j] = ((x[b].qs[j] & 0x0F) - 8) * d;
            y[j + QK4_0 / 2] = ((x[b].qs[j] >> 4) - 8) * d;
        }
    }
}

void q4_1_from_float(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q4_1*>(vy);
    for (std::int64_t b = 0; b < n / QK4_1; ++b, x += QK4_1) {
        float min = x[0], max = x[0];
        for (int j = 1; j < QK4_1; ++j) { min = std::min(min, x[j]); max = std::max(max, x[j]); }
        const float d = (max - min) / 15;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        y[b].d = fp32_to_fp16(d);
        y[b].m = fp32_to_fp16(min);
        for (int j = 0; j < QK4_1 / 2; ++j) {
            const int q0 = std::min(15, static_cast<int>((x[j] - min) * id + 0.5f));
            const int q1 = std::min(15, static_cast<int>((x[j + QK4_1 / 2] - min) * id + 0.5f));
            y[b].qs[j] = static_cast<std::uint8_t>(q0 | (q1 << 4));
        }
    }
}
void q4_1_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q4_1*>(vx);
    for (std::int64_t b = 0; b < n / QK4_1; ++b, y += QK4_1) {
        const float d = fp16_to_fp32(x[b].d);
        const float m = fp16_to_fp32(x[b].m);
        for (int j = 0; j < QK4_1 / 2; ++j) {
            y[j] = (x[b].qs[j] & 0x0F) * d + m;
            y[j + QK4_1 / 2] = (x[b].qs[j] >> 4) * d + m;
        }
    }
}

// ---- 5-bit weights ----------------------------------------------------------------


// q5_0: d = (signed extreme) / -16, q = trunc(x / d + 16.5) clamped to 31.
void q5_0_from_float(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q5_0*>(vy);
    for (std::int64_t b = 0; b < n / QK5_0; ++b, x += QK5_0) {
        float amax = 0, max = 0;
        for (int j = 0; j < QK5_0; ++j)
            if (std::fabs(x[j]) > amax) { amax = std::fabs(x[j]); max = x[j]; }
        const float d = max / -16;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        y[b].d = fp32_to_fp16(d);
        std::memset(y[b].qh, 0, sizeof(y[b].qh));
        for (int j = 0; j < QK5_0 / 2; ++j) {
            const int q0 = std::min(31, static_cast<int>(x[j] * id + 16.5f));
            const int q1 = std::min(31, static_cast<int>(x[j + QK5_0 / 2] * id + 16.5f));
            y[b].qs[j] = static_cast<std::uint8_t>((q0 & 0xF) | ((q1 & 0xF) << 4));
            if (q0 & 0x10) q5_set_high_bit(y[b].qh, j);
            if (q1 & 0x10) q5_set_high_bit(y[b].qh, j + QK5_0 / 2);
        }
    }
}
void q5_0_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q5_0*>(vx);
    for (std::int64_t b = 0; b < n / QK5_0; ++b, y += QK5_0) {
        const float d = fp16_to_fp32(x[b].d);
        for (int j = 0; j < QK5_0 / 2; ++j) {
            y[j] = (((x[b].qs[j] & 0x0F) | (q5_high_bit(x[b].qh, j) << 4)) - 16) * d;
            y[j + QK5_0 / 2] = (((x[b].qs[j] >> 4) | (q5_high_bit(x[b].qh, j + QK5_0 / 2) << 4)) - 16) * d;
        }
    }
}

// q5_1: d = (max - min) / 31, m = min, q = trunc((x - min) / d + 0.5) clamped to 31.
void q5_1_from_float(const float* x, void* vy, std::int64_t n) {
    auto* y = static_cast<block_q5_1*>(vy);
    for (std::int64_t b = 0; b < n / QK5_1; ++b, x += QK5_1) {
        float min = x[0], max = x[0];
        for (int j = 1; j < QK5_1; ++j) { min = std::min(min, x[j]); max = std::max(max, x[j]); }
        const float d = (max - min) / 31;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        y[b].d = fp32_to_fp16(d);
        y[b].m = fp32_to_fp16(min);
        std::memset(y[b].qh, 0, sizeof(y[b].qh));
        for (int j = 0; j < QK5_1 / 2; ++j) {
            const int q0 = std::min(31, static_cast<int>((x[j] - min) * id + 0.5f));
            const int q1 = std::min(31, static_cast<int>((x[j + QK5_1 / 2] - min) * id + 0.5f));
            y[b].qs[j] = static_cast<std::uint8_t>((q0 & 0xF) | ((q1 & 0xF) << 4));
            if (q0 & 0x10) q5_set_high_bit(y[b].qh, j);
            if (q1 & 0x10) q5_set_high_bit(y[b].qh, j + QK5_1 / 2);
        }
    }
}
void q5_1_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q5_1*>(vx);
    for (std::int64_t b = 0; b < n / QK5_1; ++b, y += QK5_1) {
        const float d = fp16_to_fp32(x[b].d);
        const float m = fp16_to_fp32(x[b].m);
        for (int j = 0; j < QK5_1 / 2; ++j) {
            y[j] = ((x[b].qs[j] & 0x0F) | (q5_high_bit(x[b].qh, j) << 4)) * d + m;
            y[j + QK5_1 / 2] = ((x[b].qs[j] >> 4) | (q5_high_bit(x[b].qh, j + QK5_1 / 2) << 4)) * d + m;
        }
    }
}

// ---- K-quants -----------------------------------------------------------------------

void q4_K_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q4_K*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const std::uint8_t* q = x[b].qs;
        const float d = fp16_to_fp32(x[b].d);
        const float dmin = fp16_to_fp32(x[b].dmin);
        int is = 0;
        for (int j = 0; j < QK_K; j += 64) {
            std::uint8_t sc, m;
            q4_K_scale_min(is + 0, x[b].scales, sc, m);
            const float d1 = d * sc, m1 = dmin * m;
            q4_K_scale_min(is + 1, x[b].scales, sc, m);
            const float d2 = d * sc, m2 = dmin * m;
            for (int l = 0; l < 32; ++l) *y++ = d1 * (q[l] & 0xF) - m1;
            for (int l = 0; l < 32; ++l) *y++ = d2 * (q[l] >> 4) - m2;
            q += 32;
            is += 2;
        }
    }
}

void q5_K_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q5_K*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const std::uint8_t* ql = x[b].qs;
        const std::uint8_t* qh = x[b].qh;
        const float d = fp16_to_fp32(x[b].d);
        const float dmin = fp16_to_fp32(x[b].dmin);
        int is = 0;
        std::uint8_t u1 = 1, u2 = 2;
        for (int j = 0; j < QK_K; j += 64) {
            std::uint8_t sc, m;
            q4_K_scale_min(is + 0, x[b].scales, sc, m);
            const float d1 = d * sc, m1 = dmin * m;
            q4_K_scale_min(is + 1, x[b].scales, sc, m);
            const float d2 = d * sc, m2 = dmin * m;
            for (int l = 0; l < 32; ++l) *y++ = d1 * ((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1;
            for (int l = 0; l < 32; ++l) *y++ = d2 * ((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
            ql += 32;
            is += 2;
            u1 <<= 2;
            u2 <<= 2;
        }
    }
}

void q6_K_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q6_K*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const float d = fp16_to_fp32(x[b].d);
        const std::uint8_t* ql = x[b].ql;
        const std::uint8_t* qh = x[b].qh;
        const std::int8_t* sc = x[b].scales;
        for (int part = 0; part < QK_K; part += 128) {
            for (int l = 0; l < 32; ++l) {
                const int is = l / 16;
                const int q1 = static_cast<int>((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
                const int q2 = static_cast<int>((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                const int q3 = static_cast<int>((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                const int q4 = static_cast<int>((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                y[l] = d * sc[is + 0] * q1;
                y[l + 32] = d * sc[is + 2] * q2;
                y[l + 64] = d * sc[is + 4] * q3;
                y[l + 96] = d * sc[is + 6] * q4;
            }
            y += 128;
            ql += 64;
            qh += 32;
            sc += 8;
        }
    }
}


// ---- 2- and 3-bit K-quants ----------------------------------------------------------

void q2_K_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q2_K*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b, y += QK_K) {
        const float d = fp16_to_fp32(x[b].d);
        const float dmin = fp16_to_fp32(x[b].dmin);
        for (int e = 0; e < QK_K; ++e) {
            const int h = e / 128, s = (e / 32) % 4, l = e % 32;
            const int q = (x[b].qs[32 * h + l] >> (2 * s)) & 3;
            const std::uint8_t sc = x[b].scales[e / 16];
            const float dl = d * static_cast<float>(sc & 0xF);
            const float ml = dmin * static_cast<float>(sc >> 4);
            y[e] = dl * static_cast<float>(q) - ml;
        }
    }
}

void q3_K_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q3_K*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b, y += QK_K) {
        const float d = fp16_to_fp32(x[b].d);
        for (int e = 0; e < QK_K; ++e) {
            const int h = e / 128, s = (e / 32) % 4, l = e % 32;
            const int low = (x[b].qs[32 * h + l] >> (2 * s)) & 3;
            const int bit = (x[b].hmask[l] >> (e / 32)) & 1;
            const int q = low - (bit ? 0 : 4);
            const float dl = d * static_cast<float>(q3_K_scale(x[b].scales, e / 16));
            y[e] = dl * static_cast<float>(q);
        }
    }
}

// ---- non-linear 4-bit -----------------------------------------------------------------

void iq4_nl_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_iq4_nl*>(vx);
    for (std::int64_t b = 0; b < n / QK4_NL; ++b, y += QK4_NL) {
        const float d = fp16_to_fp32(x[b].d);
        for (int j = 0; j < QK4_NL / 2; ++j) {
            y[j] = d * static_cast<float>(k_iq4_values[x[b].qs[j] & 0xF]);
            y[j + QK4_NL / 2] = d * static_cast<float>(k_iq4_values[x[b].qs[j] >> 4]);
        }
    }
}

void iq4_xs_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_iq4_xs*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const float d = fp16_to_fp32(x[b].d);
        for (int ib = 0; ib < QK_K / 32; ++ib, y += 32) {
            const float dl = d * static_cast<float>(iq4_xs_scale(x[b], ib));
            const std::uint8_t* qs = x[b].qs + 16 * ib;
            for (int j = 0; j < 16; ++j) {
                y[j] = dl * static_cast<float>(k_iq4_values[qs[j] & 0xF]);
                y[j + 16] = dl * static_cast<float>(k_iq4_values[qs[j] >> 4]);
            }
        }
    }
}

}  // namespace kvlens::quant
