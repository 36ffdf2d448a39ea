// SPDX-License-Identifier: Apache-2.0
// The constants of the SIMD exp() in simd_vec_avx2.h and simd_vec_avx512.h,
// written once.
#pragma once

// exp(x) for x clamped to [-87.3, 88.3] (results stay normal floats):
// x = n ln2 + r, |r| <= ln2 / 2, e^r by its degree-7 Taylor polynomial
// (error below 1.5e-7 relative), times 2^n.
#define KVLENS_SIMD_EXP_CONSTANTS                                                   \
    constexpr float lo = -87.3f, hi = 88.3f, log2e = 1.44269504088896341f;          \
    constexpr float ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;                \
    constexpr float c[8] = {1.0f, 1.0f, 0.5f, 1.0f / 6, 1.0f / 24, 1.0f / 120,      \
                            1.0f / 720, 1.0f / 5040};
