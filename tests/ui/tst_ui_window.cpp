// SPDX-License-Identifier: Apache-2.0
// The window with an engine behind its worker thread: a fake engine with set
// timings (fake_engine.h), so a run can be watched in flight. Opening a
// document, running, charts receiving points while the run goes on, the GUI
// staying responsive, cancelling mid-prefill and mid-decode, experiments,
// export of PNG/SVG/CSV/JSON, the language switch, and a screenshot that is
// not blank. (The headless twin: tst_headless.cpp.)
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <QValueAxis>
#include <QChart>
#include <QBarCategoryAxis>
#include <QLegend>
#include <QLegendMarker>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QtTest>
#include <string_view>

#include "fake_engine.h"
#include "ui/charts/chart_panel.h"
#include "ui/engine/engine_worker.h"
#include "ui/i18n.h"
#include "ui/main_window.h"
#include "ui/model/run_history_model.h"
#include "ui/run_controller.h"
#include "ui/charts/kv_chart.h"
#include "ui/widgets/answer_pane.h"
#include "ui/widgets/charts_board.h"
#include "ui/widgets/document_pane.h"
#include "ui/widgets/stats_card.h"
#include "ui/widgets/task_pane.h"

using namespace kvlens::ui;
using kvlens::test::FakeEngine;
using kvlens::test::FakeTiming;
using kvlens::test::fakeWorker;

namespace {

// Texts that a chart draws cut short ("prompt tok...", "first sa..."): Qt
// Charts truncates an axis title, a tick or category label (run names) or a
// legend entry that does not fit the room its layout gives it, and draws the
// shortened text with an ellipsis. This reads what was drawn: every text
// item in the chart's scene, against the texts the chart was given. Empty
// when nothing is cut.
QStringList elidedTexts(const ChartPanel* panel)
{
    QStringList out;
    QList<QGraphicsItem*> todo = panel->chart()->childItems();
    while (!todo.isEmpty()) {
        QGraphicsItem* item = todo.takeLast();
        todo << item->childItems();
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible())
            continue;
        const QString shown = text->toPlainText();
        if (shown.endsWith(QStringLiteral("...")) || shown.endsWith(QChar(0x2026)))
            out << panel->key() + QStringLiteral(": \"") + shown + QLatin1Char('"');
    }
    return out;
}

// Share of pixels that differ from the most common colour.
double nonBackgroundShare(const QImage& img)
{
    QHash<QRgb, int> counts;
    const QImage im = img.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < im.height(); y += 2) {
        const QRgb* line = reinterpret_cast<const QRgb*>(im.constScanLine(y));
        for (int x = 0; x < im.width(); x += 2)
            ++counts[line[x]];
    }
    int total = 0, top = 0;
    for (int c : counts) {
        total += c;
        top = std::max(top, c);
    }
    return total == 0 ? 0.0 : 1.0 - double(top) / total;
}

}  // namespace

class TestUiWindow : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString report_;
    QString model_;
    std::unique_ptr<MainWindow> window_;

    MainWindow* open(FakeTiming timing, const QString& report = QString())
    {
        window_ = std::make_unique<MainWindow>(fakeWorker(timing));
        window_->resize(1600, 1000);
        window_->show();
        EngineSettings e;
        e.modelPath = model_;
        window_->setEngineSettings(e);
        if (!QTest::qWaitFor([this] { return window_->model().isValid(); }, 10000))
            return nullptr;
        QString error;
        if (!window_->openDocumentNow(report.isEmpty() ? report_ : report, &error))
            return nullptr;
        return window_.get();
    }

    // A run and its follow-up (two runs in every legend), both finished
    // within 10 s each.
    bool runWithFollowUp(MainWindow* w, int* base = nullptr, int* followUp = nullptr)
    {
        const int b = w->startRun(w->currentConfig());
        if (!QTest::qWaitFor([&] { return w->history()->run(b)->isFinished(); }, 10000))
            return false;
        const int f = w->runExperiment(Experiment::FollowUp);
        if (!QTest::qWaitFor([&] { return !w->isBusy(); }, 10000))
            return false;
        if (base)
            *base = b;
        if (followUp)
            *followUp = f;
        return true;
    }

    // A window that keeps its history in `folder`, after a run and its follow-up.
    MainWindow* windowWithSavedRuns(const QString& folder)
    {
        MainWindow* w = open(FakeTiming{});
        if (!w)
            return nullptr;
        w->keepHistoryIn(folder);
        return runWithFollowUp(w) ? w : nullptr;
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("kvlens-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_ui_window"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        report_ = dir_.filePath(QStringLiteral("report.txt"));
        QVERIFY(kvlens::test::writeShortReport(report_));
        model_ = dir_.filePath(QStringLiteral("fake.gguf"));
        QVERIFY(kvlens::test::writeFakeModel(model_));
    }

    void cleanup() { window_.reset(); }

    void opensDocumentAndCountsTokens()
    {
        MainWindow* w = open(FakeTiming{});
        QVERIFY(w);
        QVERIFY(w->documentPane()->hasDocument());
        QCOMPARE(w->documentPane()->document().text.pageCount(), 3);
        QCOMPARE(w->documentPane()->lastPage(), 3);
        QTRY_VERIFY(w->documentPane()->tokenCountText().contains(QStringLiteral("fits")));
        QCOMPARE(w->model().nLayer, 4);
        QCOMPARE(w->model().kvBytesPerTokenF16, qint64(1024));
        QVERIFY(w->taskPane()->runButton()->isEnabled());
    }

    void chartsReceivePointsWhileRunning()
    {
        FakeTiming t;
        t.promptTokens = 640;
        t.chunk = 64;
        t.chunkMs = 30;
        t.generate = 30;
        t.tokenMs = 20;
        MainWindow* w = open(t);
        QVERIFY(w);
        // A timer on the GUI thread keeps firing during the prefill: the
        // window stays responsive while the engine works.
        int ticks = 0;
        QTimer tick;
        connect(&tick, &QTimer::timeout, this, [&] { ++ticks; });
        tick.start(5);
        const int id = w->startRun(w->currentConfig());
        const RunRecord* run = w->history()->run(id);
        QVERIFY(run);
        ChartPanel* prefill = w->charts()->chart(QStringLiteral("prefill"));
        ChartPanel* latency = w->charts()->chart(QStringLiteral("latency"));
        ChartPanel* kv = w->charts()->chart(QStringLiteral("kv"));
        QTRY_VERIFY_WITH_TIMEOUT(prefill->pointCount() >= 3 && run->state() == RunRecord::State::Prefill, 10000);
        const int ticksInPrefill = ticks;
        QVERIFY(ticksInPrefill > 0);
        QTRY_VERIFY_WITH_TIMEOUT(latency->pointCount() >= 5 && !run->isFinished(), 10000);
        QVERIFY(kv->pointCount() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(run->isFinished(), 20000);
        QCOMPARE(run->finishReason(), FinishReason::Length);
        QCOMPARE(run->tokens().size(), 30);
        QCOMPARE(run->prefill().size(), 10);
        QVERIFY(w->answer()->plainText().startsWith(QStringLiteral("The word1 word2")));
        QVERIFY(w->charts()->stats()->valueText(QStringLiteral("ttft_ms")) != QStringLiteral("—"));
        QCOMPARE(w->charts()->stats()->valueText(QStringLiteral("generated_tokens")), QStringLiteral("30"));
        // Coalesced: fewer redraws than events.
        QVERIFY(w->charts()->redraws() < run->events().size());
    }

    void cancelMidPrefill()
    {
        FakeTiming t;
        t.promptTokens = 4000;
        t.chunk = 100;
        t.chunkMs = 50;
        MainWindow* w = open(t);
        QVERIFY(w);
        const int id = w->startRun(w->currentConfig());
        const RunRecord* run = w->history()->run(id);
        QTRY_VERIFY_WITH_TIMEOUT(run->prefill().size() >= 2, 10000);
        QVERIFY(w->isBusy());
        QTest::keyClick(w, Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(run->isFinished(), 10000);
        QCOMPARE(run->finishReason(), FinishReason::Cancelled);
        QVERIFY(run->prefillFraction() < 1.0);
        QCOMPARE(run->tokens().size(), 0);
        QVERIFY(!w->isBusy());
    }

    void cancelMidDecode()
    {
        FakeTiming t;
        t.promptTokens = 128;
        t.generate = 400;
        t.tokenMs = 20;
        MainWindow* w = open(t);
        QVERIFY(w);
        const int id = w->startRun(w->currentConfig());
        const RunRecord* run = w->history()->run(id);
        QTRY_VERIFY_WITH_TIMEOUT(run->tokens().size() >= 5, 10000);
        w->taskPane()->cancelButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(run->isFinished(), 10000);
        QCOMPARE(run->finishReason(), FinishReason::Cancelled);
        QVERIFY(run->tokens().size() >= 5);
        QVERIFY(run->tokens().size() < 400);
    }

    void closingMidRunStopsTheEngine()
    {
        FakeTiming t;
        t.promptTokens = 128;
        t.generate = 10000;
        t.tokenMs = 10;
        MainWindow* w = open(t);
        QVERIFY(w);
        const int id = w->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(id)->tokens().size() >= 3, 10000);
        window_.reset();   // cancels, waits for the engine, stops the worker thread
        QVERIFY(!window_);
    }

    void experimentsOverlayTheirBase()
    {
        FakeTiming t;
        t.promptTokens = 256;
        t.generate = 8;
        t.chunkMs = 5;
        t.tokenMs = 2;
        MainWindow* w = open(t);
        QVERIFY(w);
        const int base = w->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(base)->isFinished(), 10000);
        QTRY_VERIFY(w->taskPane()->experimentButton(Experiment::KvOff)->isEnabled());
        w->taskPane()->experimentButton(Experiment::KvOff)->click();
        QCOMPARE(w->history()->count(), 2);
        const RunRecord* off = w->history()->latest();
        QCOMPARE(off->config().engine.kvMode, QStringLiteral("off"));
        QCOMPARE(off->config().parentRunId, base);
        QTRY_VERIFY_WITH_TIMEOUT(off->isFinished(), 10000);
        QCOMPARE(off->finishReason(), FinishReason::Length);
        // Concurrent: three runs at once, the first selected.
        w->selectRun(base);
        const int first = w->runExperiment(Experiment::Concurrent);
        QCOMPARE(w->history()->count(), 5);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy(), 20000);
        QCOMPARE(w->history()->run(first)->config().concurrentIndex, 0);
        QCOMPARE(w->history()->latest()->config().concurrentIndex, 2);
    }

    void exportWritesValidFiles()
    {
        FakeTiming t;
        t.promptTokens = 256;
        t.generate = 12;
        t.chunkMs = 5;
        t.tokenMs = 2;
        MainWindow* w = open(t);
        QVERIFY(w);
        const int id = w->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(id)->isFinished(), 10000);
        QTemporaryDir out;
        QVERIFY(out.isValid());
        QCOMPARE(w->charts()->exportAll(out.path()), QStringList());
        QCOMPARE(w->exportRun(id, out.path()), QString());
        for (const QString& key : {"prefill", "ttft", "latency", "kv", "memory"}) {
            QImage png(out.filePath(key + QStringLiteral(".png")));
            QVERIFY2(!png.isNull(), qPrintable(key));
            QVERIFY(png.width() >= 320);
            QVERIFY(nonBackgroundShare(png) > 0.01);
            QFile svg(out.filePath(key + QStringLiteral(".svg")));
            QVERIFY(svg.open(QIODevice::ReadOnly));
            const QByteArray s = svg.readAll();
            QVERIFY(s.startsWith("<?xml"));
            QVERIFY(s.contains("<svg"));
            QVERIFY(s.contains("</svg>"));
        }
        QFile csv(out.filePath(QStringLiteral("run.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), 13);  // header + 12 tokens
        QFile json(out.filePath(QStringLiteral("run.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        QJsonParseError err{};
        const QJsonObject o = QJsonDocument::fromJson(json.readAll(), &err).object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(o.value(QStringLiteral("figures")).toObject().value(QStringLiteral("generated_tokens")).toInt(), 12);
        QCOMPARE(o.value(QStringLiteral("finish_reason")).toString(), QStringLiteral("length"));
    }

    void screenshotIsNotBlank()
    {
        FakeTiming t;
        t.promptTokens = 900;
        t.generate = 48;
        t.chunkMs = 5;
        t.tokenMs = 2;
        MainWindow* w = open(t);
        QVERIFY(w);
        const int id = w->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(id)->isFinished(), 10000);
        const QImage shot = w->grab().toImage();
        const QString path = qEnvironmentVariable("KVLENS_SCREENSHOT", QDir::temp().filePath(QStringLiteral("kvlens-window.png")));
        QVERIFY(shot.save(path));
        QCOMPARE(shot.size(), QSize(1600, 1000));   // the layout fits a 1600 x 1000 window
        QVERIFY(nonBackgroundShare(shot) > 0.05);
    }

    void theStatusBarsBackendTextIsTranslatedAndKeepsItsNumbers()
    {
        // A reason the translation knows (the usual one on a machine without
        // a GPU) is translated too; one it does not (a CUDA error's own text)
        // stays as the engine wrote it.
        const QString english = QStringLiteral(
            "cpu: 2 threads, avx2 kernels (cuda: no NVIDIA driver found (libcuda is not installed or not loadable); using the CPU)");
        const QString unknown = QStringLiteral("cpu: 2 threads, avx2 kernels (cuda: CUDA initialisation failed: 999 "
                                               "(cudaErrorUnknown); using the CPU)");
        const QString tooOld = QStringLiteral("the NVIDIA driver supports CUDA 12.2, older than this build's runtime 13.0");
        QCOMPARE(i18n::backendText(english), english);
        QCOMPARE(i18n::deviceReason(tooOld), tooOld);
        QVERIFY(i18n::install(QStringLiteral("zh_CN")));
        const QString zh = i18n::backendText(english);
        const QString zhUnknown = i18n::backendText(unknown);
        const QString zhTooOld = i18n::deviceReason(tooOld);
        const QString noDevice = QStringLiteral("cuda: no CUDA device found; using the CPU");   // the memory chart's note
        const QString zhNoDevice = i18n::fallbackText(noDevice);
        QVERIFY(i18n::install(QStringLiteral("en")));
        QCOMPARE(i18n::fallbackText(noDevice), noDevice);
        QVERIFY2(!zhNoDevice.contains(QStringLiteral("device found")) && !zhNoDevice.contains(QStringLiteral("using the CPU"))
                     && zhNoDevice.contains(QStringLiteral("CUDA")),
                 qPrintable(zhNoDevice));
        QVERIFY2(!zh.contains(QStringLiteral("threads")) && !zh.contains(QStringLiteral("using the CPU"))
                     && !zh.contains(QStringLiteral("driver found")), qPrintable(zh));
        QVERIFY2(zh.contains(QStringLiteral("2")) && zh.contains(QStringLiteral("avx2")) && zh.contains(QStringLiteral("libcuda")),
                 qPrintable(zh));
        QVERIFY2(zhUnknown.contains(QStringLiteral("CUDA initialisation failed: 999 (cudaErrorUnknown)"))
                     && !zhUnknown.contains(QStringLiteral("using the CPU")),
                 qPrintable(zhUnknown));
        QVERIFY2(zhTooOld != tooOld && zhTooOld.contains(QStringLiteral("12.2")) && zhTooOld.contains(QStringLiteral("13.0")),
                 qPrintable(zhTooOld));
    }

    // The PDF reader's notes (pdf/ writes English) in Chinese, their page
    // numbers and quoted lines kept; one the translation does not know stays.
    void thePdfReadersNotesAreTranslatedWithTheirFigures()
    {
        const QString dropped = QStringLiteral("dropped running headers/footers: \"1.1. RÄUME\", \"Kapitel 2\" and more");
        const QString scanned = QStringLiteral("pages 3–5, 9 have no text layer: scanned?");   // as format_page_list writes them
        const QString other = QStringLiteral("a note the reader has not written before");
        QCOMPARE(i18n::pdfWarning(dropped), dropped);
        QVERIFY(i18n::install(QStringLiteral("zh_CN")));
        const QString zhDropped = i18n::pdfWarning(dropped), zhScanned = i18n::pdfWarning(scanned);
        const QString zhOther = i18n::pdfWarning(other);
        QVERIFY(i18n::install(QStringLiteral("en")));
        QVERIFY2(!zhDropped.contains(QStringLiteral("dropped")) && !zhDropped.contains(QStringLiteral("and more"))
                     && zhDropped.contains(QStringLiteral("\"1.1. RÄUME\", \"Kapitel 2\"")),
                 qPrintable(zhDropped));
        QVERIFY2(!zhScanned.contains(QStringLiteral("text layer")) && zhScanned.contains(QStringLiteral("3–5, 9")),
                 qPrintable(zhScanned));
        QCOMPARE(zhOther, other);
    }

    void switchesLanguage()
    {
        MainWindow* w = open(FakeTiming{});
        QVERIFY(w);
        QVERIFY(i18n::install(QStringLiteral("zh_CN")));
        QTRY_COMPARE(w->taskPane()->runButton()->text(), QStringLiteral("运行"));
        QCOMPARE(w->charts()->chart(QStringLiteral("prefill"))->title().section(QStringLiteral(" — "), 0, 0),
                 QStringLiteral("预填充进度"));
        QTRY_COMPARE(w->charts()->chart(QStringLiteral("prefill"))->chart()->axes(Qt::Horizontal).first()->titleText(),
                     QStringLiteral("时间（毫秒）"));
        const QString zhShot = QDir::temp().filePath(QStringLiteral("kvlens-window-zh.png"));
        QVERIFY(w->grab().save(zhShot));
        QVERIFY(i18n::install(QStringLiteral("en")));
        QTRY_COMPARE(w->taskPane()->runButton()->text(), QStringLiteral("Run"));
        QCOMPARE(QCoreApplication::translate("kvlens::ui::DocumentPane", "%n page(s)", nullptr, 3),
                 QStringLiteral("3 pages"));
    }

    void followsTheDarkPalette()
    {
        MainWindow* w = open(FakeTiming{});
        QVERIFY(w);
        const QPalette light = QApplication::palette();
        QPalette dark = light;
        dark.setColor(QPalette::Window, QColor(0x26, 0x29, 0x2e));
        dark.setColor(QPalette::Base, QColor(0x1c, 0x1e, 0x22));
        dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
        dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        QApplication::setPalette(dark);
        QTRY_VERIFY(w->charts()->chart(QStringLiteral("kv"))->chart()->backgroundBrush().color().lightness() < 64);
        QApplication::setPalette(light);
        QTRY_VERIFY(w->charts()->chart(QStringLiteral("kv"))->chart()->backgroundBrush().color().lightness() > 200);
    }

    void tooLongIsSaidBeforeRunning()
    {
        const QString longReport = dir_.filePath(QStringLiteral("long.txt"));
        QFile f(longReport);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("A short first page.\n\f");
        f.write(QByteArray(20000, 'x'));   // about 5,000 tokens at four characters each
        f.close();
        MainWindow* w = open(FakeTiming{}, longReport);
        QVERIFY(w);
        QTRY_VERIFY(w->documentPane()->tokenCountText().contains(QStringLiteral("exceeds")));
        QCOMPARE(w->history()->count(), 0);
        QVERIFY(!w->documentPane()->fitsContext());
        w->taskPane()->runButton()->click();
        QVERIFY2(w->history()->count() == 0, qPrintable(w->documentPane()->tokenCountText() + QStringLiteral(" | ") + w->lastError()));
        QVERIFY(w->lastError().contains(QStringLiteral("Choose fewer pages")));
        w->documentPane()->setPageRange(1, 1);
        QTRY_VERIFY(w->documentPane()->tokenCountText().contains(QStringLiteral("fits")));
        w->taskPane()->runButton()->click();
        QCOMPARE(w->history()->count(), 1);
    }

    void kvFiguresArriveDuringPrefill()
    {
        FakeTiming t;
        t.promptTokens = 1000;
        t.chunk = 100;
        t.chunkMs = 60;
        MainWindow* w = open(t);
        QVERIFY(w);
        RunController* c = w->controller();
        const int id = c->startRun(w->currentConfig());
        const RunRecord* run = c->history()->run(id);
        // Mid-prefill, before any token: the KV chart already draws the cache.
        QTRY_VERIFY_WITH_TIMEOUT(run->prefill().size() >= 3, 10000);
        c->flushEvents();
        QVERIFY(!run->hasFirstToken());
        const auto kv = run->kvPoints(RunRecord::KvKind::Logical);
        QVERIFY(kv.size() >= 3);
        QCOMPARE(kv.first(), QPointF(0, 0));
        QCOMPARE(qint64(kv.last().y()), qint64(kv.last().x()) * w->model().kvBytesPerTokenF16);
        QTRY_VERIFY(w->charts()->chart(QStringLiteral("kv"))->pointCount() >= 3);
        QVERIFY(run->prefillEtaMs() > 0);
        // The zoom to the decode steps is a toggle, off by default.
        auto* kvChart = qobject_cast<KvChart*>(w->charts()->chart(QStringLiteral("kv")));
        QVERIFY(kvChart && !kvChart->decodeZoom());
        c->cancelAll();
        QTRY_VERIFY_WITH_TIMEOUT(!c->isBusy(), 10000);
    }

    void mapReduceInTheWindowRunsEveryStageAsARun()
    {
        const QString longReport = dir_.filePath(QStringLiteral("long-mr.txt"));
        QVERIFY(kvlens::test::writeLongReport(longReport));
        FakeTiming t;
        t.promptTokens = 200;
        t.chunkMs = 5;
        t.generate = 8;
        t.tokenMs = 2;
        MainWindow* w = open(t, longReport);
        QVERIFY(w);
        QTRY_VERIFY(w->documentPane()->tokenCountText().contains(QStringLiteral("exceeds")));
        // Both ways the design names are offered: the largest range that fits, and map-reduce.
        QTRY_VERIFY(w->documentPane()->mapReduceButton()->isVisibleTo(w));
        QVERIFY(w->documentPane()->suggestedLastPage() >= 1);
        QVERIFY(w->documentPane()->suggestedLastPage() < 6);
        RunController* c = w->controller();
        QSignalSpy finished(c, &RunController::mapReduceFinished);
        w->documentPane()->mapReduceButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 30000);
        QCOMPARE(finished.first().at(2).toString(), QString());   // no error
        const int n = c->history()->count();
        QVERIFY(n >= 3);   // at least two map stages and the reduce
        QVERIFY(c->history()->runAt(0)->config().stage.startsWith(QStringLiteral("map 1/")));
        QVERIFY(c->history()->runAt(0)->label().contains(QStringLiteral("pp. 1")));
        QCOMPARE(c->history()->runAt(n - 1)->config().stage, QStringLiteral("reduce"));
        QCOMPARE(c->history()->runAt(n - 1)->config().lastPage, 6);
        QCOMPARE(c->selectedRun(), c->history()->runAt(n - 1)->id());
    }

    void chartsCutNoTextAtClassroomSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("presentation");
        QTest::addColumn<QString>("lang");
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            for (const bool presentation : {false, true}) {
                for (const QString lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
                    const QByteArray name = QByteArray::number(size.width()) + 'x' + QByteArray::number(size.height())
                        + (presentation ? " presentation " : " normal ") + lang.toLatin1();
                    QTest::newRow(name.constData()) << size << presentation << lang;
                }
            }
        }
    }
    // Every axis title, tick and run label and legend entry is drawn whole,
    // after a run and its follow-up (two runs in every legend).
    void chartsCutNoTextAtClassroomSizes()
    {
        QFETCH(QSize, size);
        QFETCH(bool, presentation);
        QFETCH(QString, lang);
        QVERIFY(i18n::install(lang));
        MainWindow* w = open(FakeTiming{});
        QVERIFY(w);
        QVERIFY(runWithFollowUp(w));
        w->setPresentation(presentation);
        QApplication::processEvents();   // the panes it hides give up their room first
        w->resize(size);
        QTest::qWait(200);
        QApplication::processEvents();
        QCOMPARE(w->size(), size);   // the window fits the screen, no part of it off the edge
        QStringList elided;
        for (ChartPanel* p : w->charts()->charts())
            elided << elidedTexts(p);
        const QString shot = QDir::temp().filePath(QStringLiteral("kvlens-%1-%2x%3-%4.png")
                                                       .arg(presentation ? QStringLiteral("presentation") : QStringLiteral("normal"))
                                                       .arg(size.width()).arg(size.height()).arg(lang));
        QVERIFY(w->grab().save(shot));
        w->setPresentation(false);
        QVERIFY(i18n::install(QStringLiteral("en")));
        QVERIFY2(elided.isEmpty(), qPrintable(elided.join(QStringLiteral("; "))));
    }

    void replottingWhatIsShownChangesNoChart_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("presentation");
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            for (const bool presentation : {false, true}) {
                const QByteArray name = QByteArray::number(size.width()) + 'x' + QByteArray::number(size.height())
                    + (presentation ? " presentation" : " normal");
                QTest::newRow(name.constData()) << size << presentation;
            }
        }
    }
    // While a run streams, the board re-plots every chart several times a
    // second. A chart whose runs did not change (the prefill and TTFT charts
    // during decode) must be left as it is: no series, axis, legend or
    // callout set again (each would re-lay the chart out and repaint it, on
    // the CPU the engine decodes on), and no legend flipping between Qt's and
    // the wrapped text from one re-plot to the next.
    void replottingWhatIsShownChangesNoChart()
    {
        QFETCH(QSize, size);
        QFETCH(bool, presentation);
        MainWindow* w = open(FakeTiming{});
        QVERIFY(w);
        int base = 0, followUp = 0;
        QVERIFY(runWithFollowUp(w, &base, &followUp));
        w->setPresentation(presentation);
        QApplication::processEvents();
        w->resize(size);
        QTest::qWait(200);
        w->selectRun(followUp, base);   // the same selection, re-plotted
        QTest::qWait(100);
        QHash<QString, bool> wrapped;
        QStringList changed;
        for (ChartPanel* p : w->charts()->charts()) {
            wrapped[p->key()] = p->legendWrapped();
            connect(p->chart()->scene(), &QGraphicsScene::changed, this, [&changed, p] {
                if (!changed.contains(p->key()))
                    changed << p->key();
            });
        }
        for (int i = 0; i < 3; ++i) {
            w->selectRun(followUp, base);
            QTest::qWait(50);
            for (ChartPanel* p : w->charts()->charts()) {
                if (p->legendWrapped() != wrapped[p->key()])
                    changed << p->key() + QStringLiteral(": the legend flipped");
            }
        }
        w->setPresentation(false);
        QVERIFY2(changed.isEmpty(), qPrintable(changed.join(QStringLiteral(", "))));
    }

    // The latency chart names its mean lines in its heading, not in the
    // legend. Runs plotted while the legend is the wrapped text (Qt's
    // hidden) must not bring those entries into Qt's legend when it comes
    // back (the window shown, or grown).
    void hiddenLegendEntriesStayHiddenWhenQtsLegendComesBack()
    {
        QTemporaryDir runs;
        QVERIFY(runs.isValid());
        MainWindow* w = windowWithSavedRuns(runs.path());
        QVERIFY(w);
        window_.reset();

        // As the app starts: the saved runs are plotted before the window is
        // shown, in panels not laid out yet (the legend wrapped).
        window_ = std::make_unique<MainWindow>(fakeWorker(FakeTiming{}));
        w = window_.get();
        w->keepHistoryIn(runs.path());
        ChartPanel* latency = w->charts()->chart(QStringLiteral("latency"));
        QVERIFY(latency->legendWrapped());   // the premise
        w->resize(1920, 1080);
        w->show();
        QTest::qWait(200);
        QVERIFY(!latency->legendWrapped());
        QStringList shown;
        for (QLegendMarker* m : latency->chart()->legend()->markers()) {
            if (m->isVisible())
                shown << m->label();
        }
        QCOMPARE(shown.size(), 2);
        for (const QString& label : shown)
            QVERIFY2(!label.endsWith(QStringLiteral(" mean")), qPrintable(shown.join(QStringLiteral(", "))));
    }

    void savedRunsComeBackWithTheirChartsAfterARestart()
    {
        QTemporaryDir runs;
        QVERIFY(runs.isValid());
        MainWindow* w = windowWithSavedRuns(runs.path());
        QVERIFY(w);
        const QString label = w->history()->runAt(1)->label();
        const double ttft = w->history()->runAt(1)->ttftMs();
        const int latencyPoints = w->charts()->chart(QStringLiteral("latency"))->pointCount();
        QVERIFY(latencyPoints > 0);
        window_.reset();   // the app closes

        // A file cut off mid-write by a crash sits next to the good ones.
        QFile bad(QDir(runs.path()).filePath(QStringLiteral("run-29991231-000000-000-9.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"run\": 9, \"config\": {");
        bad.close();

        w = open(FakeTiming{});
        QVERIFY(w);
        QCOMPARE(w->history()->count(), 0);
        w->keepHistoryIn(runs.path());
        QCOMPARE(w->history()->count(), 2);
        QCOMPARE(w->history()->runAt(1)->label(), label);   // the follow-up of #1 still
        QCOMPARE(w->history()->runAt(1)->ttftMs(), ttft);
        QVERIFY(w->lastError().contains(QStringLiteral("run-29991231-000000-000-9.json")));
        QCOMPARE(w->controller()->selectedRun(), w->history()->runAt(1)->id());
        QTRY_COMPARE(w->charts()->chart(QStringLiteral("latency"))->pointCount(), latencyPoints);
        QVERIFY(w->charts()->chart(QStringLiteral("kv"))->pointCount() > 0);
        // A new run numbers on after them and is saved as well.
        const int next = w->startRun(w->currentConfig());
        QCOMPARE(next, 3);
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(next)->isFinished(), 10000);
        QCOMPARE(QDir(runs.path()).entryList({QStringLiteral("run-*.json")}).size(), 4);   // 3 runs + the bad file
    }

    void engineErrorIsShownNotFatal()
    {
        auto* worker = new EngineWorker([](const kvlens::engine_options&) -> kvlens::result<std::unique_ptr<kvlens::engine>> {
            return kvlens::make_error("tensor 'blk.0.attn_q.weight' data outside the file");
        });
        window_ = std::make_unique<MainWindow>(worker);
        window_->show();
        QSignalSpy failed(window_.get(), &MainWindow::modelReady);
        EngineSettings e;
        e.modelPath = model_;
        window_->setEngineSettings(e);
        QTRY_VERIFY(failed.count() >= 1);
        QCOMPARE(failed.last().first().toBool(), false);
        QVERIFY(window_->lastError().contains(QStringLiteral("outside the file")));
        QVERIFY(!window_->taskPane()->runButton()->isEnabled());
    }
};

QTEST_MAIN(TestUiWindow)
#include "tst_ui_window.moc"
