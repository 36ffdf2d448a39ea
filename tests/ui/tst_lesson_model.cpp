// SPDX-License-Identifier: Apache-2.0
// The lesson's model without an engine: each takeaway says what its
// measurement shows, and says the opposite when handed the opposite
// measurement; the least-squares line; the answer comparison of the q8_0 step.
#include <QtTest>

#include "ui/lesson/lesson_steps.h"
#include "ui/model/model_summary.h"

Q_DECLARE_METATYPE(kvlens::ui::LessonRun)

using namespace kvlens::ui;

namespace {

LessonRun run(const QString& label, int prompt, double ttft, int generated = 16, double decode = 300)
{
    LessonRun r;
    r.label = label;
    r.promptTokens = prompt;
    r.ttftMs = ttft;
    r.generatedTokens = generated;
    r.decodeMs = decode;
    r.tpotMs = generated > 1 ? decode / (generated - 1) : 0;
    r.e2eMs = ttft + decode;
    return r;
}

QVector<double> ramp(int n, double start, double perToken)
{
    QVector<double> v;
    for (int i = 0; i < n; ++i)
        v << start + perToken * i;
    return v;
}

}  // namespace

class TstLessonModel : public QObject {
    Q_OBJECT
private slots:
    void everyStepHasAKeyATitleAndACaptionWithItsSizes()
    {
        LessonSizes z;
        z.longAnswerTokens = 77;
        QSet<QString> keys;
        for (LessonStepId id : lessonStepIds()) {
            const LessonStep s = lessonStep(id, z);
            QVERIFY(!s.key.isEmpty());
            QVERIFY(!s.title.isEmpty());
            QVERIFY(!s.caption.isEmpty());
            QVERIFY(!s.vary.isEmpty());
            QVERIFY(!s.watch.isEmpty());
            keys.insert(s.key);
            LessonStepId back;
            QVERIFY(lessonStepFromKey(s.key, back));
            QCOMPARE(back, id);
        }
        QCOMPARE(keys.size(), lessonStepIds().size());
        QVERIFY(lessonStep(LessonStepId::KvQ8, z).caption.contains(QStringLiteral("77")));
        QVERIFY(lessonStep(LessonStepId::InputSweep, z).caption.contains(QStringLiteral("1/8")));
    }

    void theSlidingWindowStepIsSkippedWithoutASlidingWindowModel()
    {
        ModelSummary m;
        m.nLayer = 30;
        m.name = QStringLiteral("SmolLM2");
        m.architecture = QStringLiteral("llama");
        QVERIFY(lessonSkipReason(LessonStepId::SlidingWindow, m).contains(QStringLiteral("Gemma 3")));
        QVERIFY(lessonSkipReason(LessonStepId::InputSweep, m).isEmpty());
        m.slidingWindow = 512;
        QVERIFY(lessonSkipReason(LessonStepId::SlidingWindow, m).isEmpty());
    }

    void theHiddenReasoningStepRunsOnlyWhenTheModelCanThink()
    {
        ModelSummary m;
        m.nLayer = 30;
        m.name = QStringLiteral("SmolLM2");
        m.architecture = QStringLiteral("llama");
        const QString reason = lessonSkipReason(LessonStepId::HiddenReasoning, m);
        QVERIFY2(reason.contains(QStringLiteral("<think>")) && reason.contains(QStringLiteral("SmolLM2")),
                 qPrintable(reason));
        m.hiddenReasoning = QStringLiteral("vocabulary");
        QVERIFY(lessonSkipReason(LessonStepId::HiddenReasoning, m).isEmpty());
        m.hiddenReasoning = QStringLiteral("chat_template");
        QVERIFY(lessonSkipReason(LessonStepId::HiddenReasoning, m).isEmpty());
        // A server's model cannot be looked into: it is tried.
        ModelSummary remote;
        remote.remote = true;
        remote.name = QStringLiteral("qwen3");
        QVERIFY(lessonSkipReason(LessonStepId::HiddenReasoning, remote).isEmpty());
    }

    void theSlidingWindowPlotDrawsTheTwoLayerGroups()
    {
        LessonRun r;
        r.kvLocalPoints = {{0, 0}, {512, 512.0 * 1024 * 1024}, {600, 512.0 * 1024 * 1024}};
        r.kvGlobalPoints = {{0, 0}, {512, 256.0 * 1024 * 1024}, {600, 300.0 * 1024 * 1024}};
        const LessonPlot p = lessonPlot(LessonStepId::SlidingWindow, {r});
        QVERIFY(!p.bars);
        QCOMPARE(p.series.size(), 2);
        QCOMPARE(p.series[0].points.last(), QPointF(600, 512));
        QCOMPARE(p.series[1].points.last(), QPointF(600, 300));
    }

    void aLineThroughExactPointsIsFoundWithRSquaredOne()
    {
        const line_fit f = fit_line({100, 200, 400, 800}, {70, 120, 220, 420});
        QVERIFY(f.valid());
        QCOMPARE(f.slope, 0.5);
        QCOMPARE(f.intercept, 20.0);
        QCOMPARE(f.r2, 1.0);
        QVERIFY(!fit_line({5, 5}, {1, 2}).valid());   // one x: no slope
        QVERIFY(!fit_line({5}, {1}).valid());
    }

    void answersAreComparedTokenByTokenOverTheLongerOne()
    {
        QCOMPARE(compareAnswers({1, 2, 3}, {1, 2, 3}).changed, 0);
        QCOMPARE(compareAnswers({1, 2, 3}, {1, 2, 3}).firstDifference, -1);
        const AnswerDiff d = compareAnswers({1, 2, 3, 4}, {1, 9, 3});
        QCOMPARE(d.changed, 2);
        QCOMPARE(d.compared, 4);
        QCOMPARE(d.firstDifference, 1);
    }

    // Each row: a step, its runs as measured, and a contrary measurement; the
    // words the measured takeaway must contain and the contrary one must not.
    void theTakeawayFollowsTheSignOfTheMeasurement_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<QVector<LessonRun>>("measured");
        QTest::addColumn<QVector<LessonRun>>("contrary");
        QTest::addColumn<QString>("claim");

        QTest::newRow("TTFT grows with the input")
            << int(LessonStepId::ShortVsLong) << QVector<LessonRun>{run("a", 40, 100), run("b", 640, 1500)}
            << QVector<LessonRun>{run("a", 40, 1500), run("b", 640, 100)} << QStringLiteral("TTFT grew");
        QTest::newRow("decode grows with the answer")
            << int(LessonStepId::AnswerLength)
            << QVector<LessonRun>{run("a", 640, 1500, 16, 300), run("b", 650, 1510, 96, 1900)}
            << QVector<LessonRun>{run("a", 640, 1500, 96, 1900), run("b", 650, 1510, 16, 300)}
            << QStringLiteral("decode time grew");
        QTest::newRow("TTFT stays when only the answer changes")
            << int(LessonStepId::AnswerLength)
            << QVector<LessonRun>{run("a", 640, 1500, 16, 300), run("b", 650, 1510, 96, 1900)}
            << QVector<LessonRun>{run("a", 640, 1500, 16, 300), run("b", 650, 3000, 96, 1900)}
            << QStringLiteral("TTFT stayed about the same");
        QTest::newRow("each prompt token adds to TTFT")
            << int(LessonStepId::InputSweep)
            << QVector<LessonRun>{run("1/8", 80, 100), run("1/4", 160, 190), run("1/2", 320, 380), run("all", 640, 760)}
            << QVector<LessonRun>{run("1/8", 80, 760), run("1/4", 160, 380), run("1/2", 320, 190), run("all", 640, 100)}
            << QStringLiteral("Each prompt token added");
        {
            LessonRun on = run("on", 80, 100, 48, 940), off = run("off", 80, 100, 48, 9400);
            on.latenciesMs = ramp(47, 20, 0.01);
            off.latenciesMs = ramp(47, 100, 3.0);
            QTest::newRow("latency climbs without the cache")
                << int(LessonStepId::KvOffOn) << QVector<LessonRun>{on, off} << QVector<LessonRun>{off, on}
                << QStringLiteral("climbed faster");
        }
        {
            LessonRun a = run("first", 640, 1500), b = run("follow-up", 700, 200);
            b.cachedTokens = 640;
            LessonRun c = b;
            c.cachedTokens = 0;
            QTest::newRow("the follow-up hits the prefix cache")
                << int(LessonStepId::FollowUp) << QVector<LessonRun>{a, b} << QVector<LessonRun>{a, c}
                << QStringLiteral("from the prefix cache");
        }
        {
            LessonRun cold = run("cold", 640, 1500), again = run("again", 640, 100), broken = run("ts", 650, 1500);
            again.cachedTokens = 624;
            LessonRun brokenButReused = broken;
            brokenButReused.cachedTokens = 624;
            QTest::newRow("a timestamp breaks reuse")
                << int(LessonStepId::BrokenPrefix) << QVector<LessonRun>{cold, again, broken}
                << QVector<LessonRun>{cold, again, brokenButReused} << QStringLiteral("breaks reuse");
        }
        {
            LessonRun alone = run("alone", 320, 500);
            alone.kvPeakBytes = 1000;
            QVector<LessonRun> measured{alone}, contrary{alone};
            for (int i = 0; i < 3; ++i) {
                LessonRun r = run("copy", 320, 900);
                r.kvPeakBytes = 1000;
                r.queueMs = i == 2 ? 800 : 0;
                measured << r;
                r.queueMs = 0;
                contrary << r;
            }
            QTest::newRow("the request beyond the slots queues")
                << int(LessonStepId::Concurrent) << measured << contrary << QStringLiteral("the ones beyond");
        }
        {
            LessonRun f16 = run("f16", 640, 1500), q8 = run("q8", 640, 1500);
            f16.kvBytesPerToken = 23040;
            q8.kvBytesPerToken = 12240;
            f16.kvPeakBytes = 23040 * 700;
            q8.kvPeakBytes = 12240 * 700;
            f16.tokenIds = {1, 2, 3, 4};
            q8.tokenIds = {1, 2, 3, 4};
            LessonRun q8same = q8;
            q8same.kvPeakBytes = f16.kvPeakBytes;
            QTest::newRow("q8_0 halves the KV")
                << int(LessonStepId::KvQ8) << QVector<LessonRun>{f16, q8} << QVector<LessonRun>{f16, q8same}
                << QStringLiteral("about half");
            LessonRun q8diff = q8;
            q8diff.tokenIds = {1, 2, 7, 8};
            QTest::newRow("the q8_0 answer is the same")
                << int(LessonStepId::KvQ8) << QVector<LessonRun>{f16, q8} << QVector<LessonRun>{f16, q8diff}
                << QStringLiteral("token for token");
        }
        {
            LessonRun full = run("whole", 640, 1500);
            full.slidingWindow = 512;
            full.kvBytesPerToken = 1000;
            full.kvTokensAtPeak = 700;
            full.kvPeakBytes = 700 * 1000;
            LessonRun capped = full;
            capped.kvPeakBytes = 400 * 1000;
            QTest::newRow("the engine does not cap local layers")
                << int(LessonStepId::SlidingWindow) << QVector<LessonRun>{full} << QVector<LessonRun>{capped}
                << QStringLiteral("does not cap");
            // With the per-group figures: 15 local layers at 1,024 B, 3 global.
            LessonRun groups = full;
            groups.kvBytesPerToken = 18 * 1024;
            groups.kvTokensAtEnd = 700;
            groups.localTokensAtEnd = 512;
            groups.localBytesAtEnd = 512LL * 15 * 1024;
            groups.globalBytesAtEnd = 700LL * 3 * 1024;
            LessonRun uncapped = groups;
            uncapped.localTokensAtEnd = 700;
            uncapped.localBytesAtEnd = 700LL * 15 * 1024;
            QTest::newRow("the local layers cap their KV at the window")
                << int(LessonStepId::SlidingWindow) << QVector<LessonRun>{groups} << QVector<LessonRun>{uncapped}
                << QStringLiteral("capped their KV at the window");
            LessonRun inside = groups;
            inside.kvTokensAtEnd = inside.localTokensAtEnd = 400;
            QTest::newRow("a run inside the window shows no cap")
                << int(LessonStepId::SlidingWindow) << QVector<LessonRun>{inside} << QVector<LessonRun>{groups}
                << QStringLiteral("stayed inside the window");
        }
        {
            LessonRun think = run("q", 320, 400, 96, 2000);
            think.hiddenTokens = 60;
            think.ttftVisibleMs = 1800;
            LessonRun plain = think;
            plain.hiddenTokens = 0;
            QTest::newRow("hidden tokens delay the first visible one")
                << int(LessonStepId::HiddenReasoning) << QVector<LessonRun>{think} << QVector<LessonRun>{plain}
                << QStringLiteral("first visible token came");
        }
        {
            LessonRun plain = run("one per step", 640, 1500, 96, 500), drafted = plain;
            plain.decodeTokS = 190;
            drafted.decodeTokS = 260;
            drafted.draftSteps = 30;
            drafted.draftTokens = 100;
            drafted.acceptedTokens = 60;
            drafted.acceptanceLength = 3.0;
            plain.tokenIds = drafted.tokenIds = {1, 2, 3, 4};
            LessonRun slower = drafted;
            slower.decodeTokS = 150;
            QTest::newRow("accepted drafts speed decode up")
                << int(LessonStepId::Speculative) << QVector<LessonRun>{plain, drafted}
                << QVector<LessonRun>{plain, slower} << QStringLiteral("fewer steps for the same tokens");
            QTest::newRow("rejected drafts cost more than they save")
                << int(LessonStepId::Speculative) << QVector<LessonRun>{plain, slower}
                << QVector<LessonRun>{plain, drafted} << QStringLiteral("cost more than the accepted ones saved");
            LessonRun changed = drafted;
            changed.tokenIds = {1, 2, 9, 9};
            QTest::newRow("the answer with drafts is the same")
                << int(LessonStepId::Speculative) << QVector<LessonRun>{plain, drafted}
                << QVector<LessonRun>{plain, changed} << QStringLiteral("token for token");
        }
    }

    void theTakeawayFollowsTheSignOfTheMeasurement()
    {
        QFETCH(int, step);
        QFETCH(QVector<LessonRun>, measured);
        QFETCH(QVector<LessonRun>, contrary);
        QFETCH(QString, claim);
        const QString said = lessonTakeaway(LessonStepId(step), measured);
        const QString contrarySaid = lessonTakeaway(LessonStepId(step), contrary);
        QVERIFY2(said.contains(claim), qPrintable(said));
        QVERIFY2(!contrarySaid.isEmpty(), "a contrary measurement still gets a takeaway");
        QVERIFY2(!contrarySaid.contains(claim), qPrintable(contrarySaid));
    }

    void aFailedRunGivesNoTakeaway()
    {
        LessonRun a = run("a", 40, 100), b = run("b", 640, 1500);
        b.ok = false;
        QVERIFY(lessonTakeaway(LessonStepId::ShortVsLong, {a, b}).isEmpty());
        QVERIFY(lessonTakeaway(LessonStepId::ShortVsLong, {a}).isEmpty());
    }

    void theInputSweepPlotCarriesItsFit()
    {
        const QVector<LessonRun> runs{run("1/8", 80, 100), run("1/4", 160, 190), run("all", 640, 760)};
        const LessonPlot p = lessonPlot(LessonStepId::InputSweep, runs);
        QVERIFY(p.hasFit);
        QCOMPARE(p.series.first().points.size(), 3);
        QCOMPARE(p.series.first().points.last(), QPointF(640, 760));
        QVERIFY(p.fit.slope > 1.0 && p.fit.slope < 1.3);
    }
};

QTEST_GUILESS_MAIN(TstLessonModel)
#include "tst_lesson_model.moc"
