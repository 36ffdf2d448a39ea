// SPDX-License-Identifier: Apache-2.0
// How SIMD kernel files plug into the kernel table: each returns the entries it
// overrides. Their kernels pick instruction sets per function (#pragma GCC
// target), and a table is used only after the CPU was found to support it.
#pragma once

#include <vector>

#include "engine/backend/cpu/kernels.h"

namespace kvlens {

struct simd_overrides {
    struct from_float_entry { ggml_type type; from_float_fn fn; };
    struct to_float_entry { ggml_type type; to_float_fn fn; };
    struct vec_dot_entry { ggml_type type; vec_dot_fn fn; };   // keyed by the weight type
    std::vector<from_float_entry> from_float;
    std::vector<to_float_entry> to_float;
    std::vector<vec_dot_entry> vec_dot;
};

simd_overrides avx2_overrides();     // kernels_avx2.cpp
// Appends the AVX2 dot products of the 1- to 3-bit types and MXFP4 (kernels_low_bit_avx2.cpp).
void add_low_bit_avx2_kernels(simd_overrides& o);
simd_overrides avx512_overrides();   // kernels_avx512.cpp
// Appends the AVX-512 dot products of the low-bit types that beat their AVX2 ones (kernels_low_bit_avx512.cpp).
void add_low_bit_avx512_kernels(simd_overrides& o);
bool have_avx512_kernels();          // false when the build has no AVX-512 kernels

}  // namespace kvlens
