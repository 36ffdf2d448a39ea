// SPDX-License-Identifier: Apache-2.0
// Running a helper executable safely: posix_spawn with pipes for stdin,
// stdout and stderr, poll against a deadline, SIGKILL when the deadline passes
// or the output grows past a cap. No shell, no Qt. Used to run
// kvlens-pdf-helper, so a PDF that crashes or hangs poppler cannot hurt the caller.
#pragma once

#include "common/result.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kvlens::pdf {

struct process_outcome {
    int exit_code = -1;        // when the process exited normally, else -1
    int term_signal = 0;       // the signal that ended it, 0 when it exited
    bool timed_out = false;    // killed by us at the deadline
    bool output_capped = false;  // killed by us: stdout passed max_stdout_bytes
    bool cancelled = false;      // killed by us: *cancel became true
    std::string out;           // stdout, at most max_stdout_bytes
    std::string err;           // stderr, at most 64 KiB (the rest is dropped)
    double wall_ms = 0;        // from spawn to reap, milliseconds
};

struct process_request {
    std::filesystem::path executable;
    std::vector<std::string> args;   // argv[1..]; argv[0] is the executable
    std::string stdin_data;          // written to the child's stdin, which is then closed
    std::chrono::milliseconds timeout{30'000};
    std::size_t max_stdout_bytes = 256u << 20;
    const std::atomic<bool>* cancel = nullptr;  // when set and true, the process is killed (checked every 50 ms)
};

// Runs the process to completion or to the deadline. An error only when it
// cannot be started; a crash, a timeout or a non-zero exit is an outcome.
result<process_outcome> run_process(const process_request& request);

}  // namespace kvlens::pdf
