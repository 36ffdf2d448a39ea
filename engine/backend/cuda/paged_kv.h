// SPDX-License-Identifier: Apache-2.0
// One layer of the paged KV cache as the device kernels see it, and the
// store of a batch's K/V rows into it. Layout as engine/kv/kv_storage.h:
//   k, v: (n_blocks, block_size, n_kv_heads * head_dim) rows in dtype,
//   row (block, slot) at ((block * block_size) + slot) * row_bytes;
// f16 rows: 2 bytes per element; q8_0 rows: 34 bytes per 32 elements.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "common/result.h"
#include "engine/kv/kv_types.h"

namespace kvlens {

struct paged_kv_view {
    kv_dtype dtype = kv_dtype::f16;
    std::uint8_t* k = nullptr;           // device, this layer's K array
    std::uint8_t* v = nullptr;           // device, this layer's V array
    std::int64_t row_bytes = 0;          // one token's K (or V) row
    int block_size = 16;                 // tokens per block
    int n_kv_heads = 0, head_dim = 0;
    const std::int32_t* tables = nullptr;    // device (n_table_rows, table_stride) block ids
    int table_stride = 0;
    const std::int32_t* tok_row = nullptr;   // device (n_tokens) each token's table row
    const std::int32_t* positions = nullptr; // device (n_tokens) each token's position
};

// Writes K and V rows k, v (n_tokens, n_kv_heads * head_dim) f32 at each
// token's (block, slot). q8_0 per 32: d = max|x| / 127 stored as f16,
// q = round(x / d) against the stored d, as engine/kv/kv_codec.cpp does.
status launch_kv_store(const paged_kv_view& kv, const float* k, const float* v, int n_tokens, cudaStream_t s);

}  // namespace kvlens
