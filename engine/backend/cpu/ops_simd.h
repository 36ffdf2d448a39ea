// SPDX-License-Identifier: Apache-2.0
// SIMD versions of the forward pass's hot non-matmul work: RMS norm and
// SwiGLU's silu (attention has its own, attention_simd.h). Chosen by the
// active kernel level; nullptr at the scalar level. Numerics as the scalar
// code: exp is a polynomial accurate to about 1 ulp; sums of squares in double.
#pragma once

#include <cstdint>

namespace kvlens {

// y (n) = silu(gate) * up; y may alias gate.
using silu_mul_fn = void (*)(const float* gate, const float* up, float* y, std::int64_t n);

// y (n) = x / sqrt(mean(x^2) + eps) * weight (n); y may alias x.
using rms_norm_fn = void (*)(const float* x, const float* weight, float* y, std::int64_t n, float eps);

silu_mul_fn silu_mul_kernel();          // nullptr: use the scalar loop
rms_norm_fn rms_norm_kernel();          // nullptr: use the scalar loop

}  // namespace kvlens
