// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli bench --fma-peak`: this machine's f32 arithmetic ceiling, the
// FLOP/s that prefill's achieved FLOP/s is held to (bench_fma_peak.cpp).
#pragma once

namespace kvlens::cli {

struct fma_peak_args {
    int reps = 5;
    int threads = 0;   // 0: one per core
    bool json = false;
};

// Prints the widest FMA the CPU has (AVX-512, AVX2 + FMA) at full rate on
// `threads` threads, best and mean over `reps`; returns the exit code.
int run_fma_peak(const fma_peak_args& a);

}  // namespace kvlens::cli
