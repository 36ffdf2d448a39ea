// SPDX-License-Identifier: Apache-2.0
// The signal watcher of kvlens-cli (see signals.h).
#include "app/cli/signals.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

namespace kvlens::cli {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
std::mutex g_mu;                       // guards g_cancel and g_in_scope
std::function<void()> g_cancel;
bool g_in_scope = false;

void write_stderr(const std::string& s) {
    std::size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = ::write(STDERR_FILENO, s.data() + off, s.size() - off);
        if (n <= 0) return;
        off += static_cast<std::size_t>(n);
    }
}

std::string signal_name(int sig) { return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : std::to_string(sig); }

[[noreturn]] void end_now(int sig) {
    write_stderr("kvlens-cli: interrupted (" + signal_name(sig) + ")\n");
    std::_Exit(128 + sig);
}

void watch(sigset_t set) {
    for (;;) {
        int sig = 0;
        if (sigwait(&set, &sig) != 0) continue;
        if (g_stop.exchange(true)) end_now(sig);  // a second signal: no more waiting
        g_signal.store(sig);
        std::function<void()> cancel;
        {
            std::lock_guard<std::mutex> lock(g_mu);
            if (!g_in_scope) end_now(sig);
            cancel = g_cancel;
        }
        write_stderr("kvlens-cli: " + signal_name(sig) + ": cancelling (again to quit at once)\n");
        if (cancel) cancel();
    }
}

}  // namespace

void start_signal_watch() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) return;  // signals keep their default action
    std::thread(watch, set).detach();
}

int stop_signal() { return g_signal.load(); }
const std::atomic<bool>& stop_flag() { return g_stop; }

cancel_scope::cancel_scope(std::function<void()> cancel) {
    std::lock_guard<std::mutex> lock(g_mu);
    g_cancel = std::move(cancel);
    g_in_scope = true;
}

cancel_scope::~cancel_scope() {
    std::lock_guard<std::mutex> lock(g_mu);
    g_cancel = nullptr;
    g_in_scope = false;
}

int report_interrupted(const char* who) {
    const int sig = stop_signal();
    std::fprintf(stderr, "%s: interrupted (%s): the running requests were cancelled\n", who, signal_name(sig).c_str());
    return 128 + sig;
}

}  // namespace kvlens::cli
