// SPDX-License-Identifier: Apache-2.0
// The constants of the SIMD exp() in simd_vec_avx2.h and simd_vec_avx512.h,
// written once.
#pragma once

// exp(x) for x clamped to [-87.3, 88.3] (results stay normal floats):
// x = n ln2 + r, |r| <= ln2 / 2, e^r by its degree-7 Taylor polynomial
// (error below 1.7e-7 relative), times 2^n. The polynomial goes in Estrin's
// order (KVLENS_SIMD_EXP_POLY): four independent pairs, then r^2 and r^4,
// a chain of 3 multiply-adds after the pairs where Horner's order has 7. A
// softmax tile's exps are many short chains waiting in the scheduler; on
// Zen 2 the decode softmax of a 32-key tile (one thread, 3 rows a KV head)
// took 2.39 against 2.74 ns per (key, KV head) in Horner's order. Rounded
// to f16, as the attention rounds its probabilities, the two orders differ
// on 2 of 670,601 arguments in [-87, 0].
#define KVLENS_SIMD_EXP_CONSTANTS                                                   \
    constexpr float lo = -87.3f, hi = 88.3f, log2e = 1.44269504088896341f;          \
    constexpr float ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;                \
    constexpr float c[8] = {1.0f, 1.0f, 0.5f, 1.0f / 6, 1.0f / 24, 1.0f / 120,      \
                            1.0f / 720, 1.0f / 5040};

// p = e^r's polynomial at r in Estrin's order, for a vector type's
// fmadd(a, b, c) = a * b + c, mul and set1, with the constants above in scope.
#define KVLENS_SIMD_EXP_POLY(FMADD, MUL, SET1, r, p)                                 \
    do {                                                                            \
        const auto r2_ = MUL(r, r), r4_ = MUL(r2_, r2_);                            \
        const auto p01_ = FMADD(SET1(c[1]), r, SET1(c[0]));                         \
        const auto p23_ = FMADD(SET1(c[3]), r, SET1(c[2]));                         \
        const auto p45_ = FMADD(SET1(c[5]), r, SET1(c[4]));                         \
        const auto p67_ = FMADD(SET1(c[7]), r, SET1(c[6]));                         \
        p = FMADD(FMADD(p67_, r2_, p45_), r4_, FMADD(p23_, r2_, p01_));             \
    } while (0)
