// SPDX-License-Identifier: Apache-2.0
// RunController: the engine worker on its thread, runs and experiments,
// event batches into the history, selection, map-reduce jobs, exports.
#include "ui/run_controller.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QThread>
#include <algorithm>

#include "tasks/instructions.h"
#include "tasks/map_reduce.h"
#include "ui/engine/engine_worker.h"
#include "ui/i18n.h"
#include "ui/model/event_coalescer.h"
#include "ui/model/prompt_builder.h"
#include "ui/model/run_export.h"
#include "ui/model/run_history_model.h"
#include "ui/model/run_store.h"

namespace kvlens::ui {

namespace {
QString fromStd(const std::string& s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

// The share of a core the GUI thread's handling and repainting of live run
// events may take (EventCoalescer::setGuiCpuBudget). At 1280x720 under Xvfb
// on 2 cores, 30 redraws a second decoded the sample report at 130-152 tok/s
// against 253 headless; 150 ms between redraws at 187-220.
constexpr double kGuiCpuBudget = 0.15;
}  // namespace

// A map-reduce job: its plan, the config its stages share, the runs of the
// round in flight (index in the round -> run id).
struct RunController::Job {
    int id = 0;
    RunConfig base;
    std::unique_ptr<tasks::map_reduce> plan;
    QVector<int> roundRuns;
    int stagesRun = 0;
};

RunController::RunController(EngineWorker* worker, QObject* parent) : QObject(parent)
{
    qRegisterMetaType<RunEvent>();
    qRegisterMetaType<QVector<RunEvent>>();
    qRegisterMetaType<MemorySnapshot>();
    qRegisterMetaType<ModelSummary>();
    qRegisterMetaType<OpenedDocument>();

    history_ = new RunHistoryModel(this);
    coalescer_ = new EventCoalescer(this);
    // The window's redraws take at most ~15 % of a core from the engine it measures.
    coalescer_->setGuiCpuBudget(kGuiCpuBudget);
    workerThread_ = new QThread(this);
    workerThread_->setObjectName(QStringLiteral("kvlens-engine-worker"));
    worker_ = worker ? worker : new EngineWorker;
    worker_->moveToThread(workerThread_);
    connect(workerThread_, &QThread::finished, worker_, &QObject::deleteLater);
    workerThread_->start();

    // Engine -> GUI thread: every event is queued here, then coalesced.
    connect(worker_, &EngineWorker::runEvent, coalescer_, &EventCoalescer::push, Qt::QueuedConnection);
    connect(coalescer_, &EventCoalescer::batchReady, this, &RunController::onBatch);
    connect(worker_, &EngineWorker::memory, this, [this](int runId, const MemorySnapshot& m) {
        if (RunRecord* r = history_->run(runId))
            r->setMemory(m);
    }, Qt::QueuedConnection);
    connect(worker_, &EngineWorker::loaded, this, [this](const ModelSummary& s) {
        if (s.remote != engine_.isRemote() || (s.remote && s.path != engine_.remoteUrl)
            || (!s.remote && !s.path.isEmpty() && QFileInfo(s.path) != QFileInfo(engine_.modelPath)))
            return;  // an experiment's engine, or a model since replaced
        modelLoading_ = false;
        modelError_.clear();
        model_ = s;
        emit modelChanged();
        emit modelReady(true);
    }, Qt::QueuedConnection);
    connect(worker_, &EngineWorker::loadFailed, this, [this](const QString& message) {
        modelLoading_ = false;
        modelError_ = message;
        emit modelChanged();
        fail(tr("The model could not be loaded"), message);
        emit modelReady(false);
    }, Qt::QueuedConnection);
    connect(worker_, &EngineWorker::tokenCount, this, [this](quint64 ticket, int tokens, int context) {
        if (ticket == tokenTicket_ && tokens >= 0)
            emit tokenCountReady(ticket, tokens, context);
    }, Qt::QueuedConnection);
}

RunController::~RunController()
{
    // Stop the engines before the thread: their callbacks emit on the worker.
    QMetaObject::invokeMethod(worker_, &EngineWorker::shutdown, Qt::BlockingQueuedConnection);
    workerThread_->quit();
    workerThread_->wait();
}

void RunController::fail(const QString& title, const QString& message)
{
    lastError_ = i18n::engineMessage(message);
    emit errorShown(title, lastError_);
}

// ---- the model

void RunController::loadModel()
{
    if (!engine_.isRemote() && engine_.modelPath.isEmpty()) {
        modelError_ = tr("no model file chosen (Settings → Model file)");
        emit modelChanged();
        return;
    }
    modelLoading_ = true;
    modelError_.clear();
    emit modelChanged();
    EngineWorker* w = worker_;
    const EngineSettings settings = engine_;
    QMetaObject::invokeMethod(worker_, [w, settings] { w->load(settings); }, Qt::QueuedConnection);
}

void RunController::setEngineSettings(const EngineSettings& e)
{
    const bool reload = !e.sameEngine(engine_) || !model_.isValid();
    engine_ = e;
    if (reload)
        loadModel();
}

void RunController::setSampling(const SamplingSettings& s)
{
    sampling_ = s;
}

// ---- the document

void RunController::setDocument(const OpenedDocument& doc)
{
    document_ = doc;
}

RunConfig RunController::configFor(TaskKind task, const QString& question, int firstPage, int lastPage) const
{
    RunConfig c;
    c.task = task;
    c.question = question;
    if (c.task == TaskKind::Question && c.question.trimmed().isEmpty())
        c.task = TaskKind::OneLine;
    c.documentTitle = document_.text.title;
    c.firstPage = firstPage > 0 ? firstPage : 1;
    c.lastPage = lastPage > 0 ? lastPage : std::max(1, document_.text.pageCount());
    c.engine = engine_;
    c.sampling = sampling_;
    return c;
}

// ---- runs

void RunController::submitChat(int runId, const RunConfig& config, const QVector<ChatTurn>& chat)
{
    EngineWorker* w = worker_;
    QMetaObject::invokeMethod(
        worker_, [w, runId, config, chat] { w->submit(runId, config.engine, chat, config.sampling); },
        Qt::QueuedConnection);
}

int RunController::startRun(const RunConfig& config)
{
    if (!hasDocument())
        return 0;
    RunRecord* run = history_->addRun(config);
    run->setKvBytesPerToken(config.engine.kvDtype == QLatin1String("q8_0") ? model_.kvBytesPerTokenQ8
                                                                           : model_.kvBytesPerTokenF16);
    submitChat(run->id(), config, buildChat(document_.text, config));
    const int compare = config.parentRunId > 0 ? config.parentRunId : compare_;
    if (config.concurrentIndex == 0)
        selectRun(run->id(), compare);
    emit runStarted(run->id());
    return run->id();
}

int RunController::runExperiment(Experiment e, const QString& question)
{
    const RunRecord* base = history_->run(selected_);
    if (!base)
        return 0;
    // An experiment varies the run it starts from; for a run that is itself
    // an experiment, that run's settings are the base.
    const RunConfig c =
        experimentConfig(base->config(), base->id(), base->text(), e, question, QDateTime::currentDateTime());
    if (e != Experiment::Concurrent)
        return startRun(c);
    int first = 0;
    for (int i = 0; i < kConcurrentCopies; ++i) {
        RunConfig copy = c;
        copy.concurrentIndex = i;
        const int id = startRun(copy);
        if (i == 0)
            first = id;
    }
    selectRun(first, base->id());
    return first;
}

void RunController::cancelAll()
{
    worker_->cancelAll();   // thread-safe: reaches the engine directly
    jobs_.clear();          // stages in flight end as cancelled; no new round starts
    stageJob_.clear();
}

void RunController::flushEvents()
{
    coalescer_->flushNow();
}

bool RunController::isBusy() const
{
    if (!jobs_.isEmpty())
        return true;
    for (int row = 0; row < history_->count(); ++row) {
        if (!history_->runAt(row)->isFinished())
            return true;
    }
    return false;
}

void RunController::onBatch(const QVector<RunEvent>& events)
{
    history_->ingest(events);
    QVector<int> finished;
    for (const RunEvent& e : events) {
        const auto* done = e.as<kvlens::event_done>();
        if (!done)
            continue;
        finished << e.runId;
        if (done->reason == kvlens::finish_reason::error) {
            const RunRecord* r = history_->run(e.runId);
            const QString message = r ? r->error() : fromEngineText(done->error);
            fail(tr("Run %1 failed").arg(e.runId), message);
            emit runFailed(e.runId, message);
        }
    }
    emit runsChanged();
    for (int id : finished) {
        if (const RunRecord* r = history_->run(id); r && store_) {
            const QString err = store_->save(*r);
            if (!err.isEmpty())
                lastError_ = err;   // the run itself is fine; only its copy on disk is missing
        }
        emit runFinished(id);
        stageFinished(id);
    }
}

QStringList RunController::keepHistoryIn(const QString& folder)
{
    store_ = std::make_unique<RunStore>(folder);
    const RunStore::Loaded saved = store_->load();
    QStringList errors = saved.errors + history_->restore(saved.runs);
    // Map-reduce jobs go on numbering after the saved ones, so that a job's
    // id (run.json's map_reduce) names its stages alone.
    for (int row = 0; row < history_->count(); ++row)
        nextJob_ = std::max(nextJob_, history_->runAt(row)->config().mapReduceId + 1);
    // The latest saved run, overlaid on the run it varied, as when it ran.
    if (selected_ == 0 && history_->count() > 0)
        selectRun(history_->latest()->id(), history_->latest()->config().parentRunId);
    emit runsChanged();
    return errors;
}

quint64 RunController::requestTokenCount(const RunConfig& config)
{
    if (!hasDocument() || !model_.isValid())
        return 0;
    const QVector<ChatTurn> chat = buildChat(document_.text, config);
    const quint64 ticket = ++tokenTicket_;
    EngineWorker* w = worker_;
    const EngineSettings settings = engine_;
    QMetaObject::invokeMethod(worker_, [w, ticket, settings, chat] { w->countTokens(ticket, settings, chat); },
                              Qt::QueuedConnection);
    return ticket;
}

int RunController::availableTokens(int overheadTokens) const
{
    return model_.contextLength - sampling_.maxTokens - overheadTokens;
}

// ---- long documents

bool RunController::measure(const RunConfig& config, std::function<int(std::string_view)>& count, int& overhead)
{
    EngineWorker* w = worker_;
    const EngineSettings settings = config.engine;
    RunConfig empty = config;
    empty.firstPage = empty.lastPage = 1;
    const DocumentText noText{document_.text.title, {QString()}};
    QVector<ChatTurn> probe = buildChat(noText, empty);
    // The longest header and instruction a stage may carry.
    probe.last().content += QStringLiteral(" (pages 999-999)\n") + fromStd(tasks::map_instruction());
    overhead = -1;
    QMetaObject::invokeMethod(worker_, [&] {
        count = w->textCounterFor(settings);
        overhead = w->chatTokens(settings, probe);
    }, Qt::BlockingQueuedConnection);
    return count && overhead >= 0;
}

int RunController::largestFittingLastPage(const RunConfig& config)
{
    std::function<int(std::string_view)> count;
    int overhead = 0;
    if (!hasDocument() || !model_.isValid() || !measure(config, count, overhead))
        return 0;
    const int available = model_.contextLength - config.sampling.maxTokens - overhead - 16;
    const tasks::page_span span = tasks::largest_fitting_range(toTasksDocument(document_.text), count, available,
                                                               config.firstPage);
    return span.empty() ? 0 : span.last_page;
}

int RunController::startMapReduce(const RunConfig& config)
{
    if (!hasDocument() || !model_.isValid()) {
        fail(tr("Map-reduce cannot start"), tr("Open a report and load a model first."));
        return 0;
    }
    // The tokenizer and the chat overhead come from the worker's engine; the
    // planning itself is plain tasks/ code.
    std::function<int(std::string_view)> count;
    int overhead = -1;
    if (!measure(config, count, overhead)) {
        fail(tr("Map-reduce cannot start"), tr("the model is not loaded"));
        return 0;
    }
    const int available = model_.contextLength - config.sampling.maxTokens - overhead - 16;
    if (available < 256) {
        fail(tr("Map-reduce cannot start"),
             tr("the context of %1 tokens leaves %2 for the text after the answer; lower the max new tokens")
                 .arg(model_.contextLength).arg(available));
        return 0;
    }
    tasks::map_reduce_options o;
    o.task = toTaskKind(config.task);
    o.question = config.question.toStdString();
    o.title = document_.text.title.toStdString();
    o.system = systemPrompt(selectedText(document_.text, config)).toStdString();
    o.available_tokens = available;
    auto plan = tasks::map_reduce::plan(toTasksDocument(document_.text, config.firstPage, config.lastPage), count, o);
    if (!plan) {
        fail(tr("Map-reduce cannot start"), fromStd(plan.message()));
        return 0;
    }
    auto job = std::make_shared<Job>();
    job->id = nextJob_++;
    job->base = config;
    job->base.mapReduceId = job->id;
    job->plan = std::make_unique<tasks::map_reduce>(std::move(*plan));
    jobs_.insert(job->id, job);
    startStages(job->id);
    return job->id;
}

void RunController::startStages(int jobId)
{
    const std::shared_ptr<Job> job = jobs_.value(jobId);
    if (!job)
        return;
    job->roundRuns.clear();
    for (const tasks::stage& s : job->plan->round()) {
        RunConfig c = job->base;
        c.firstPage = s.first_page;
        c.lastPage = s.last_page;
        c.concurrentIndex = s.index;
        switch (s.kind) {
        case tasks::stage_kind::map: c.stage = tr("map %1/%2").arg(s.index + 1).arg(s.round_size); break;
        case tasks::stage_kind::combine:
            c.stage = tr("combine %1/%2, round %3").arg(s.index + 1).arg(s.round_size).arg(s.round);
            break;
        case tasks::stage_kind::reduce: c.stage = tr("reduce"); break;
        }
        QVector<ChatTurn> chat;
        for (const tasks::chat_turn& t : s.chat)
            chat.append({fromStd(t.role), fromStd(t.content)});
        RunRecord* run = history_->addRun(c);
        run->setKvBytesPerToken(c.engine.kvDtype == QLatin1String("q8_0") ? model_.kvBytesPerTokenQ8
                                                                          : model_.kvBytesPerTokenF16);
        stageJob_.insert(run->id(), jobId);
        job->roundRuns << run->id();
        submitChat(run->id(), c, chat);
        if (s.index == 0)
            selectRun(run->id(), -1);
        emit runStarted(run->id());
        emit mapReduceProgress(jobId, tr("%1 · pages %2–%3 (%4 tokens)")
                                          .arg(c.stage).arg(s.first_page).arg(s.last_page).arg(s.input_tokens));
    }
}

void RunController::stageFinished(int runId)
{
    const int jobId = stageJob_.take(runId);
    const std::shared_ptr<Job> job = jobs_.value(jobId);
    if (!job)
        return;
    const RunRecord* r = history_->run(runId);
    const int index = int(job->roundRuns.indexOf(runId));
    if (!r || index < 0)
        return;
    if (r->finishReason() == FinishReason::Error || r->finishReason() == FinishReason::Cancelled) {
        jobs_.remove(jobId);
        emit mapReduceFinished(jobId, QString(),
                               r->finishReason() == FinishReason::Error ? r->error() : tr("cancelled"));
        return;
    }
    job->plan->set_answer(std::size_t(index), r->text().trimmed().toStdString());
    if (!job->plan->round_answered())
        return;
    if (job->plan->advance()) {
        startStages(jobId);
        return;
    }
    jobs_.remove(jobId);
    emit mapReduceFinished(jobId, fromStd(job->plan->answer()), QString());
}

// ---- selection

void RunController::selectRun(int id, int compareId)
{
    selected_ = id;
    if (compareId >= 0 && compareId != id)
        compare_ = compareId;
    emit selectionChanged(selected_, compare_);
}

void RunController::setCompareRun(int id)
{
    compare_ = id;
    emit selectionChanged(selected_, compare_);
}

const RunRecord* RunController::selected() const
{
    return history_->run(selected_);
}

const RunRecord* RunController::compared() const
{
    return compare_ != selected_ ? history_->run(compare_) : nullptr;
}

// ---- exports

QString RunController::exportRun(int id, const QString& dir)
{
    const RunRecord* r = history_->run(id);
    if (!r)
        return tr("no such run: %1").arg(id);
    QDir().mkpath(dir);
    QString err = writeRunJson(*r, QDir(dir).filePath(QStringLiteral("run.json")));
    if (err.isEmpty())
        err = writeRunCsv(*r, QDir(dir).filePath(QStringLiteral("run.csv")));
    return err;
}

QString RunController::exportRunFile(int id, const QString& path)
{
    const RunRecord* r = history_->run(id);
    if (!r)
        return tr("no such run: %1").arg(id);
    return path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) ? writeRunCsv(*r, path) : writeRunJson(*r, path);
}

}  // namespace kvlens::ui
