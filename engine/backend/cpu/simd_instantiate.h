// SPDX-License-Identifier: Apache-2.0
// Compiles one SIMD body for each instruction set, in one place: the body
// (a header written against the vector type V) goes into namespace
// kvlens::<name>_avx2 under the AVX2 target with V from simd_vec_avx2.h, and
// into kvlens::<name>_avx512 under the AVX-512 target with V from
// simd_vec_avx512.h. A .cpp says what to compile and includes this:
//
//   #define KVLENS_SIMD_BODY "engine/backend/cpu/ops_simd_body.h"
//   #define KVLENS_SIMD_NS_AVX2 ops_avx2
//   #define KVLENS_SIMD_NS_AVX512 ops_avx512
//   #include "engine/backend/cpu/simd_instantiate.h"
//
// No include guard on purpose: each including file compiles its own body.
#include <immintrin.h>

#include <cstdint>

#include "engine/backend/cpu/simd_target.h"

#if !defined(KVLENS_SIMD_BODY) || !defined(KVLENS_SIMD_NS_AVX2) || !defined(KVLENS_SIMD_NS_AVX512)
#error "define KVLENS_SIMD_BODY, KVLENS_SIMD_NS_AVX2 and KVLENS_SIMD_NS_AVX512 before including simd_instantiate.h"
#endif

KVLENS_SIMD_BEGIN_AVX2
namespace kvlens::KVLENS_SIMD_NS_AVX2 {

#include "engine/backend/cpu/simd_vec_avx2.h"

#include KVLENS_SIMD_BODY

}  // namespace kvlens::KVLENS_SIMD_NS_AVX2
KVLENS_SIMD_END_AVX2

KVLENS_SIMD_BEGIN_AVX512
namespace kvlens::KVLENS_SIMD_NS_AVX512 {

#include "engine/backend/cpu/simd_vec_avx512.h"

#include KVLENS_SIMD_BODY

}  // namespace kvlens::KVLENS_SIMD_NS_AVX512
KVLENS_SIMD_END_AVX512

#undef KVLENS_SIMD_BODY
#undef KVLENS_SIMD_NS_AVX2
#undef KVLENS_SIMD_NS_AVX512
