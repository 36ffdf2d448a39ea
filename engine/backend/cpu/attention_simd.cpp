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
#include <numeric>

#include "common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/query_i16.h"
#include "engine/kv/kv_codec.h"

#define KVLENS_SIMD_BODY "engine/backend/cpu/attention_simd_body.h"
#define KVLENS_SIMD_NS_AVX2 flash_avx2
#define KVLENS_SIMD_NS_AVX512 flash_avx512
#include "engine/backend/cpu/simd_instantiate.h"

namespace kvlens {

namespace {

// The job for the active level and head size, and its vectors' f32 lanes ({nullptr, 1}: none).
struct flash_kernel {
    flash_job_fn job;
    int width;
};

flash_kernel flash_kernel_for(int head_dim) {
    const char* level = cpu_kernel_level();
    if (std::strcmp(level, "avx512") == 0 && head_dim % 64 == 0) return {flash_avx512::flash_job_any, 16};
    if (std::strcmp(level, "avx2") == 0 && head_dim % 32 == 0) return {flash_avx2::flash_job_any, 8};
    return {nullptr, 1};
}

}  // namespace

flash_job_fn flash_job_kernel(int head_dim) { return flash_kernel_for(head_dim).job; }

int flash_job_width(int head_dim) { return flash_kernel_for(head_dim).width; }

int flash_block_rows(int group, int width) {
    constexpr int k_min_rows = 24;
    // AVX-512's 32 registers hold 6 row registers' scores (4 keys x 6 + 6 + 1)
    // and take blocks of at least 80 rows: each decoded tile then serves twice
    // the rows. SmolLM2 (96 rows against 48), prefill attention alone at
    // d4096 (bench --attention -p 512), 2 threads, alternated: 262-278
    // against 242-252 GFLOP/s.
    const int max_registers = width >= 16 ? 6 : 4, min_lane_rows = width >= 16 ? 80 : k_min_rows;
    const int step = std::lcm(group, width);
    if (width > 1 && step <= max_registers * width) {
        const int rows = (min_lane_rows + step - 1) / step * step;
        if (rows <= max_registers * width) return rows;
    }
    return std::max(1, k_min_rows / group) * group;
}

}  // namespace kvlens
