// SPDX-License-Identifier: Apache-2.0
// LessonRunner: runs the lesson's steps over the RunController, one step at a
// time. A step is a list of phases; each phase submits its runs together (one
// run, or N at once for the concurrency step) and starts when the previous
// phase's runs have all finished, so that runs never share the CPU unless
// the step is about sharing it. The runs land in the controller's history
// like any other; the step's result copies their measured figures
// (LessonRun) and writes the takeaway from them. Widget-free: the window's
// lesson pane, headless mode and the tests all drive it.
//
// The runs of each step, in the order lessonTakeaway() reads them:
//   short-vs-long   the question alone, the question after the report
//   answer-length   one-line, detailed
//   input-sweep     1/8, 1/4, 1/2, all of the report
//   output-sweep    one run per LessonSizes::outputSweep limit
//   kv-off-on       KV on (paged), KV off
//   follow-up       the first question, the follow-up
//   broken-prefix   cold, the same again, with a timestamp
//   concurrent      one alone, then N at once
//   kv-q8           f16, q8_0
//   sliding-window  one run
//   hidden-reasoning one run
//   speculative     one token per step, with drafts
#pragma once

#include <QHash>
#include <QObject>
#include <QSet>
#include <QVector>

#include "ui/lesson/lesson_steps.h"
#include "ui/model/document_text.h"
#include "ui/model/run_config.h"

namespace kvlens::ui {

class RunController;

enum class LessonState { NotRun, Running, Done, Skipped, Failed };
QString lessonStateName(LessonState s);     // "not-run", "running", "done", "skipped", "failed"

struct LessonResult {
    LessonStepId id = LessonStepId::ShortVsLong;
    LessonState state = LessonState::NotRun;
    QString reason;                 // Skipped / Failed: why (translated)
    QVector<int> runIds;            // the controller's run ids, in order
    QVector<LessonRun> runs;        // their figures, same order
    QString takeaway;               // from the figures (Done)
    LessonPlot plot;
};

class LessonRunner : public QObject {
    Q_OBJECT
public:
    explicit LessonRunner(RunController* controller, QObject* parent = nullptr);

    // The lesson's report; cut into sizes().reportSlices equal slices.
    void setReport(const QString& title, const QString& text);
    const DocumentText& report() const { return report_; }
    void setSizes(const LessonSizes& s) { sizes_ = s; }
    const LessonSizes& sizes() const { return sizes_; }

    // Starts one step; false when a step is running or no report is set.
    // A step that cannot run with the open model ends Skipped at once.
    bool runStep(LessonStepId id);
    // Runs `steps` one after the other (all of them when empty); allFinished at the end.
    bool runSteps(const QVector<LessonStepId>& steps = {});
    void cancel();
    bool isRunning() const { return running_; }
    LessonStepId currentStep() const { return current_; }
    const LessonResult& result(LessonStepId id) const;

signals:
    void stepStarted(kvlens::ui::LessonStepId id);
    void stepFinished(kvlens::ui::LessonStepId id);
    void allFinished();
    void progress(const QString& message);

private:
    struct Planned {
        RunConfig config;
        QString label;
        bool emptyReport = false;   // the question alone
    };
    QVector<Planned> plan(int phase);          // the current step's phase `phase`; empty: done
    RunConfig base(int slices, TaskKind task, int maxTokens, const QString& question = QString());
    QString coldStamp();
    void startPhase();
    void onRunFinished(int runId);
    void finishStep();
    void nextQueued();
    const RunRecord* run(int index) const;      // the current step's run `index`

    RunController* c_;
    DocumentText report_;
    LessonSizes sizes_;
    QHash<int, LessonResult> results_;          // by int(LessonStepId)
    QVector<LessonStepId> queue_;
    bool running_ = false;
    bool queueMode_ = false;
    LessonStepId current_ = LessonStepId::ShortVsLong;
    int phase_ = 0;
    QSet<int> pending_;
    QStringList labels_;
    int stamp_ = 0;
};

}  // namespace kvlens::ui
