// SPDX-License-Identifier: Apache-2.0
// The CPU kernel table: for each weight type, the activation format its dot
// product pairs with (activations are quantized to 8-bit blocks matching the
// weights' blocks, as llama.cpp's CPU path does), the row converters and the
// dot product. Chosen once at start-up by CPU features (AVX-512, AVX2, scalar).
#pragma once

#include <cstdint>

#include "engine/gguf/gguf_types.h"
#include "engine/quant/quant_formats.h"   // from_float_fn, to_float_fn, row_bytes

namespace kvlens {

// Dot product of one weight row and one activation row of n elements.
using vec_dot_fn = float (*)(std::int64_t n, const void* w, const void* a);

struct weight_kernels {
    ggml_type vec_dot_type = ggml_type::f32;  // how activations are stored for vec_dot
    to_float_fn to_float = nullptr;           // dequantize a weight row
    vec_dot_fn vec_dot = nullptr;             // nullptr: this type cannot be multiplied
};

// nullptr when the weight type is not supported for matrix products.
const weight_kernels* kernels_for(ggml_type weight_type);
// Quantizer producing activations in `act_type` (an entry's vec_dot_type).
from_float_fn from_float_for(ggml_type act_type);
// Any supported type to floats (embeddings, norms); nullptr if unsupported.
to_float_fn to_float_for(ggml_type type);

// "avx512", "avx2" or "scalar": what the table uses on this CPU (the best it
// has, or a lower level named by the environment variable KVLENS_KERNELS).
const char* cpu_kernel_level();
// Forces a level for tests ("scalar", "avx2", "avx512"); false if the CPU lacks it.
bool set_cpu_kernel_level(const char* level);

// Bit `bit` of CPUID leaf 7, sub-leaf 1, EAX: the features GCC 12's
// __builtin_cpu_supports misses (4: AVX-VNNI, 5: AVX512_BF16).
bool cpuid_7_1_eax_bit(int bit);

// Whether the AVX2 rows8 kernels use AVX-VNNI's vpdpbusd (the CPU has it,
// the environment variable KVLENS_NO_AVX_VNNI is unset, and tests have not
// turned it off); the kernel level is unchanged either way.
bool avx_vnni_usable();
// Tests: false turns the AVX-VNNI kernels off (true: back on where the CPU has them).
void set_avx_vnni_allowed(bool allowed);

// The scalar reference kernels, for tests comparing SIMD against them.
namespace scalar {
const weight_kernels* kernels_for(ggml_type weight_type);
from_float_fn from_float_for(ggml_type act_type);
}  // namespace scalar

}  // namespace kvlens
