// SPDX-License-Identifier: Apache-2.0
// What the CPU attention suites share (tests/cpu/test_attention,
// test_cpu_kernels): the SIMD levels this CPU can run, one attention call
// over a filled paged cache at a chosen kernel level, the error measure they
// compare the SIMD path to the scalar reference with (the fixture that puts
// the kernel level back is kernel_level_test.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/backend/cpu/kernels.h"
#include "engine/kv/kv_storage.h"
#include "engine/kv/kv_types.h"

namespace kvlens::test {

// The SIMD levels this CPU can run ("avx2", "avx512"), the level left as it was.
std::vector<std::string> simd_levels();

// One case of a SIMD-against-scalar attention comparison (a row of the suites' tables).
struct attention_case {
    std::string tag;     // what a failure is traced with
    std::string level;   // the SIMD level: "avx2" or "avx512"
    kv_dtype dtype = kv_dtype::f16;
    int window = 0;      // sliding window in tokens, 0: full attention
    int n_head = 0, n_head_kv = 0, head_dim = 0;
    int threads = 1;
};

// One batch of queries over a filled cache.
struct attention_batch {
    const kv_storage* kv = nullptr;
    kv_dtype dtype = kv_dtype::f16;
    int layer = 0;
    int n_head = 0, n_head_kv = 0, head_dim = 0;
    int window = 0;      // sliding window in tokens, 0: full attention
    float scale = 0;     // score scale, usually 1 / sqrt(head_dim)
    float softcap = 0;   // scaled scores soft-capped at this (Gemma 2); 0: none
    std::vector<float> sinks;   // (n_head) each head's sink logit (gpt-oss), or empty: none
    int max_range = 0;   // the longest key range, for the scratch (positions + 1 at most)
    std::vector<float> q;                            // (n_tokens, n_head * head_dim)
    std::vector<std::int32_t> positions;             // (n_tokens)
    std::vector<const std::int32_t*> block_tables;   // (n_tokens)
};

// The outputs, (n_tokens, n_head * head_dim), NaN where nothing was written;
// empty when `level` cannot run here.
std::vector<float> run_attention(const attention_batch& b, const char* level, int threads);

// Worst |got - ref| over the outputs relative to the largest |v| (each output
// is a convex combination of values); infinite when an output was not written.
double attention_error(const std::vector<float>& got, const std::vector<float>& ref, const std::vector<float>& v);

}  // namespace kvlens::test
