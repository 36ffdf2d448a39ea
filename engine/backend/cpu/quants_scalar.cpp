// SPDX-License-Identifier: Apache-2.0
// Scalar reference kernels: row quantizers, dequantizers and dot products for
// every tensor type the engine loads. These define the numerics; the SIMD
// kernels must agree with them (tests/cpu compares on random blocks).
#include <cmath>
#include <cstring>

#include "common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/quant_blocks.h"
#include "engine/backend/cpu/quants_scalar.h"

namespace kvlens::scalar_impl {

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

// Bit 4 of element j (0..31) of a q5 block.
static int high_bit(const std::uint8_t qh[4], int j) { return (qh[j / 8] >> (j % 8)) & 1; }
static void set_high_bit(std::uint8_t qh[4], int j) { qh[j / 8] = static_cast<std::uint8_t>(qh[j / 8] | (1u << (j % 8))); }

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
            if (q0 & 0x10) set_high_bit(y[b].qh, j);
            if (q1 & 0x10) set_high_bit(y[b].qh, j + QK5_0 / 2);
        }
    }
}
void q5_0_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q5_0*>(vx);
    for (std::int64_t b = 0; b < n / QK5_0; ++b, y += QK5_0) {
        const float d = fp16_to_fp32(x[b].d);
        for (int j = 0; j < QK5_0 / 2; ++j) {
            y[j] = (((x[b].qs[j] & 0x0F) | (high_bit(x[b].qh, j) << 4)) - 16) * d;
            y[j + QK5_0 / 2] = (((x[b].qs[j] >> 4) | (high_bit(x[b].qh, j + QK5_0 / 2) << 4)) - 16) * d;
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
            if (q0 & 0x10) set_high_bit(y[b].qh, j);
            if (q1 & 0x10) set_high_bit(y[b].qh, j + QK5_1 / 2);
        }
    }
}
void q5_1_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q5_1*>(vx);
    for (std::int64_t b = 0; b < n / QK5_1; ++b, y += QK5_1) {
        const float d = fp16_to_fp32(x[b].d);
        const float m = fp16_to_fp32(x[b].m);
        for (int j = 0; j < QK5_1 / 2; ++j) {
            y[j] = ((x[b].qs[j] & 0x0F) | (high_bit(x[b].qh, j) << 4)) * d + m;
            y[j + QK5_1 / 2] = ((x[b].qs[j] >> 4) | (high_bit(x[b].qh, j + QK5_1 / 2) << 4)) * d + m;
        }
    }
}

// ---- K-quants -----------------------------------------------------------------------

// The j-th six-bit scale and minimum of a q4_K/q5_K super-block.
static void scale_min_k4(int j, const std::uint8_t* q, std::uint8_t& d, std::uint8_t& m) {
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
        m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}

void q4_K_to_float(const void* vx, float* y, std::int64_t n) {
    auto* x = static_cast<const block_q4_K*>(vx);
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const std::uint8_t* q = x[b].qs;
        const float d = fp16_to_fp32(x[b].d);
        const float dmin = fp16_to_fp32(x[b].dmin);
        int is = 0;
        for (int j = 0; j < QK_K; j += 64) {
            std::uint8_t sc, m;
            scale_min_k4(is + 0, x[b].scales, sc, m);
            const float d1 = d * sc, m1 = dmin * m;
            scale_min_k4(is + 1, x[b].scales, sc, m);
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
            scale_min_k4(is + 0, x[b].scales, sc, m);
            const float d1 = d * sc, m1 = dmin * m;
            scale_min_k4(is + 1, x[b].scales, sc, m);
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
            sumi += (((w[b].qs[j] & 0x0F) | (high_bit(w[b].qh, j) << 4)) - 16) * a[b].qs[j];
            sumi += (((w[b].qs[j] >> 4) | (high_bit(w[b].qh, j + QK5_0 / 2) << 4)) - 16) * a[b].qs[j + QK5_0 / 2];
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
            sumi += ((w[b].qs[j] & 0x0F) | (high_bit(w[b].qh, j) << 4)) * a[b].qs[j];
            sumi += ((w[b].qs[j] >> 4) | (high_bit(w[b].qh, j + QK5_1 / 2) << 4)) * a[b].qs[j + QK5_1 / 2];
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

}  // namespace kvlens::scalar_impl
