// SPDX-License-Identifier: Apache-2.0
// The rows8 kernels with AVX-VNNI's vpdpbusd (rows8_kernels_body.h and
// rows8_k_quant_kernels_body.h with k_vnni true): 4 byte products added
// straight into each int32 lane, where maddubs and madd take two
// instructions and a run bounded by int16. Compiled for AVX2 + AVX-VNNI by
// a target pragma only; rows8_kernel_for calls these only where
// avx_vnni_usable() said the CPU has it.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "engine/backend/cpu/rows8.h"
#include "engine/quant/quant_blocks.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,avxvnni")

namespace kvlens {
namespace {

namespace vnni {
constexpr bool k_vnni = true;
#include "engine/backend/cpu/rows8_kernels_body.h"
#include "engine/backend/cpu/rows8_k_quant_kernels_body.h"
}  // namespace vnni

}  // namespace

row_group_fn rows8_vnni_kernel_for(ggml_type t) {
    if (const row_group_fn f = vnni::kernel_for(t)) return f;
    return vnni::k_quant_kernel_for(t);
}

}  // namespace kvlens

#pragma GCC pop_options
