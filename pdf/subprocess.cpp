// SPDX-License-Identifier: Apache-2.0
// posix_spawn + poll with a deadline + SIGKILL: the helper-process runner.
#include "pdf/subprocess.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace kvlens::pdf {

namespace {

using clock = std::chrono::steady_clock;

struct fd_guard {
    int fd = -1;
    ~fd_guard() { reset(); }
    void reset() {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
};

constexpr std::size_t max_stderr_bytes = 64u << 10;

int ms_left(clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1'000'000));
}

// Reads what is there; false at EOF or on a hard error.
bool drain(int fd, std::string& sink, std::size_t cap, bool& capped) {
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            const std::size_t room = cap > sink.size() ? cap - sink.size() : 0;
            sink.append(buf, std::min<std::size_t>(room, static_cast<std::size_t>(n)));
            if (static_cast<std::size_t>(n) > room) capped = true;
            continue;
        }
        if (n == 0) return false;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
}

}  // namespace

result<process_outcome> run_process(const process_request& request) {
    // stdin is a socket so that writing to a child that has gone away gives
    // EPIPE (MSG_NOSIGNAL) instead of a SIGPIPE in the caller.
    int in_pair[2], out_pipe[2], err_pipe[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in_pair) != 0)
        return make_error(std::string("cannot create a pipe for the helper: ") + std::strerror(errno));
    fd_guard in_parent{in_pair[0]}, in_child{in_pair[1]};
    if (::pipe2(out_pipe, O_CLOEXEC) != 0)
        return make_error(std::string("cannot create a pipe for the helper: ") + std::strerror(errno));
    fd_guard out_parent{out_pipe[0]}, out_child{out_pipe[1]};
    if (::pipe2(err_pipe, O_CLOEXEC) != 0)
        return make_error(std::string("cannot create a pipe for the helper: ") + std::strerror(errno));
    fd_guard err_parent{err_pipe[0]}, err_child{err_pipe[1]};

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in_child.fd, 0);
    posix_spawn_file_actions_adddup2(&actions, out_child.fd, 1);
    posix_spawn_file_actions_adddup2(&actions, err_child.fd, 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    const std::string exe = request.executable.string();
    std::vector<std::string> argv_storage;
    argv_storage.push_back(exe);
    argv_storage.insert(argv_storage.end(), request.args.begin(), request.args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_storage) argv.push_back(a.data());
    argv.push_back(nullptr);

    const auto started = clock::now();
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, exe.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) return make_error("cannot start '" + exe + "': " + std::strerror(rc));
    in_child.reset();
    out_child.reset();
    err_child.reset();
    for (int fd : {in_parent.fd, out_parent.fd, err_parent.fd}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);

    process_outcome outcome;
    const auto deadline = started + request.timeout;
    std::size_t written = 0;
    if (request.stdin_data.empty()) in_parent.reset();
    bool out_open = true, err_open = true, err_capped = false;
    bool killed = false;
    while (out_open || err_open) {
        pollfd fds[3];
        nfds_t n = 0;
        int out_i = -1, err_i = -1, in_i = -1;
        if (out_open) fds[out_i = static_cast<int>(n++)] = {out_parent.fd, POLLIN, 0};
        if (err_open) fds[err_i = static_cast<int>(n++)] = {err_parent.fd, POLLIN, 0};
        if (in_parent.fd >= 0) fds[in_i = static_cast<int>(n++)] = {in_parent.fd, POLLOUT, 0};
        const int left = ms_left(deadline);
        if (left == 0) {
            outcome.timed_out = true;
            break;
        }
        if (request.cancel && request.cancel->load()) {
            outcome.cancelled = true;
            break;
        }
        const int ready = ::poll(fds, n, request.cancel ? std::min(left, 50) : left);
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        if (in_i >= 0 && fds[in_i].revents) {
            const ssize_t w = ::send(in_parent.fd, request.stdin_data.data() + written,
                                     request.stdin_data.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (w > 0) written += static_cast<std::size_t>(w);
            if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == request.stdin_data.size()) in_parent.reset();
        }
        if (out_i >= 0 && fds[out_i].revents) {
            out_open = drain(out_parent.fd, outcome.out, request.max_stdout_bytes, outcome.output_capped);
            if (outcome.output_capped) break;
        }
        if (err_i >= 0 && fds[err_i].revents) err_open = drain(err_parent.fd, outcome.err, max_stderr_bytes, err_capped);
    }
    if (outcome.timed_out || outcome.output_capped || outcome.cancelled) {
        ::kill(pid, SIGKILL);
        killed = true;
    }

    // Reap; a child that closed its output but keeps running is killed at the deadline.
    int wstatus = 0;
    for (;;) {
        const pid_t r = ::waitpid(pid, &wstatus, killed ? 0 : WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) {
            wstatus = 0;
            break;
        }
        if (r == 0) {
            if (ms_left(deadline) == 0 || (request.cancel && request.cancel->load())) {
                outcome.timed_out = true;
                ::kill(pid, SIGKILL);
                killed = true;
            } else {
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        }
    }
    if (WIFEXITED(wstatus)) outcome.exit_code = WEXITSTATUS(wstatus);
    if (WIFSIGNALED(wstatus)) outcome.term_signal = WTERMSIG(wstatus);
    outcome.wall_ms = std::chrono::duration<double, std::milli>(clock::now() - started).count();
    return outcome;
}

}  // namespace kvlens::pdf
