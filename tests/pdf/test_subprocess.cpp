// SPDX-License-Identifier: Apache-2.0
// The helper-process runner on ordinary programs: stdin in and stdout out
// intact, exit codes and signals, the deadline, the output cap, a program
// that does not exist.
#include "pdf/subprocess.h"

#include <gtest/gtest.h>

#include <csignal>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "tests/support/text_checks.h"

using namespace kvlens::pdf;
using kvlens::test::contains;

namespace {
process_request shell(const std::string& script, std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    process_request r;
    r.executable = "/bin/sh";
    r.args = {"-c", script};
    r.timeout = timeout;
    return r;
}
}  // namespace

TEST(Subprocess, stdinToStdoutIntact)
{
    process_request r = shell("cat");
    for (int i = 0; i < 300'000; ++i) r.stdin_data += char('a' + i % 26);  // larger than a pipe buffer
    auto out = run_process(r);
    ASSERT_TRUE(out.ok());
    ASSERT_EQ(out->exit_code, 0);
    ASSERT_EQ(out->term_signal, 0);
    ASSERT_TRUE(!out->timed_out);
    ASSERT_EQ(out->out.size(), r.stdin_data.size());
    ASSERT_TRUE(out->out == r.stdin_data);
}

TEST(Subprocess, exitCodeAndStderr)
{
    auto out = run_process(shell("echo oops >&2; exit 7"));
    ASSERT_TRUE(out.ok());
    ASSERT_EQ(out->exit_code, 7);
    ASSERT_EQ(out->err, std::string("oops\n"));
}

TEST(Subprocess, signalReported)
{
    auto out = run_process(shell("kill -SEGV $$"));
    ASSERT_TRUE(out.ok());
    ASSERT_EQ(out->term_signal, SIGSEGV);
    ASSERT_EQ(out->exit_code, -1);
}

TEST(Subprocess, killedAtDeadline)
{
    auto out = run_process(shell("sleep 30", std::chrono::milliseconds(300)));
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE(out->timed_out);
    ASSERT_EQ(out->term_signal, SIGKILL);
}

TEST(Subprocess, childThatClosesOutputButRunsIsKilled)
{
    auto out = run_process(shell("exec >&- 2>&-; sleep 30", std::chrono::milliseconds(300)));
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE(out->timed_out);
}

TEST(Subprocess, cancelledFromAnotherThread)
{
    std::atomic<bool> cancel{false};
    process_request r = shell("sleep 30");
    r.cancel = &cancel;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        cancel = true;
    });
    auto out = run_process(r);
    canceller.join();
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE(out->cancelled);
    ASSERT_TRUE(!out->timed_out);
    ASSERT_EQ(out->term_signal, SIGKILL);
}

TEST(Subprocess, outputCapped)
{
    process_request r = shell("yes");
    r.max_stdout_bytes = 100'000;
    auto out = run_process(r);
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE(out->output_capped);
    ASSERT_EQ(out->out.size(), std::size_t(100'000));
}

TEST(Subprocess, childIgnoringStdin)
{
    process_request r = shell("exit 0");
    r.stdin_data.assign(1 << 20, 'x');  // the child never reads it: no SIGPIPE for us
    auto out = run_process(r);
    ASSERT_TRUE(out.ok());
    ASSERT_EQ(out->exit_code, 0);
}

TEST(Subprocess, missingProgram)
{
    process_request r;
    r.executable = "/nonexistent/program";
    auto out = run_process(r);
    ASSERT_TRUE(!out.ok());
    ASSERT_TRUE(contains(out.message(), "cannot start"));
}
