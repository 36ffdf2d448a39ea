// SPDX-License-Identifier: Apache-2.0
// The helper-process runner on ordinary programs: stdin in and stdout out
// intact, exit codes and signals, the deadline, the output cap, a program
// that does not exist.
#include "pdf/subprocess.h"

#include <QtTest>

#include <csignal>
#include <thread>

using namespace kvlens::pdf;

namespace {
process_request shell(const std::string& script, std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    process_request r;
    r.executable = "/bin/sh";
    r.args = {"-c", script};
    r.timeout = timeout;
    return r;
}
}  // namespace

class TestSubprocess : public QObject {
    Q_OBJECT
private slots:
    void stdinToStdoutIntact() {
        process_request r = shell("cat");
        for (int i = 0; i < 300'000; ++i) r.stdin_data += char('a' + i % 26);  // larger than a pipe buffer
        auto out = run_process(r);
        QVERIFY(out.ok());
        QCOMPARE(out->exit_code, 0);
        QCOMPARE(out->term_signal, 0);
        QVERIFY(!out->timed_out);
        QCOMPARE(out->out.size(), r.stdin_data.size());
        QVERIFY(out->out == r.stdin_data);
    }

    void exitCodeAndStderr() {
        auto out = run_process(shell("echo oops >&2; exit 7"));
        QVERIFY(out.ok());
        QCOMPARE(out->exit_code, 7);
        QCOMPARE(QString::fromStdString(out->err), QString("oops\n"));
    }

    void signalReported() {
        auto out = run_process(shell("kill -SEGV $$"));
        QVERIFY(out.ok());
        QCOMPARE(out->term_signal, SIGSEGV);
        QCOMPARE(out->exit_code, -1);
    }

    void killedAtDeadline() {
        auto out = run_process(shell("sleep 30", std::chrono::milliseconds(300)));
        QVERIFY(out.ok());
        QVERIFY(out->timed_out);
        QCOMPARE(out->term_signal, SIGKILL);
    }

    void childThatClosesOutputButRunsIsKilled() {
        auto out = run_process(shell("exec >&- 2>&-; sleep 30", std::chrono::milliseconds(300)));
        QVERIFY(out.ok());
        QVERIFY(out->timed_out);
    }

    void cancelledFromAnotherThread() {
        std::atomic<bool> cancel{false};
        process_request r = shell("sleep 30");
        r.cancel = &cancel;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            cancel = true;
        });
        auto out = run_process(r);
        canceller.join();
        QVERIFY(out.ok());
        QVERIFY(out->cancelled);
        QVERIFY(!out->timed_out);
        QCOMPARE(out->term_signal, SIGKILL);
    }

    void outputCapped() {
        process_request r = shell("yes");
        r.max_stdout_bytes = 100'000;
        auto out = run_process(r);
        QVERIFY(out.ok());
        QVERIFY(out->output_capped);
        QCOMPARE(out->out.size(), std::size_t(100'000));
    }

    void childIgnoringStdin() {
        process_request r = shell("exit 0");
        r.stdin_data.assign(1 << 20, 'x');  // the child never reads it: no SIGPIPE for us
        auto out = run_process(r);
        QVERIFY(out.ok());
        QCOMPARE(out->exit_code, 0);
    }

    void missingProgram() {
        process_request r;
        r.executable = "/nonexistent/program";
        auto out = run_process(r);
        QVERIFY(!out.ok());
        QVERIFY(QString::fromStdString(out.message()).contains("cannot start"));
    }
};

QTEST_APPLESS_MAIN(TestSubprocess)
#include "test_subprocess.moc"
