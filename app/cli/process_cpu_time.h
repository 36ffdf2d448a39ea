// SPDX-License-Identifier: Apache-2.0
// CPU seconds this process has used (all its threads), for the benchmarks:
// on a shared machine, with --threads 1, a figure's CPU time leaves out the
// time other jobs took.
#pragma once

#include <time.h>

namespace kvlens::cli {

inline double process_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace kvlens::cli
