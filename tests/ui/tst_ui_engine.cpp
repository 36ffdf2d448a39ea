// SPDX-License-Identifier: Apache-2.0
// The window on the real engine: the tiny random-weight test model (always)
// and the default model (when scripts/fetch-model has put it in models/).
// The window's token count matches the engine's, the KV chart's logical bytes
// follow the formula at every token, a follow-up question hits the prefix
// cache and a timestamped system prompt does not, and the headless mode
// writes its files.
#include <QApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QUrl>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/test_paths.h"
#include "tests/support/tiny_model.h"
#include "ui/charts/chart_panel.h"
#include "ui/headless_runner.h"
#include "ui/main_window.h"
#include "ui/model/run_history_model.h"
#include "ui/widgets/charts_board.h"
#include "ui/widgets/document_pane.h"

using namespace kvlens::ui;

class TestUiEngine : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString report_;
    std::unique_ptr<MainWindow> window_;

    MainWindow* open(const QString& model, int maxTokens)
    {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1600, 1000);
        window_->show();
        EngineSettings e;
        e.modelPath = model;
        e.contextTokens = 0;     // the model's own
        e.chunk = 32;
        e.parallel = 2;
        e.threads = 2;
        SamplingSettings s;
        s.maxTokens = maxTokens;
        window_->setSampling(s);
        window_->setEngineSettings(e);
        if (!QTest::qWaitFor([this] { return window_->model().isValid() || !window_->lastError().isEmpty(); }, 60000))
            return nullptr;
        if (!window_->model().isValid()) {
            qWarning("model: %s", qPrintable(window_->lastError()));
            return nullptr;
        }
        QString error;
        if (!window_->openDocumentNow(report_, &error))
            return nullptr;
        return window_.get();
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("kvlens-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_ui_engine"));
        QSettings().clear();
        if (qEnvironmentVariableIsEmpty("KVLENS_PDF_HELPER"))
            qputenv("KVLENS_PDF_HELPER", KVLENS_PDF_HELPER_PATH);
        QVERIFY(dir_.isValid());
        report_ = dir_.filePath(QStringLiteral("memo.txt"));
        QFile f(report_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Sales rose 12%.\n\fCosts fell.\n");
    }

    void cleanup() { window_.reset(); }

    void tinyModelRun()
    {
        const QString model = QString::fromStdString(kvlens::test::tiny_model_path("Q8_0"));
        QVERIFY(!model.isEmpty());
        MainWindow* w = open(model, 12);
        QVERIFY(w);
        QCOMPARE(w->model().nLayer, 2);
        QTRY_VERIFY_WITH_TIMEOUT(w->documentPane()->tokenCountText().contains(QStringLiteral("fits")), 20000);
        const int id = w->startRun(w->currentConfig());
        const RunRecord* run = w->history()->run(id);
        QTRY_VERIFY_WITH_TIMEOUT(run->isFinished(), 60000);
        QVERIFY2(run->finishReason() == FinishReason::Stop || run->finishReason() == FinishReason::Length,
                 qPrintable(run->error()));
        // The count the window showed before the run is the engine's prompt.
        QVERIFY(w->documentPane()->tokenCountText().startsWith(QString::number(run->promptTokens()) + QLatin1Char(' ')));
        QCOMPARE(run->prefill().size(), (run->promptTokens() + 31) / 32);
        QVERIFY(run->tokens().size() >= 1);
        QVERIFY(run->tokens().size() <= 12);
        const qint64 perToken = w->model().kvBytesPerTokenF16;
        QVERIFY(perToken > 0);
        for (const TokenStep& t : run->tokens())
            QCOMPARE(t.kv.logicalBytes, t.kv.tokens * perToken);
        QVERIFY(w->charts()->chart(QStringLiteral("kv"))->pointCount() > 0);
        QVERIFY(w->charts()->chart(QStringLiteral("prefill"))->pointCount() > 1);
    }

    void followUpHitsThePrefixCache()
    {
        const QString model = QString::fromStdString(kvlens::test::tiny_model_path("Q8_0"));
        MainWindow* w = open(model, 8);
        QVERIFY(w);
        const int base = w->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(base)->isFinished(), 60000);
        const int follow = w->runExperiment(Experiment::FollowUp);
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(follow)->isFinished(), 60000);
        const RunRecord* f = w->history()->run(follow);
        QVERIFY2(f->finishReason() != FinishReason::Error, qPrintable(f->error()));
        QVERIFY(f->cachedTokens() > 0);
        w->selectRun(base);
        const int broken = w->runExperiment(Experiment::BrokenCache);
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(broken)->isFinished(), 60000);
        QCOMPARE(w->history()->run(broken)->cachedTokens(), 0);
    }

    void brokenPdfIsAnErrorInTheWindow()
    {
        const QString model = QString::fromStdString(kvlens::test::tiny_model_path("Q8_0"));
        MainWindow* w = open(model, 8);
        QVERIFY(w);
        const QString bad = dir_.filePath(QStringLiteral("broken.pdf"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("%PDF-1.7\nthis is not really a PDF\n");
        f.close();
        QString error;
        QVERIFY(!w->openDocumentNow(bad, &error));
        QVERIFY(!error.isEmpty());
        // Dropped on the window: read in the background, the error shown, the
        // open report kept.
        QSignalSpy shown(w, &MainWindow::errorShown);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(bad)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w, &drop);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, 30000);
        QVERIFY(!shown.first().first().toString().isEmpty());
        QCOMPARE(w->documentPane()->document().path, report_);
    }

    void headlessOnTheDefaultModel()
    {
        if (!kvlens::test::have_default_model())
            QSKIP("no default model in models/ (scripts/fetch-model)");
        const QString sample = QString::fromStdString((kvlens::test::source_root() / "resources/sample-report.pdf").string());
        if (!QFileInfo::exists(sample))
            QSKIP("no resources/sample-report.pdf");
        QTemporaryDir out;
        HeadlessOptions o;
        o.report = sample;
        o.outDir = out.path();
        o.model = QString::fromStdString(kvlens::test::default_model().string());
        o.task = QStringLiteral("one-line");
        o.maxTokens = 48;
        o.firstPage = 1;
        o.lastPage = 1;
        QCOMPARE(runHeadless(o), 0);
        for (const QString& f : headlessOutputs())
            QVERIFY2(QFileInfo(out.filePath(f)).size() > 0, qPrintable(f));
        QFile summary(out.filePath(QStringLiteral("summary.txt")));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        QVERIFY(summary.readAll().trimmed().size() > 10);
    }
};

QTEST_MAIN(TestUiEngine)
#include "tst_ui_engine.moc"
