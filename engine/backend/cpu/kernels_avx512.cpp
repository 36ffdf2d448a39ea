// SPDX-License-Identifier: Apache-2.0
// AVX-512 (F, BW, VL; VNNI where present) kernels.
#include "engine/backend/cpu/kernel_tables.h"

namespace kvlens {

simd_overrides avx512_overrides() { return {}; }
bool have_avx512_kernels() { return false; }

}  // namespace kvlens
