// SPDX-License-Identifier: Apache-2.0
// The instruction sets of the SIMD files, named once: a region between
// KVLENS_SIMD_BEGIN_AVX2 / KVLENS_SIMD_END_AVX2 is compiled for AVX2 + FMA + F16C,
// one between KVLENS_SIMD_BEGIN_AVX512 / KVLENS_SIMD_END_AVX512 for AVX-512
// (F, BW, VL, DQ, VNNI: the "avx512" kernel level requires them all) as well, whatever the file's own flags (GCC; clang ignores
// the pragma, so the build gives those files the flags file-wide). In the
// AVX-512 region GCC's (maybe-)uninitialized warnings are off: they fire on
// the intrinsics' own headers.
#pragma once

#define KVLENS_SIMD_BEGIN_AVX2 \
    _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,fma,f16c\")")
#define KVLENS_SIMD_END_AVX2 _Pragma("GCC pop_options")

#define KVLENS_SIMD_BEGIN_AVX512                                                        \
    _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx2,fma,f16c\")") \
        _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wuninitialized\"")                 \
            _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#define KVLENS_SIMD_END_AVX512 _Pragma("GCC diagnostic pop") _Pragma("GCC pop_options")
