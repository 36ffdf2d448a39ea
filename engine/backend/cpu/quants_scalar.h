// SPDX-License-Identifier: Apache-2.0
// Declarations of the scalar reference dot products (quants_scalar.cpp); the
// scalar row converters are in engine/quant/quant_formats.h.
#pragma once

#include <cstdint>

namespace kvlens::scalar_impl {

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
float dot_q2_K_q8_K(std::int64_t n, const void* w, const void* a);
float dot_q3_K_q8_K(std::int64_t n, const void* w, const void* a);
float dot_iq4_xs_q8_K(std::int64_t n, const void* w, const void* a);
float dot_iq4_nl_q8_0(std::int64_t n, const void* w, const void* a);
// The 1- to 3-bit types and MXFP4 (quants_scalar_low_bit.cpp).
float dot_iq2_xxs_q8_K(std::int64_t n, const void* w, const void* a);
float dot_iq2_xs_q8_K(std::int64_t n, const void* w, const void* a);
float dot_iq2_s_q8_K(std::int64_t n, const void* w, const void* a);
float dot_iq3_xxs_q8_K(std::int64_t n, const void* w, const void* a);
float dot_iq3_s_q8_K(std::int64_t n, const void* w, const void* a);
float dot_iq1_s_q8_K(std::int64_t n, const void* w, const void* a);
float dot_iq1_m_q8_K(std::int64_t n, const void* w, const void* a);
float dot_tq1_0_q8_K(std::int64_t n, const void* w, const void* a);
float dot_tq2_0_q8_K(std::int64_t n, const void* w, const void* a);
float dot_mxfp4_q8_0(std::int64_t n, const void* w, const void* a);

}  // namespace kvlens::scalar_impl
