// SPDX-License-Identifier: Apache-2.0
// Row codecs of the KV cache: one token's K (or V) row of one layer, n floats,
// to and from its stored form. The attention kernels read the stored form
// directly; these are the reference and the CPU path.
//
// Stored forms:
//   f16:  n x uint16_t, IEEE half                              (2 bytes per element)
//   q8_0: n/32 blocks of { uint16_t d (f16), int8_t q[32] },  value = d * q
//         (GGUF's Q8_0 layout: 34 bytes per 32 elements; n must be a multiple of 32)
//   f32:  n x float, as computed (short-convolution state rows, kv_types.h)
#pragma once

#include <cstdint>

#include "engine/kv/kv_types.h"

namespace kvlens {

inline constexpr int q8_0_block_elems = 32;  // elements per q8_0 block
inline constexpr int q8_0_block_bytes = 34;  // 2 (f16 d) + 32 (int8 q)

// Whether a row of n elements can be stored in dtype (n > 0; q8_0: n % 32 == 0).
bool row_elems_valid(kv_dtype dtype, int n);

// Bytes of a stored row of n elements (n valid for dtype).
std::int64_t row_bytes(kv_dtype dtype, int n);

// Encodes src (n floats) into dst (row_bytes(dtype, n) bytes).
// q8_0, per 32 elements: d = max|x| / 127 rounded to f16, q = round(x / d)
// clamped to [-127, 127]; |x - d*q| <= d/2 for d in half's normal range.
// Returns false (and writes nothing) when n is not valid for dtype.
bool store_row(kv_dtype dtype, const float* src, std::uint8_t* dst, int n);

// Decodes src (row_bytes(dtype, n) bytes) into dst (n floats).
// Returns false (and writes nothing) when n is not valid for dtype.
bool load_row(kv_dtype dtype, const std::uint8_t* src, float* dst, int n);

}  // namespace kvlens
