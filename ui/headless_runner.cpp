// SPDX-License-Identifier: Apache-2.0
// Headless mode: the run controller driven to one run, an offscreen charts
// board for the pictures, and the exports. No window.
#include "ui/headless_runner.h"

#include "engine/runtime/prompt_lookup.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QTimer>
#include <cstdio>

#include "ui/app_settings.h"
#include "ui/lesson/lesson_headless.h"
#include "ui/model/run_history_model.h"
#include "ui/pdf_bridge.h"
#include "ui/run_controller.h"
#include "ui/widgets/charts_board.h"

namespace kvlens::ui {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }

void fail(const QString& message)
{
    std::fprintf(stderr, "kvlens: %s\n", message.toUtf8().constData());
}

// Progress for people, on stderr (stdout lists the written files).
void progress(const QString& message)
{
    std::fprintf(stderr, "kvlens: %s\n", message.toUtf8().constData());
    std::fflush(stderr);
}

// Runs the event loop until `done` says so (checked on every signal of
// `sender` and at least every 100 ms), or until `limitMs` passes.
template <class Sender, class Signal, class Done>
bool waitFor(Sender* sender, Signal signal, Done done, int limitMs)
{
    if (done())
        return true;
    QEventLoop loop;
    QObject::connect(sender, signal, &loop, [&] {
        if (done())
            loop.quit();
    });
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    poll.start(100);
    QTimer::singleShot(limitMs, &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

// The tokens the model would see for `config` (the chat around the pages
// included), as the window's token count has them; -1 when unknown.
int promptTokens(RunController& c, const RunConfig& config)
{
    int tokens = -1;
    bool answered = false;
    quint64 ticket = 0;
    QObject watch;   // the connection lives as long as the locals it points at
    QObject::connect(&c, &RunController::tokenCountReady, &watch, [&](quint64 t, int n, int) {
        if (t == ticket) {
            tokens = n;
            answered = true;
        }
    });
    ticket = c.requestTokenCount(config);
    if (ticket != 0)
        waitFor(&c, &RunController::tokenCountReady, [&] { return answered; }, 600000);
    return tokens;
}

// Map-reduce over config's pages, every stage a run; the reduce's run id, or
// 0 after saying why on stderr.
int runMapReduce(RunController& c, const RunConfig& config)
{
    int job = 0;
    bool finished = false;
    QString error;
    // Connected for this function's life alone (they point at its locals).
    QObject watch;
    QObject::connect(&c, &RunController::mapReduceProgress, &watch,
                     [](int, const QString& message) { progress(message); });
    QObject::connect(&c, &RunController::mapReduceFinished, &watch, [&](int id, const QString&, const QString& e) {
        if (id == job) {
            finished = true;
            error = e;
        }
    });
    job = c.startMapReduce(config);
    if (job == 0) {
        fail(c.lastError());
        return 0;
    }
    waitFor(&c, &RunController::mapReduceFinished, [&] { return finished; }, 4 * 3600000);
    c.flushEvents();
    QCoreApplication::processEvents();
    if (!finished) {
        c.cancelAll();
        fail(tr("map-reduce did not finish"));
        return 0;
    }
    if (!error.isEmpty()) {
        fail(tr("map-reduce failed: %1").arg(error));
        return 0;
    }
    return c.selectedRun();   // the reduce: each round selects its first stage
}

// stages/NN.json and .csv for every run of a map-reduce, in the order they ran.
QStringList exportStages(RunController& c, const QString& outDir, QString& error)
{
    QStringList written;
    const QDir stages(QDir(outDir).filePath(QStringLiteral("stages")));
    QDir().mkpath(stages.path());
    RunHistoryModel* h = c.history();
    for (int row = 0; row < h->count() && error.isEmpty(); ++row) {
        const QString base = stages.filePath(QStringLiteral("%1").arg(row + 1, 2, 10, QLatin1Char('0')));
        for (const QString& suffix : {QStringLiteral(".json"), QStringLiteral(".csv")}) {
            error = c.exportRunFile(h->runAt(row)->id(), base + suffix);
            if (!error.isEmpty())
                break;
            written << base + suffix;
        }
    }
    return written;
}

}  // namespace

QStringList headlessOutputs()
{
    return {QStringLiteral("summary.txt"), QStringLiteral("run.json"), QStringLiteral("run.csv"),
            QStringLiteral("prefill.png"), QStringLiteral("prefill.svg"), QStringLiteral("ttft.png"),
            QStringLiteral("ttft.svg"),    QStringLiteral("latency.png"), QStringLiteral("latency.svg"),
            QStringLiteral("kv.png"),      QStringLiteral("kv.svg"),      QStringLiteral("memory.png"),
            QStringLiteral("memory.svg")};
}

bool parseHeadlessArgs(const QStringList& args, HeadlessOptions& out, bool& wanted, QString& error)
{
    wanted = false;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        auto value = [&](QString& dst) {
            if (i + 1 >= args.size()) {
                error = tr("%1 needs a value").arg(a);
                return false;
            }
            dst = args[++i];
            return true;
        };
        if (a == QLatin1String("--headless")) {
            wanted = true;
            // The report may be left out before another option (--lesson).
            if (i + 1 < args.size() && !args[i + 1].startsWith(QLatin1String("--")))
                out.report = args[++i];
        } else if (a == QLatin1String("--lesson")) {
            out.lesson = true;
        } else if (a == QLatin1String("--lesson-steps")) {
            QString v;
            if (!value(v))
                return false;
            out.lessonSteps = v.split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else if (a == QLatin1String("--out")) {
            if (!value(out.outDir))
                return false;
        } else if (a == QLatin1String("--model")) {
            if (!value(out.model))
                return false;
        } else if (a == QLatin1String("--task")) {
            if (!value(out.task))
                return false;
            TaskKind t;
            if (!parseTaskKey(out.task, t) || t == TaskKind::Question) {
                error = tr("unknown task \"%1\" (one-line, key-points, detailed)").arg(out.task);
                return false;
            }
        } else if (a == QLatin1String("--question")) {
            if (!value(out.question))
                return false;
        } else if (a == QLatin1String("--max-tokens")) {
            QString v;
            if (!value(v))
                return false;
            bool ok = false;
            out.maxTokens = v.toInt(&ok);
            if (!ok || out.maxTokens < 1) {
                error = tr("--max-tokens needs a positive number");
                return false;
            }
        } else if (a == QLatin1String("--draft")) {
            QString v;
            if (!value(v))
                return false;
            bool ok = false;
            out.draftTokens = v.toInt(&ok);
            if (!ok || out.draftTokens < 0 || out.draftTokens > kvlens::k_max_draft_tokens) {
                error = tr("--draft needs a number of draft tokens per step from 0 (off) to %1")
                            .arg(kvlens::k_max_draft_tokens);
                return false;
            }
        } else if (a == QLatin1String("--pages")) {
            QString v;
            if (!value(v))
                return false;
            const QStringList parts = v.split(QLatin1Char('-'));
            bool ok1 = false, ok2 = false;
            out.firstPage = parts.value(0).toInt(&ok1);
            out.lastPage = parts.size() > 1 ? parts.value(1).toInt(&ok2) : out.firstPage;
            ok2 = parts.size() > 1 ? ok2 : ok1;
            if (!ok1 || !ok2 || out.firstPage < 1 || out.lastPage < out.firstPage) {
                error = tr("--pages needs A-B with 1 <= A <= B");
                return false;
            }
        } else if (a == QLatin1String("--kv")) {
            if (!value(out.kvMode))
                return false;
        } else if (a == QLatin1String("--long")) {
            QString v;
            if (!value(v))
                return false;
            if (v != QLatin1String("map-reduce") && v != QLatin1String("fit")) {
                error = tr("--long is map-reduce or fit, not \"%1\"").arg(v);
                return false;
            }
            out.fitLongReport = v == QLatin1String("fit");
        } else if (wanted) {
            error = tr("unknown argument \"%1\"").arg(a);
            return false;
        }
    }
    if (wanted && out.report.isEmpty() && !out.lesson) {
        error = tr("--headless needs a report (or --lesson)");
        return false;
    }
    if (wanted && out.outDir.isEmpty()) {
        error = tr("--headless needs --out DIR");
        return false;
    }
    return true;
}

int runHeadless(const HeadlessOptions& o, EngineWorker* worker)
{
    if (o.lesson)
        return runLessonHeadless(o, worker);
    if (!QFileInfo::exists(o.report)) {
        fail(tr("no such report: %1").arg(o.report));
        return 2;
    }
    if (!QDir().mkpath(o.outDir)) {
        fail(tr("cannot create %1").arg(o.outDir));
        return 2;
    }
    EngineSettings engine = AppSettings::engine();
    if (!o.model.isEmpty()) {
        engine.modelPath = QFileInfo(o.model).absoluteFilePath();
        if (engine.isRemote())   // --model: this file on this computer, whatever Settings say
            engine.backend = QStringLiteral("auto");
    }
    if (!o.kvMode.isEmpty())
        engine.kvMode = o.kvMode;
    if (engine.modelPath.isEmpty() || !QFileInfo::exists(engine.modelPath)) {
        fail(tr("no model: pass --model FILE.gguf (or run scripts/fetch-model)"));
        return 2;
    }
    SamplingSettings sampling = AppSettings::sampling();
    if (o.maxTokens > 0)
        sampling.maxTokens = o.maxTokens;
    if (o.draftTokens >= 0)
        sampling.draftTokens = o.draftTokens;

    // The controller runs it; an offscreen charts board draws the figures.
    RunController c(worker);
    c.setSampling(sampling);
    c.setEngineSettings(engine);
    progress(tr("loading %1…").arg(QFileInfo(engine.modelPath).fileName()));
    if (!c.model().isValid())
        waitFor(&c, &RunController::modelChanged, [&] { return !c.modelLoading(); }, 600000);
    if (!c.model().isValid()) {
        fail(tr("the model could not be loaded: %1").arg(c.modelError().isEmpty() ? c.lastError() : c.modelError()));
        return 1;
    }

    QString error;
    const OpenedDocument doc = PdfBridge::readNow(o.report, QString(), &error);
    if (!error.isEmpty()) {
        fail(tr("cannot read %1: %2").arg(o.report, error));
        return 1;
    }
    // Like the CLI: a scanned PDF has nothing for the model to read.
    if (doc.hasNoText()) {
        fail(tr("%1 has no extractable text (scanned pages?); nothing to summarize").arg(o.report));
        return 1;
    }
    c.setDocument(doc);
    const int pages = doc.text.pageCount();
    if (o.firstPage > pages) {
        fail(tr("--pages %1-%2 is outside the document (%3 pages)").arg(o.firstPage).arg(o.lastPage).arg(pages));
        return 2;
    }
    TaskKind task = TaskKind::OneLine;
    parseTaskKey(o.task, task);
    RunConfig config = c.configFor(o.question.isEmpty() ? task : TaskKind::Question, o.question,
                                   o.firstPage > 0 ? o.firstPage : 1,
                                   o.firstPage > 0 ? std::min(o.lastPage, pages) : pages);
    // Pages that do not fit the context take one of the Run button's two ways.
    bool mapReduce = false;
    const int tokens = promptTokens(c, config);
    if (tokens >= 0 && tokens + config.sampling.maxTokens > c.model().contextLength) {
        const QString need = tr("pages %1–%2 need %3 tokens plus %4 for the answer; the context holds %5")
                                 .arg(config.firstPage).arg(config.lastPage).arg(tokens)
                                 .arg(config.sampling.maxTokens).arg(c.model().contextLength);
        if (o.fitLongReport) {
            const int last = c.largestFittingLastPage(config);
            if (last < config.firstPage) {
                fail(tr("%1, and not even page %2 alone fits; try --long map-reduce").arg(need).arg(config.firstPage));
                return 1;
            }
            progress(tr("%1: running pages %2–%3, the largest range that fits").arg(need).arg(config.firstPage).arg(last));
            config.lastPage = last;
        } else {
            progress(tr("%1: map-reduce over them (--long fit: the largest range that fits instead)").arg(need));
            mapReduce = true;
        }
    }
    int id = 0;
    if (mapReduce) {
        id = runMapReduce(c, config);
        if (id == 0)
            return 1;
    } else {
        progress(tr("running %1 on pages %2–%3 of %4…").arg(taskKey(config.task)).arg(config.firstPage)
                     .arg(config.lastPage).arg(QFileInfo(o.report).fileName()));
        int lastPercent = -1;
        QObject::connect(&c, &RunController::runsChanged, &c, [&] {
            const RunRecord* r = c.selected();
            if (!r)
                return;
            const int percent = int(r->prefillFraction() * 100);
            if (!r->hasFirstToken() && percent / 10 != lastPercent / 10) {
                lastPercent = percent;
                progress(tr("prefill %1% (%2 of %3 prompt tokens)").arg(percent)
                             .arg(r->prefill().isEmpty() ? 0 : r->prefill().last().tokensDone).arg(r->promptTokens()));
            }
        });
        id = c.startRun(config);
        RunHistoryModel* h = c.history();
        waitFor(&c, &RunController::runFinished, [&] { return h->run(id) && h->run(id)->isFinished(); }, 3600000);
        c.flushEvents();
        QCoreApplication::processEvents();
    }
    RunHistoryModel* h = c.history();
    const RunRecord* run = h->run(id);
    if (!run || !run->isFinished()) {
        c.cancelAll();
        fail(tr("the run did not finish"));
        return 1;
    }

    // summary.txt, the charts, run.json, run.csv.
    QSaveFile summary(QDir(o.outDir).filePath(QStringLiteral("summary.txt")));
    if (!summary.open(QIODevice::WriteOnly)) {
        fail(tr("cannot write %1").arg(summary.fileName()));
        return 1;
    }
    summary.write(run->text().trimmed().toUtf8() + '\n');
    if (!summary.commit()) {
        fail(tr("cannot write %1").arg(summary.fileName()));
        return 1;
    }
    c.selectRun(id);
    ChartsBoard board;
    board.setAttribute(Qt::WA_DontShowOnScreen);
    board.resize(1280, 800);
    board.show();
    board.plotFrom(c);
    QCoreApplication::processEvents();
    const QStringList errors = board.exportAll(o.outDir);
    if (!errors.isEmpty()) {
        fail(errors.join(QStringLiteral("; ")));
        return 1;
    }
    const QString runErr = c.exportRun(id, o.outDir);
    if (!runErr.isEmpty()) {
        fail(runErr);
        return 1;
    }
    QStringList stageFiles;
    if (mapReduce) {
        QString stageError;
        stageFiles = exportStages(c, o.outDir, stageError);
        if (!stageError.isEmpty()) {
            fail(stageError);
            return 1;
        }
    }
    for (const QString& f : headlessOutputs())
        std::printf("%s\n", QDir(o.outDir).filePath(f).toUtf8().constData());
    for (const QString& f : stageFiles)
        std::printf("%s\n", f.toUtf8().constData());
    if (run->finishReason() == FinishReason::Error) {
        fail(tr("the engine failed: %1").arg(run->error()));
        return 1;
    }
    return 0;
}

}  // namespace kvlens::ui
