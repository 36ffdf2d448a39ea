// SPDX-License-Identifier: Apache-2.0
// SIMD silu and RMS norm (ops_simd.h), for AVX2 and AVX-512:
// one body (ops_simd_body.h) compiled for each instruction set by
// simd_instantiate.h, against that set's vector type (simd_vec_*.h).
#include "engine/backend/cpu/ops_simd.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "engine/backend/cpu/kernels.h"

#define KVLENS_SIMD_BODY "engine/backend/cpu/ops_simd_body.h"
#define KVLENS_SIMD_NS_AVX2 ops_avx2
#define KVLENS_SIMD_NS_AVX512 ops_avx512
#include "engine/backend/cpu/simd_instantiate.h"

namespace kvlens {

silu_mul_fn silu_mul_kernel() {
    const char* level = cpu_kernel_level();
    if (std::strcmp(level, "avx512") == 0) return ops_avx512::silu_mul;
    if (std::strcmp(level, "avx2") == 0) return ops_avx2::silu_mul;
    return nullptr;
}

rms_norm_fn rms_norm_kernel() {
    const char* level = cpu_kernel_level();
    if (std::strcmp(level, "avx512") == 0) return ops_avx512::rms_norm;
    if (std::strcmp(level, "avx2") == 0) return ops_avx2::rms_norm;
    return nullptr;
}

}  // namespace kvlens
