// SPDX-License-Identifier: Apache-2.0
// The tile-streaming attention job (attention_simd.h) for AVX2 and AVX-512:
// one body (attention_simd_body.h) compiled for each instruction set by
// simd_instantiate.h, against that set's vector type (simd_vec_*.h, shared
// with ops_simd.cpp).
#include "engine/backend/cpu/attention_simd.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "engine/backend/cpu/kernels.h"
#include "common/fp16.h"

#define KVLENS_SIMD_BODY "engine/backend/cpu/attention_simd_body.h"
#define KVLENS_SIMD_NS_AVX2 flash_avx2
#define KVLENS_SIMD_NS_AVX512 flash_avx512
#include "engine/backend/cpu/simd_instantiate.h"

namespace kvlens {

flash_job_fn flash_job_kernel(int head_dim) {
    const char* level = cpu_kernel_level();
    if (std::strcmp(level, "avx512") == 0 && head_dim % 64 == 0) return flash_avx512::flash_job_any;
    if (std::strcmp(level, "avx2") == 0 && head_dim % 32 == 0) return flash_avx2::flash_job_any;
    return nullptr;
}

}  // namespace kvlens
