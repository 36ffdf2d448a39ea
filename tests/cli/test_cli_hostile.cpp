// SPDX-License-Identifier: Apache-2.0
// kvlens-cli against hostile arguments and files, run as a subprocess: each
// case ends in a clean error (exit 1 to 123, a message on stderr) within a
// few seconds, never a signal, a hang or a memory blow-up; Ctrl-C cancels
// through the engine, leaves a whole metrics file and exits 130.
#include <QtTest>

#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <nlohmann/json.hpp>

#include <filesystem>

#include "engine/gguf/gguf_writer.h"
#include "tests/support/tiny_model.h"

namespace {

struct outcome {
    bool finished = false;  // within the time limit
    bool crashed = false;   // ended by a signal
    int exit_code = -1;
    QString out, err;
};

outcome run_cli(const QStringList& args, int timeout_ms = 20000) {
    QProcess p;
    p.setProgram(KVLENS_CLI_PATH);
    p.setArguments(args);
    p.start();
    outcome o;
    if (!p.waitForStarted(5000)) return o;
    o.finished = p.waitForFinished(timeout_ms);
    if (!o.finished) {
        p.kill();
        p.waitForFinished();
    }
    o.crashed = p.exitStatus() == QProcess::CrashExit;
    o.exit_code = p.exitCode();
    o.out = QString::fromUtf8(p.readAllStandardOutput());
    o.err = QString::fromUtf8(p.readAllStandardError());
    return o;
}

QString describe(const outcome& o) {
    return QString("finished %1, crashed %2, exit %3, stderr: %4")
        .arg(o.finished).arg(o.crashed).arg(o.exit_code).arg(o.err.left(600));
}

// A clean error: in time, no signal, exit 1..123, one message naming `says`.
void expect_clean_error(const outcome& o, const QString& says) {
    QVERIFY2(o.finished && !o.crashed && o.exit_code >= 1 && o.exit_code <= 123, qPrintable(describe(o)));
    QVERIFY2(o.err.contains(says, Qt::CaseInsensitive), qPrintable(describe(o)));
    QVERIFY2(o.err.size() < 2000, qPrintable(describe(o)));
}

QString tiny_model() { return QString::fromStdString(kvlens::test::tiny_model_path("Q8_0")); }

}  // namespace

class TestCliHostile : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString fifo_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        fifo_ = dir_.filePath("fifo.gguf");
        QCOMPARE(::mkfifo(fifo_.toLocal8Bit().constData(), 0600), 0);
        QVERIFY(!tiny_model().isEmpty());
#ifdef KVLENS_PDF_HELPER_PATH
        qputenv("KVLENS_PDF_HELPER", KVLENS_PDF_HELPER_PATH);
#endif
    }

    void anEmptyReportPathIsAnErrorNotAnAbort_data() {
        QTest::addColumn<QString>("command");
        QTest::newRow("extract") << "extract";
        QTest::newRow("summarize") << "summarize";
    }
    void anEmptyReportPathIsAnErrorNotAnAbort() {
        QFETCH(QString, command);
        QStringList args{command, ""};
        if (command == "summarize") args << "-m" << tiny_model();
        const outcome o = run_cli(args);
        if (o.err.contains("The following arguments were not expected")) QSKIP("built without the PDF layer");
        expect_clean_error(o, "path is empty");
    }

    void aFifoOrADeviceIsRefusedBeforeItIsOpened_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("FIFO as the model") << QStringList{"info", "@fifo"} << "not a regular file";
        QTest::newRow("FIFO as the tokenizer's model") << QStringList{"tokenize", "-m", "@fifo", "-t", "x"} << "not a regular file";
        QTest::newRow("FIFO as a prompt file") << QStringList{"generate", "-m", "@model", "--prompt-file", "@fifo"} << "is a FIFO";
        QTest::newRow("FIFO to tokenize") << QStringList{"tokenize", "-m", "@model", "-f", "@fifo"} << "is a FIFO";
        QTest::newRow("/dev/zero to tokenize") << QStringList{"tokenize", "-m", "@model", "-f", "/dev/zero"} << "character device";
        QTest::newRow("/dev/zero as a prompt file") << QStringList{"generate", "-m", "@model", "--prompt-file", "/dev/zero"} << "character device";
        QTest::newRow("a directory as a prompt file") << QStringList{"generate", "-m", "@model", "--prompt-file", "/tmp"} << "directory";
        QTest::newRow("FIFO as a report") << QStringList{"extract", "@fifo"} << "not a regular file";
    }
    void aFifoOrADeviceIsRefusedBeforeItIsOpened() {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        args.replaceInStrings("@fifo", fifo_).replaceInStrings("@model", tiny_model());
        const outcome o = run_cli(args, 8000);
        if (args[0] == "extract" && o.err.contains("were not expected")) QSKIP("built without the PDF layer");
        expect_clean_error(o, says);
    }

    void aPdfThatMakesTheHelperAllocateWithoutEndIsTooLarge() {
#ifndef KVLENS_PDF_HELPER_PATH
        QSKIP("built without the PDF layer");
#else
        const QString pdf = QString::fromStdString(
            (std::filesystem::path(KVLENS_SOURCE_ROOT) / "tests/pdf/data/encrypted-password-kvlens.pdf").string());
        qputenv("KVLENS_PDF_HELPER_TEST_FAULT", "alloc");
        const outcome o = run_cli({"extract", pdf, "--password", "kvlens"}, 30000);
        qunsetenv("KVLENS_PDF_HELPER_TEST_FAULT");
        expect_clean_error(o, "too large to read: its text needs more than 1024 MiB of memory");
#endif
    }

    void aPromptFileOverTheLimitIsRefusedWithBothNumbers() {
        const QString big = dir_.filePath("big.txt");
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize((16 << 20) + 1));  // sparse: one byte over 16 MiB
        f.close();
        const outcome o = run_cli({"tokenize", "-m", tiny_model(), "-f", big});
        expect_clean_error(o, "is 16777217 bytes, over the limit of 16777216 bytes");
    }

    void aThreadCountTheMachineCannotStartIsCappedWithAMessage() {
        const outcome o = run_cli({"generate", "-m", tiny_model(), "-p", "Hello", "-n", "2", "--threads", "100000"}, 60000);
        QVERIFY2(o.finished && !o.crashed && o.exit_code == 0, qPrintable(describe(o)));
        QVERIFY2(o.err.contains("--threads 100000 is more than this machine can use; using"), qPrintable(describe(o)));
    }

    void benchCapsItsThreadCountToo() {
        const outcome o = run_cli({"bench", "-m", tiny_model(), "-p", "8", "-n", "2", "-r", "1", "--threads", "100000"}, 60000);
        QVERIFY2(o.finished && !o.crashed && o.exit_code == 0, qPrintable(describe(o)));
        QVERIFY2(o.err.contains("--threads 100000 is more than this machine can use; using"), qPrintable(describe(o)));
    }

    void benchAttentionTimesOneDecodeStepOverEveryLayer() {
        const outcome o = run_cli({"bench", "-m", tiny_model(), "--attention", "-d", "300", "-r", "2", "--threads", "1",
                                   "--json"}, 60000);
        QVERIFY2(o.finished && !o.crashed && o.exit_code == 0, qPrintable(describe(o)));
        const auto j = nlohmann::json::parse(o.out.toStdString(), nullptr, false);
        QVERIFY2(j.contains("attention"), qPrintable(o.out.left(600)));
        const auto& a = j["attention"];
        // Every layer of the tiny model is full attention: the query sees all 301 keys of each KV head.
        QCOMPARE(a["key_head_pairs"].get<std::int64_t>(),
                 301LL * a["n_head_kv"].get<std::int64_t>() * a["n_layer"].get<std::int64_t>());
        QVERIFY(a["step_s_best"].get<double>() > 0);
        QVERIFY(a["step_cpu_s_best"].get<double>() > 0);
        QVERIFY(a["kv_bytes_s"].get<double>() > 0);
    }

    void benchAttentionWithAPromptTimesAPrefillBlock() {
        const outcome o = run_cli({"bench", "-m", tiny_model(), "--attention", "-d", "300", "-p", "20", "-r", "1",
                                   "--threads", "1", "--json"}, 60000);
        QVERIFY2(o.finished && !o.crashed && o.exit_code == 0, qPrintable(describe(o)));
        const auto j = nlohmann::json::parse(o.out.toStdString(), nullptr, false);
        QVERIFY2(j.contains("attention"), qPrintable(o.out.left(600)));
        const auto& a = j["attention"];
        QCOMPARE(a["mode"].get<std::string>(), std::string("prefill"));
        QCOMPARE(a["tokens"].get<int>(), 20);
        // Token t of the block sees the 300 cached keys and itself and the t before it: 301 + t keys.
        const std::int64_t keys = 20 * 301 + 19 * 20 / 2;
        const std::int64_t pairs = keys * a["n_head_kv"].get<std::int64_t>() * a["n_layer"].get<std::int64_t>();
        QCOMPARE(a["key_head_pairs"].get<std::int64_t>(), pairs);
        // Scores and value sum: 4 * head_dim FLOPs per (key, query head).
        const double group = a["n_head"].get<double>() / a["n_head_kv"].get<double>();
        QCOMPARE(a["flop"].get<double>(), 4.0 * a["head_dim"].get<double>() * static_cast<double>(pairs) * group);
        QVERIFY(a["flop_s"].get<double>() > 0);
    }

    void benchAttentionRefusesAPrefillBlockPastTheContext() {
        expect_clean_error(run_cli({"bench", "-m", tiny_model(), "--attention", "-d", "300", "-p", "2147483647"}),
                           "more than this model's context allows");
    }

    void benchFmaPeakReportsTheArithmeticCeilingWithoutAModel() {
        const outcome o = run_cli({"bench", "--fma-peak", "-r", "1", "--threads", "1", "--json"}, 60000);
        if (o.exit_code == 1 && o.err.contains("needs AVX2 + FMA or AVX-512")) QSKIP("this CPU has no FMA to measure");
        QVERIFY2(o.finished && !o.crashed && o.exit_code == 0, qPrintable(describe(o)));
        const auto j = nlohmann::json::parse(o.out.toStdString(), nullptr, false);
        QVERIFY2(j.contains("fma_peak"), qPrintable(o.out.left(600)));
        const auto& p = j["fma_peak"];
        QCOMPARE(p["threads"].get<int>(), 1);
        // One core of any machine that runs this: between 1 GFLOP/s and 1 TFLOP/s.
        QVERIFY(p["flop_s_best"].get<double>() > 1e9 && p["flop_s_best"].get<double>() < 1e12);
        QVERIFY(p["isa"] == "avx2" || p["isa"] == "avx512");
    }

    void benchAttentionRefusesADepthPastTheContext() {
        expect_clean_error(run_cli({"bench", "-m", tiny_model(), "--attention", "-d", "2147483647"}),
                           "more than this model's context allows");
    }

    void numbersMustBeFiniteAndErrorsShort_data() {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("says");
        for (const char* opt : {"--temp", "--top-p", "--min-p", "--repeat-penalty"}) {
            QTest::addRow("%s nan", opt) << opt << "nan" << "not a finite number";
            QTest::addRow("%s inf", opt) << opt << "inf" << "not a finite number";
        }
        QTest::newRow("--top-p 2") << "--top-p" << "2" << "out of range (0 to 1)";
        QTest::newRow("--repeat-penalty 0") << "--repeat-penalty" << "0" << "out of range (above 0 to 100)";
        QTest::newRow("--temp -1") << "--temp" << "-1" << "out of range (0 to 100)";
        QTest::newRow("--ctx 2147483647") << "--ctx" << "2147483647" << "--ctx";
    }
    void numbersMustBeFiniteAndErrorsShort() {
        QFETCH(QString, option);
        QFETCH(QString, value);
        QFETCH(QString, says);
        const outcome o = run_cli({"generate", "-m", tiny_model(), "-p", "x", option, value});
        expect_clean_error(o, says);
        QVERIFY2(!o.err.contains("179769313486"), qPrintable(o.err));  // DBL_MAX written out
        QVERIFY2(!o.err.contains("batch of"), qPrintable(o.err));
        QVERIFY2(o.err.size() < 400, qPrintable(o.err));
    }

    void infoPrintsFileControlledTextEscaped() {
        // A file whose name, key and tensor name carry terminal escapes.
        kvlens::gguf_writer w;
        w.set_string("general.architecture", "llama\x1b[2J");
        w.set_string("general.name", "\x1b]0;pwned\x07");
        w.add_tensor("\x1b[31mt", kvlens::ggml_type::f32, {1}, std::vector<std::uint8_t>(4, 0));
        const QString path = dir_.filePath("escape.gguf");
        QVERIFY(w.write_file(path.toStdString()).ok());
        const outcome o = run_cli({"info", path});
        expect_clean_error(o, "unsupported architecture 'llama\\x1b[2J'");
        QVERIFY(!o.err.contains(QChar(0x1b)) && !o.out.contains(QChar(0x1b)));
    }

    void aHugeStringFromTheFileIsCutInTheMessage() {
        kvlens::gguf_writer w;
        w.set_string("general.architecture", "llama");
        w.set_string("tokenizer.ggml.model", std::string(4 << 20, 'A'));
        const QString path = dir_.filePath("long.gguf");
        QVERIFY(w.write_file(path.toStdString()).ok());
        const outcome o = run_cli({"tokenize", "-m", path, "-t", "x"});
        expect_clean_error(o, "more bytes)");
    }

    void controlTokenTextInAChatMessageStaysText() {
        // The tiny model's vocabulary has <|im_end|> as a control token: in a
        // message it must cost the tokens of its text, not one control token.
        const QString metrics = dir_.filePath("inject.jsonl");
        auto prompt_tokens = [&](const QString& text) {
            const outcome o = run_cli({"generate", "-m", tiny_model(), "--chat", "-p", text, "-n", "1", "-q",
                                       "--metrics-json", metrics});
            if (o.exit_code != 0) return -1;
            QFile f(metrics);
            if (!f.open(QIODevice::ReadOnly)) return -1;
            int n = -1;
            for (const QByteArray& line : f.readAll().split('\n')) {
                if (line.isEmpty()) continue;
                const auto j = nlohmann::json::parse(line.toStdString());
                if (j.value("event", "") == "done") n = j["figures"]["prompt_tokens"].get<int>();
            }
            return n;
        };
        const int empty = prompt_tokens("");
        const int marker = prompt_tokens("<|im_end|>");
        QVERIFY2(empty > 0 && marker > 0, qPrintable(QString("%1 %2").arg(empty).arg(marker)));
        QVERIFY2(marker - empty >= 3, qPrintable(QString("empty %1, with the marker text %2").arg(empty).arg(marker)));
    }

    void ctrlCCancelsThroughTheEngineAndLeavesAWholeMetricsFile_data() {
        QTest::addColumn<int>("sig");
        QTest::addColumn<int>("code");
        QTest::newRow("SIGINT") << int(SIGINT) << 130;
        QTest::newRow("SIGTERM") << int(SIGTERM) << 143;
    }
    void ctrlCCancelsThroughTheEngineAndLeavesAWholeMetricsFile() {
        QFETCH(int, sig);
        QFETCH(int, code);
        const QString metrics = dir_.filePath("cancel.jsonl");
        QFile::remove(metrics);
        QProcess p;
        p.setProgram(KVLENS_CLI_PATH);
        p.setArguments({"generate", "-m", tiny_model(), "-p", "Once upon a time", "-n", "200000", "--ctx", "200000",
                        "--kv-budget", "128", "--metrics-json", metrics, "--parallel", "2", "-p", "A second prompt"});
        p.start();
        QVERIFY(p.waitForStarted(5000));
        // Wait until tokens are flowing.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(metrics).size() > 2000, 30000);
        QVERIFY2(p.state() == QProcess::Running, p.readAllStandardError().constData());
        ::kill(static_cast<pid_t>(p.processId()), sig);
        QVERIFY(p.waitForFinished(10000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == code, qPrintable(err));
        QVERIFY2(err.contains("interrupted"), qPrintable(err));
        QFile f(metrics);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray all = f.readAll();
        QVERIFY(all.endsWith('\n'));
        int done = 0;
        for (const QByteArray& line : all.split('\n')) {
            if (line.isEmpty()) continue;
            const auto j = nlohmann::json::parse(line.toStdString(), nullptr, false);
            QVERIFY2(!j.is_discarded(), line.left(200).constData());
            if (j.value("event", "") == "done") {
                ++done;
                QCOMPARE(QString::fromStdString(j.value("reason", "")), QString("cancelled"));
            }
        }
        QVERIFY2(done >= 1, "no done event in the metrics file");
    }
};

QTEST_GUILESS_MAIN(TestCliHostile)
#include "test_cli_hostile.moc"
