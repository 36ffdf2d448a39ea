// SPDX-License-Identifier: Apache-2.0
// The lesson on the real engine: `kvlens --headless --lesson` on the default
// model writes every step's slide (PNG and SVG), the handout and lesson.json,
// with a caption for every step and, for each step that ran, a takeaway from
// its measured runs. The whole lesson takes minutes on a 2-core CPU: the suite
// runs a few steps, KVLENS_LONG_TESTS=1 runs all of them.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "tests/support/test_paths.h"
#include "ui/headless_runner.h"
#include "ui/charts/chart_callouts.h"
#include "ui/charts/kv_chart.h"
#include "ui/charts/ttft_chart.h"
#include "ui/charts/roofline_chart.h"
#include <QChart>
#include "ui/i18n.h"
#include "ui/model/format.h"
#include "ui/model/run_record.h"
#include "ui/lesson/lesson_pane.h"
#include "ui/main_window.h"
#include "ui/run_controller.h"
#include <QDockWidget>
#include <QListWidget>
#include <QPushButton>
#include "ui/lesson/lesson_export.h"
#include "ui/lesson/lesson_headless.h"

using namespace kvlens::ui;

class TstLesson : public QObject {
    Q_OBJECT
public:
    // Before QApplication: the settings of this test only, never the user's.
    static void initMain()
    {
        static QTemporaryDir config;
        qputenv("XDG_CONFIG_HOME", config.path().toUtf8());
    }

private:
    // The first `chars` characters of the built-in report (cut after a
    // sentence), as a .txt the headless lesson reads: a short lesson.
    static QString shortReport(const QString& dir, int chars)
    {
        QFile in(lessonBuiltInReportPath());
        if (!in.open(QIODevice::ReadOnly))
            return {};
        QString text = QString::fromUtf8(in.readAll());
        text.truncate(text.lastIndexOf(QLatin1Char('.'), chars) + 1);
        const QString path = QDir(dir).filePath(QStringLiteral("report.txt"));
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly) || out.write(text.toUtf8()) <= 0)
            return {};
        return path;
    }

    QJsonObject runLesson(const QStringList& steps, const QString& report, const QString& out, int& code)
    {
        HeadlessOptions o;
        o.report = report;
        o.lesson = true;
        o.outDir = out;
        o.model = QString::fromStdString(kvlens::test::default_model().string());
        o.lessonSteps = steps;
        code = runLessonHeadless(o);
        QFile f(QDir(out).filePath(QStringLiteral("lesson.json")));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(f.readAll()).object();
    }

private slots:
    void theHeadlessArgumentsTakeTheLessonWithoutAReport()
    {
        HeadlessOptions o;
        bool wanted = false;
        QString error;
        QVERIFY(parseHeadlessArgs({QStringLiteral("--headless"), QStringLiteral("--lesson"), QStringLiteral("--out"),
                                   QStringLiteral("/tmp/x"), QStringLiteral("--lesson-steps"),
                                   QStringLiteral("kv-q8,follow-up")},
                                  o, wanted, error));
        QVERIFY(wanted);
        QVERIFY(o.lesson);
        QVERIFY(o.report.isEmpty());
        QCOMPARE(o.lessonSteps, (QStringList{QStringLiteral("kv-q8"), QStringLiteral("follow-up")}));
        HeadlessOptions plain;
        QVERIFY(!parseHeadlessArgs({QStringLiteral("--headless"), QStringLiteral("--out"), QStringLiteral("/tmp/x")},
                                   plain, wanted, error));
        QVERIFY(QFileInfo::exists(lessonBuiltInReportPath()));
    }

    void aSlideIsDrawnForAStepThatHasNotRun()
    {
        QTemporaryDir dir;
        const LessonStep step = lessonStep(LessonStepId::InputSweep);
        LessonResult r;
        r.id = step.id;
        const QString png = dir.filePath(QStringLiteral("s.png")), svg = dir.filePath(QStringLiteral("s.svg"));
        QCOMPARE(exportLessonSlide(png, step, r), QString());
        QCOMPARE(exportLessonSlide(svg, step, r), QString());
        QCOMPARE(QImage(png).size(), QSize(1280, 720));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("Input-length sweep"));
    }

    void theRooflinePlacesARunAtItsCountedIntensity()
    {
        RunRecord r(7, RunConfig{});
        kvlens::event_done d;
        d.reason = kvlens::finish_reason::stop;
        d.figures.prefill_flop = 8e9;
        d.figures.prefill_bytes = 4e8;
        d.figures.prefill_forward_ms = 80;
        d.figures.prefill_flop_s = 1e11;
        d.figures.decode_flop = 2e9;
        d.figures.decode_bytes = 1e9;
        d.figures.decode_ms = 200;
        d.figures.generated_tokens = 11;
        d.figures.tpot_ms = 20;
        r.ingest(RunEvent{7, d});
        const QVector<RooflinePoint> pts = rooflinePoints(r);
        QCOMPARE(pts.size(), 2);
        QCOMPARE(pts[0].intensity, 20.0);       // 8 GFLOP over 0.4 GB
        QCOMPARE(pts[0].flopS, 1e11);
        QVERIFY(!pts[0].decode);
        QCOMPARE(pts[1].intensity, 2.0);        // 2 GFLOP over 1 GB
        QCOMPARE(pts[1].flopS, 1e10);           // 2 GFLOP in 200 ms
        QVERIFY(pts[1].decode);
        // 1 GB over 10 decode steps at 10 GB/s: at least 10 ms a step, 20 ms measured.
        kvlens::machine_ceilings c;
        c.read_bytes_s = 1e10;
        c.f32_flop_s = 1e11;
        c.int8_op_s = 4e11;
        const QString note = decodeExpectation(r, c);
        QVERIFY2(note.contains(formatMs(10.0)) && note.contains(formatMs(20.0)), qPrintable(note));

        RooflineChart chart;
        chart.setCeilings(c);
        chart.setPoints(pts, note);
        QTemporaryDir dir;
        QCOMPARE(chart.exportTo(dir.filePath(QStringLiteral("r.png"))), QString());
        QCOMPARE(chart.exportTo(dir.filePath(QStringLiteral("r.svg"))), QString());
        QCOMPARE(QImage(dir.filePath(QStringLiteral("r.png"))).size(), QSize(1280, 720));
    }

    // A run whose KV grows by 23,040 B a token: a 512-token prefill in four
    // chunks, then 40 decode steps (552 tokens held at the end).
    static void feedKvRun(RunRecord& r)
    {
        const qint64 perToken = 23040;
        r.setKvBytesPerToken(perToken);
        auto ev = [&](kvlens::event e) { r.ingest(RunEvent{r.id(), std::move(e)}); };
        kvlens::event_queued q;
        q.prompt_tokens = 512;
        ev(q);
        ev(kvlens::event_started{});
        for (int c = 1; c <= 4; ++c) {
            kvlens::event_prefill_chunk pc;
            pc.tokens_done = pc.kv_tokens = 128 * c;
            pc.tokens_total = 512;
            pc.kv_bytes = pc.kv_allocated_bytes = pc.kv_reserved_bytes = 128LL * c * perToken;
            pc.t_ms = 10.0 * c;
            ev(pc);
        }
        kvlens::event_first_token ft;
        ft.ttft_ms = 50;
        ev(ft);
        for (int i = 0; i < 40; ++i) {
            kvlens::event_token t;
            t.index = i;
            t.kv_tokens = 513 + i;
            t.kv_bytes = t.kv_allocated_bytes = t.kv_reserved_bytes = (513LL + i) * perToken;
            t.latency_ms = i == 0 ? 50 : 2;
            t.t_ms = 50 + 2.0 * i;
            ev(t);
        }
    }

    void theKvCalloutSaysBytesAsTokensTimesBytesPerTokenAndCoversNoDataPoint()
    {
        RunRecord r(3, RunConfig{});
        feedKvRun(r);
        KvChart chart;
        chart.resize(900, 560);
        chart.setStyle(ChartStyle::fromApplication(true));   // presentation mode: callouts on
        chart.show();
        ChartInput in;
        in.primary = &r;
        chart.plot(in);
        QCoreApplication::processEvents();   // the layout gives the plot its area
        chart.plot(in);
        ChartCallouts* c = chart.callouts();
        QVERIFY(c->isEnabled());
        QCOMPARE(c->texts(), QStringList{QStringLiteral("%1 = 552 tokens × 23,040 B").arg(formatBytes(552.0 * 23040))});
        QCOMPARE(c->boxes().size(), 1);
        const QRectF box = c->boxes().first();
        const QRectF area = chart.chart()->plotArea();
        QVERIFY2(area.contains(box), "the callout stays inside the plot");
        const QVector<QPointF> points = c->avoidedPoints();
        QCOMPARE(points.size(), 1 + 4 + 40);   // from 0, the chunks, the decode steps
        const QRectF guard = box.adjusted(-ChartCallouts::kPointMargin, -ChartCallouts::kPointMargin,
                                          ChartCallouts::kPointMargin, ChartCallouts::kPointMargin);
        for (const QPointF& p : points)
            QVERIFY2(!guard.contains(p), qPrintable(QStringLiteral("the callout covers the point (%1, %2)")
                                                        .arg(p.x()).arg(p.y())));
        // Out of presentation mode the chart is left bare.
        chart.setStyle(ChartStyle::fromApplication(false));
        QVERIFY(!c->isEnabled());
        QVERIFY(c->boxes().isEmpty());
    }

    void theTtftCalloutExplainsTheBarAndCoversNoBar()
    {
        // Two finished runs: the shown one prefilled 2,048 tokens at 1,700 tok/s.
        RunRecord a(1, RunConfig{}), b(2, RunConfig{});
        for (RunRecord* r : {&a, &b}) {
            const double prefill = r == &b ? 2048 / 1.7 : 300;
            kvlens::event_first_token ft;
            ft.ttft_ms = prefill + 20;
            ft.tokenize_ms = 15;
            ft.prefill_ms = prefill;
            ft.first_sample_ms = 5;
            r->ingest(RunEvent{r->id(), ft});
            kvlens::event_done d;
            d.figures.ttft_ms = ft.ttft_ms;
            d.figures.tokenize_ms = ft.tokenize_ms;
            d.figures.prefill_ms = ft.prefill_ms;
            d.figures.first_sample_ms = ft.first_sample_ms;
            d.figures.computed_tokens = r == &b ? 2048 : 512;
            d.figures.prefill_tok_s = r == &b ? 1700 : 1706;
            r->ingest(RunEvent{r->id(), d});
        }
        TtftChart chart;
        chart.resize(900, 560);
        chart.setStyle(ChartStyle::fromApplication(true));
        chart.show();
        ChartInput in;
        in.primary = &b;
        in.compare = &a;
        chart.plot(in);
        QCoreApplication::processEvents();
        chart.plot(in);
        ChartCallouts* c = chart.callouts();
        QCOMPARE(c->texts(), QStringList{QStringLiteral("TTFT %1 = prefill of 2,048 tokens at %2")
                                             .arg(formatMs(2048 / 1.7 + 20), formatTokS(1700))});
        QCOMPARE(c->boxes().size(), 1);
        const QRectF box = c->boxes().first();
        QVERIFY(chart.chart()->plotArea().contains(box));
        const QRectF guard = box.adjusted(-ChartCallouts::kPointMargin, -ChartCallouts::kPointMargin,
                                          ChartCallouts::kPointMargin, ChartCallouts::kPointMargin);
        int covered = 0;
        for (const QPointF& p : c->avoidedPoints())
            covered += guard.contains(p) ? 1 : 0;
        QCOMPARE(covered, 0);
    }

    void theMachinesCeilingsAreMeasuredOnceAndCached()
    {
        QStandardPaths::setTestModeEnabled(true);
        QFile::remove(machineCeilingsCachePath());
        QString error;
        const kvlens::machine_ceilings first = cachedMachineCeilings(&error);
        QVERIFY2(first.valid(), qPrintable(error));
        QVERIFY(QFileInfo::exists(machineCeilingsCachePath()));
        const kvlens::machine_ceilings again = cachedMachineCeilings(&error);
        QCOMPARE(again.read_bytes_s, QString::number(first.read_bytes_s, 'e', 6).toDouble());
        QCOMPARE(again.isa, first.isa);
        QFile::remove(machineCeilingsCachePath());
    }

    void theLessonSpeaksSimplifiedChinese()
    {
        QVERIFY(i18n::install(QStringLiteral("zh_CN")));
        QCOMPARE(lessonStep(LessonStepId::InputSweep).title, QStringLiteral("输入长度扫描"));
        QVERIFY(lessonStep(LessonStepId::KvQ8).caption.contains(QStringLiteral("q8_0")));
        LessonRun a, b;
        a.promptTokens = 40;
        a.ttftMs = 100;
        b.promptTokens = 640;
        b.ttftMs = 1500;
        QVERIFY(lessonTakeaway(LessonStepId::ShortVsLong, {a, b}).contains(QStringLiteral("TTFT 增加了")));
        QVERIFY(i18n::install(QStringLiteral("en")));
        QCOMPARE(lessonStep(LessonStepId::InputSweep).title, QStringLiteral("Input-length sweep"));
    }

    void theLessonPaneListsEveryStepAndWaitsForAModel()
    {
        RunController c;
        LessonPane pane(&c);
        pane.resize(1000, 500);
        pane.show();
        auto* list = pane.findChild<QListWidget*>();
        QVERIFY(list);
        QCOMPARE(list->count(), int(lessonStepIds().size()));
        QVERIFY(list->item(0)->text().contains(lessonStep(LessonStepId::ShortVsLong).title));
        pane.selectStep(LessonStepId::KvQ8);
        QCOMPARE(pane.selectedStep(), LessonStepId::KvQ8);
        // No model loaded: nothing can run, and the click says so by doing nothing.
        for (QPushButton* b : pane.findChildren<QPushButton*>()) {
            if (b->text() == QLatin1String("Run step"))
                QVERIFY(!b->isEnabled());
        }
        pane.useOpenDocumentOrSample();
        QVERIFY(pane.runner()->report().pageCount() == pane.runner()->sizes().reportSlices);
        QVERIFY(!pane.runSelected() || pane.runner()->result(LessonStepId::KvQ8).state == LessonState::Skipped);
        QCOMPARE(pane.runner()->result(LessonStepId::KvQ8).reason, QStringLiteral("no model is loaded"));
        QImage shot(pane.slideView()->size(), QImage::Format_ARGB32);
        pane.slideView()->render(&shot);
        QVERIFY(!shot.isNull());
    }

    // In a window too short for both (1280 x 720) the lesson takes the
    // window's height alone, and the panes come back when it closes; a
    // window tall enough for both (2560 x 1440's 1440 lines) keeps them side
    // by side.
    void theLessonTakesAShortWindowAlone()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.panesShown());
        w.showLesson();
        QTRY_VERIFY2(!w.panesShown(), qPrintable(QStringLiteral("%1 x %2").arg(w.width()).arg(w.height())));
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
        QVERIFY(dock);
        dock->close();
        QTRY_VERIFY(w.panesShown());
        // A window tall enough for both keeps the panes beside the lesson.
        w.resize(1920, 1440);
        w.showLesson();
        QTRY_VERIFY(!dock->isHidden());
        QVERIFY2(w.panesShown(), qPrintable(QStringLiteral("%1 x %2").arg(w.width()).arg(w.height())));
    }

    void theLessonRunsHeadlessAndWritesEveryStepsFiguresAndCaptions()
    {
        if (!kvlens::test::have_default_model())
            QSKIP("no default model (scripts/fetch-model)");
        const bool all = qEnvironmentVariableIntValue("KVLENS_LONG_TESTS") == 1;
        // The short lesson: a cold pair, the prefix cache, q8_0, and a step
        // that is skipped on this model (no sliding window).
        const QStringList steps = all ? QStringList{}
                                      : QStringList{QStringLiteral("short-vs-long"), QStringLiteral("follow-up"),
                                                    QStringLiteral("kv-q8"), QStringLiteral("sliding-window")};
        QTemporaryDir dir;
        // The short lesson reads a third of the report (a 2-core CPU shared
        // with other work prefills it in seconds); the long one all of it.
        const QString report = all ? QString() : shortReport(dir.path(), 1000);
        QVERIFY(all || !report.isEmpty());
        int code = -1;
        const QJsonObject lesson = runLesson(steps, report, dir.filePath(QStringLiteral("out")), code);
        QCOMPARE(code, 0);
        const QJsonArray js = lesson.value(QStringLiteral("steps")).toArray();
        QCOMPARE(js.size(), all ? int(lessonStepIds().size()) : int(steps.size()));
        const QDir out(dir.filePath(QStringLiteral("out")));
        QFile handout(out.filePath(QStringLiteral("handout.md")));
        QVERIFY(handout.open(QIODevice::ReadOnly));
        const QString md = QString::fromUtf8(handout.readAll());
        for (const QJsonValue& v : js) {
            const QJsonObject s = v.toObject();
            const QString key = s.value(QStringLiteral("key")).toString();
            QVERIFY2(!s.value(QStringLiteral("caption")).toString().isEmpty(), qPrintable(key));
            QVERIFY(QFileInfo(out.filePath(s.value(QStringLiteral("slide_png")).toString())).size() > 0);
            QVERIFY(QFileInfo(out.filePath(s.value(QStringLiteral("slide_svg")).toString())).size() > 0);
            const QString state = s.value(QStringLiteral("state")).toString();
            QVERIFY2(state == QLatin1String("done") || state == QLatin1String("skipped"), qPrintable(key + state));
            if (state == QLatin1String("done")) {
                const QString takeaway = s.value(QStringLiteral("takeaway")).toString();
                QVERIFY2(!takeaway.isEmpty(), qPrintable(key));
                QVERIFY2(md.contains(takeaway), qPrintable(key));
                for (const QJsonValue& r : s.value(QStringLiteral("runs")).toArray()) {
                    QVERIFY(r.toObject().value(QStringLiteral("prompt_tokens")).toInt() > 0);
                    QVERIFY(r.toObject().value(QStringLiteral("ttft_ms")).toDouble() > 0);
                }
            } else {
                QVERIFY2(!s.value(QStringLiteral("reason")).toString().isEmpty(), qPrintable(key));
            }
            if (key == QLatin1String("sliding-window"))
                QCOMPARE(state, QStringLiteral("skipped"));   // SmolLM2 has none
            if (key == QLatin1String("follow-up")) {
                // The prefix cache: the follow-up reused the report's blocks.
                const QJsonArray runs = s.value(QStringLiteral("runs")).toArray();
                QCOMPARE(runs.size(), 2);
                QVERIFY(runs[1].toObject().value(QStringLiteral("cached_tokens")).toInt() > 0);
            }
        }
    }
};

QTEST_MAIN(TstLesson)
#include "tst_lesson.moc"
