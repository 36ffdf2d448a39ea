// SPDX-License-Identifier: Apache-2.0
// Ctrl-C and SIGTERM in kvlens-cli. The signals are blocked in every thread
// and taken by one watcher thread (sigwait), so no handler runs in the middle
// of the engine. While a cancel_scope is alive (requests running, a PDF being
// read) the first signal calls its cancel function and sets the stop flag:
// the command cancels through the engine, writes its metrics file whole, and
// main() ends with "interrupted" and 128 + the signal (130 for SIGINT).
// Outside a scope, or at a second signal, the process ends at once with the
// same message and code.
#pragma once

#include <atomic>
#include <functional>

namespace kvlens::cli {

// Call first in main(), before any thread starts.
void start_signal_watch();

// The signal that asked to stop; 0 when none came.
int stop_signal();
// True once a signal came (for read_options::cancel and polling loops).
const std::atomic<bool>& stop_flag();

// While alive, a signal calls `cancel` (on the watcher thread; it must not
// block) instead of ending the process. Scopes do not nest.
class cancel_scope {
public:
    explicit cancel_scope(std::function<void()> cancel = {});
    ~cancel_scope();
    cancel_scope(const cancel_scope&) = delete;
    cancel_scope& operator=(const cancel_scope&) = delete;
};

// "interrupted (SIGINT): stopped" on stderr, and the exit code (128 + signal).
int report_interrupted(const char* who);

}  // namespace kvlens::cli
