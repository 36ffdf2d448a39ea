// SPDX-License-Identifier: Apache-2.0
// Device decoding of every weight type, 32 elements at a time: chunk c of a
// row is elements [32c, 32c + 32). One function per type, in the block
// layouts of engine/quant/quant_blocks.h; the CPU's *_to_float are the
// reference. Used by the dequantizing kernels (matvec, dequant, get_rows).
#pragma once

#include "engine/backend/cuda/common.cuh"
#include "engine/gguf/gguf_types.h"

namespace kvlens::cuda {

template <ggml_type T> struct wtype;   // bytes and elements per block

template <> struct wtype<ggml_type::f32>  { static constexpr int block = 1, bytes = 4; };
template <> struct wtype<ggml_type::f16>  { static constexpr int block = 1, bytes = 2; };
template <> struct wtype<ggml_type::bf16> { static constexpr int block = 1, bytes = 2; };
template <> struct wtype<ggml_type::q4_0> { static constexpr int block = 32, bytes = 18; };
template <> struct wtype<ggml_type::q4_1> { static constexpr int block = 32, bytes = 20; };
template <> struct wtype<ggml_type::q8_0> { static constexpr int block = 32, bytes = 34; };
template <> struct wtype<ggml_type::q5_0> { static constexpr int block = 32, bytes = 22; };
template <> struct wtype<ggml_type::q5_1> { static constexpr int block = 32, bytes = 24; };
template <> struct wtype<ggml_type::iq4_nl> { static constexpr int block = 32, bytes = 18; };
template <> struct wtype<ggml_type::q4_K> { static constexpr int block = 256, bytes = 144; };
template <> struct wtype<ggml_type::q5_K> { static constexpr int block = 256, bytes = 176; };
template <> struct wtype<ggml_type::q6_K> { static constexpr int block = 256, bytes = 210; };
template <> struct wtype<ggml_type::q2_K> { static constexpr int block = 256, bytes = 84; };
template <> struct wtype<ggml_type::q3_K> { static constexpr int block = 256, bytes = 110; };
template <> struct wtype<ggml_type::iq4_xs> { static constexpr int block = 256, bytes = 136; };

// The j-th six-bit scale and minimum of a q4_K / q5_K super-block.
__device__ __forceinline__ void scale_min_k4(int j, const std::uint8_t* q, int& d, int& m) {
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
        m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}

// out (32) f32 = elements [32c, 32c + 32) of the row.
template <ggml_type T> __device__ void dequant32(const std::uint8_t* row, int c, float* out);

template <> __device__ __forceinline__ void dequant32<ggml_type::f32>(const std::uint8_t* row, int c, float* out) {
    const float4* p = reinterpret_cast<const float4*>(row) + 8 * c;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const float4 v = p[i];
        out[4 * i] = v.x; out[4 * i + 1] = v.y; out[4 * i + 2] = v.z; out[4 * i + 3] = v.w;
    }
}

template <> __device__ __forceinline__ void dequant32<ggml_type::f16>(const std::uint8_t* row, int c, float* out) {
    const uint4* p = reinterpret_cast<const uint4*>(row + 64 * c);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const uint4 v = p[i];
        const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const float2 f = __half22float2(*reinterpret_cast<const __half2*>(&w[k]));
            out[8 * i + 2 * k] = f.x;
            out[8 * i + 2 * k + 1] = f.y;
        }
    }
}

template <> __device__ __forceinline__ void dequant32<ggml_type::bf16>(const std::uint8_t* row, int c, float* out) {
    const uint4* p = reinterpret_cast<const uint4*>(row + 64 * c);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const uint4 v = p[i];
        const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            out[8 * i + 2 * k] = __uint_as_float(w[k] << 16);
            out[8 * i + 2 * k + 1] = __uint_as_float(w[k] & 0xFFFF0000u);
        }
    }
}

template <> __device__ __forceinline__ void dequant32<ggml_type::q4_0>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 18 * c;
    const float d = load_f16(b);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int q = load_int_b2(b + 2, i);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int byte = (q >> (8 * k)) & 0xFF;
            out[4 * i + k] = static_cast<float>((byte & 0xF) - 8) * d;
            out[16 + 4 * i + k] = static_cast<float>((byte >> 4) - 8) * d;
        }
    }
}

template <> __device__ __forceinline__ void dequant32<ggml_type::q4_1>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 20 * c;
    const float d = load_f16(b), m = load_f16(b + 2);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int q = load_int_b4(b + 4, i);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int byte = (q >> (8 * k)) & 0xFF;
            out[4 * i + k] = static_cast<float>(byte & 0xF) * d + m;
            out[16 + 4 * i + k] = static_cast<float>(byte >> 4) * d + m;
        }
    }
}

template <> __device__ __forceinline__ void dequant32<ggml_type::q8_0>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 34 * c;
    const float d = load_f16(b);
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int q = load_int_b2(b + 2, i);
#pragma unroll
        for (int k = 0; k < 4; ++k) out[4 * i + k] = static_cast<float>(static_cast<std::int8_t>(q >> (8 * k))) * d;
    }
}

template <> __device__ __forceinline__ void dequant32<ggml_type::q4_K>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 144 * (c / 8);
    const int sub = c % 8;
    const float d = load_f16(b), dmin = load_f16(b + 2);
    int sc, m;
    scale_min_k4(sub, b + 4, sc, m);
    const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(m);
    const std::uint8_t* q = b + 16 + 32 * (sub / 2);
    const int shift = 4 * (sub % 2);
#pragma unroll
    for (int l = 0; l < 32; ++l) out[l] = d1 * static_cast<float>((q[l] >> shift) & 0xF) - m1;
}

template <> __device__ __forceinline__ void dequant32<ggml_type::q5_K>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 176 * (c / 8);
    const int sub = c % 8;
    const float d = load_f16(b), dmin = load_f16(b + 2);
    int sc, m;
    scale_min_k4(sub, b + 4, sc, m);
    const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(m);
    const std::uint8_t* qh = b + 16;
    const std::uint8_t* ql = b + 48 + 32 * (sub / 2);
    const int shift = 4 * (sub % 2);
    const int u = 1 << sub;   // high bit of sub-block `sub` (2j + hi)
#pragma unroll
    for (int l = 0; l < 32; ++l)
        out[l] = d1 * static_cast<float>(((ql[l] >> shift) & 0xF) + ((qh[l] & u) ? 16 : 0)) - m1;
}

template <> __device__ __forceinline__ void dequant32<ggml_type::q6_K>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 210 * (c / 8);
    const int sub = c % 8;
    const int part = sub / 4, k = sub % 4;
    const std::uint8_t* ql = b + 64 * part + ((k & 1) ? 32 : 0);
    const std::uint8_t* qh = b + 128 + 32 * part;
    const std::int8_t* sc = reinterpret_cast<const std::int8_t*>(b + 192) + 8 * part + 2 * k;
    const float d = load_f16(b + 208);
    const int lshift = (k >= 2) ? 4 : 0;
#pragma unroll
    for (int l = 0; l < 32; ++l) {
        const int q = ((ql[l] >> lshift) & 0xF) | (((qh[l] >> (2 * k)) & 3) << 4);
        out[l] = d * static_cast<float>(sc[l / 16]) * static_cast<float>(q - 32);
    }
}

// q5_0 / q5_1: nibbles as q4_0, bit 4 of element j is bit j of qh (little-endian).
template <bool has_min>
__device__ __forceinline__ void dequant32_q5(const std::uint8_t* b, float* out) {
    const float d = load_f16(b);
    const float m = has_min ? load_f16(b + 2) : 0.0f;
    const std::uint8_t* qh = b + (has_min ? 4 : 2);
    const std::uint8_t* qs = qh + 4;
    const std::uint32_t h = static_cast<std::uint32_t>(qh[0]) | (static_cast<std::uint32_t>(qh[1]) << 8) |
                            (static_cast<std::uint32_t>(qh[2]) << 16) | (static_cast<std::uint32_t>(qh[3]) << 24);
#pragma unroll
    for (int l = 0; l < 16; ++l) {
        const int q0 = (qs[l] & 0xF) | (((h >> l) & 1) << 4);
        const int q1 = (qs[l] >> 4) | (((h >> (l + 16)) & 1) << 4);
        out[l] = has_min ? static_cast<float>(q0) * d + m : static_cast<float>(q0 - 16) * d;
        out[16 + l] = has_min ? static_cast<float>(q1) * d + m : static_cast<float>(q1 - 16) * d;
    }
}

template <> __device__ __forceinline__ void dequant32<ggml_type::q5_0>(const std::uint8_t* row, int c, float* out) {
    dequant32_q5<false>(row + 22 * c, out);
}

template <> __device__ __forceinline__ void dequant32<ggml_type::q5_1>(const std::uint8_t* row, int c, float* out) {
    dequant32_q5<true>(row + 24 * c, out);
}

// q2_K: element e = 32 sub + l of a super-block is bits 2 (sub % 4) of
// qs[32 (sub / 4) + l]; scales[e / 16]: low nibble scale, high nibble minimum.
template <> __device__ __forceinline__ void dequant32<ggml_type::q2_K>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 84 * (c / 8);
    const int sub = c % 8;
    const float d = load_f16(b + 80), dmin = load_f16(b + 82);
    const std::uint8_t* qs = b + 16 + 32 * (sub / 4);
    const int shift = 2 * (sub % 4);
#pragma unroll
    for (int l = 0; l < 32; ++l) {
        const int sc = b[2 * sub + l / 16];
        out[l] = d * static_cast<float>(sc & 0xF) * static_cast<float>((qs[l] >> shift) & 3) -
                 dmin * static_cast<float>(sc >> 4);
    }
}

// q3_K: q2_K's 2-bit quants minus 4 where bit sub of hmask[l] is clear,
// times a signed 6-bit scale (low nibbles in scales[0..8), high bits in 8..12).
template <> __device__ __forceinline__ void dequant32<ggml_type::q3_K>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 110 * (c / 8);
    const int sub = c % 8;
    const std::uint8_t* hmask = b;
    const std::uint8_t* qs = b + 32 + 32 * (sub / 4);
    const std::uint8_t* scales = b + 96;
    const float d = load_f16(b + 108);
    const int shift = 2 * (sub % 4);
#pragma unroll
    for (int half = 0; half < 2; ++half) {
        const int i = 2 * sub + half;
        const int low = (scales[i % 8] >> (4 * (i / 8))) & 0xF;
        const int high = (scales[8 + i % 4] >> (2 * (i / 4))) & 3;
        const float dl = d * static_cast<float>((low | (high << 4)) - 32);
#pragma unroll
        for (int k = 0; k < 16; ++k) {
            const int l = 16 * half + k;
            const int q = ((qs[l] >> shift) & 3) - (((hmask[l] >> sub) & 1) ? 0 : 4);
            out[l] = dl * static_cast<float>(q);
        }
    }
}

// The sixteen levels of iq4_nl / iq4_xs (k_iq4_values).
__device__ __forceinline__ float iq4_level(int q) {
    const signed char levels[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
    return static_cast<float>(levels[q]);
}

template <> __device__ __forceinline__ void dequant32<ggml_type::iq4_nl>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 18 * c;
    const float d = load_f16(b);
#pragma unroll
    for (int l = 0; l < 16; ++l) {
        out[l] = d * iq4_level(b[2 + l] & 0xF);
        out[16 + l] = d * iq4_level(b[2 + l] >> 4);
    }
}

// iq4_xs: sub-block ib of 32 in iq4_nl's nibble order at qs[16 ib], scaled by
// d * (ls - 32), ls = 4 bits of scales_l[ib / 2] | 2 bits of scales_h << 4.
template <> __device__ __forceinline__ void dequant32<ggml_type::iq4_xs>(const std::uint8_t* row, int c, float* out) {
    const std::uint8_t* b = row + 136 * (c / 8);
    const int ib = c % 8;
    const float d = load_f16(b);
    const int scales_h = b[2] | (b[3] << 8);
    const int ls = ((b[4 + ib / 2] >> (4 * (ib % 2))) & 0xF) | (((scales_h >> (2 * ib)) & 3) << 4);
    const float dl = d * static_cast<float>(ls - 32);
    const std::uint8_t* qs = b + 8 + 16 * ib;
#pragma unroll
    for (int l = 0; l < 16; ++l) {
        out[l] = dl * iq4_level(qs[l] & 0xF);
        out[16 + l] = dl * iq4_level(qs[l] >> 4);
    }
}

// Runs BODY with the constexpr ggml_type T bound to t, for every supported
// weight type; unsupported types run nothing. (C++17: the CUDA sources build
// as C++17, see CMakeLists.txt.)
#define KVLENS_WEIGHT_TYPE_SWITCH(t, BODY)                                                   \
    switch (t) {                                                                            \
    case ::kvlens::ggml_type::f32: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::f32; BODY; } break;   \
    case ::kvlens::ggml_type::f16: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::f16; BODY; } break;   \
    case ::kvlens::ggml_type::bf16: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::bf16; BODY; } break; \
    case ::kvlens::ggml_type::q4_0: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q4_0; BODY; } break; \
    case ::kvlens::ggml_type::q4_1: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q4_1; BODY; } break; \
    case ::kvlens::ggml_type::q8_0: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q8_0; BODY; } break; \
    case ::kvlens::ggml_type::q4_K: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q4_K; BODY; } break; \
    case ::kvlens::ggml_type::q5_K: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q5_K; BODY; } break; \
    case ::kvlens::ggml_type::q6_K: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q6_K; BODY; } break; \
    case ::kvlens::ggml_type::q5_0: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q5_0; BODY; } break; \
    case ::kvlens::ggml_type::q5_1: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q5_1; BODY; } break; \
    case ::kvlens::ggml_type::q2_K: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q2_K; BODY; } break; \
    case ::kvlens::ggml_type::q3_K: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::q3_K; BODY; } break; \
    case ::kvlens::ggml_type::iq4_nl: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::iq4_nl; BODY; } break; \
    case ::kvlens::ggml_type::iq4_xs: { constexpr ::kvlens::ggml_type T = ::kvlens::ggml_type::iq4_xs; BODY; } break; \
    default: break;                                                                         \
    }

}  // namespace kvlens::cuda
