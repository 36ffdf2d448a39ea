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
#include <QRegularExpression>
#include <QSignalSpy>
#include <QUrl>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QLocale>
#include <QtTest>

#include "engine/model/synth_model.h"
#include "tests/support/test_paths.h"
#include "tests/support/tiny_model.h"
#include "ui/charts/chart_panel.h"
#include "ui/charts/kv_chart.h"
#include <QLineSeries>
#include "ui/headless_runner.h"
#include "ui/main_window.h"
#include "ui/pdf_bridge.h"
#include "ui/run_controller.h"
#include "ui/model/run_history_model.h"
#include "ui/widgets/charts_board.h"
#include "ui/widgets/document_pane.h"
#include "ui/widgets/model_panel.h"
#include "ui/widgets/stats_card.h"
#include "ui/widgets/task_pane.h"

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

    // Detailed vs one line, both varying the same key-points run (its
    // document in the prefix cache, so each prefills only its own
    // instruction): TTFT about the same, decode time much longer. The
    // one-line run is made twice, around the detailed one, to show the
    // noise; the claim checked is the caption's: the answer's length shows
    // in decode time, at least twice as much as in TTFT.
    void detailedVersusOneLine(RunController* c, int firstRun)
    {
        RunConfig keyPoints = c->history()->run(firstRun)->config();
        keyPoints.task = TaskKind::KeyPoints;
        const int base = c->startRun(keyPoints);
        QTRY_VERIFY_WITH_TIMEOUT(c->history()->run(base)->isFinished(), 120000);
        auto vary = [&](Experiment e) {
            c->selectRun(base);
            const int id = c->runExperiment(e);
            [&] { QTRY_VERIFY_WITH_TIMEOUT(c->history()->run(id)->isFinished(), 120000); }();
            const RunRecord* r = c->history()->run(id);
            [&] { QVERIFY2(r->finishReason() != FinishReason::Error, qPrintable(r->error())); }();
            return r->figures();
        };
        const RunFigures one = vary(Experiment::ShorterAnswer);
        const RunFigures detailed = vary(Experiment::LongerAnswer);
        const RunFigures oneAgain = vary(Experiment::ShorterAnswer);
        if (QTest::currentTestFailed())
            return;
        const QString figures = QStringLiteral("TTFT one line %1 / %2 ms, detailed %3 ms; decode %4 / %5 ms vs %6 ms; "
                                               "tokens %7 vs %8; prompt/cached %9/%10 vs %11/%12")
                                    .arg(one.ttft_ms).arg(oneAgain.ttft_ms).arg(detailed.ttft_ms)
                                    .arg(one.decode_ms).arg(oneAgain.decode_ms).arg(detailed.decode_ms)
                                    .arg(one.generated_tokens).arg(detailed.generated_tokens)
                                    .arg(one.prompt_tokens).arg(one.cached_tokens)
                                    .arg(detailed.prompt_tokens).arg(detailed.cached_tokens);
        qInfo("%s", qPrintable(figures));
        qInfo("detailed TTFT: tokenize %.1f, queue %.1f, prefill %.1f, first sample %.1f ms",
              detailed.tokenize_ms, detailed.queue_ms, detailed.prefill_ms, detailed.first_sample_ms);
        // The document part of the prompt came from the cache for all three.
        for (const RunFigures* f : {&one, &detailed, &oneAgain})
            QVERIFY2(f->cached_tokens > f->prompt_tokens * 8 / 10, qPrintable(figures));
        QVERIFY2(detailed.generated_tokens > one.generated_tokens, qPrintable(figures));
        const double oneDecode = std::max(one.decode_ms, oneAgain.decode_ms);
        QVERIFY2(detailed.decode_ms > oneDecode, qPrintable(figures));
        const double oneTtft = (one.ttft_ms + oneAgain.ttft_ms) / 2;
        const double spread = qAbs(one.ttft_ms - oneAgain.ttft_ms);
        const double ttftChange = qAbs(detailed.ttft_ms - oneTtft);
        qInfo("TTFT change %.1f ms (one-line pair spread %.1f ms), decode growth %.1f ms", ttftChange, spread,
              detailed.decode_ms - oneDecode);
        QVERIFY2(ttftChange * 2 < detailed.decode_ms - oneDecode, qPrintable(figures));
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

    // A model in parts (gguf_split.h) is named by its first part and their count.
    void modelPanelNamesTheFirstOfAModelsParts()
    {
        ModelPanel panel;
        ModelSummary s;
        s.nLayer = 2;
        s.path = QStringLiteral("/models/big-00002-of-00003.gguf");   // the part the user opened
        s.modelFile = QStringLiteral("/models/big-00001-of-00003.gguf");
        s.nFileParts = 3;
        panel.setSummary(s);
        QStringList texts;
        for (const QLabel* l : panel.findChildren<QLabel*>()) texts << l->text();
        QVERIFY2(texts.contains(QStringLiteral("big-00001-of-00003.gguf (the first of 3 parts)")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        s.nFileParts = 1;
        s.path = s.modelFile = QStringLiteral("/models/small.gguf");
        panel.setSummary(s);
        texts.clear();
        for (const QLabel* l : panel.findChildren<QLabel*>()) texts << l->text();
        QVERIFY(texts.contains(QStringLiteral("small.gguf")));
    }

    void modelPanelNamesCoheresLayerNormsAndSideBySideBlocks()
    {
        ModelPanel panel;
        ModelSummary s;
        s.nLayer = 4;
        s.layerNorm = true;
        s.parallelBlocks = true;
        s.sharedBlockNorm = true;
        s.logitMul = 0.0625;
        panel.setSummary(s);
        QStringList texts;
        for (const QLabel* l : panel.findChildren<QLabel*>()) texts << l->text();
        const QString all = texts.join(QLatin1Char('|'));
        QVERIFY2(texts.contains(QStringLiteral("LayerNorms:")), qPrintable(all));
        QVERIFY2(!texts.contains(QStringLiteral("RMS norms:")), qPrintable(all));
        QVERIFY2(texts.contains(QStringLiteral("one per layer, read by attention and the feed-forward block side by side")),
                 qPrintable(all));
        QVERIFY2(texts.contains(QStringLiteral("logits ×0.0625")), qPrintable(all));
    }

    void modelPanelNamesGpt2sLearnedPositionsAndNoRope()
    {
        ModelPanel panel;
        ModelSummary s;
        s.nLayer = 12;
        s.nCtxTrain = 1024;
        s.learnedPositions = true;
        s.layerNorm = true;
        s.normBias = true;
        panel.setSummary(s);
        QStringList texts;
        for (const QLabel* l : panel.findChildren<QLabel*>()) texts << l->text();
        const QString all = texts.join(QLatin1Char('|'));
        QVERIFY2(texts.contains(QStringLiteral("Positions:")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("learned: position p's row of a table is added to token p's embedding (no "
                                             "RoPE); 1,024 rows, so no context is longer")),
                 qPrintable(all));
        QVERIFY2(!texts.contains(QStringLiteral("RoPE:")), qPrintable(all));
        QVERIFY2(texts.contains(QStringLiteral("before each block, each with a bias")), qPrintable(all));

        // Pythia (GPT-NeoX): RoPE over a quarter of each head, the blocks side by side from their own norms.
        ModelSummary p;
        p.nLayer = 6;
        p.headDim = 64;
        p.ropeBase = 10000;
        p.ropeDims = 16;
        p.layerNorm = p.normBias = p.parallelBlocks = true;
        panel.setSummary(p);
        texts.clear();
        for (const QLabel* l : panel.findChildren<QLabel*>()) texts << l->text();
        const QString pythia = texts.join(QLatin1Char('|'));
        QVERIFY2(texts.contains(QStringLiteral("base 10,000, over the first 16 of each head's 64 dimensions")), qPrintable(pythia));
        QVERIFY2(texts.contains(QStringLiteral("one per block, the blocks side by side from the same input, each with a bias")),
                 qPrintable(pythia));
    }

    // Phi-2's heads of 80: q8_0's blocks of 32 would straddle two heads, so
    // the KV-as-q8_0 experiment stays off, saying why, and the others do not.
    void kvQ8ExperimentIsOffForHeadsQ8CannotHold()
    {
        TaskPane pane;
        pane.setExperimentsEnabled(true, false);
        QVERIFY(!pane.experimentButton(Experiment::KvQ8)->isEnabled());
        QVERIFY(pane.experimentButton(Experiment::KvQ8)->toolTip().contains(QStringLiteral("not a multiple of 32")));
        QVERIFY(pane.experimentButton(Experiment::KvOff)->isEnabled());
        pane.setExperimentsEnabled(true, true);
        QVERIFY(pane.experimentButton(Experiment::KvQ8)->isEnabled());
        ModelPanel panel;
        ModelSummary m;
        m.nLayer = 32;
        m.headDim = 80;
        m.kvBytesPerTokenF16 = 327680;
        m.kvQ8Possible = false;
        panel.setSummary(m);
        QStringList texts;
        for (const QLabel* l : panel.findChildren<QLabel*>()) texts << l->text();
        QVERIFY2(texts.contains(QStringLiteral("320 KiB (f16) · q8_0 not possible: its blocks of 32 would straddle heads of 80")),
                 qPrintable(texts.join(QLatin1Char('|'))));
    }

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

    // Issue 12 (item 2): a sliding-window model's KV is drawn as its two
    // layer groups, local flat at the window and global rising, and the
    // model panel names the groups; a model without local layers keeps one
    // logical line. Gemma 3 270M is a base model: it is asked in completion
    // style. Neither model's vocabulary has <think> tags.
    void theKvChartShowsGemma3sTwoLayerGroupsAndSmolLM2sOneLine()
    {
        const QString gemma = QString::fromStdString(
            (kvlens::test::source_root() / "models/gemma-3-270m-q4_k_m.gguf").string());
        if (!QFileInfo::exists(gemma) || !kvlens::test::have_default_model())
            QSKIP("needs models/gemma-3-270m-q4_k_m.gguf and the default model (scripts/fetch-model)");
        // A report of about 700 Gemma tokens: past the 512-token window.
        const QString longReport = dir_.filePath(QStringLiteral("long-memo.txt"));
        {
            QFile f(longReport);
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (int i = 1; i <= 40; ++i)
                f.write(QStringLiteral("In quarter %1 sales rose by %2 percent while costs fell.\n").arg(i).arg(i % 7 + 3).toUtf8());
        }
        const QString saved = report_;
        report_ = longReport;
        MainWindow* w = open(gemma, 4);
        report_ = saved;
        QVERIFY(w);
        const ModelSummary& m = w->model();
        QCOMPARE(m.slidingWindow, 512);
        QCOMPARE(m.nLocalLayers, 15);
        QCOMPARE(m.nGlobalLayers, 3);
        QCOMPARE(m.localKvBytesPerToken, qint64(2 * 15 * 256 * 2));
        QCOMPARE(m.globalKvBytesPerToken, qint64(2 * 3 * 256 * 2));
        QVERIFY(m.baseModel);
        QVERIFY(m.hiddenReasoning.isEmpty());
        QVERIFY2(w->modelPanel()->text().contains(QStringLiteral("15 local layers")), qPrintable(w->modelPanel()->text()));
        // What is sent: the turns as one completion-style text, and the preview says so.
        QTRY_VERIFY_WITH_TIMEOUT(w->taskPane()->promptPreview().endsWith(QStringLiteral("Answer:")), 30000);
        QVERIFY(w->taskPane()->promptPreview().contains(QStringLiteral("In quarter 40 sales rose")));
        QVERIFY(!w->taskPane()->promptPreview().contains(QStringLiteral("<start_of_turn>")));
        const int id = w->startRun(w->currentConfig());
        const RunRecord* run = w->history()->run(id);
        QTRY_VERIFY_WITH_TIMEOUT(run->isFinished(), 300000);
        QVERIFY2(run->finishReason() != FinishReason::Error, qPrintable(run->error()));
        QVERIFY2(run->promptTokens() > 560, qPrintable(QString::number(run->promptTokens())));
        // Every step: the groups add up to the whole, local capped at the window.
        for (const TokenStep& t : run->tokens()) {
            QCOMPARE(t.kv.localBytes + t.kv.globalBytes, t.kv.logicalBytes);
            QCOMPARE(t.kv.localTokens, std::min<qint64>(t.kv.tokens, 512));
            QCOMPARE(t.kv.localBytes, t.kv.localTokens * m.localKvBytesPerToken);
            QCOMPARE(t.kv.globalBytes, t.kv.tokens * m.globalKvBytesPerToken);
        }
        w->selectRun(id);
        auto* kv = qobject_cast<KvChart*>(w->charts()->chart(QStringLiteral("kv")));
        QVERIFY(kv);
        QTRY_VERIFY_WITH_TIMEOUT(kv->localSeries()->isVisible() && kv->globalSeries()->isVisible(), 30000);
        QVERIFY(!kv->logicalSeries()->isVisible());
        const QList<QPointF> local = kv->localSeries()->points();
        const QList<QPointF> global = kv->globalSeries()->points();
        // From the first point past the window on: local flat, global rising.
        int past = 0;
        while (past < local.size() && local[past].x() < 512)
            ++past;
        QVERIFY2(past > 0 && past + 1 < local.size(), qPrintable(QString::number(local.size())));
        for (int i = past; i < local.size(); ++i)
            QCOMPARE(local[i].y(), local[past].y());
        QVERIFY(local[past].y() > local[past - 1].y() || local[past - 1].x() >= 512);
        QVERIFY(global.last().y() > global[past].y());
        qInfo("gemma3: %d prompt tokens; at %lld held: local %lld B, global %lld B", run->promptTokens(),
              run->tokens().last().kv.tokens, run->tokens().last().kv.localBytes, run->tokens().last().kv.globalBytes);

        // SmolLM2: no local layers, one logical line.
        w = open(QString::fromStdString(kvlens::test::default_model().string()), 4);
        QVERIFY(w);
        QCOMPARE(w->model().nLocalLayers, 0);
        QVERIFY(!w->model().baseModel);
        QVERIFY(w->model().hiddenReasoning.isEmpty());
        const int plain = w->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(plain)->isFinished(), 120000);
        QVERIFY(!w->history()->run(plain)->hasKvGroups());
        w->selectRun(plain);
        kv = qobject_cast<KvChart*>(w->charts()->chart(QStringLiteral("kv")));
        QTRY_VERIFY_WITH_TIMEOUT(kv->logicalSeries()->isVisible(), 30000);
        QVERIFY(!kv->localSeries()->isVisible());
        QVERIFY(!kv->globalSeries()->isVisible());
    }

    void theSystemPromptIsShownAsTheTemplateUsesIt()
    {
        // SmolLM2's template inserts its own system turn when a chat has
        // none: the Model tab and the prompt preview say so.
        if (!kvlens::test::have_default_model())
            QSKIP("no default model in models/ (scripts/fetch-model)");
        MainWindow* w = open(QString::fromStdString(kvlens::test::default_model().string()), 8);
        QVERIFY(w);
        QCOMPARE(w->modelPanel()->templateInfo().kind(), QStringLiteral("chatml"));
        QVERIFY(w->modelPanel()->templateInfo().defaultSystem().contains(QStringLiteral("SmolLM")));
        const QString panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral("System prompt sent: You are a careful reading assistant")), qPrintable(panel));
        // SmolLM2's RoPE: base 100000, no Llama 3.1 factors, no scaling.
        QVERIFY2(panel.contains(QRegularExpression(QStringLiteral("RoPE: base 100\\D?000\n"))), qPrintable(panel));
        QVERIFY(!panel.contains(QStringLiteral("frequency factors")));
        QVERIFY(panel.contains(QStringLiteral("SmolLM")));
        QTRY_VERIFY_WITH_TIMEOUT(w->taskPane()->promptPreview().contains(QStringLiteral("<|im_start|>system\nYou are a careful reading assistant")), 30000);
        QVERIFY(w->taskPane()->promptPreview().contains(QStringLiteral("Sales rose 12%")));
        QVERIFY(w->taskPane()->promptPreview().endsWith(QStringLiteral("<|im_start|>assistant\n")));
    }

    void aLongRopeModelSaysWhichFactorsItsContextTakes()
    {
        // A phi3 file with LongRoPE (check-phi3: trained at 256 tokens, an
        // original context of 32): at the model's own context of 256 the
        // engine applies the long factors, and the Model tab says so.
        auto shape = kvlens::synth_shape_named("check-phi3");
        QVERIFY(shape.ok());
        const QString path = dir_.filePath(QStringLiteral("check-phi3.gguf"));
        QVERIFY(kvlens::write_synth_model(*shape, kvlens::ggml_type::q8_0, path.toStdString()).ok());
        MainWindow* w = open(path, 8);
        QVERIFY(w);
        const QString panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral("Architecture: phi3")), qPrintable(panel));
        QVERIFY2(panel.contains(QRegularExpression(
                     QStringLiteral("LongRoPE long factors \\(this context of 256 tokens passes the original 32\\)"))),
                 qPrintable(panel));
        QVERIFY2(panel.contains(QStringLiteral("attention factor ×1.265")), qPrintable(panel));
    }

    void aGemma2ModelShowsItsSoftCapsAndWindows()
    {
        // check-gemma2: scores capped at 0.1, logits at 3, a window of 8 on
        // layers 0 and 2 of 4: the Model tab names both caps and the two KV groups.
        auto shape = kvlens::synth_shape_named("check-gemma2");
        QVERIFY(shape.ok());
        const QString path = dir_.filePath(QStringLiteral("check-gemma2.gguf"));
        QVERIFY(kvlens::write_synth_model(*shape, kvlens::ggml_type::q8_0, path.toStdString()).ok());
        MainWindow* w = open(path, 8);
        QVERIFY(w);
        const QString panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral("Soft-capping: attention scores at ±0.1 before the softmax, logits at ±3")),
                 qPrintable(panel));
        QVERIFY2(panel.contains(QStringLiteral("Sliding window: 8 tokens")), qPrintable(panel));
        QVERIFY2(panel.contains(QStringLiteral("2 local layers")), qPrintable(panel));
    }

    void newArchitecturesShowTheirScalesUnrotatedLayersNormsAndYarn()
    {
        // check-granite: embeddings ×6, scores ×0.05, block outputs ×0.4,
        // logits ÷3. check-smollm3: layer 3 of 4 without RoPE. A run on
        // each finishes (the engine computes them; test_synth_reference
        // holds the numbers to llama.cpp).
        auto granite = kvlens::synth_shape_named("check-granite");
        QVERIFY(granite.ok());
        const QString granitePath = dir_.filePath(QStringLiteral("check-granite.gguf"));
        QVERIFY(kvlens::write_synth_model(*granite, kvlens::ggml_type::q8_0, granitePath.toStdString()).ok());
        MainWindow* w = open(granitePath, 8);
        QVERIFY(w);
        QString panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral("Scales: embeddings ×6, attention scores ×0.05 (instead of 1/√64 = "
                                               "0.125), block outputs ×0.4 before the residual add, logits ÷3")),
                 qPrintable(panel));
        const int run = w->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(run)->isFinished(), 120000);

        auto smollm3 = kvlens::synth_shape_named("check-smollm3");
        QVERIFY(smollm3.ok());
        const QString smolPath = dir_.filePath(QStringLiteral("check-smollm3.gguf"));
        QVERIFY(kvlens::write_synth_model(*smollm3, kvlens::ggml_type::q8_0, smolPath.toStdString()).ok());
        w = open(smolPath, 8);
        QVERIFY(w);
        panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral(", not in 1 of 4 layers (NoPE, no positions: layers 3)")), qPrintable(panel));
        QVERIFY2(!panel.contains(QStringLiteral("Scales:")), qPrintable(panel));
        QVERIFY2(panel.contains(QStringLiteral("RMS norms: before each block\n")), qPrintable(panel));

        // check-olmo2: norms after the blocks only, and over whole Q and K rows.
        auto olmo2 = kvlens::synth_shape_named("check-olmo2");
        QVERIFY(olmo2.ok());
        const QString olmoPath = dir_.filePath(QStringLiteral("check-olmo2.gguf"));
        QVERIFY(kvlens::write_synth_model(*olmo2, kvlens::ggml_type::q8_0, olmoPath.toStdString()).ok());
        w = open(olmoPath, 8);
        QVERIFY(w);
        panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral("RMS norms: after each block, Q and K over whole rows")), qPrintable(panel));

        // check-qwen3-yarn: YaRN x4 from an original 1024 tokens.
        auto yarn = kvlens::synth_shape_named("check-qwen3-yarn");
        QVERIFY(yarn.ok());
        const QString yarnPath = dir_.filePath(QStringLiteral("check-qwen3-yarn.gguf"));
        QVERIFY(kvlens::write_synth_model(*yarn, kvlens::ggml_type::q8_0, yarnPath.toStdString()).ok());
        w = open(yarnPath, 8);
        QVERIFY(w);
        panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QRegularExpression(QStringLiteral("YaRN ×4 from an original 1\\D?024 tokens"))),
                 qPrintable(panel));
        QVERIFY2(panel.contains(QStringLiteral("RMS norms: before each block, Q and K per head")), qPrintable(panel));

        // check-olmo3: windows in 3 of 4 layers, which rotate without the YaRN the full layer takes.
        auto olmo3 = kvlens::synth_shape_named("check-olmo3");
        QVERIFY(olmo3.ok());
        const QString olmo3Path = dir_.filePath(QStringLiteral("check-olmo3.gguf"));
        QVERIFY(kvlens::write_synth_model(*olmo3, kvlens::ggml_type::q8_0, olmo3Path.toStdString()).ok());
        w = open(olmo3Path, 8);
        QVERIFY(w);
        panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral("Sliding window: 8 tokens, in 3 of 4 layers")), qPrintable(panel));
        QVERIFY2(panel.contains(QStringLiteral("the scaling only in the full layers (the windowed ones rotate plainly)")),
                 qPrintable(panel));

        // check-mistral3: YaRN's magnitude set by the log multiplier, and the query temperature.
        auto m3 = kvlens::synth_shape_named("check-mistral3");
        QVERIFY(m3.ok());
        const QString m3Path = dir_.filePath(QStringLiteral("check-mistral3.gguf"));
        QVERIFY(kvlens::write_synth_model(*m3, kvlens::ggml_type::q8_0, m3Path.toStdString()).ok());
        w = open(m3Path, 8);
        QVERIFY(w);
        panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral("magnitude ×1 (log multiplier 1)")), qPrintable(panel));
        QVERIFY2(!panel.contains(QStringLiteral("attention factor")), qPrintable(panel));
        QVERIFY2(panel.contains(QStringLiteral("then queries ×(1 + 0.5·ln(⌊position / 16⌋ + 1))")), qPrintable(panel));

        // check-lfm2: short convolutions in 3 of 4 layers, which keep their 3 taps' f32 rows, not K/V;
        // a run finishes with the convolutions' state flat at 3 tokens.
        auto lfm2 = kvlens::synth_shape_named("check-lfm2");
        QVERIFY(lfm2.ok());
        lfm2->n_ctx = 2048;   // room for the sample report's prompt
        const QString lfm2Path = dir_.filePath(QStringLiteral("check-lfm2.gguf"));
        QVERIFY(kvlens::write_synth_model(*lfm2, kvlens::ggml_type::q8_0, lfm2Path.toStdString()).ok());
        w = open(lfm2Path, 8);
        QVERIFY(w);
        panel = w->modelPanel()->text();
        QVERIFY2(panel.contains(QStringLiteral("Layers: 4: 3 short convolutions (3 taps), 1 attention")), qPrintable(panel));
        QVERIFY2(panel.contains(QStringLiteral("3 convolution layers: 3 KiB per token, the last 3 tokens (9 KiB in all)")),
                 qPrintable(panel));
        QVERIFY2(!panel.contains(QStringLiteral("Sliding window")), qPrintable(panel));
        const int lfm2Run = w->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(w->history()->run(lfm2Run)->isFinished(), 120000);
        const RunRecord* done = w->history()->run(lfm2Run);
        QVERIFY2(done->error().isEmpty(), qPrintable(done->error()));
        QVERIFY(!done->tokens().isEmpty());
        QVERIFY(done->hasKvGroups());
        QCOMPARE(done->tokens().last().kv.localTokens, qint64(3));
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

    void encryptedPdfRendersWithItsPassword()
    {
        const QString pdf = QString::fromStdString((kvlens::test::source_root() / "tests/pdf/data/encrypted-password-kvlens.pdf").string());
        QString error;
        bool needsPassword = false;
        PdfBridge::readNow(pdf, QStringLiteral("not it"), &error, &needsPassword);
        QVERIFY(needsPassword);
        QCOMPARE(error, QStringLiteral("wrong password"));
        const OpenedDocument doc = PdfBridge::readNow(pdf, QStringLiteral("kvlens"), &error, &needsPassword);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(doc.password, QStringLiteral("kvlens"));
        PdfBridge bridge;
        QSignalSpy rendered(&bridge, &PdfBridge::pageRendered);
        QSignalSpy failed(&bridge, &PdfBridge::renderFailed);
        bridge.renderPage(pdf, 1, 40.0, doc.password);
        QTRY_VERIFY_WITH_TIMEOUT(rendered.count() + failed.count() == 1, 30000);
        QCOMPARE(failed.count(), 0);
        QVERIFY(!rendered.first().at(2).value<QImage>().isNull());
        // Without it, rendering fails with a message (shown, not a spinner).
        bridge.renderPage(pdf, 1, 40.0);
        QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1, 30000);
        QVERIFY(!failed.first().at(1).toString().isEmpty());
    }

    void headlessRefusesAnImageOnlyPdf()
    {
        const QString pdf = QString::fromStdString(
            (kvlens::test::source_root() / "../shared/testdata/pdfs/sample-files/007-imagemagick-images/imagemagick-images.pdf").string());
        if (!QFileInfo::exists(pdf))
            QSKIP("no shared test PDFs");
        QTemporaryDir out;
        HeadlessOptions o;
        o.report = pdf;
        o.outDir = out.path();
        o.model = QString::fromStdString(kvlens::test::tiny_model_path("Q8_0"));
        QVERIFY(runHeadless(o) != 0);
        QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("summary.txt"))));
    }

    void experimentsHaveTheSignTheirCaptionsClaim()
    {
        // The document must dominate the prompt for its length to show in
        // TTFT: the default model (8,192 tokens of context) on the sample report.
        if (!kvlens::test::have_default_model())
            QSKIP("no default model in models/ (scripts/fetch-model)");
        const QString model = QString::fromStdString(kvlens::test::default_model().string());
        const QString sample = QString::fromStdString((kvlens::test::source_root() / "resources/sample-report.pdf").string());
        const QString memo = report_;
        report_ = sample;
        // 48 new tokens (96 for the detailed answer): the detailed prompt
        // prefills ~35 tokens the one-line one does not, and on two busy
        // cores that costs as much as ~25 decode steps.
        MainWindow* w = open(model, 48);
        QVERIFY(w);
        RunController* c = w->controller();
        const int base = c->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(c->history()->run(base)->isFinished(), 120000);
        QVERIFY2(c->history()->run(base)->finishReason() != FinishReason::Error, qPrintable(c->history()->run(base)->error()));
        // Half the document, cold: fewer prompt tokens, none cached, lower TTFT.
        const int half = c->runExperiment(Experiment::HalfDocument);
        QTRY_VERIFY_WITH_TIMEOUT(c->history()->run(half)->isFinished(), 120000);
        const RunFigures& bf = c->history()->run(base)->figures();
        const RunFigures& hf = c->history()->run(half)->figures();
        qInfo("TTFT whole document %.1f ms (%d tokens: prefill %.1f, queue %.1f), half %.1f ms (%d tokens: prefill %.1f, queue %.1f)",
              bf.ttft_ms, bf.prompt_tokens, bf.prefill_ms, bf.queue_ms, hf.ttft_ms, hf.prompt_tokens, hf.prefill_ms, hf.queue_ms);
        QVERIFY(hf.prompt_tokens < bf.prompt_tokens);
        QCOMPARE(hf.cached_tokens, 0);
        QVERIFY2(hf.ttft_ms < bf.ttft_ms, qPrintable(QStringLiteral("%1 vs %2").arg(hf.ttft_ms).arg(bf.ttft_ms)));
        QVERIFY(w->charts()->caption().contains(QStringLiteral("TTFT")));
        // TTFT segments are measured and add up to TTFT.
        QVERIFY(qAbs(hf.tokenize_ms + hf.queue_ms + hf.prefill_ms + hf.first_sample_ms - hf.ttft_ms) < 0.1);
        detailedVersusOneLine(c, base);
        report_ = memo;
    }

    // The Speculative decoding experiment on the selected run: the same
    // prompt from the prefix cache, drafts checked, the same answer; the
    // caption, the stats card and the latency chart show what the drafts gave.
    void theSpeculativeExperimentGivesTheSameAnswerAndShowsItsDrafts()
    {
        if (!kvlens::test::have_default_model())
            QSKIP("no default model in models/ (scripts/fetch-model)");
        const QString model = QString::fromStdString(kvlens::test::default_model().string());
        const QString memo = report_;
        report_ = QString::fromStdString((kvlens::test::source_root() / "resources/sample-report.pdf").string());
        MainWindow* w = open(model, 64);
        QVERIFY(w);
        RunController* c = w->controller();
        const int base = c->startRun(w->currentConfig());
        QTRY_VERIFY_WITH_TIMEOUT(c->history()->run(base)->isFinished(), 120000);
        const int spec = w->runExperiment(Experiment::Speculative);
        QTRY_VERIFY_WITH_TIMEOUT(c->history()->run(spec)->isFinished(), 120000);
        const RunRecord* b = c->history()->run(base);
        const RunRecord* r = c->history()->run(spec);
        QVERIFY2(r->finishReason() != FinishReason::Error, qPrintable(r->error()));
        QCOMPARE(r->config().sampling.draftTokens, kExperimentDraftTokens);
        QVERIFY(r->cachedTokens() > 0);
        QCOMPARE(r->text(), b->text());
        QVERIFY(r->figures().draft_steps > 0);
        QCOMPARE(r->draftedTokens(), r->figures().accepted_tokens);
        QVERIFY(w->charts()->caption().startsWith(QStringLiteral("Speculative decoding: ")));
        QVERIFY(w->charts()->caption().endsWith(QStringLiteral("the same answer")));
        QVERIFY(w->charts()->stats()->valueText(QStringLiteral("acceptance_rate")).endsWith(QStringLiteral(" %")));
        QCOMPARE(w->charts()->stats()->valueText(QStringLiteral("mean_acceptance_length")),
                 QLocale().toString(r->figures().mean_acceptance_length, 'f', 2));
        report_ = memo;
    }

    void mapReduceOnTheThesisPages1To20()
    {
        if (!kvlens::test::have_default_model())
            QSKIP("no default model in models/ (scripts/fetch-model)");
        // Twenty pages of prefill and three stages take minutes on a busy CPU.
        if (qEnvironmentVariableIsEmpty("KVLENS_LONG_TESTS"))
            QSKIP("set KVLENS_LONG_TESTS=1 (and QTEST_FUNCTION_TIMEOUT=1800000) to run map-reduce on the thesis");
        const QString thesis = QString::fromStdString(
            (kvlens::test::source_root() / "../shared/testdata/pdfs/sample-files/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf").string());
        if (!QFileInfo::exists(thesis))
            QSKIP("no shared test PDFs");
        report_ = thesis;
        // Short stage answers: the test is about the stages, not their prose.
        MainWindow* w = open(QString::fromStdString(kvlens::test::default_model().string()), 32);
        report_ = dir_.filePath(QStringLiteral("memo.txt"));
        QVERIFY(w);
        QCOMPARE(w->documentPane()->document().text.pageCount(), 117);
        RunController* c = w->controller();
        RunConfig config = w->currentConfig();
        config.task = TaskKind::OneLine;
        config.firstPage = 1;
        config.lastPage = 20;
        QSignalSpy finished(c, &RunController::mapReduceFinished);
        QVERIFY2(c->startMapReduce(config) > 0, qPrintable(c->lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 900000);
        QCOMPARE(finished.first().at(2).toString(), QString());
        QVERIFY(!finished.first().at(1).toString().trimmed().isEmpty());
        const int n = c->history()->count();
        QVERIFY(n >= 2);   // map stages, each named by its pages, and the reduce
        QVERIFY(c->history()->runAt(0)->config().stage.startsWith(QStringLiteral("map 1/")));
        QCOMPARE(c->history()->runAt(0)->config().firstPage, 1);
        QCOMPARE(c->history()->runAt(n - 1)->config().stage, QStringLiteral("reduce"));
        QCOMPARE(c->history()->runAt(n - 1)->config().lastPage, 20);
        for (int i = 0; i < n; ++i)
            QVERIFY(c->history()->runAt(i)->figures().ttft_ms > 0);
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
