// SPDX-License-Identifier: Apache-2.0
// The window's data side without an engine or widgets: run records fed with
// hand-made event sequences, the chart series they derive, the coalescer, the
// history model, CSV/JSON export and the prompts of the experiments.
#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <time.h>

#include "event_script.h"
#include "ui/model/chat_preview.h"
#include "ui/model/event_coalescer.h"
#include "ui/model/experiment_caption.h"
#include "ui/model/prompt_builder.h"
#include "ui/model/run_export.h"
#include "ui/model/run_history_model.h"
#include "ui/model/run_record.h"
#include "tests/support/event_fixtures.h"
#include "ui/model/run_store.h"

using namespace kvlens::ui;
using kvlens::test::parseEvents;

namespace {

// A short run: 100 prompt tokens in two chunks, three generated tokens.
const char* kRun = R"(
queued prompt=100
started queue=2 tokenize=8 t=10
chunk done=64 total=100 cached=0 ms=40 t=50
chunk done=100 total=100 cached=0 ms=20 t=70
first ttft=75 id=7 text=Hello tokenize=8 queue=2 prefill=60 sample=5
token i=0 id=7 text=Hello lat=75 t=75 kv=101 bytes=2020 alloc=3200 res=3200
token i=1 id=8 text=\sworld lat=10 t=85 kv=102 bytes=2040 alloc=3200 res=3200
token i=2 id=9 text=! lat=20 t=105 kv=103 bytes=2060 alloc=3200 res=3200
done reason=stop text=Hello\sworld! prompt=100 computed=100 generated=3 queue=2 tokenize=8 prefill=60 sample=5 ttft=75 decode=30 e2e=106 prefill_tok_s=1666.7 decode_tok_s=66.7
)";

RunRecord feed(const QString& script, int upTo = -1)
{
    RunRecord r(1, RunConfig{});
    const auto events = parseEvents(script);
    for (int i = 0; i < events.size() && (upTo < 0 || i < upTo); ++i)
        r.ingest(events[i]);
    return r;
}

QString readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

}  // namespace

class TestUiModel : public QObject {
    Q_OBJECT
private slots:
    void theSystemPromptAsEachChatFormatMakesTheModelReadIt()
    {
        // ChatML gives it a turn of its own; Mistral v0.3 has no system role
        // and puts it in front of the last question; Phi-3-mini's first
        // template drops it: the Model tab then says the model sees nothing.
        const QString system = QStringLiteral("Answer in one sentence.");
        TemplateInfo chatml;
        chatml.format.kind = kvlens::chat_kind::chatml;
        QCOMPARE(systemAsSeen(chatml, system), system);
        TemplateInfo mistral;
        mistral.format.kind = kvlens::chat_kind::mistral;
        mistral.format.variant = kvlens::chat_variant::mistral_v3;
        QCOMPARE(systemAsSeen(mistral, system), system);
        TemplateInfo phi3First;
        phi3First.format.kind = kvlens::chat_kind::phi3;
        phi3First.format.variant = kvlens::chat_variant::phi3_2404;
        QCOMPARE(systemAsSeen(phi3First, system), QString());
        TemplateInfo phi3;
        phi3.format.kind = kvlens::chat_kind::phi3;
        phi3.format.variant = kvlens::chat_variant::phi3;
        QCOMPARE(systemAsSeen(phi3, system), system);
    }

    void prefillProgressMidway()
    {
        const RunRecord r = feed(QString::fromUtf8(kRun), 3);  // queued, started, first chunk
        QCOMPARE(r.state(), RunRecord::State::Prefill);
        QCOMPARE(r.promptTokens(), 100);
        QCOMPARE(r.prefillFraction(), 0.64);
        QCOMPARE(r.prefillTokPerSecond(), 1600.0);
        QCOMPARE(r.prefillEtaMs(), 22.5);
        QCOMPARE(r.prefillPoints(), (QVector<QPointF>{{10, 0}, {50, 64}}));
        QVERIFY(!r.hasFirstToken());
    }

    void ttftPartsLiveAndFinal_data()
    {
        QTest::addColumn<int>("upTo");
        QTest::addColumn<double>("queue");
        QTest::addColumn<double>("tokenize");
        QTest::addColumn<double>("prefill");
        QTest::addColumn<double>("sample");
        QTest::newRow("after first token") << 5 << 2.0 << 8.0 << 60.0 << 5.0;
        QTest::newRow("from the figures") << -1 << 2.0 << 8.0 << 60.0 << 5.0;
        QTest::newRow("mid-prefill") << 3 << 2.0 << 8.0 << 40.0 << 0.0;
    }
    void ttftPartsLiveAndFinal()
    {
        QFETCH(int, upTo);
        QFETCH(double, queue);
        QFETCH(double, tokenize);
        QFETCH(double, prefill);
        QFETCH(double, sample);
        const TtftParts p = feed(QString::fromUtf8(kRun), upTo).ttftParts();
        QCOMPARE(p.queueMs, queue);
        QCOMPARE(p.tokenizeMs, tokenize);
        QCOMPARE(p.prefillMs, prefill);
        QCOMPARE(p.sampleMs, sample);
    }

    void decodeSeries()
    {
        const RunRecord r = feed(QString::fromUtf8(kRun), 8);  // up to the last token, not done
        QCOMPARE(r.state(), RunRecord::State::Decode);
        QCOMPARE(r.text(), QStringLiteral("Hello world!"));
        QCOMPARE(r.latencyPoints(), (QVector<QPointF>{{0, 75}, {1, 10}, {2, 20}}));
        QCOMPARE(r.movingAverageLatency(2), (QVector<double>{75, 42.5, 15}));
        // As the latency chart calls it: the first token (its latency is the TTFT) left out.
        QCOMPARE(r.movingAverageLatency(2, 1), (QVector<double>{10, 15}));
        QCOMPARE(qRound(r.decodeTokPerSecond() * 100), 6667);  // 2 tokens in 30 ms
        QCOMPARE(r.kvPoints(RunRecord::KvKind::Logical),
                 (QVector<QPointF>{{101, 2020}, {102, 2040}, {103, 2060}}));
        QCOMPARE(r.kvPeakBytes(RunRecord::KvKind::Reserved), qint64(3200));
    }

    void finishedRunKeepsFiguresAndIgnoresLateEvents()
    {
        RunRecord r = feed(QString::fromUtf8(kRun));
        QVERIFY(r.isFinished());
        QCOMPARE(r.finishReason(), FinishReason::Stop);
        QCOMPARE(r.figures().generated_tokens, 3);
        QCOMPARE(r.decodeTokPerSecond(), 66.7);
        const int before = int(r.events().size());
        r.ingest(parseEvents(QStringLiteral("token i=3 id=1 text=x lat=1 t=200")).first());
        QCOMPARE(int(r.events().size()), before);
        QCOMPARE(r.tokens().size(), 3);
    }

    void cancelledMidPrefill()
    {
        const RunRecord r = feed(QStringLiteral(
            "queued prompt=1000\nstarted queue=0\nchunk done=256 total=1000 cached=0 ms=100 t=101\n"
            "done reason=cancelled prompt=1000 computed=256 e2e=130"));
        QVERIFY(r.isFinished());
        QCOMPARE(r.finishReason(), FinishReason::Cancelled);
        QCOMPARE(r.prefillFraction(), 0.256);
        QVERIFY(!r.hasFirstToken());
        QCOMPARE(r.tokens().size(), 0);
    }

    void prefixCacheHitStartsAtCachedTokens()
    {
        const RunRecord r = feed(QStringLiteral(
            "queued prompt=300\nstarted queue=1\nchunk done=300 total=300 cached=256 ms=11 t=20"));
        QCOMPARE(r.cachedTokens(), 256);
        QCOMPARE(r.prefillPoints(), (QVector<QPointF>{{9, 256}, {20, 300}}));
        QCOMPARE(r.prefillTokPerSecond(), 4000.0);  // 44 computed tokens in 11 ms
    }

    void csvFieldsAreQuoted_data()
    {
        QTest::addColumn<QString>("tokenText");
        QTest::addColumn<QString>("csvText");
        QTest::newRow("plain") << "Hello" << "Hello";
        QTest::newRow("comma") << "a,b" << "\"a,b\"";
        QTest::newRow("quote") << "say \"hi\"" << "\"say \"\"hi\"\"\"";
        QTest::newRow("newline") << "\n" << "\"\n\"";
    }
    void csvFieldsAreQuoted()
    {
        QFETCH(QString, tokenText);
        QFETCH(QString, csvText);
        RunRecord r(4, RunConfig{});
        kvlens::event_token t = kvlens::test::token_event(4, 0, 42, tokenText.toStdString(), 12.5, 12.5);
        kvlens::test::set_kv(t, {10, 200, 320, 320});
        r.ingest(RunEvent{4, t});
        const QString csv = runToCsv(r);
        QCOMPARE(csv, runCsvHeader() + QStringLiteral("\n4,0,42,") + csvText
                          + QStringLiteral(",12.500,12.500,1,10,200,320,320,0,0,0,0\n"));
    }

    void exportWritesCsvAndJson()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const RunRecord r = feed(QString::fromUtf8(kRun));
        const QString csvPath = dir.filePath(QStringLiteral("run.csv"));
        const QString jsonPath = dir.filePath(QStringLiteral("run.json"));
        QCOMPARE(writeRunCsv(r, csvPath), QString());
        QCOMPARE(writeRunJson(r, jsonPath), QString());

        const QStringList lines = readAll(csvPath).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);  // header + 3 tokens
        QCOMPARE(lines[0], runCsvHeader());
        QCOMPARE(lines[2], QStringLiteral("1,1,8, world,85.000,10.000,1,102,2040,3200,3200,0,0,0,0"));

        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(readAll(jsonPath).toUtf8(), &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        const QJsonObject o = doc.object();
        QCOMPARE(o.value(QStringLiteral("finish_reason")).toString(), QStringLiteral("stop"));
        QCOMPARE(o.value(QStringLiteral("text")).toString(), QStringLiteral("Hello world!"));
        const QJsonArray events = o.value(QStringLiteral("events")).toArray();
        QCOMPARE(events.size(), 9);
        QCOMPARE(events[2].toObject().value(QStringLiteral("event")).toString(), QStringLiteral("prefill_chunk"));
        QCOMPARE(events[2].toObject().value(QStringLiteral("tokens_done")).toInt(), 64);
        QCOMPARE(events[8].toObject().value(QStringLiteral("request")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("figures")).toObject().value(QStringLiteral("ttft_ms")).toDouble(), 75.0);
    }

    void exportReportsUnwritablePath()
    {
        const RunRecord r = feed(QString::fromUtf8(kRun));
        QVERIFY(!writeRunCsv(r, QStringLiteral("/nonexistent-dir/run.csv")).isEmpty());
    }

    void coalescerBatchesEvents()
    {
        EventCoalescer c(nullptr, 33);
        QSignalSpy spy(&c, &EventCoalescer::batchReady);
        const auto events = parseEvents(QString::fromUtf8(kRun));
        for (int i = 0; i < 500; ++i)
            c.push(events[i % events.size()]);
        QCOMPARE(spy.count(), 0);  // nothing before the event loop runs
        QVERIFY(spy.wait(2000));
        QCOMPARE(spy.count(), 1);
        const auto batch = spy.first().first().value<QVector<RunEvent>>();
        QCOMPARE(batch.size(), 500);
        QCOMPARE(batch[2].kind(), RunEvent::Kind::PrefillChunk);
        QCOMPARE(c.pendingCount(), 0);
    }

    // A batch whose handling costs the GUI thread ~20 ms of CPU stretches the
    // interval under a 15 % budget to ~130 ms; without a budget, or with cheap
    // handling, it stays at 33 ms.
    void coalescerStretchesItsIntervalToTheGuiCpuBudget()
    {
        const auto events = parseEvents(QString::fromUtf8(kRun));
        for (const bool budget : {false, true}) {
            for (const int burnMs : {0, 20}) {
                EventCoalescer c(nullptr, 33);
                if (budget)
                    c.setGuiCpuBudget(0.15);
                connect(&c, &EventCoalescer::batchReady, &c, [burnMs] {
                    timespec t0{}, t{};
                    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
                    double spent = 0;
                    while (spent < burnMs) {   // busy: CPU time, not sleep
                        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
                        spent = double(t.tv_sec - t0.tv_sec) * 1e3 + double(t.tv_nsec - t0.tv_nsec) * 1e-6;
                    }
                });
                QElapsedTimer wall;
                wall.start();
                while (c.batchesFlushed() < 6 && wall.elapsed() < 5000) {   // a steady stream of events
                    c.push(events[0]);
                    QTest::qWait(5);
                }
                QCOMPARE(c.batchesFlushed() >= 6, true);
                const int interval = c.currentIntervalMs();
                if (budget && burnMs > 0) {
                    QVERIFY2(interval >= 100 && interval <= 250, qPrintable(QString::number(interval)));
                } else {
                    QCOMPARE(interval, 33);
                }
            }
        }
    }

    void historyModel()
    {
        RunHistoryModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunConfig c;
        c.task = TaskKind::KeyPoints;
        RunRecord* a = m.addRun(c);
        c.experiment = Experiment::KvOff;
        c.parentRunId = a->id();
        c.engine.kvMode = QStringLiteral("off");
        RunRecord* b = m.addRun(c);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(a->id(), 1);
        QCOMPARE(b->id(), 2);
        QCOMPARE(m.data(m.index(0), Qt::DisplayRole).toString(), QStringLiteral("#1 Key points · paged"));
        QCOMPARE(m.data(m.index(1), Qt::DisplayRole).toString(), QStringLiteral("#2 KV cache off of #1 · off"));
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        m.ingest(parseEvents(QString::fromUtf8(kRun), 2));
        QCOMPARE(changed.count(), 1);
        QVERIFY(b->isFinished());
        QVERIFY(!a->isFinished());
        QCOMPARE(m.data(m.index(1), RunHistoryModel::SummaryRole).toString(),
                 QStringLiteral("TTFT 75 ms · 66.7 tok/s"));
    }

    void aSavedRunReadsBackWithTheSameSeriesAndFigures()
    {
        RunConfig c;
        c.task = TaskKind::Question;
        c.question = QStringLiteral("What grew?");
        c.engine.kvDtype = QStringLiteral("q8_0");
        c.stage = QStringLiteral("map 2/3");
        c.mapReduceId = 4;
        c.firstPage = 3;
        c.lastPage = 5;
        RunRecord r(7, c);
        for (const RunEvent& e : parseEvents(QString::fromUtf8(kRun), 7))
            r.ingest(e);
        r.setKvBytesPerToken(20);
        QString error;
        const std::unique_ptr<RunRecord> back = runFromJson(runToJson(r), 1, error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->id(), 1);
        QCOMPARE(back->label(), runLabel(1, c));
        QCOMPARE(back->config().question, c.question);
        QCOMPARE(back->config().stage, c.stage);
        QCOMPARE(back->config().lastPage, 5);
        QCOMPARE(back->createdAt(), r.createdAt());
        QCOMPARE(back->text(), r.text());
        QCOMPARE(back->finishReason(), r.finishReason());
        QCOMPARE(back->prefillPoints(), r.prefillPoints());
        QCOMPARE(back->latencyPoints(), r.latencyPoints());
        QCOMPARE(back->kvPoints(RunRecord::KvKind::Allocated), r.kvPoints(RunRecord::KvKind::Allocated));
        QCOMPARE(back->ttftParts().total(), r.ttftParts().total());
        QCOMPARE(back->figures().ttft_ms, r.figures().ttft_ms);
        QCOMPARE(back->figures().decode_tok_s, r.figures().decode_tok_s);
        QCOMPARE(back->kvBytesPerToken(), qint64(20));
        QCOMPARE(figuresToJson(back->figures()), figuresToJson(r.figures()));   // every figure, as saved
    }

    void theStoreKeepsTheNewestRunsAndNamesACorruptFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RunStore store(dir.filePath(QStringLiteral("runs")), 3);
        QDateTime t = QDateTime::fromString(QStringLiteral("2026-12-01T10:00:00.000Z"), Qt::ISODateWithMs);
        for (int id = 1; id <= 5; ++id) {
            RunRecord r(id, RunConfig{});
            r.setCreatedAt(t.addSecs(id));
            for (const RunEvent& e : parseEvents(QString::fromUtf8(kRun), id))
                r.ingest(e);
            QCOMPARE(store.save(r), QString());
        }
        QCOMPARE(store.files().size(), 3);   // the two oldest were removed
        {
            QFile bad(dir.filePath(QStringLiteral("runs/run-29991231-000000-000-9.json")));
            QVERIFY(bad.open(QIODevice::WriteOnly));
            bad.write("{\"run\": 9, \"events\": [");   // cut off mid-write
        }
        const RunStore::Loaded loaded = RunStore(store.folder(), 4).load();
        QCOMPARE(loaded.runs.size(), 3);
        QCOMPARE(loaded.errors.size(), 1);
        QVERIFY(loaded.errors.first().startsWith(QStringLiteral("run-29991231-000000-000-9.json: ")));
        QCOMPARE(loaded.runs.first().value(QStringLiteral("run")).toInt(), 3);

        RunHistoryModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QJsonObject notARun;
        notARun[QStringLiteral("run")] = 8;
        QVector<QJsonObject> saved = loaded.runs;
        saved.append(notARun);
        const QStringList errors = m.restore(saved);
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors.first().contains(QStringLiteral("#8")));
        QCOMPARE(m.count(), 3);
        QCOMPARE(m.runAt(0)->id(), 1);
        QVERIFY(m.runAt(2)->isFinished());
        QCOMPARE(m.runAt(2)->tokens().size(), 3);
        QCOMPARE(m.addRun(RunConfig{})->id(), 4);   // new runs number on after the saved ones
    }

    void aRestoredExperimentPointsAtItsRestoredParent()
    {
        RunConfig base;
        RunRecord a(5, base);
        RunConfig child;
        child.experiment = Experiment::FollowUp;
        child.parentRunId = 5;
        RunRecord b(6, child);
        RunConfig orphan;
        orphan.experiment = Experiment::KvOff;
        orphan.parentRunId = 2;   // not kept
        RunRecord o(7, orphan);
        for (RunRecord* r : {&a, &b, &o}) {
            for (const RunEvent& e : parseEvents(QString::fromUtf8(kRun), r->id()))
                r->ingest(e);
        }
        RunHistoryModel m;
        QVERIFY(m.restore({runToJson(a), runToJson(b), runToJson(o)}).isEmpty());
        QCOMPARE(m.runAt(1)->config().parentRunId, 1);
        QCOMPARE(m.runAt(1)->config().experiment, Experiment::FollowUp);
        QCOMPARE(m.runAt(2)->config().parentRunId, 0);
        QCOMPARE(m.runAt(2)->config().experiment, Experiment::None);
    }

    void kvGrowsChunkByChunkDuringPrefillFromZero()
    {
        const RunRecord r = feed(QStringLiteral(
            "queued prompt=600\nstarted queue=1 tokenize=3 t=4\n"
            "chunk done=256 total=600 cached=0 ms=100 t=104 kv=256 bytes=5120 alloc=5120 res=5120\n"
            "chunk done=512 total=600 cached=0 ms=140 t=244 kv=512 bytes=10240 alloc=10240 res=10240\n"));
        // Before any token: the KV chart already has the prefill's growth.
        QCOMPARE(r.kvPoints(RunRecord::KvKind::Logical), (QVector<QPointF>{{0, 0}, {256, 5120}, {512, 10240}}));
        QCOMPARE(r.kvPoints(RunRecord::KvKind::Logical, true), QVector<QPointF>{});   // the decode zoom: nothing yet
        QCOMPARE(r.kvPeakBytes(RunRecord::KvKind::Logical), qint64(10240));
        // The ETA follows the measured chunk times, which grow with position:
        // 100 ms then 140 ms per 256 tokens -> slower still for the 88 left
        // than the mean rate (240 ms / 512 tokens) would say.
        const double constantRate = 88 * 240.0 / 512;
        QVERIFY2(r.prefillEtaMs() > constantRate, qPrintable(QString::number(r.prefillEtaMs())));
        QVERIFY(r.prefillEtaMs() < 88 * 140.0 / 256 * 1.5);
    }

    void kvOffDrawsNoCacheButRecomputedTokens()
    {
        const RunRecord r = feed(QStringLiteral(
            "queued prompt=50\nstarted queue=0 tokenize=1 t=1\nchunk done=50 total=50 cached=0 ms=10 t=11\n"
            "first ttft=12 id=1 text=a tokenize=1 queue=0 prefill=10 sample=1\n"
            "token i=0 id=1 text=a lat=12 t=12\ntoken i=1 id=2 text=b lat=9 t=21 recomputed=51\n"
            "token i=2 id=3 text=c lat=9 t=30 recomputed=52\n"));
        QVERIFY(r.kvPoints(RunRecord::KvKind::Logical).isEmpty());
        QVERIFY(r.kvPoints(RunRecord::KvKind::Reserved).isEmpty());
        QCOMPARE(r.recomputedPoints(), (QVector<QPointF>{{1, 51}, {2, 52}}));
    }

    void ttftSegmentsAreMeasuredAndAddUp()
    {
        // Segments chosen so that a remainder would differ from the measured
        // first-sample part: the parts come from the event, not from ttft - rest.
        const RunRecord r = feed(QStringLiteral(
            "queued prompt=10\nstarted queue=1.5 tokenize=2.25 t=3.75\nchunk done=10 total=10 cached=0 ms=5 t=9\n"
            "first ttft=10.5 id=1 text=a tokenize=2.25 queue=1.5 prefill=5.25 sample=1.5\n"));
        const TtftParts p = r.ttftParts();
        QCOMPARE(p.tokenizeMs, 2.25);
        QCOMPARE(p.queueMs, 1.5);
        QCOMPARE(p.prefillMs, 5.25);
        QCOMPARE(p.sampleMs, 1.5);
        QVERIFY(qAbs(p.total() - r.ttftMs()) < 0.1);
        // While the prefill runs, tokenize is known and shown.
        const RunRecord live = feed(QStringLiteral("queued prompt=10\nstarted queue=1.5 tokenize=2.25 t=3.75\n"));
        QCOMPARE(live.ttftParts().tokenizeMs, 2.25);
    }

    void promptsCarryTheDocumentFirst()
    {
        DocumentText doc{QStringLiteral("Annual report"), {QStringLiteral("page one"), QStringLiteral("page two"),
                                                            QStringLiteral("page three"), QStringLiteral("page four")}};
        RunConfig c;
        c.task = TaskKind::OneLine;
        c.firstPage = 2;
        c.lastPage = 4;
        QCOMPARE(selectedText(doc, c), QStringLiteral("page two\n\npage three\n\npage four"));
        const auto chat = buildChat(doc, c);
        QCOMPARE(chat.size(), 2);
        QCOMPARE(chat[1].content, QStringLiteral("Report \"Annual report\":\n\npage two\n\npage three\n\npage four\n\n"
                                                 "Summarize this report in one sentence."));

        const RunConfig half = experimentConfig(c, 1, {}, Experiment::HalfDocument, {}, {});
        // Half the document is half its characters: uneven pages are cut at
        // a space, even ones at the page break.
        QCOMPARE(selectedText(doc, half), QStringLiteral("page two\n\npage"));
        const DocumentText even{QStringLiteral("Even"), {QStringLiteral("page AAAA"), QStringLiteral("page BBBB"),
                                                          QStringLiteral("page CCCC"), QStringLiteral("page DDDD")}};
        RunConfig all = c;
        all.firstPage = 1;
        all.lastPage = 4;
        QCOMPARE(selectedText(even, experimentConfig(all, 1, {}, Experiment::HalfDocument, {}, {})),
                 QStringLiteral("page AAAA\n\npage BBBB"));

        const RunConfig follow = experimentConfig(c, 1, QStringLiteral("It grew."), Experiment::FollowUp,
                                                  QStringLiteral("By how much?"), {});
        const auto turns = buildChat(doc, follow);
        QCOMPARE(turns.size(), 4);
        QCOMPARE(turns[1].content, chat[1].content);  // same prefix as the base run
        QCOMPARE(turns[2].role, QStringLiteral("assistant"));
        QCOMPARE(turns[2].content, QStringLiteral("It grew."));
        QCOMPARE(turns[3].content, QStringLiteral("By how much?"));

        const RunConfig broken = experimentConfig(c, 1, {}, Experiment::BrokenCache, {},
                                                  QDateTime(QDate(2026, 11, 29), QTime(10, 0, 1, 250)));
        QCOMPARE(buildChat(doc, broken)[0].content.left(25), QStringLiteral("[2026-11-29T10:00:01.250]"));

        QCOMPARE(experimentConfig(c, 1, {}, Experiment::ShorterAnswer, {}, {}).sampling.maxTokens, 48);
        QCOMPARE(experimentConfig(c, 1, {}, Experiment::KvOff, {}, {}).engine.kvMode, QStringLiteral("off"));
    }

    // Speculative decoding in the window: the experiment turns drafts on (or
    // off for a run that had them); a run's drafted tokens, its draft figures
    // and its draft setting survive the run store; the caption says what was
    // measured.
    void aSpeculativeRunKeepsItsDraftsAndSaysWhatTheyGave()
    {
        RunConfig c;
        const RunConfig on = experimentConfig(c, 1, {}, Experiment::Speculative, {}, {});
        QCOMPARE(on.sampling.draftTokens, kExperimentDraftTokens);
        QCOMPARE(experimentConfig(on, 2, {}, Experiment::Speculative, {}, {}).sampling.draftTokens, 0);

        const char* script = R"(
queued prompt=100
started queue=2 tokenize=8 t=10
chunk done=100 total=100 cached=0 ms=60 t=70
first ttft=75 id=7 text=Hello tokenize=8 queue=2 prefill=60 sample=5
token i=0 id=7 text=Hello lat=75 t=75 kv=101 bytes=2020 alloc=3200 res=3200
token i=1 id=8 text=\sworld lat=12 t=87 kv=102 bytes=2040 alloc=3200 res=3200
token i=2 id=9 text=! lat=0.01 t=87.01 kv=103 bytes=2060 alloc=3200 res=3200 drafted=1
done reason=stop text=Hello\sworld! prompt=100 computed=100 generated=3 queue=2 tokenize=8 prefill=60 sample=5 ttft=75 decode=12 e2e=90 decode_tok_s=166.7 draft_steps=1 draft_tokens=4 accepted=1 acceptance_rate=0.25 acceptance_length=2
)";
        RunRecord parent(1, c);
        for (const RunEvent& e : parseEvents(QString::fromUtf8(kRun), 1))
            parent.ingest(e);
        RunRecord r(2, on);
        for (const RunEvent& e : parseEvents(QString::fromUtf8(script), 2))
            r.ingest(e);
        QCOMPARE(r.draftedTokens(), 1);
        QString error;
        const std::unique_ptr<RunRecord> back = runFromJson(runToJson(r), 2, error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->config().sampling.draftTokens, kExperimentDraftTokens);
        QCOMPARE(back->config().experiment, Experiment::Speculative);
        QCOMPARE(back->draftedTokens(), 1);
        QCOMPARE(back->figures().accepted_tokens, 1);
        QCOMPARE(back->figures().mean_acceptance_length, 2.0);
        QVERIFY(runToCsv(r).endsWith(QStringLiteral(",1\n")));   // the last token's drafted column

        QCOMPARE(experimentCaption(r, parent, {}),
                 QStringLiteral("Speculative decoding: 1 of 4 draft tokens accepted, 2.00 tokens per step; "
                                "decode 66.7 tok/s → 167 tok/s; the same answer"));
    }

    void aBaseModelGetsTheChatAsOneTextToContinue()
    {
        const QVector<ChatTurn> chat{{QStringLiteral("system"), QStringLiteral("Be brief.")},
                                     {QStringLiteral("user"), QStringLiteral("Report:\n\nSales rose.\n\nSummarize.")},
                                     {QStringLiteral("assistant"), QStringLiteral("Sales rose.")},
                                     {QStringLiteral("user"), QStringLiteral("By how much?")}};
        QCOMPARE(completionPrompt(chat), QStringLiteral("Be brief.\n\nReport:\n\nSales rose.\n\nSummarize.\n\n"
                                                        "Answer: Sales rose.\n\nBy how much?\n\nAnswer:"));
        // The first turns alone are a prefix of the follow-up's text: the prefix cache still serves it.
        const QString first = completionPrompt(chat.mid(0, 2));
        QVERIFY(completionPrompt(chat).startsWith(first.chopped(int(qstrlen("Answer:")))));
    }
};

QTEST_GUILESS_MAIN(TestUiModel)
#include "tst_ui_model.moc"
