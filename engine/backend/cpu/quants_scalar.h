// SPDX-License-Identifier: Apache-2.0
// Declarations of the scalar reference kernels (quants_scalar.cpp).
#pragma once

#include <cstdint>

namespace kvlens::scalar_impl {

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
void q4_K_to_float(const void* x, float* y, std::int64_t n);
void q5_K_to_float(const void* x, float* y, std::int64_t n);
void q6_K_to_float(const void* x, float* y, std::int64_t n);

float dot_f32(std::int64_t n, const void* w, const void* a);
float dot_f16(std::int64_t n, const void* w, const void* a);
float dot_bf16(std::int64_t n, const void* w, const void* a);
float dot_q4_0_q8_0(std::int64_t n, const void* w, const void* a);
float dot_q4_1_q8_1(std::int64_t n, const void* w, const void* a);
float dot_q5_0_q8_0(std::int64_t n, const void* w, const void* a);
float dot_q5_1_q8_1(std::int64_t n, const void* w, const void* a);
float dot_q8_0_q8_0(std::int64_t n, const void* w, const void* a);
float dot_q4_K_q8_K(std::int64_t n, const void* w, const void* a);
float dot_q5_K_q8_K(std::int64_t n, const void* w, const void* a);
float dot_q6_K_q8_K(std::int64_t n, const void* w, const void* a);

}  // namespace kvlens::scalar_impl
