// SPDX-License-Identifier: Apache-2.0
// AVX2 + FMA + F16C kernels (compiled with -mavx2 -mfma -mf16c).
#include "engine/backend/cpu/kernel_tables.h"

namespace kvlens {

simd_overrides avx2_overrides() { return {}; }

}  // namespace kvlens
