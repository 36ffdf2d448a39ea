// SPDX-License-Identifier: Apache-2.0
// RunController: everything about runs that is not a widget. It owns the
// engine worker and its thread, the run history, the event coalescer, the
// selected and overlaid runs, the open document's text, the model that is
// loaded, map-reduce jobs, and the exports. The window lays out panes and
// wires them to it; headless mode and the tests drive it directly (with an
// offscreen charts board when they want pictures). Signals say what changed;
// errors arrive as translated messages.
#pragma once

#include <QHash>
#include <QObject>
#include <functional>
#include <memory>
#include <string_view>

#include "ui/model/model_summary.h"
#include "ui/model/opened_document.h"
#include "ui/model/run_config.h"
#include "ui/model/run_types.h"

class QThread;

namespace kvlens::tasks {
class map_reduce;
}

namespace kvlens::ui {

class EngineWorker;
class EventCoalescer;
class RunHistoryModel;
class RunRecord;
class RunStore;
struct ChatTurn;

class RunController : public QObject {
    Q_OBJECT
public:
    // `worker` may be given by tests (a fake engine behind it); null: a real one.
    explicit RunController(EngineWorker* worker = nullptr, QObject* parent = nullptr);
    ~RunController() override;

    // ---- the model
    void setEngineSettings(const EngineSettings& e);   // reloads when an engine option changed
    void setSampling(const SamplingSettings& s);
    const EngineSettings& engineSettings() const { return engine_; }
    const SamplingSettings& sampling() const { return sampling_; }
    const ModelSummary& model() const { return model_; }
    bool modelLoading() const { return modelLoading_; }
    QString modelError() const { return modelError_; }
    void loadModel();

    // ---- the document
    void setDocument(const OpenedDocument& doc);
    const OpenedDocument& document() const { return document_; }
    bool hasDocument() const { return !document_.path.isEmpty(); }
    // A run's config for the whole document (or pages first..last) and a task.
    RunConfig configFor(TaskKind task, const QString& question, int firstPage, int lastPage) const;

    // ---- runs
    int startRun(const RunConfig& config);              // returns its id (the history's); 0: no document
    int runExperiment(Experiment e, const QString& question = QString());   // varies the selected run
    // Map-reduce over the pages of `config` when they do not fit: every stage
    // a run in the history, named by its pages. Returns the job id (0 and
    // lastError() when it cannot start).
    int startMapReduce(const RunConfig& config);
    bool mapReduceRunning() const { return !jobs_.isEmpty(); }
    void cancelAll();
    void flushEvents();                                 // hands pending events on now
    bool isBusy() const;                                // a run not finished
    RunHistoryModel* history() const { return history_; }
    EngineWorker* worker() const { return worker_; }
    EventCoalescer* coalescer() const { return coalescer_; }

    // Tokens the model would see for `config` (template, system prompt, BOS):
    // answered by tokenCountReady with the same ticket.
    quint64 requestTokenCount(const RunConfig& config);

    // ---- selection: the run shown, and the run overlaid on it
    void selectRun(int id, int compareId = -1);
    void setCompareRun(int id);
    int selectedRun() const { return selected_; }
    int compareRun() const { return compare_; }
    const RunRecord* selected() const;
    const RunRecord* compared() const;

    // ---- the history kept across restarts
    // Reads back the runs saved in `folder` (RunStore, the newest kept) into
    // the history and saves every run that finishes from now on. Returns a
    // message per saved file that could not be read (they are skipped).
    QStringList keepHistoryIn(const QString& folder);

    // ---- exports
    QString exportRun(int id, const QString& dir);      // run.json + run.csv; "" or the reason
    QString exportRunFile(int id, const QString& path); // .csv or .json by suffix

    // Prompt tokens left for the document: context - answer - chat overhead
    // (the system prompt, header and instruction, measured with the counter).
    int availableTokens(int overheadTokens) const;
    // The last page of the largest range from config.firstPage whose text
    // fits with the answer and the chat around it; 0 when not even one page.
    int largestFittingLastPage(const RunConfig& config);
    QString lastError() const { return lastError_; }

signals:
    void modelReady(bool ok);
    void modelChanged();                                // loaded, failed or loading
    void runStarted(int runId);
    void runFinished(int runId);
    void runFailed(int runId, const QString& message);
    void runsChanged();                                 // a batch of events was taken in
    void selectionChanged(int selected, int compare);
    void tokenCountReady(quint64 ticket, int tokens, int contextLength);
    void mapReduceProgress(int jobId, const QString& message);
    void mapReduceFinished(int jobId, const QString& answer, const QString& error);
    void errorShown(const QString& title, const QString& message);

private:
    struct Job;
    void onBatch(const QVector<RunEvent>& events);
    void submitChat(int runId, const RunConfig& config, const QVector<ChatTurn>& chat);
    void startStages(int jobId);
    void stageFinished(int runId);
    void fail(const QString& title, const QString& message);
    // The worker's text counter and the tokens of the chat around an empty
    // document (for `config`); false when the model is not loaded.
    bool measure(const RunConfig& config, std::function<int(std::string_view)>& count, int& overhead);

    RunHistoryModel* history_;
    EventCoalescer* coalescer_;
    QThread* workerThread_;
    EngineWorker* worker_;

    EngineSettings engine_;
    SamplingSettings sampling_;
    ModelSummary model_;
    bool modelLoading_ = false;
    QString modelError_;
    OpenedDocument document_;
    quint64 tokenTicket_ = 0;
    int selected_ = 0;
    int compare_ = 0;
    QString lastError_;

    std::unique_ptr<RunStore> store_;           // null: runs are not kept (tests)
    QHash<int, std::shared_ptr<Job>> jobs_;     // map-reduce jobs by id
    QHash<int, int> stageJob_;                  // stage run id -> job id
    int nextJob_ = 1;
};

}  // namespace kvlens::ui
