// SPDX-License-Identifier: Apache-2.0
// The lesson runner: each step's phases as run configs, submitted through the
// run controller; results from the finished runs' figures.
#include "ui/lesson/lesson_runner.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QRegularExpression>
#include <QTimer>

#include "ui/model/opened_document.h"
#include "ui/model/prompt_builder.h"
#include "ui/model/run_history_model.h"
#include "ui/model/run_record.h"
#include "ui/run_controller.h"

namespace kvlens::ui {

namespace {

// `text` cut into `n` slices of about equal length, each cut at the last
// white space before its end when there is one in its second half.
QStringList cutIntoSlices(const QString& text, int n)
{
    QStringList out;
    const QString t = text.trimmed();
    qsizetype start = 0;
    for (int i = 1; i <= n; ++i) {
        qsizetype end = i == n ? t.size() : qsizetype(double(t.size()) * i / n);
        if (i < n) {
            const qsizetype space = t.lastIndexOf(QRegularExpression(QStringLiteral("\\s")), end);
            if (space > start + (end - start) / 2)
                end = space;
        }
        out << t.mid(start, end - start).trimmed();
        start = end;
    }
    return out;
}

}  // namespace

QString lessonStateName(LessonState s)
{
    switch (s) {
    case LessonState::NotRun: return QStringLiteral("not-run");
    case LessonState::Running: return QStringLiteral("running");
    case LessonState::Done: return QStringLiteral("done");
    case LessonState::Skipped: return QStringLiteral("skipped");
    case LessonState::Failed: return QStringLiteral("failed");
    }
    return {};
}

LessonRunner::LessonRunner(RunController* controller, QObject* parent) : QObject(parent), c_(controller)
{
    connect(c_, &RunController::runFinished, this, &LessonRunner::onRunFinished);
}

void LessonRunner::setReport(const QString& title, const QString& text)
{
    report_.title = title;
    report_.pages = cutIntoSlices(text, std::max(1, sizes_.reportSlices));
}

const LessonResult& LessonRunner::result(LessonStepId id) const
{
    static const LessonResult none;
    auto it = results_.constFind(int(id));
    return it == results_.constEnd() ? none : *it;
}

bool LessonRunner::runSteps(const QVector<LessonStepId>& steps)
{
    if (running_ || report_.pages.isEmpty())
        return false;
    queue_ = steps.isEmpty() ? lessonStepIds() : steps;
    queueMode_ = true;
    nextQueued();
    return true;
}

void LessonRunner::nextQueued()
{
    if (queue_.isEmpty()) {
        queueMode_ = false;
        emit allFinished();
        return;
    }
    runStep(queue_.takeFirst());
}

bool LessonRunner::runStep(LessonStepId id)
{
    if (running_ || report_.pages.isEmpty())
        return false;
    LessonResult r;
    r.id = id;
    current_ = id;
    phase_ = 0;
    pending_.clear();
    labels_.clear();
    r.reason = lessonSkipReason(id, c_->model());
    r.state = r.reason.isEmpty() ? LessonState::Running : LessonState::Skipped;
    results_.insert(int(id), r);
    const LessonStep step = lessonStep(id, sizes_);
    if (r.state == LessonState::Skipped) {
        emit progress(tr("step %1 (%2) skipped: %3").arg(step.number).arg(step.title, r.reason));
        emit stepFinished(id);
        if (queueMode_)
            QTimer::singleShot(0, this, &LessonRunner::nextQueued);
        return true;
    }
    running_ = true;
    emit stepStarted(id);
    emit progress(tr("step %1: %2").arg(step.number).arg(step.title));
    startPhase();
    return true;
}

void LessonRunner::cancel()
{
    if (!running_)
        return;
    queue_.clear();
    c_->cancelAll();   // the runs end as cancelled; the step fails when they report
}

QString LessonRunner::coldStamp()
{
    // A fresh first block: nothing of an earlier prompt can be reused.
    return QStringLiteral("lesson %1 %2").arg(++stamp_).arg(QDateTime::currentDateTime().toString(Qt::ISODateWithMs));
}

RunConfig LessonRunner::base(int slices, TaskKind task, int maxTokens, const QString& question)
{
    RunConfig c;
    c.task = question.isEmpty() ? task : TaskKind::Question;
    c.question = question;
    c.documentTitle = report_.title;
    c.firstPage = 1;
    c.lastPage = report_.pageCount();
    c.documentFraction = double(slices) / double(std::max(1, sizes_.reportSlices));
    c.engine = c_->engineSettings();
    c.sampling = c_->sampling();
    c.sampling.maxTokens = maxTokens;
    c.sampling.temperature = 0.0;   // greedy: the same request gives the same answer
    c.timestampSystemPrompt = true;
    c.timestamp = coldStamp();
    return c;
}

const RunRecord* LessonRunner::run(int index) const
{
    const LessonResult& r = result(current_);
    return index < r.runIds.size() ? c_->history()->run(r.runIds[index]) : nullptr;
}

QVector<LessonRunner::Planned> LessonRunner::plan(int phase)
{
    const LessonSizes& z = sizes_;
    const int all = z.reportSlices;
    auto one = [](RunConfig c, const QString& label, bool empty = false) { return QVector<Planned>{{c, label, empty}}; };
    switch (current_) {
    case LessonStepId::ShortVsLong:
        if (phase == 0)
            return one(base(all, TaskKind::Question, z.shortAnswerTokens, z.twoWordQuestion), tr("question alone"), true);
        if (phase == 1)
            return one(base(all, TaskKind::Question, z.shortAnswerTokens, z.twoWordQuestion), tr("question + report"));
        return {};
    case LessonStepId::AnswerLength:
        if (phase == 0)
            return one(base(all, TaskKind::OneLine, z.shortAnswerTokens), tr("one-line"));
        if (phase == 1)
            return one(base(all, TaskKind::Detailed, z.longAnswerTokens), tr("detailed"));
        return {};
    case LessonStepId::InputSweep: {
        const int slices[] = {1, 2, 4, all};
        if (phase < 4)
            return one(base(slices[phase], TaskKind::OneLine, z.sweepAnswerTokens),
                       slices[phase] == all ? tr("all") : lessonSlice(all, slices[phase]));
        return {};
    }
    case LessonStepId::OutputSweep:
        if (phase < z.outputSweep.size())
            return one(base(all, TaskKind::Detailed, z.outputSweep[phase]), tr("max %1").arg(z.outputSweep[phase]));
        return {};
    case LessonStepId::KvOffOn: {
        RunConfig c = base(z.kvOffSlices, TaskKind::Detailed, z.kvOffAnswerTokens);
        if (phase == 0) {
            if (c.engine.kvMode == QLatin1String("off"))
                c.engine.kvMode = QStringLiteral("paged");
            return one(c, tr("KV on"));
        }
        if (phase == 1) {
            c.engine.kvMode = QStringLiteral("off");
            return one(c, tr("KV off"));
        }
        return {};
    }
    case LessonStepId::FollowUp:
        if (phase == 0)
            return one(base(all, TaskKind::OneLine, z.shortAnswerTokens), tr("first question"));
        if (phase == 1 && run(0)) {
            RunConfig c = experimentConfig(run(0)->config(), run(0)->id(), run(0)->text(), Experiment::FollowUp,
                                           QString(), QDateTime::currentDateTime());
            return one(c, tr("follow-up"));
        }
        return {};
    case LessonStepId::BrokenPrefix:
        if (phase == 0)
            return one(base(all, TaskKind::OneLine, z.shortAnswerTokens), tr("cold"));
        if (phase == 1 && run(0))
            return one(run(0)->config(), tr("same again"));
        if (phase == 2 && run(0)) {
            RunConfig c = experimentConfig(run(0)->config(), run(0)->id(), run(0)->text(), Experiment::BrokenCache,
                                           QString(), QDateTime::currentDateTime());
            return one(c, tr("timestamp"));
        }
        return {};
    case LessonStepId::Concurrent:
        if (phase == 0)
            return one(base(2, TaskKind::OneLine, z.shortAnswerTokens), tr("alone"));
        if (phase == 1) {
            QVector<Planned> copies;
            for (int i = 0; i < z.concurrentRequests; ++i) {
                RunConfig c = base(2, TaskKind::OneLine, z.shortAnswerTokens);
                c.concurrentIndex = i;
                copies.append({c, tr("at once %1").arg(i + 1), false});
            }
            return copies;
        }
        return {};
    case LessonStepId::KvQ8:
        if (phase == 0) {
            RunConfig c = base(all, TaskKind::Detailed, z.longAnswerTokens);
            c.engine.kvDtype = QStringLiteral("f16");
            return one(c, tr("f16"));
        }
        if (phase == 1 && run(0)) {
            // The same prompt, stamp included: only the KV format differs
            // (the q8_0 engine has its own, empty prefix cache).
            RunConfig c = run(0)->config();
            c.engine.kvDtype = QStringLiteral("q8_0");
            return one(c, tr("q8_0"));
        }
        return {};
    case LessonStepId::SlidingWindow:
        if (phase == 0)
            return one(base(all, TaskKind::OneLine, z.shortAnswerTokens), tr("whole report"));
        return {};
    case LessonStepId::HiddenReasoning:
        if (phase == 0)
            return one(base(2, TaskKind::Question, z.longAnswerTokens, defaultFollowUpQuestion()), tr("question"));
        return {};
    case LessonStepId::Speculative:
        if (phase == 0) {
            RunConfig c = base(all, TaskKind::Question, z.longAnswerTokens, z.copyQuestion);
            c.sampling.draftTokens = 0;
            return one(c, tr("one per step"));
        }
        if (phase == 1 && run(0)) {
            // The same prompt (from the prefix cache, which gives the cold
            // run's numbers): only the decoding differs.
            RunConfig c = run(0)->config();
            c.sampling.draftTokens = z.draftTokens;
            return one(c, tr("drafts"));
        }
        return {};
    }
    return {};
}

void LessonRunner::startPhase()
{
    const QVector<Planned> runs = plan(phase_);
    if (runs.isEmpty()) {
        finishStep();
        return;
    }
    LessonResult& r = results_[int(current_)];
    // The controller builds each run's chat from its document when the run
    // starts; the lesson's report is put in for that moment only, so the
    // window's own document stays what the reader opened.
    const OpenedDocument previous = c_->document();
    for (const Planned& p : runs) {
        OpenedDocument doc;
        doc.path = QStringLiteral("lesson:") + report_.title;
        doc.text = p.emptyReport ? DocumentText{report_.title, {QString()}} : report_;
        c_->setDocument(doc);
        const int id = c_->startRun(p.config);
        if (id <= 0) {
            r.state = LessonState::Failed;
            r.reason = tr("the run could not start");
            break;
        }
        r.runIds << id;
        labels_ << p.label;
        pending_.insert(id);
    }
    c_->setDocument(previous);
    if (r.state == LessonState::Failed)
        finishStep();
}

void LessonRunner::onRunFinished(int runId)
{
    if (!running_ || !pending_.remove(runId) || !pending_.isEmpty())
        return;
    LessonResult& r = results_[int(current_)];
    for (int i = 0; i < r.runIds.size(); ++i) {
        const RunRecord* rec = c_->history()->run(r.runIds[i]);
        if (rec && rec->isFinished() && rec->finishReason() != FinishReason::Stop
            && rec->finishReason() != FinishReason::Length) {
            r.state = LessonState::Failed;
            r.reason = rec->finishReason() == FinishReason::Cancelled ? tr("cancelled") : rec->error();
        }
    }
    if (r.state == LessonState::Failed) {
        finishStep();
        return;
    }
    ++phase_;
    // After the signal returns: the controller is still handing out this batch.
    QTimer::singleShot(0, this, &LessonRunner::startPhase);
}

void LessonRunner::finishStep()
{
    LessonResult& r = results_[int(current_)];
    r.runs.clear();
    for (int i = 0; i < r.runIds.size(); ++i) {
        if (const RunRecord* rec = c_->history()->run(r.runIds[i])) {
            LessonRun lr = lessonRunFrom(*rec, labels_.value(i));
            lr.slidingWindow = c_->model().slidingWindow;
            r.runs << lr;
        }
    }
    if (r.state == LessonState::Running) {
        r.takeaway = lessonTakeaway(current_, r.runs);
        r.plot = lessonPlot(current_, r.runs);
        r.state = r.takeaway.isEmpty() ? LessonState::Failed : LessonState::Done;
        if (r.takeaway.isEmpty())
            r.reason = tr("a run gave no figures");
        // Hidden reasoning needs a model that thinks: without a <think> block
        // the step says so, from its measured run, and counts as skipped.
        if (current_ == LessonStepId::HiddenReasoning && !r.runs.isEmpty() && r.runs[0].hiddenTokens == 0) {
            r.state = LessonState::Skipped;
            r.reason = r.takeaway;
        }
    }
    running_ = false;
    pending_.clear();
    const LessonStep step = lessonStep(current_, sizes_);
    emit progress(tr("step %1 %2: %3").arg(step.number).arg(lessonStateName(r.state),
                                                            r.takeaway.isEmpty() ? r.reason : r.takeaway));
    emit stepFinished(current_);
    if (queueMode_)
        QTimer::singleShot(0, this, &LessonRunner::nextQueued);
}

}  // namespace kvlens::ui
