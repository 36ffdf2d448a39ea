// SPDX-License-Identifier: Apache-2.0
// One tile-streaming attention job in SIMD (AVX2 or AVX-512, by the active
// kernel level): a block of query rows that share one sequence, for one or
// more consecutive KV heads (row h * n_tok * group + r: KV head h of the job,
// token r / group, query head r % group of that head's group) against a
// range of that sequence's keys, read from the paged cache in tiles of
// k_flash_tile_keys keys. Each tile's K and V rows are decoded (f16 or q8_0)
// to f32 once per KV head and used by every row of that head (a decode of an
// f16 cache converts them in registers instead, never storing a tile): the scores, an
// online softmax (running max and sum per row) and the weighted sum of the
// values, fused, so the cache is read once per job and no score array spans
// the context. Decode runs one token with all its KV heads as a job: a tile
// then covers whole cache rows (every head of each key), so each cache line
// is fetched once and used whole, in address order (one head per job read a
// third of each line pair the prefetchers brought in, with 3 KV heads).
// Prefill runs blocks of tokens, one KV head each. A long range can be split
// into chunks whose partial results (o, m, l) are merged afterwards
// (attention.cpp).
//
// Numerics against the scalar reference (attention.cpp): for an f16 cache the
// query is rounded to f16 values (the reference converts it to the cache's
// format); for a q8_0 cache it is quantized to int16 blocks and each score
// summed in integers per block (query_i16.h), exactly as there (AVX-512:
// vpdpwssd, 2 products per int32 lane and instruction, twice the f32 FMA's
// rate; AVX2: pmaddwd); scores scaled in f32; the probabilities that weight the values are rounded
// to f16 values, as there, but before normalization (exp(s - running max)),
// and the sum that normalizes them adds the rounded values: a weight differs
// from the reference's by at most about 2^-11 relative. (With f32 weights the
// q8_0-against-f16 agreement on the default model fell below its bound.)
#pragma once

#include <cstdint>

#include "engine/kv/kv_types.h"

namespace kvlens {

constexpr int k_flash_tile_keys = 32;   // keys per tile, a multiple of both vector widths

struct flash_job {
    const float* q = nullptr;          // token t's query head g of the job's KV head h at
                                       // q + t * q_stride + (h * group + g) * head_dim, f32, RoPE applied
    std::int64_t q_stride = 0;         // floats between consecutive tokens' query rows
    int n_tok = 0;                     // tokens in the block
    bool step = false;                 // a decode step (n_tok 1: keys and values read straight from the cache);
                                       // else a prefill block, however few its tokens
    int group = 0;                     // query heads per KV head
    int n_heads = 1;                   // consecutive KV heads in the job
    int head_dim = 0;                  // a multiple of 4 vector widths (flash_supported)
    const int* first = nullptr;        // (n_tok) first key each token sees
    const int* last = nullptr;         // (n_tok) last key each token sees (inclusive)
    int key_begin = 0, key_end = 0;    // this job's keys [key_begin, key_end)
    int key_held = 0;                  // keys before it are not read (a sliding window's blocks may be gone):
                                       // their rows are this key's, and every row of the job masks them
    int prefetch_end = 0;              // keys past key_end up to here (the next chunk of a split range,
                                       // likely this thread's next job) are prefetched with the last tile;
                                       // <= key_end: none
    kv_dtype dtype = kv_dtype::f16;
    const std::uint8_t* k_layer = nullptr;  // (n_blocks, block_size, row) K rows of the layer
    const std::uint8_t* v_layer = nullptr;  // same for V
    std::int64_t row_bytes = 0;        // bytes of one token's K (or V) row
    std::int64_t head_offset = 0;      // bytes from a row's start to the job's first KV head
    std::int64_t head_bytes = 0;       // bytes of one KV head in a row (the step to the next head)
    int block_size = 0;                // tokens per cache block
    const std::int32_t* table = nullptr;  // the sequence's block ids
    float scale = 1.0f;                // applied to each score
    float softcap = 0.0f;              // then each visible score s = softcap * tanh(s / softcap); 0: none

    // Results, unnormalized: out = o / l. A row that saw no key has m = -inf, l = 0, o = 0.
    // A prefill job (not a step) may use rows up to its row count rounded up to
    // whole registers (flash_prefill_rows): o, m and l have room for those.
    float* o = nullptr;                // (n_heads * n_tok * group, head_dim) f32
    float* m = nullptr;                // (n_heads * n_tok * group) running max of the scaled scores
    float* l = nullptr;                // (n_heads * n_tok * group) sum of exp(score - m)
    float* work = nullptr;             // scratch of flash_work_floats(n_heads * n_tok * group, head_dim) floats
};

using flash_job_fn = void (*)(const flash_job&);

// Floats of scratch a job of `rows` rows (all its KV heads) needs.
constexpr std::int64_t flash_work_floats(int rows, int head_dim) {
    return static_cast<std::int64_t>(rows) * head_dim          // the query rows as the kernel reads them
           + 2LL * k_flash_tile_keys * head_dim               // a K and a V tile in f32
           + static_cast<std::int64_t>(rows) * (k_flash_tile_keys + 1)       // probabilities, corrections
           + static_cast<std::int64_t>(rows) * (head_dim / 32) * (k_flash_tile_keys / 2 + 2)   // q8_0 value weights, units, largest
           + 64;
}

// The kernel for the active level, or nullptr (scalar level, or a head size it does not take).
flash_job_fn flash_job_kernel(int head_dim);

// f32 lanes of that kernel's vectors (16 for AVX-512, 8 for AVX2; 1 without a kernel).
int flash_job_width(int head_dim);

// The rows a prefill job of `rows` query rows may use: rounded up to whole
// registers of `width` lanes. Every prefill block takes the rows-in-lanes
// path with its last register padded (copies of its last token's rows), so
// a row's arithmetic does not depend on how many rows share its block, and a
// prompt's numbers do not depend on its chunks (attention_lanes_body.h).
constexpr int flash_prefill_rows(int rows, int width) { return (rows + width - 1) / width * width; }

// Query rows per prefill job for a group of `group` query heads per KV head
// and vectors of `width` lanes: rows that fill whole registers (the
// rows-in-lanes layout, attention_lanes_body.h), the least multiple of both
// that is at least 24 (a tile decoded once serves many rows, the job's state
// stays in L1/L2) and at most 4 registers; else 24 / group * group (at least group).
int flash_block_rows(int group, int width);

}  // namespace kvlens
