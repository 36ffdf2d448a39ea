// SPDX-License-Identifier: Apache-2.0
// The rows8 kernels on every AVX2 CPU (rows8_kernels_body.h and
// rows8_k_quant_kernels_body.h with maddubs), the choice between them and
// the AVX-VNNI ones (kernels_rows8_avxvnni.cpp), and the activation
// expansion. Compiled for AVX2 by a target pragma only, like
// kernels_avx2.cpp; called only where rows8_applies() said AVX2 is active.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/rows8.h"
#include "engine/quant/quant_blocks.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")

namespace kvlens {
namespace {

namespace maddubs {
constexpr bool k_vnni = false;
#include "engine/backend/cpu/rows8_kernels_body.h"
#include "engine/backend/cpu/rows8_k_quant_kernels_body.h"
}  // namespace maddubs

}  // namespace

row_group_fn rows8_kernel_for(ggml_type t) {
    if (avx_vnni_usable()) return rows8_vnni_kernel_for(t);
    if (const row_group_fn f = maddubs::kernel_for(t)) return f;
    return maddubs::k_quant_kernel_for(t);
}

void rows8_expand_activations(ggml_type act_type, const std::uint8_t* q, std::int64_t nb, std::uint8_t* a) {
    const bool q8_1 = act_type == ggml_type::q8_1;
    const std::int64_t block = q8_1 ? sizeof(block_q8_1) : sizeof(block_q8_0);
    const int qs_at = q8_1 ? 4 : 2;
    for (std::int64_t b = 0; b < nb; ++b) {
        const std::uint8_t* qs = q + b * block + qs_at;
        for (int k = 0; k < 8; ++k) {
            std::int32_t four;
            std::memcpy(&four, qs + 4 * k, 4);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + b * k_rows8_act_block_bytes + 32 * k), _mm256_set1_epi32(four));
        }
    }
}

}  // namespace kvlens

#pragma GCC pop_options
