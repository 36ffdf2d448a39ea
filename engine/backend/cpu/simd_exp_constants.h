// SPDX-License-Identifier: Apache-2.0
// The constants of the SIMD exp() in simd_vec_avx2.h and simd_vec_avx512.h,
// written once.
#pragma once

// exp(x) for x clamped to [-87.3, 88.3] (results stay normal floats):
// x = n ln2 + r, |r| <= ln2 / 2, e^r by a degree-5 polynomial fitted for the
// least largest relative error on that interval (Remez, the constant term
// held at 1 so that exp(0) is exactly 1), times 2^n: at most 2.6e-7
// relative in f32 (the degree-7 Taylor polynomial before it: 1.7e-7), with
// three instructions fewer. Rounded to f16, as the attention rounds its
// probabilities, it differs from correctly rounded e^x on 719 of 4.4
// million arguments in [-87, 0] (Taylor's: 322). On Zen 5 (AVX-512, 2
// threads) the q8_0 prefill attention job, whose softmax is a fifth of its
// time, went from 470 to 487 GFLOP/s (medians of 5, alternated). The
// polynomial goes in Estrin's order (KVLENS_SIMD_EXP_POLY): three
// independent pairs, then r^2, a chain of 2 multiply-adds after the pairs
// where Horner's order has 5. A softmax tile's exps are many short chains
// waiting in the scheduler; on Zen 2 the decode softmax of a 32-key tile
// (one thread, 3 rows a KV head) took 2.39 ns per (key, KV head) in
// Estrin's order against 2.74 in Horner's (degree 7).
#define KVLENS_SIMD_EXP_CONSTANTS                                                   \
    constexpr float lo = -87.3f, hi = 88.3f, log2e = 1.44269504088896341f;          \
    constexpr float ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;                \
    constexpr float c[6] = {1.0f, 9.999997020e-01f, 4.999889433e-01f,               \
                            1.666757464e-01f, 4.191538319e-02f, 8.297654800e-03f};

// p = e^r's polynomial at r in Estrin's order, for a vector type's
// fmadd(a, b, c) = a * b + c, mul and set1, with the constants above in scope.
#define KVLENS_SIMD_EXP_POLY(FMADD, MUL, SET1, r, p)                                 \
    do {                                                                            \
        const auto r2_ = MUL(r, r);                                                 \
        const auto p01_ = FMADD(SET1(c[1]), r, SET1(c[0]));                         \
        const auto p23_ = FMADD(SET1(c[3]), r, SET1(c[2]));                         \
        const auto p45_ = FMADD(SET1(c[5]), r, SET1(c[4]));                         \
        p = FMADD(FMADD(p45_, r2_, p23_), r2_, p01_);                               \
    } while (0)
