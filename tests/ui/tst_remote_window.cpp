// SPDX-License-Identifier: Apache-2.0
// The window on a remote engine (issue 17): the controller and its worker
// against the scripted HTTP server of tests/remote (an OpenAI-compatible
// stream with usage and /metrics, bad statuses, a cut stream, a stall), and
// against llama.cpp's own llama-server when it is built (skipped loudly
// otherwise). Tokens stream into the charts, the card says which figures
// the client measured and which the server reported, the KV chart plots
// the server's KV usage or says it has none, an error run stays in the
// history with what arrived, a local and a remote run overlay, the Settings
// dialog tests a connection without blocking and refuses a bad model file,
// and the API key is never stored.
#include <QFile>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <atomic>
#include <string_view>

#include "fake_engine.h"
#include "engine/remote/http_client.h"
#include "fake_http_server.h"
#include "ui/app_settings.h"
#include "ui/charts/chart_panel.h"
#include "ui/engine/engine_worker.h"
#include "ui/main_window.h"
#include "ui/model/run_history_model.h"
#include "ui/model/run_record.h"
#include "ui/run_controller.h"
#include "ui/widgets/charts_board.h"
#include "ui/widgets/model_panel.h"
#include "ui/widgets/remote_server_box.h"
#include "ui/widgets/settings_dialog.h"
#include "ui/widgets/stats_card.h"

using namespace kvlens::ui;
using kvlens::test::fake_http_server;
using kvlens::test::fake_request;
using kvlens::test::fake_script;

namespace {

const std::string kModels =
    R"({"object":"list","data":[{"id":"fake-model","object":"model","owned_by":"vllm","max_model_len":4096}]})";

std::string tokenChunk(const std::string& text)
{
    return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text
         + "\"},\"finish_reason\":null}],\"object\":\"chat.completion.chunk\"}\n\n";
}

// n tokens "t0".."t{n-1}", pause_ms before each; finished with usage (20
// prompt tokens, 16 cached) unless `cut`, where the connection just closes.
fake_script tokenStream(int n, int pauseMs, bool cut = false)
{
    fake_script s;
    s.pieces.push_back({kvlens::test::stream_head(), 0});
    for (int i = 0; i < n; ++i)
        s.pieces.push_back({tokenChunk("t" + std::to_string(i)), pauseMs});
    if (!cut) {
        s.pieces.push_back({"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n", 0});
        s.pieces.push_back({"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":"
                                + std::to_string(n) + ",\"prompt_tokens_details\":{\"cached_tokens\":16}}}\n\n",
                            0});
        s.pieces.push_back({"data: [DONE]\n\n", 0});
    }
    return s;
}

// A server with fake-model; `answer` plays the completions; `metrics` "" : /metrics 404.
fake_http_server::handler server(std::function<fake_script(const fake_request&)> answer, std::string metrics = "",
                                 int modelsDelayMs = 0)
{
    return [answer = std::move(answer), metrics = std::move(metrics), modelsDelayMs](const fake_request& r) {
        if (r.path == "/v1/models") {
            fake_script s = kvlens::test::respond(200, "application/json", kModels);
            s.pieces.front().pause_ms = modelsDelayMs;
            return s;
        }
        if (r.path == "/metrics")
            return metrics.empty() ? kvlens::test::respond(404, "text/plain", "no metrics")
                                   : kvlens::test::respond(200, "text/plain; version=0.0.4", metrics);
        if (r.path == "/v1/chat/completions")
            return answer(r);
        return kvlens::test::respond(404, "application/json", R"({"detail":"Not Found"})");
    };
}

const char* kKvMetrics = "vllm:kv_cache_usage_perc{engine=\"0\"} 0.42\n";

EngineSettings remoteSettings(const std::string& url)
{
    EngineSettings e;
    e.backend = QStringLiteral("remote");
    e.remoteUrl = QString::fromStdString(url);
    e.stallTimeoutS = 5;
    return e;
}

// A worker whose local engine is the fake one (for the overlay); remote
// settings still go to the real remote engine.
EngineWorker* worker()
{
    using kvlens::test::FakeEngine;
    auto* w = new EngineWorker([](const kvlens::engine_options& o) -> kvlens::result<std::unique_ptr<kvlens::engine>> {
        kvlens::test::FakeTiming t;
        t.promptTokens = 200;
        t.generate = 12;
        return std::unique_ptr<kvlens::engine>(std::make_unique<FakeEngine>(t, o.kv));
    });
    w->setTokenCounter([](const kvlens::engine&, const QVector<ChatTurn>& chat) {
        int chars = 0;
        for (const ChatTurn& t : chat)
            chars += int(t.content.size());
        return chars / 4;
    });
    w->setTextCounter([](const kvlens::engine&, std::string_view text) { return int(text.size()) / 4; });
    return w;
}

// The fake engine as if on a GPU (device memory) or fallen back to the CPU.
class DeviceFakeEngine : public kvlens::test::FakeEngine {
public:
    DeviceFakeEngine(bool onDevice, kvlens::test::FakeTiming t) : FakeEngine(t), onDevice_(onDevice) {}
    std::string backend_fallback() const override
    {
        return onDevice_ ? std::string()
                         : "cuda: 4.0 GiB of weights + 1.0 GiB KV pool do not fit in 2.0 GiB free of 16.0 GiB; using the CPU";
    }
    kvlens::memory_figures device_memory() const override
    {
        kvlens::memory_figures m;
        if (!onDevice_)
            return m;
        m.device = "NVIDIA Test GPU, 16 GiB, sm_90";
        m.on_device = true;
        m.weight_bytes = 3 << 20;
        m.kv_bytes = 2 << 20;
        m.scratch_bytes = 1 << 20;
        m.free_bytes = 12ll << 30;
        m.total_bytes = 16ll << 30;
        return m;
    }

private:
    bool onDevice_;
};

}  // namespace

class TestRemoteWindow : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString report_;
    QString fakeModel_;
    std::unique_ptr<MainWindow> window_;

    // The window connected to `e`; null when the engine did not come up.
    MainWindow* open(const EngineSettings& e)
    {
        window_ = std::make_unique<MainWindow>(worker());
        window_->resize(1400, 900);
        window_->show();
        window_->setEngineSettings(e);
        if (!QTest::qWaitFor([this] { return window_->model().isValid() || !window_->controller()->modelError().isEmpty(); },
                             15000))
            return nullptr;
        QString error;
        if (!window_->openDocumentNow(report_, &error))
            return nullptr;
        return window_.get();
    }
    RunRecord* runToEnd(MainWindow* w, int* idOut = nullptr)
    {
        const int id = w->startRun(w->currentConfig());
        if (idOut)
            *idOut = id;
        RunRecord* run = w->history()->run(id);
        if (!run || !QTest::qWaitFor([run] { return run->isFinished(); }, 20000))
            return nullptr;
        w->flushEvents();
        QCoreApplication::processEvents();
        return run;
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("kvlens-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_remote_window"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        report_ = dir_.filePath(QStringLiteral("report.txt"));
        QFile f(report_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Annual report 2025.\nRevenue grew 12% to 4.2 billion.\n\fCosts fell by 3%.\n");
        f.close();
        fakeModel_ = dir_.filePath(QStringLiteral("fake.gguf"));
        QFile m(fakeModel_);
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write("GGUF and then nothing a real model has: the fake engine never reads it");
    }

    void cleanup() { window_.reset(); }

    void tokensStreamIntoTheChartsAndTheCardSaysClientAndServer()
    {
        fake_http_server s(server([](const fake_request&) { return tokenStream(12, 60); }, kKvMetrics));
        QVERIFY(s.ok());
        EngineSettings e = remoteSettings(s.url());
        MainWindow* w = open(e);
        QVERIFY(w);
        QCOMPARE(w->model().name, QStringLiteral("fake-model"));
        QCOMPARE(w->model().contextLength, 4096);
        // The model panel shows what the server said, no zero layers or heads.
        const QString panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral("4,096 tokens")) && !panel.contains(QStringLiteral("0 query heads"))
                     && panel.contains(QStringLiteral("not reported by the server")),
                 qPrintable(panel));
        const int id = w->startRun(w->currentConfig());
        RunRecord* run = w->history()->run(id);
        QVERIFY(run);
        ChartPanel* latency = w->charts()->chart(QStringLiteral("latency"));
        // Points arrive while the stream goes on, not only at the end.
        QTRY_VERIFY_WITH_TIMEOUT(latency->pointCount() >= 3 && !run->isFinished(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(run->isFinished(), 20000);
        w->flushEvents();
        QCOMPARE(run->finishReason(), FinishReason::Stop);
        QCOMPARE(run->text(), QStringLiteral("t0t1t2t3t4t5t6t7t8t9t10t11"));
        QCOMPARE(run->tokens().size(), 12);
        QVERIFY(run->label().contains(QStringLiteral("remote")));
        w->selectRun(id);
        StatsCard* card = w->charts()->stats();
        QTRY_VERIFY(card->valueText(QStringLiteral("ttft_ms")).endsWith(QStringLiteral("· client")));
        QCOMPARE(card->valueText(QStringLiteral("prompt_tokens")), QStringLiteral("20 · server"));
        QCOMPARE(card->valueText(QStringLiteral("cached_tokens")), QStringLiteral("16 · server"));
        QVERIFY(card->valueText(QStringLiteral("e2e_ms")).endsWith(QStringLiteral("· client")));
        QVERIFY(card->valueText(QStringLiteral("decode_tok_s")).endsWith(QStringLiteral("· client")));
        // Nothing the server did not say is made up.
        QCOMPARE(card->valueText(QStringLiteral("kv_bytes_peak")), QStringLiteral("—"));
        QCOMPARE(card->valueText(QStringLiteral("device_memory_peak")), QStringLiteral("—"));
        // The server said no timings: its prefill and tokenize are unknown, not 0 ms.
        QCOMPARE(card->valueText(QStringLiteral("prefill_ms")), QStringLiteral("—"));
        QCOMPARE(card->valueText(QStringLiteral("tokenize_ms")), QStringLiteral("—"));
        ChartPanel* ttft = w->charts()->chart(QStringLiteral("ttft"));
        QVERIFY2(ttft->title().contains(QStringLiteral("at the client = queue")), qPrintable(ttft->title()));
        ChartPanel* kv = w->charts()->chart(QStringLiteral("kv"));
        QVERIFY2(kv->title().contains(QStringLiteral("42.0% in use")), qPrintable(kv->title()));
        QVERIFY(kv->pointCount() > 0);
        ChartPanel* memory = w->charts()->chart(QStringLiteral("memory"));
        QVERIFY2(memory->title().contains(QStringLiteral("does not report its memory")), qPrintable(memory->title()));
    }

    // The cost of the client-side figures in the window: a stream as fast as
    // loopback sends it (no pause) arrives whole, every token in the record
    // and the charts; the rate is printed, never asserted (a shared machine).
    void aFastStreamArrivesWholeAndItsRateIsMeasured()
    {
        constexpr int n = 4000;
        fake_http_server s(server([](const fake_request&) { return tokenStream(n, 0); }, kKvMetrics));
        QVERIFY(s.ok());
        MainWindow* w = open(remoteSettings(s.url()));
        QVERIFY(w);
        SamplingSettings sampling = w->controller()->sampling();
        sampling.maxTokens = n;
        w->setSampling(sampling);
        QElapsedTimer clock;
        clock.start();
        int id = 0;
        RunRecord* run = runToEnd(w, &id);
        const double seconds = clock.nsecsElapsed() / 1e9;
        QVERIFY(run);
        QCOMPARE(run->finishReason(), FinishReason::Stop);
        QCOMPARE(run->tokens().size(), n);
        for (int i = 0; i < n; i += 997)
            QCOMPARE(run->tokens()[i].index, i);
        const double streamMs = run->figures().e2e_ms;
        qInfo("window: %d tokens from loopback in %.3f s wall (%.0f tokens/s); the stream itself %.1f ms at the client",
              n, seconds, n / seconds, streamMs);
        w->selectRun(id);
        QTRY_VERIFY(w->charts()->chart(QStringLiteral("latency"))->pointCount() >= n - 1);
    }

    void theKvChartSaysWhenTheServerDoesNotReportItsCache()
    {
        fake_http_server s(server([](const fake_request&) { return tokenStream(4, 10); }));
        QVERIFY(s.ok());
        MainWindow* w = open(remoteSettings(s.url()));
        QVERIFY(w);
        int id = 0;
        QVERIFY(runToEnd(w, &id));
        w->selectRun(id);
        ChartPanel* kv = w->charts()->chart(QStringLiteral("kv"));
        QTRY_VERIFY2(kv->title().contains(QStringLiteral("the server does not report its KV cache")),
                     qPrintable(kv->title()));
        QCOMPARE(kv->pointCount(), 0);   // no line at all, not a flat one at 0
    }

    void aCutStreamIsAnErrorRunKeptInTheHistoryWithWhatArrived()
    {
        fake_http_server s(server([](const fake_request&) { return tokenStream(3, 10, true); }));
        QVERIFY(s.ok());
        MainWindow* w = open(remoteSettings(s.url()));
        QVERIFY(w);
        QSignalSpy failed(w->controller(), &RunController::runFailed);
        int id = 0;
        RunRecord* run = runToEnd(w, &id);
        QVERIFY(run);
        QCOMPARE(run->finishReason(), FinishReason::Error);
        QVERIFY2(run->error().contains(QStringLiteral("trunc"), Qt::CaseInsensitive)
                     || run->error().contains(QStringLiteral("ended"), Qt::CaseInsensitive),
                 qPrintable(run->error()));
        QCOMPARE(run->text(), QStringLiteral("t0t1t2"));
        QCOMPARE(run->tokens().size(), 3);
        QVERIFY(w->history()->run(id) == run);
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(1).toString(), run->error());
    }

    void errorStatusesShowTheServersOwnMessage_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("401") << 401 << R"({"error":{"message":"Invalid API key"}})" << "Invalid API key";
        QTest::newRow("404") << 404 << R"({"error":{"message":"model gone"}})" << "model gone";
        QTest::newRow("429") << 429 << R"({"error":{"message":"Rate limit reached"}})" << "Rate limit reached";
        QTest::newRow("500") << 500 << R"({"error":{"message":"CUDA out of memory"}})" << "CUDA out of memory";
    }

    void errorStatusesShowTheServersOwnMessage()
    {
        QFETCH(int, status);
        QFETCH(QString, body);
        QFETCH(QString, message);
        const std::string b = body.toStdString();
        fake_http_server s(server([status, b](const fake_request&) {
            return kvlens::test::respond(status, "application/json", b);
        }));
        QVERIFY(s.ok());
        MainWindow* w = open(remoteSettings(s.url()));
        QVERIFY(w);
        RunRecord* run = runToEnd(w);
        QVERIFY(run);
        QCOMPARE(run->finishReason(), FinishReason::Error);
        QVERIFY2(run->error().contains(QString::number(status)), qPrintable(run->error()));
        QVERIFY2(run->error().contains(message), qPrintable(run->error()));
        QVERIFY2(w->lastError().contains(message) || w->controller()->lastError().contains(message)
                     || run->error().contains(message),
                 qPrintable(w->lastError()));
    }

    void aServerThatStopsSendingEndsTheRunAfterTheStallTimeout()
    {
        fake_http_server s(server([](const fake_request&) {
            fake_script sc = tokenStream(2, 10, true);
            sc.pieces.push_back({tokenChunk("late"), 5000});   // after the 0.5 s stall timeout
            return sc;
        }));
        QVERIFY(s.ok());
        EngineSettings e = remoteSettings(s.url());
        e.stallTimeoutS = 0.5;
        MainWindow* w = open(e);
        QVERIFY(w);
        RunRecord* run = runToEnd(w);
        QVERIFY(run);
        QCOMPARE(run->finishReason(), FinishReason::Error);
        QVERIFY2(run->error().contains(QStringLiteral("stall"), Qt::CaseInsensitive)
                     || run->error().contains(QStringLiteral("no data"), Qt::CaseInsensitive),
                 qPrintable(run->error()));
        QCOMPARE(run->text(), QStringLiteral("t0t1"));
        s.stop();
    }

    void aServerThatIsNotRunningIsRefusedWithThatReason()
    {
        const int port = kvlens::test::closed_port();
        MainWindow* w = open(remoteSettings("http://127.0.0.1:" + std::to_string(port)));
        QVERIFY(!w || !w->model().isValid());
        QTRY_VERIFY(!window_->controller()->modelError().isEmpty());
        QVERIFY2(window_->controller()->modelError().contains(QStringLiteral("refused"), Qt::CaseInsensitive),
                 qPrintable(window_->controller()->modelError()));
    }

    void aLocalAndARemoteRunOverlayWithTheirOwnLabels()
    {
        fake_http_server s(server([](const fake_request&) { return tokenStream(6, 20); }, kKvMetrics));
        QVERIFY(s.ok());
        EngineSettings local;
        local.modelPath = fakeModel_;
        MainWindow* w = open(local);
        QVERIFY(w);
        QVERIFY(!w->model().remote);
        int localId = 0, remoteId = 0;
        QVERIFY(runToEnd(w, &localId));
        w->setEngineSettings(remoteSettings(s.url()));
        QTRY_VERIFY_WITH_TIMEOUT(w->model().remote && w->model().isValid(), 15000);
        QVERIFY(runToEnd(w, &remoteId));
        // The same prompt on both engines, side by side.
        QCOMPARE(w->history()->run(localId)->events().size() > 0, true);
        w->selectRun(remoteId, localId);
        StatsCard* card = w->charts()->stats();
        QTRY_VERIFY(card->valueText(QStringLiteral("ttft_ms")).endsWith(QStringLiteral("· client")));
        const RunRecord* l = w->history()->run(localId);
        QCOMPARE(StatsCard::labelled(QStringLiteral("ttft_ms"), *l), StatsCard::format(QStringLiteral("ttft_ms"), *l));
        QVERIFY(StatsCard::source(QStringLiteral("ttft_ms"), *l).isEmpty());
        ChartPanel* latency = w->charts()->chart(QStringLiteral("latency"));
        QVERIFY(latency->pointCount() >= 6 + 11);   // both runs' tokens (the first is the TTFT)
    }

    void theMemoryChartShowsTheDeviceOrTheCpuFallbackWithItsSizes_data()
    {
        QTest::addColumn<bool>("onDevice");
        QTest::addColumn<QString>("says");
        QTest::newRow("on the GPU") << true << "on NVIDIA Test GPU, 16 GiB, sm_90: 12.00 GiB free of 16.00 GiB";
        QTest::newRow("fallen back") << false << "do not fit in 2.0 GiB free of 16.0 GiB; using the CPU";
    }

    void theMemoryChartShowsTheDeviceOrTheCpuFallbackWithItsSizes()
    {
        QFETCH(bool, onDevice);
        QFETCH(QString, says);
        auto* worker = new EngineWorker([onDevice](const kvlens::engine_options&)
                                            -> kvlens::result<std::unique_ptr<kvlens::engine>> {
            kvlens::test::FakeTiming t;
            t.promptTokens = 100;
            t.generate = 5;
            return std::unique_ptr<kvlens::engine>(std::make_unique<DeviceFakeEngine>(onDevice, t));
        });
        worker->setTokenCounter([](const kvlens::engine&, const QVector<ChatTurn>&) { return 100; });
        worker->setTextCounter([](const kvlens::engine&, std::string_view text) { return int(text.size()) / 4; });
        window_ = std::make_unique<MainWindow>(worker);
        window_->resize(1400, 900);
        window_->show();
        EngineSettings e;
        e.modelPath = fakeModel_;
        e.backend = QStringLiteral("cuda");
        window_->setEngineSettings(e);
        QTRY_VERIFY_WITH_TIMEOUT(window_->model().isValid(), 10000);
        QString error;
        QVERIFY(window_->openDocumentNow(report_, &error));
        int id = 0;
        RunRecord* run = runToEnd(window_.get(), &id);
        QVERIFY(run);
        QCOMPARE(run->memory().onDevice, onDevice);
        window_->selectRun(id);
        ChartPanel* memory = window_->charts()->chart(QStringLiteral("memory"));
        QTRY_VERIFY2(memory->title().contains(says), qPrintable(memory->title()));
        if (onDevice)   // the device's own accounting of the parts
            QCOMPARE(run->memory().weightBytes, qint64(3 << 20));
    }

    void theApiKeyReachesTheServerButIsNeverStored()
    {
        std::atomic<bool> sawKey{false};
        fake_http_server s([&sawKey](const fake_request& r) {
            if (r.headers.find("Bearer sk-secret-123") != std::string::npos)
                sawKey = true;
            return server([](const fake_request&) { return tokenStream(2, 5); })(r);
        });
        QVERIFY(s.ok());
        const QString keyFile = dir_.filePath(QStringLiteral("key.txt"));
        QFile k(keyFile);
        QVERIFY(k.open(QIODevice::WriteOnly));
        k.write("  sk-secret-123  \n");
        k.close();
        EngineSettings e = remoteSettings(s.url());
        e.apiKeyFile = keyFile;
        AppSettings::setEngine(e);
        MainWindow* w = open(AppSettings::engine());
        QVERIFY(w);
        int id = 0;
        QVERIFY(runToEnd(w, &id));
        QVERIFY(sawKey);
        QSettings().sync();
        QFile ini(QSettings().fileName());
        QVERIFY(ini.open(QIODevice::ReadOnly));
        const QByteArray stored = ini.readAll();
        QVERIFY(stored.contains("key.txt"));
        QVERIFY(!stored.contains("sk-secret"));
        const QString out = dir_.filePath(QStringLiteral("export"));
        QVERIFY2(w->exportRun(id, out).isEmpty(), "export failed");
        QFile json(out + QStringLiteral("/run.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QByteArray runJson = json.readAll();
        QVERIFY2(runJson.contains("\"remote_url\": \"" + QByteArray::fromStdString(s.url()) + "\""), runJson.left(600).constData());
        QVERIFY(!runJson.contains("key.txt"));
        QVERIFY(!runJson.contains("sk-secret"));
        // A key file that cannot be read is named, not silently skipped.
        e.apiKeyFile = dir_.filePath(QStringLiteral("missing-key.txt"));
        w->setEngineSettings(e);
        QTRY_VERIFY(w->controller()->modelError().contains(QStringLiteral("API key file")));
        QSettings().clear();
    }

    void settingsRefusesAFileThatIsNotAModel_data()
    {
        QTest::addColumn<QString>("which");
        QTest::addColumn<QString>("says");
        QTest::newRow("missing") << "missing" << "does not exist";
        QTest::newRow("folder") << "folder" << "not a regular file";
        QTest::newRow("not gguf") << "text" << "not a GGUF model";
        QTest::newRow("empty") << "" << "Choose a model file";
        QTest::newRow("gguf") << "gguf" << "";
    }

    void settingsRefusesAFileThatIsNotAModel()
    {
        QFETCH(QString, which);
        QFETCH(QString, says);
        QString path;
        if (which == QLatin1String("missing"))
            path = dir_.filePath(QStringLiteral("nothing.gguf"));
        else if (which == QLatin1String("folder"))
            path = dir_.path();
        else if (which == QLatin1String("text"))
            path = report_;
        else if (which == QLatin1String("gguf"))
            path = fakeModel_;
        const QString problem = SettingsDialog::modelFileProblem(path);
        if (says.isEmpty())
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        else
            QVERIFY2(problem.contains(says), qPrintable(problem));
        SettingsDialog dlg;
        EngineSettings e;
        e.backend = QStringLiteral("cpu");
        e.modelPath = path;
        dlg.setValues(e, SamplingSettings{});
        dlg.show();
        dlg.accept();
        QCOMPARE(dlg.result() == QDialog::Accepted, says.isEmpty());
        QCOMPARE(dlg.problem(), problem);
    }

    void testConnectionReportsTheServerWithoutBlockingTheDialog()
    {
        // /v1/models answers after 600 ms: the dialog's timer keeps ticking meanwhile.
        fake_http_server s(server([](const fake_request&) { return tokenStream(1, 0); }, kKvMetrics, 600));
        QVERIFY(s.ok());
        SettingsDialog dlg;
        EngineSettings e = remoteSettings(s.url());
        e.modelPath = fakeModel_;
        dlg.setValues(e, SamplingSettings{});
        dlg.show();
        QVERIFY(dlg.remoteBox()->isVisible());
        QSignalSpy tested(dlg.remoteBox(), &RemoteServerBox::connectionTested);
        int ticks = 0;
        QTimer tick;
        connect(&tick, &QTimer::timeout, this, [&] { ++ticks; });
        tick.start(20);
        dlg.findChild<QPushButton*>(QStringLiteral("testConnection"))->click();
        QVERIFY(dlg.remoteBox()->testing());
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15000);
        QVERIFY2(ticks >= 10, qPrintable(QString::number(ticks)));
        QVERIFY(tested.first().at(0).toBool());
        const QString text = dlg.remoteBox()->statusText();
        QVERIFY2(text.contains(QStringLiteral("fake-model")) && text.contains(QStringLiteral("4,096"))
                     && text.contains(QStringLiteral("/metrics")),
                 qPrintable(text));
        auto* model = dlg.findChild<QComboBox*>(QStringLiteral("remoteModel"));
        QCOMPARE(model->count(), 1);
        QCOMPARE(model->itemText(0), QStringLiteral("fake-model"));
        dlg.accept();
        QCOMPARE(dlg.result(), int(QDialog::Accepted));
        QCOMPARE(dlg.engineSettings().backend, QStringLiteral("remote"));
        QCOMPARE(dlg.engineSettings().remoteUrl, QString::fromStdString(s.url()));
    }

    void testConnectionNamesTheError_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("says");
        QTest::newRow("refused") << QStringLiteral("http://127.0.0.1:%1").arg(kvlens::test::closed_port()) << "refused";
        QTest::newRow("not http") << QStringLiteral("ftp://example") << "http:// or https://";
        QTest::newRow("no url") << QString() << "Enter the server's URL";
    }

    void testConnectionNamesTheError()
    {
        QFETCH(QString, url);
        QFETCH(QString, says);
        SettingsDialog dlg;
        EngineSettings e = remoteSettings(url.toStdString());
        dlg.setValues(e, SamplingSettings{});
        QSignalSpy tested(dlg.remoteBox(), &RemoteServerBox::connectionTested);
        dlg.remoteBox()->testConnection();
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15000);
        QVERIFY(!tested.first().at(0).toBool());
        QVERIFY2(tested.first().at(1).toString().contains(says, Qt::CaseInsensitive),
                 qPrintable(tested.first().at(1).toString()));
    }

    void aRealLlamaServerStreamsIntoTheWindow()
    {
        QString bin = qEnvironmentVariable("KVLENS_LLAMA_SERVER");
        if (bin.isEmpty())
            bin = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
                + QStringLiteral("/kvlens/llama-server-0.3.36/bin/llama-server");
        else if (QFileInfo(bin).isDir())
            bin += QStringLiteral("/bin/llama-server");
        const QString model = AppSettings::defaultModelPath();
        if (!QFileInfo::exists(bin))
            QSKIP(qPrintable(QStringLiteral("SKIPPED: no llama-server at %1 (run scripts/build-llama-server)").arg(bin)));
        if (model.isEmpty())
            QSKIP("SKIPPED: no default model (run scripts/fetch-model)");
        const int port = kvlens::test::closed_port();
        QProcess proc;
        proc.setProcessChannelMode(QProcess::MergedChannels);
        proc.start(bin, {QStringLiteral("-m"), model, QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                         QStringLiteral("--port"), QString::number(port), QStringLiteral("--no-repack"),
                         QStringLiteral("-c"), QStringLiteral("2048"), QStringLiteral("-np"), QStringLiteral("1"),
                         QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("--metrics"),
                         QStringLiteral("--no-webui")});
        QVERIFY(proc.waitForStarted(10000));
        auto stopServer = qScopeGuard([&proc] {
            proc.terminate();
            if (!proc.waitForFinished(5000))
                proc.kill();
            proc.waitForFinished(2000);
        });
        const std::string url = "http://127.0.0.1:" + std::to_string(port);
        // /health answers 200 once the model is loaded.
        kvlens::remote::http_request health;
        health.url = url + "/health";
        health.connect_timeout_s = 1;
        health.total_timeout_s = 2;
        bool up = false;
        for (int i = 0; i < 360 && !up && proc.state() == QProcess::Running; ++i) {
            up = kvlens::remote::http_fetch(health).ok();
            if (!up)
                QTest::qWait(500);
        }
        QVERIFY2(up, proc.readAll().constData());
        EngineSettings e = remoteSettings(url);
        e.stallTimeoutS = 120;
        MainWindow* w = open(e);
        QVERIFY2(w && w->model().isValid(), qPrintable(window_ ? window_->controller()->modelError() : QString()));
        SamplingSettings sampling = w->controller()->sampling();
        sampling.maxTokens = 16;
        w->setSampling(sampling);
        const int id = w->startRun(w->currentConfig());
        RunRecord* run = w->history()->run(id);
        QTRY_VERIFY_WITH_TIMEOUT(run->isFinished(), 120000);
        w->flushEvents();
        QVERIFY2(run->finishReason() == FinishReason::Stop || run->finishReason() == FinishReason::Length,
                 qPrintable(run->error()));
        QVERIFY(run->tokens().size() >= 2);
        QVERIFY(run->hasFigures());
        const RunFigures& f = run->figures();
        QCOMPARE(f.source, kvlens::figure_source::client);
        QVERIFY(f.server.prompt_ms > 0);
        // The client's TTFT includes the server's prefill.
        QVERIFY2(f.ttft_ms >= f.server.prompt_ms, qPrintable(QStringLiteral("%1 vs %2").arg(f.ttft_ms).arg(f.server.prompt_ms)));
        w->selectRun(id);
        QTRY_VERIFY(w->charts()->stats()->valueText(QStringLiteral("prefill_ms")).endsWith(QStringLiteral("· server")));
        QVERIFY(w->charts()->stats()->valueText(QStringLiteral("ttft_ms")).endsWith(QStringLiteral("· client")));
        QVERIFY(w->charts()->chart(QStringLiteral("latency"))->pointCount() >= 1);
        window_.reset();
    }
};

QTEST_MAIN(TestRemoteWindow)
#include "tst_remote_window.moc"
