// SPDX-License-Identifier: Apache-2.0
// The charts on hand-made event sequences (no engine): a sliding-window
// model's KV is drawn as its two layer groups and any other model's as one
// line; hidden reasoning is marked on the latency chart and its time to the
// first visible token drawn next to TTFT; the callouts say the measured
// numbers and cover no data point (checked in the rendered geometry), in the
// window and in exported PNG/SVG files.
#include <QtTest>

#include <QChart>
#include <QAbstractBarSeries>
#include <QBarSet>
#include <QLineSeries>
#include <QScatterSeries>
#include <QDir>
#include <QTemporaryDir>

#include "event_script.h"
#include "ui/charts/chart_callouts.h"
#include "ui/charts/kv_chart.h"
#include "ui/charts/latency_chart.h"
#include "ui/charts/prefill_chart.h"
#include "ui/charts/roofline_chart.h"
#include <QFileInfo>
#include <QStandardPaths>
#include <QThread>
#include "ui/lesson/lesson_slide.h"
#include "ui/lesson/lesson_steps.h"
#include <QImage>
#include <QPainter>
#include "ui/charts/ttft_chart.h"
#include "ui/model/format.h"
#include "ui/model/run_export.h"
#include "ui/model/run_record.h"
#include "ui/model/run_store.h"

using namespace kvlens::ui;

namespace {

// A Gemma-3-like run: window 64, local layers 10 B per token, global layers
// 4 B per token; a 96-token prompt in three chunks, then 8 decode steps.
QString slidingWindowScript()
{
    QString s = QStringLiteral("queued prompt=96\nstarted queue=1 tokenize=2 t=3\n");
    for (int c = 1; c <= 3; ++c) {
        const int held = 32 * c, local = std::min(held, 64);
        s += QStringLiteral("chunk done=%1 total=96 ms=10 t=%2 kv=%1 bytes=%3 alloc=%3 res=%3 local=%4 lbytes=%5 "
                            "global=%1 gbytes=%6 lalloc=%5 galloc=%6\n")
                 .arg(held).arg(3 + 10 * c).arg(local * 10 + held * 4).arg(local).arg(local * 10).arg(held * 4);
    }
    s += QStringLiteral("first ttft=40 id=1 text=A tokenize=2 queue=1 prefill=30 sample=7\n");
    for (int i = 0; i < 8; ++i) {
        const int held = 97 + i;
        s += QStringLiteral("token i=%1 id=%2 text=w lat=%3 t=%4 kv=%5 bytes=%6 alloc=%6 res=%6 local=64 lbytes=640 "
                            "global=%5 gbytes=%7 lalloc=640 galloc=%7\n")
                 .arg(i).arg(10 + i).arg(i == 0 ? 40 : 5).arg(40 + 5 * i).arg(held).arg(640 + held * 4).arg(held * 4);
    }
    s += QStringLiteral("done reason=length prompt=96 computed=96 generated=8 ttft=40 decode=35 e2e=76 tpot=5\n");
    return s;
}

// A run of a model without local layers: 14 B per token, 32-token prompt, 6 steps.
QString plainScript()
{
    QString s = QStringLiteral("queued prompt=32\nstarted queue=1 tokenize=2 t=3\n"
                               "chunk done=32 total=32 ms=10 t=13 kv=32 bytes=448 alloc=448 res=448\n"
                               "first ttft=20 id=1 text=A tokenize=2 queue=1 prefill=10 sample=7\n");
    for (int i = 0; i < 6; ++i)
        s += QStringLiteral("token i=%1 id=%2 text=w lat=5 t=%3 kv=%4 bytes=%5 alloc=%5 res=%5\n")
                 .arg(i).arg(10 + i).arg(20 + 5 * i).arg(33 + i).arg((33 + i) * 14);
    s += QStringLiteral("done reason=length prompt=32 computed=32 generated=6 tokenize=2 queue=1 prefill=10 sample=7 "
                        "ttft=20 decode=25 e2e=46 tpot=5 prefill_forward=10 prefill_tok_s=3200\n");
    return s;
}

// A thinking model: 5 tokens inside <think>…</think>, then the answer.
QString reasoningScript()
{
    QString s = QStringLiteral("queued prompt=32\nstarted queue=1 tokenize=2 t=3\n"
                               "chunk done=32 total=32 ms=10 t=13 kv=32 bytes=448 alloc=448 res=448\n"
                               "first ttft=20 id=1 text=<think> tokenize=2 queue=1 prefill=10 sample=7\n");
    const char* texts[] = {"<think>", "hmm", "so", "yes", "</think>", "The", "\\sanswer", "\\sis", "\\s42", "."};
    for (int i = 0; i < 10; ++i)
        s += QStringLiteral("token i=%1 id=%2 text=%3 lat=%4 t=%5 visible=%6 kv=%7 bytes=%8 alloc=%8 res=%8\n")
                 .arg(i).arg(10 + i).arg(QLatin1String(texts[i])).arg(i == 0 ? 20 : 6).arg(20 + 6 * i)
                 .arg(i < 5 ? 0 : 1).arg(33 + i).arg((33 + i) * 14);
    s += QStringLiteral("done reason=stop prompt=32 computed=32 generated=10 tokenize=2 queue=1 prefill=10 sample=7 "
                        "ttft=20 ttft_visible=50 decode=54 e2e=75 tpot=6 prefill_forward=10 prefill_tok_s=3200\n");
    return s;
}

void feed(RunRecord& r, const QString& script)
{
    for (const RunEvent& e : kvlens::test::parseEvents(script, r.id()))
        r.ingest(e);
}

// Plots twice around a layout pass, so the plot area is the shown one.
template <class Chart> void show(Chart& chart, const ChartInput& in, bool presentation)
{
    chart.resize(900, 560);
    chart.setStyle(ChartStyle::fromApplication(presentation));
    chart.show();
    chart.plot(in);
    QCoreApplication::processEvents();
    chart.plot(in);
}

// With KVLENS_TEST_SHOTS=DIR the charts are also written there as PNG, for a person to look at.
template <class Chart> void keepShot(const Chart& chart, const QString& name)
{
    const QString dir = qEnvironmentVariable("KVLENS_TEST_SHOTS");
    if (!dir.isEmpty())
        chart.exportTo(QDir(dir).filePath(name + QStringLiteral(".png")));
}

// No callout box (with the marker margin) contains a data point, and each stays in the plot.
bool calloutsCoverNoPoint(const ChartCallouts* c, const QRectF& plotArea, QString* why)
{
    for (const QRectF& box : c->boxes()) {
        if (!plotArea.contains(box)) {
            *why = QStringLiteral("a callout leaves the plot");
            return false;
        }
        const QRectF guard = box.adjusted(-ChartCallouts::kPointMargin, -ChartCallouts::kPointMargin,
                                          ChartCallouts::kPointMargin, ChartCallouts::kPointMargin);
        for (const QPointF& p : c->avoidedPoints()) {
            if (guard.contains(p)) {
                *why = QStringLiteral("a callout covers the point (%1, %2)").arg(p.x()).arg(p.y());
                return false;
            }
        }
    }
    return true;
}

}  // namespace

class TstUiCharts : public QObject {
    Q_OBJECT
private slots:
    void aSlidingWindowRunIsDrawnAsItsTwoLayerGroups()
    {
        RunRecord r(1, RunConfig{});
        feed(r, slidingWindowScript());
        QVERIFY(r.hasKvGroups());
        KvChart chart;
        ChartInput in;
        in.primary = &r;
        show(chart, in, false);
        QVERIFY(chart.localSeries()->isVisible());
        QVERIFY(chart.globalSeries()->isVisible());
        QVERIFY(!chart.logicalSeries()->isVisible());
        // KiB on the axis (under 1 MiB). Local: rises to the window, then flat.
        const QList<QPointF> local = chart.localSeries()->points();
        const QList<QPointF> global = chart.globalSeries()->points();
        QCOMPARE(local.size(), 1 + 3 + 8);
        QCOMPARE(local.last(), QPointF(104, 640 / 1024.0));
        QCOMPARE(local[2], QPointF(64, 640 / 1024.0));
        for (int i = 2; i < local.size(); ++i)
            QCOMPARE(local[i].y(), 640 / 1024.0);
        // Global: every token, 4 B each.
        QCOMPARE(global.last(), QPointF(104, 104 * 4 / 1024.0));
        for (int i = 1; i < global.size(); ++i)
            QVERIFY(global[i].y() > global[i - 1].y());
        QVERIFY(chart.title().contains(QStringLiteral("local")));
        keepShot(chart, QStringLiteral("kv-layer-groups"));
    }

    void lfm2sConvolutionStateAndAttentionLayersAreNamedSo()
    {
        // The same two groups from an LFM2 model's events (the local group
        // its short convolutions' rows, the global one its attention layers'
        // K/V), whatever model the window has loaded now.
        RunRecord r(1, RunConfig{});
        feed(r, slidingWindowScript().replace(QStringLiteral(" local="), QStringLiteral(" lconv=1 local=")));
        QVERIFY(r.kvLocalIsConv());
        KvChart chart;
        ChartInput in;
        in.primary = &r;
        show(chart, in, false);
        QCOMPARE(chart.localSeries()->name(), QStringLiteral("convolution state"));
        QCOMPARE(chart.globalSeries()->name(), QStringLiteral("attention layers"));
        QVERIFY2(chart.title().contains(QStringLiteral("convolutions")), qPrintable(chart.title()));
        QVERIFY2(!chart.title().contains(QStringLiteral("local")), qPrintable(chart.title()));
        // The run saved and read back keeps what its local group was.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.json"));
        QCOMPARE(writeRunJson(r, path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString error;
        auto back = runFromJson(QJsonDocument::fromJson(f.readAll()).object(), 1, error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(back->kvLocalIsConv());
        // A sliding-window run's local layers are not convolutions.
        RunRecord window(2, RunConfig{});
        feed(window, slidingWindowScript());
        QVERIFY(!window.kvLocalIsConv());
    }

    void aModelWithoutLocalLayersKeepsOneLogicalLine()
    {
        RunRecord r(2, RunConfig{});
        feed(r, plainScript());
        QVERIFY(!r.hasKvGroups());
        KvChart chart;
        ChartInput in;
        in.primary = &r;
        show(chart, in, false);
        QVERIFY(chart.logicalSeries()->isVisible());
        QVERIFY(!chart.localSeries()->isVisible());
        QVERIFY(!chart.globalSeries()->isVisible());
        QCOMPARE(chart.logicalSeries()->points().last(), QPointF(38, 38 * 14 / 1024.0));
    }

    void theLayerGroupsSurviveTheSavedRun()
    {
        RunRecord r(1, RunConfig{});
        feed(r, slidingWindowScript());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.json"));
        QCOMPARE(writeRunJson(r, path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QString error;
        auto back = runFromJson(o, 1, error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(back->hasKvGroups());
        QCOMPARE(back->kvPoints(RunRecord::KvKind::LocalLogical), r.kvPoints(RunRecord::KvKind::LocalLogical));
        QCOMPARE(back->kvPoints(RunRecord::KvKind::GlobalLogical), r.kvPoints(RunRecord::KvKind::GlobalLogical));
        QCOMPARE(back->tokens().last().kv.localAllocatedBytes, qint64(640));
        QCOMPARE(back->tokens().last().kv.globalAllocatedBytes, qint64(104 * 4));
        // A model without local layers writes no group fields at all.
        RunRecord plain(2, RunConfig{});
        feed(plain, plainScript());
        QCOMPARE(writeRunJson(plain, path), QString());
        QFile g(path);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QVERIFY(!g.readAll().contains("kv_local_bytes"));
    }

    void theLayerGroupCalloutsSayEachGroupsProductAndCoverNoPoint()
    {
        RunRecord r(1, RunConfig{});
        feed(r, slidingWindowScript());
        KvChart chart;
        ChartInput in;
        in.primary = &r;
        show(chart, in, true);
        const QStringList texts = chart.callouts()->texts();
        QCOMPARE(texts, (QStringList{QStringLiteral("global %1 = 104 tokens × 4 B").arg(formatBytes(416)),
                                     QStringLiteral("local %1 = 64 tokens × 10 B").arg(formatBytes(640))}));
        QCOMPARE(chart.callouts()->boxes().size(), 2);
        QString why;
        QVERIFY2(calloutsCoverNoPoint(chart.callouts(), chart.chart()->plotArea(), &why), qPrintable(why));
    }

    void hiddenTokensAreMarkedApartAndTheFirstVisibleTokenHasItsLine()
    {
        RunRecord r(3, RunConfig{});
        feed(r, reasoningScript());
        QCOMPARE(r.hiddenTokens(), 5);
        QCOMPARE(r.firstVisibleIndex(), 5);
        QCOMPARE(r.firstVisibleMs(), 50.0);
        LatencyChart chart;
        ChartInput in;
        in.primary = &r;
        show(chart, in, false);
        // The first token (index 0) is TTFT's; hidden are 1..4, the answer 5..9.
        QVERIFY(chart.hiddenSeries()->isVisible());
        QCOMPARE(chart.hiddenSeries()->points().size(), 4);
        QCOMPARE(chart.hiddenSeries()->points().first().x(), 1.0);
        QVERIFY(chart.firstVisibleSeries()->isVisible());
        QCOMPARE(chart.firstVisibleSeries()->points().first().x(), 5.0);
        QVERIFY(chart.title().contains(QStringLiteral("TTFT %1, first visible token %2")
                                           .arg(formatMs(20), formatMs(50))));
        keepShot(chart, QStringLiteral("latency-hidden-reasoning"));
        // A run without hidden reasoning: neither is drawn.
        RunRecord plain(4, RunConfig{});
        feed(plain, plainScript());
        in.primary = &plain;
        chart.plot(in);
        QVERIFY(!chart.hiddenSeries()->isVisible());
        QVERIFY(!chart.firstVisibleSeries()->isVisible());
    }

    void theTtftChartDrawsTheHiddenReasoningUpToTheFirstVisibleToken()
    {
        RunRecord think(3, RunConfig{}), plain(4, RunConfig{});
        feed(think, reasoningScript());
        feed(plain, plainScript());
        TtftChart chart;
        ChartInput in;
        in.primary = &think;
        in.compare = &plain;
        show(chart, in, false);
        // Bars: the compared run first, then the shown one. TTFT 20 ms, first visible 50 ms.
        QCOMPARE(chart.hiddenSet()->count(), 2);
        QCOMPARE(chart.hiddenSet()->at(0), 0.0);
        QCOMPARE(chart.hiddenSet()->at(1), 30.0);
        // The shown bar ends at the first visible token: its TTFT segments, then the hidden reasoning.
        double end = 0;
        auto* bars = qobject_cast<QAbstractBarSeries*>(chart.chart()->series().first());
        QVERIFY(bars);
        QCOMPARE(bars->count(), 5);
        for (QBarSet* set : bars->barSets())
            end += set->count() > 1 ? set->at(1) : 0;
        QCOMPARE(end, 50.0);
        QVERIFY(chart.title().contains(QStringLiteral("first visible token %1").arg(formatMs(50))));
        keepShot(chart, QStringLiteral("ttft-hidden-reasoning"));
        // Without hidden reasoning on any bar, the set is empty.
        in.primary = &plain;
        in.compare = nullptr;
        chart.plot(in);
        QCOMPARE(chart.hiddenSet()->count(), 0);
    }

    void theLatencyCalloutSaysTheMeanTpotAndCoversNoPoint()
    {
        RunRecord r(2, RunConfig{});
        feed(r, plainScript());
        LatencyChart chart;
        ChartInput in;
        in.primary = &r;
        show(chart, in, true);
        QCOMPARE(chart.callouts()->texts(),
                 QStringList{QStringLiteral("mean TPOT %1 = %2 over 5 tokens").arg(formatMs(5), formatMs(25))});
        QString why;
        QVERIFY2(calloutsCoverNoPoint(chart.callouts(), chart.chart()->plotArea(), &why), qPrintable(why));
        // Off outside presentation mode.
        chart.setStyle(ChartStyle::fromApplication(false));
        QVERIFY(chart.callouts()->boxes().isEmpty());
    }

    // A plot narrower than the sentence: the callout goes on two lines and
    // still stays inside the plot, covering no point.
    void aCalloutWiderThanANarrowPlotWrapsInsideIt()
    {
        RunRecord r(2, RunConfig{});
        feed(r, plainScript());
        LatencyChart chart;
        ChartInput in;
        in.primary = &r;
        chart.resize(380, 340);
        chart.setStyle(ChartStyle::fromApplication(true));
        chart.show();
        chart.plot(in);
        QCoreApplication::processEvents();
        chart.plot(in);
        QCOMPARE(chart.callouts()->boxes().size(), 1);
        const QRectF area = chart.chart()->plotArea();
        QVERIFY2(area.width() < 330, qPrintable(QString::number(area.width())));   // narrower than the one-line box
        QString why;
        QVERIFY2(calloutsCoverNoPoint(chart.callouts(), area, &why), qPrintable(why));
    }

    // A callout's text in a narrow box: broken at spaces onto up to three
    // lines, each within the width, and cut short only when three do not
    // hold it (a figure cut to "3,0…" tells a class nothing).
    void aCalloutsTextTakesUpToThreeLinesBeforeItIsCut()
    {
        const QFontMetricsF fm{QFont()};
        const QString text = QStringLiteral("TTFT 241 ms = prefill of 738 tokens at 3,072 tok/s");
        const double width = fm.horizontalAdvance(QStringLiteral("TTFT 241 ms = prefill")) + 1;
        const QString fitted = ChartCallouts::fitText(text, fm, width);
        QCOMPARE(fitted.count(QLatin1Char('\n')), 2);
        QCOMPARE(QString(fitted).replace(QLatin1Char('\n'), QLatin1Char(' ')), text);   // nothing cut
        for (const QString& line : fitted.split(QLatin1Char('\n')))
            QVERIFY2(fm.horizontalAdvance(line) <= width, qPrintable(line));
        QCOMPARE(ChartCallouts::fitText(text, fm, fm.horizontalAdvance(text) + 1), text);   // room: one line
        const QString cut = ChartCallouts::fitText(text, fm, fm.horizontalAdvance(QStringLiteral("TTFT 241 ms")) + 1);
        QCOMPARE(cut.count(QLatin1Char('\n')), 2);
        QVERIFY2(cut.endsWith(QChar(0x2026)), qPrintable(cut));
    }

    void thePrefillCalloutSaysTheThroughputAndCoversNoPoint()
    {
        RunRecord r(2, RunConfig{});
        feed(r, plainScript());
        PrefillChart chart;
        ChartInput in;
        in.primary = &r;
        show(chart, in, true);
        QCOMPARE(chart.callouts()->texts(),
                 QStringList{QStringLiteral("%1 = 32 tokens in %2").arg(formatTokS(3200), formatMs(10))});
        QString why;
        QVERIFY2(calloutsCoverNoPoint(chart.callouts(), chart.chart()->plotArea(), &why), qPrintable(why));
    }

    // The lesson's slides carry a callout too, placed by the same rule: the
    // sliding-window step's local KV as tokens × bytes, the input sweep's
    // TTFT per prompt token; neither covers a drawn point.
    void theSlideCalloutsSayTheNumbersAndCoverNoDrawnPoint_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<QString>("text");
        QTest::newRow("sliding window") << int(LessonStepId::SlidingWindow)
                                        << QStringLiteral("local %1 = 512 tokens × 15,360 B").arg(formatBytes(512.0 * 15360));
        QTest::newRow("input sweep") << int(LessonStepId::InputSweep)
                                     << QStringLiteral("TTFT %1 at 800 prompt tokens: 20.0 ms per token").arg(formatMs(16100));
    }
    void theSlideCalloutsSayTheNumbersAndCoverNoDrawnPoint()
    {
        QFETCH(int, step);
        QFETCH(QString, text);
        QVector<LessonRun> runs;
        if (LessonStepId(step) == LessonStepId::SlidingWindow) {
            LessonRun r;
            r.localTokensAtEnd = 512;
            r.localBytesAtEnd = 512LL * 15360;
            for (int t = 0; t <= 1100; t += 100) {
                r.kvLocalPoints << QPointF(t, double(std::min(t, 512)) * 15360);
                r.kvGlobalPoints << QPointF(t, double(t) * 3072);
            }
            runs << r;
        } else {
            for (int n : {100, 200, 400, 800}) {
                LessonRun r;
                r.promptTokens = n;
                r.ttftMs = 100 + 20.0 * n;
                r.tpotMs = 10 + n / 100.0;
                runs << r;
            }
        }
        const LessonPlot plot = lessonPlot(LessonStepId(step), runs);
        QCOMPARE(plot.callout, text);
        QImage image(1200, 560, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        PlotCalloutGeometry g;
        {
            QPainter p(&image);
            paintLessonPlot(p, QRectF(0, 0, 1200, 560), plot, false, &g);
        }
        QVERIFY(!g.box.isEmpty());
        QVERIFY(g.area.contains(g.box));
        QVERIFY(g.points.size() > 8);
        const QRectF guard = g.box.adjusted(-ChartCallouts::kPointMargin, -ChartCallouts::kPointMargin,
                                            ChartCallouts::kPointMargin, ChartCallouts::kPointMargin);
        for (const QPointF& pt : g.points)
            QVERIFY2(!guard.contains(pt), qPrintable(QStringLiteral("covers (%1, %2)").arg(pt.x()).arg(pt.y())));
        const QString dir = qEnvironmentVariable("KVLENS_TEST_SHOTS");
        if (!dir.isEmpty())
            image.save(QDir(dir).filePath(QStringLiteral("slide-plot-%1.png").arg(step)));
    }

    // The ceilings cache is this CPU's with this many threads: a file written
    // on another CPU is measured again (and rewritten), one of this CPU is reused.
    void theCeilingsCacheOfAnotherCpuIsMeasuredAgain()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString path = machineCeilingsCachePath();
        QDir().mkpath(QFileInfo(path).absolutePath());
        const int threads = QThread::idealThreadCount();
        auto write = [&](const QString& machine) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write((QStringLiteral("machine=") + machine + QLatin1Char('\n')).toUtf8());
            f.write(QStringLiteral("read_bytes_s=1.000000e+00 f32_flop_s=1.000000e+00 int8_op_s=1.000000e+00 threads=%1 "
                                   "isa=scalar probe_bytes=1\n").arg(threads).toUtf8());
        };
        write(QStringLiteral("Some Other CPU · %1 threads").arg(threads));
        QString error;
        const kvlens::machine_ceilings measured = cachedMachineCeilings(&error);
        QVERIFY2(measured.valid(), qPrintable(error));
        QVERIFY(measured.read_bytes_s > 1.0);   // not the other CPU's figures
        QFile back(path);
        QVERIFY(back.open(QIODevice::ReadOnly));
        QVERIFY(back.readLine().trimmed() == (QStringLiteral("machine=") + machineIdentity(threads)).toUtf8());
        // This CPU's file is reused as it is.
        write(machineIdentity(threads));
        QCOMPARE(cachedMachineCeilings(&error).read_bytes_s, 1.0);
        QFile::remove(path);
    }

    // Exports carry the callouts even where the window shows none (the desk
    // view), and the window is left as it was.
    // Round caps on a dotted or dashed line put two curves on every dash, and
    // the raster engine fills them one by one: the KV chart's dotted formula
    // line took 55 ms a repaint at 1280x720, a core's worth of GUI time
    // during a prefill on 2 cores. Solid lines keep their round caps.
    void patternedLinesAreDrawnWithFlatCaps()
    {
        for (bool presentation : {false, true}) {
            const ChartStyle style = ChartStyle::fromApplication(presentation);
            for (Qt::PenStyle s : {Qt::DotLine, Qt::DashLine, Qt::DashDotLine}) {
                const QPen pen = style.linePen(Qt::blue, s);
                QCOMPARE(pen.style(), s);
                QCOMPARE(pen.capStyle(), Qt::FlatCap);
                QCOMPARE(pen.widthF(), style.lineWidth());
            }
            QCOMPARE(style.linePen(Qt::blue).capStyle(), Qt::RoundCap);
        }
        LatencyChart latency;   // its first-visible marker is a dashed line
        QCOMPARE(latency.firstVisibleSeries()->pen().style(), Qt::DashLine);
        QCOMPARE(latency.firstVisibleSeries()->pen().capStyle(), Qt::FlatCap);
    }

    void exportsDrawTheCalloutsTheDeskViewLeavesOut()
    {
        RunRecord r(2, RunConfig{});
        feed(r, plainScript());
        LatencyChart chart;
        ChartInput in;
        in.primary = &r;
        show(chart, in, false);
        QVERIFY(!chart.callouts()->isEnabled());
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("latency.svg"));
        QCOMPARE(chart.exportTo(svg), QString());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(text.contains("mean TPOT"), "the callout's text is in the SVG");
        QVERIFY(!chart.callouts()->isEnabled());
        QVERIFY(chart.callouts()->boxes().isEmpty());
    }
};

QTEST_MAIN(TstUiCharts)
#include "tst_ui_charts.moc"
