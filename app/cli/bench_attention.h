// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli bench --attention`: the CPU attention kernel alone, a decode
// step's or a prefill block's worth over every layer of a model's geometry
// (bench_attention.cpp).
#pragma once

#include <string>

#include "engine/kv/kv_types.h"

namespace kvlens::cli {

struct attention_bench_args {
    std::string model;                 // the GGUF whose geometry is measured
    int depth = 0;                     // tokens in the cache before the query; 0: 4096
    int prompt = 0;                    // query tokens of a prefill block after them; 0: one decode token
    int reps = 5;
    int threads = 0;                   // 0: one per core
    kv_dtype dtype = kv_dtype::f16;
    bool json = false;
};

// Prints the figures (or one JSON document); returns the exit status.
int run_attention_bench(const attention_bench_args& a);

}  // namespace kvlens::cli
