// SPDX-License-Identifier: Apache-2.0
// This machine's measured ceilings, for the roofline: memory read bandwidth
// (a STREAM-like probe: every byte of a buffer larger than the caches loaded,
// nothing stored), and peak float and 8-bit integer throughput (short
// micro-benchmarks of independent multiply-add chains in registers, the
// operations the CPU kernels use). Each figure is the best of a few
// repetitions on all the pool's threads. Measured, never looked up: a shared
// or throttled machine shows what it gives. Plain C++, no Qt.
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"

namespace kvlens {

struct machine_ceilings {
    double read_bytes_s = 0;    // bytes/s read from memory (best repetition)
    double f32_flop_s = 0;      // float FLOP/s (a fused multiply-add counts 2)
    double int8_op_s = 0;       // 8-bit integer ops/s (a multiply-add pair counts 2)
    int threads = 0;            // threads the probes ran on
    std::string isa;            // "avx2+fma" or "scalar": the instructions the peak probes used
    std::int64_t probe_bytes = 0;   // the bandwidth probe's buffer, bytes
    bool valid() const { return read_bytes_s > 0 && f32_flop_s > 0 && int8_op_s > 0; }
    // FLOP per byte where the float roof meets the bandwidth roof.
    double ridge_f32() const { return read_bytes_s > 0 ? f32_flop_s / read_bytes_s : 0; }
};

struct ceiling_probe_options {
    int threads = 0;                // 0: one per core
    std::int64_t probe_mib = 256;   // bandwidth buffer, MiB (larger than the last-level cache)
    int reps = 3;                   // repetitions per probe (after one warm-up)
    std::int64_t peak_iterations = 4'000'000;   // inner-loop trips per thread and repetition
};

// Runs the three probes (about a second on a desktop CPU); an error when the
// bandwidth buffer cannot be allocated or the options are out of range.
result<machine_ceilings> measure_machine_ceilings(const ceiling_probe_options& o = {});

// One line of "key=value" pairs, and back (for a cache file); parse errors name the key.
std::string to_text(const machine_ceilings& c);
result<machine_ceilings> machine_ceilings_from_text(const std::string& text);

// Time a step that reads `bytes` needs at least at the measured bandwidth, ms.
inline double expected_read_ms(double bytes, const machine_ceilings& c)
{
    return c.read_bytes_s > 0 ? bytes / c.read_bytes_s * 1000.0 : 0.0;
}

}  // namespace kvlens
