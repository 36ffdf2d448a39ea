// SPDX-License-Identifier: Apache-2.0
// The tensor types' formats as code: for each type, the reference (scalar)
// converters between f32 and its block layout (quant_blocks.h), and the bytes
// of a row. The model converts norms and checks embeddings with these; the
// backends start their kernel tables from them and test their own kernels
// against them. Which types can be *multiplied* is a backend's business
// (backend/cpu/kernels.h); which the model accepts is engine/model/matrix_types.h.
#pragma once

#include <cstdint>

#include "engine/gguf/gguf_types.h"

namespace kvlens {

// dst = row of n values in the type's block layout, from n floats (n % block == 0).
using from_float_fn = void (*)(const float* src, void* dst, std::int64_t n);
// n floats from a row in the type's layout.
using to_float_fn = void (*)(const void* src, float* dst, std::int64_t n);

// Bytes of a row of n elements of type t (n a multiple of the block size).
std::int64_t row_bytes(ggml_type t, std::int64_t n);

namespace quant {

// The reference dequantizer of a type; nullptr for a type with none.
to_float_fn reference_to_float(ggml_type t);
// The reference quantizer of a type; nullptr for a type with none (the
// K-quant weight types are read, never written, except q8_K activations).
from_float_fn reference_from_float(ggml_type t);

// The converters, one pair per type (quant_convert.cpp).
void f32_from_float(const float* x, void* y, std::int64_t n);
void f32_to_float(const void* x, float* y, std::int64_t n);
void f16_from_float(const float* x, void* y, std::int64_t n);
void f16_to_float(const void* x, float* y, std::int64_t n);
void bf16_from_float(const float* x, void* y, std::int64_t n);
void bf16_to_float(const void* x, float* y, std::int64_t n);
void q8_0_from_float(const float* x, void* y, std::int64_t n);
void q8_0_to_float(const void* x, float* y, std::int64_t n);
void q8_1_from_float(const float* x, void* y, std::int64_t n);
void q8_K_from_float(const float* x, void* y, std::int64_t n);
void q4_0_from_float(const float* x, void* y, std::int64_t n);
void q4_0_to_float(const void* x, float* y, std::int64_t n);
void q4_1_from_float(const float* x, void* y, std::int64_t n);
void q4_1_to_float(const void* x, float* y, std::int64_t n);
void q5_0_from_float(const float* x, void* y, std::int64_t n);
void q5_0_to_float(const void* x, float* y, std::int64_t n);
void q5_1_from_float(const float* x, void* y, std::int64_t n);
void q5_1_to_float(const void* x, float* y, std::int64_t n);
void q2_K_to_float(const void* x, float* y, std::int64_t n);
void q3_K_to_float(const void* x, float* y, std::int64_t n);
void q4_K_to_float(const void* x, float* y, std::int64_t n);
void q5_K_to_float(const void* x, float* y, std::int64_t n);
void q6_K_to_float(const void* x, float* y, std::int64_t n);
void iq4_nl_to_float(const void* x, float* y, std::int64_t n);
void iq4_xs_to_float(const void* x, float* y, std::int64_t n);
// The 1- to 3-bit types and MXFP4 (quant_convert_low_bit.cpp).
void iq2_xxs_to_float(const void* x, float* y, std::int64_t n);
void iq2_xs_to_float(const void* x, float* y, std::int64_t n);
void iq2_s_to_float(const void* x, float* y, std::int64_t n);
void iq3_xxs_to_float(const void* x, float* y, std::int64_t n);
void iq3_s_to_float(const void* x, float* y, std::int64_t n);
void iq1_s_to_float(const void* x, float* y, std::int64_t n);
void iq1_m_to_float(const void* x, float* y, std::int64_t n);
void tq1_0_to_float(const void* x, float* y, std::int64_t n);
void tq2_0_to_float(const void* x, float* y, std::int64_t n);
void mxfp4_to_float(const void* x, float* y, std::int64_t n);

}  // namespace quant
}  // namespace kvlens
