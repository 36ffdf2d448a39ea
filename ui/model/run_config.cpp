// SPDX-License-Identifier: Apache-2.0
// Names and labels of tasks, experiments and runs.
#include "ui/model/run_config.h"

#include <QUrl>

#include <QCoreApplication>

namespace kvlens::ui {

namespace {
QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }
}

QString taskKey(TaskKind t)
{
    switch (t) {
    case TaskKind::OneLine: return QStringLiteral("one-line");
    case TaskKind::KeyPoints: return QStringLiteral("key-points");
    case TaskKind::Detailed: return QStringLiteral("detailed");
    case TaskKind::Question: return QStringLiteral("question");
    }
    return {};
}

bool parseTaskKey(const QString& key, TaskKind& out)
{
    for (TaskKind t : {TaskKind::OneLine, TaskKind::KeyPoints, TaskKind::Detailed, TaskKind::Question}) {
        if (taskKey(t) == key) {
            out = t;
            return true;
        }
    }
    return false;
}

QString experimentKey(Experiment e)
{
    switch (e) {
    case Experiment::None: return {};
    case Experiment::KvOff: return QStringLiteral("kv-off");
    case Experiment::HalfDocument: return QStringLiteral("half-document");
    case Experiment::LongerAnswer: return QStringLiteral("longer-answer");
    case Experiment::ShorterAnswer: return QStringLiteral("shorter-answer");
    case Experiment::FollowUp: return QStringLiteral("follow-up");
    case Experiment::BrokenCache: return QStringLiteral("broken-cache");
    case Experiment::Concurrent: return QStringLiteral("concurrent");
    case Experiment::KvQ8: return QStringLiteral("kv-q8_0");
    case Experiment::Speculative: return QStringLiteral("speculative");
    }
    return {};
}

QVector<Experiment> allExperiments()
{
    return {Experiment::KvOff,    Experiment::HalfDocument, Experiment::LongerAnswer, Experiment::ShorterAnswer,
            Experiment::FollowUp, Experiment::BrokenCache,  Experiment::Concurrent,   Experiment::KvQ8,
            Experiment::Speculative};
}

bool EngineSettings::sameEngine(const EngineSettings& o) const
{
    return modelPath == o.modelPath && backend == o.backend && kvMode == o.kvMode
        && kvDtype == o.kvDtype && kvBlock == o.kvBlock && chunk == o.chunk
        && contextTokens == o.contextTokens && parallel == o.parallel && threads == o.threads
        && remoteUrl == o.remoteUrl && remoteModel == o.remoteModel && apiKeyFile == o.apiKeyFile
        && stallTimeoutS == o.stallTimeoutS;
}

QString taskTitle(TaskKind t)
{
    switch (t) {
    case TaskKind::OneLine: return tr("One-sentence summary");
    case TaskKind::KeyPoints: return tr("Key points");
    case TaskKind::Detailed: return tr("Detailed summary");
    case TaskKind::Question: return tr("Question");
    }
    return {};
}

QString experimentTitle(Experiment e)
{
    switch (e) {
    case Experiment::None: return {};
    case Experiment::KvOff: return tr("KV cache off");
    case Experiment::HalfDocument: return tr("Half the document");
    case Experiment::LongerAnswer: return tr("Longer answer");
    case Experiment::ShorterAnswer: return tr("Shorter answer");
    case Experiment::FollowUp: return tr("Follow-up");
    case Experiment::BrokenCache: return tr("Cache broken");
    case Experiment::Concurrent: return tr("Concurrent");
    case Experiment::KvQ8: return tr("KV as q8_0");
    case Experiment::Speculative: return tr("Speculative decoding");
    }
    return {};
}

QString kvModeTitle(const QString& mode)
{
    if (mode == QLatin1String("paged"))
        return tr("paged");
    if (mode == QLatin1String("static"))
        return tr("static");
    if (mode == QLatin1String("off"))
        return tr("off");
    return mode;
}

QString stageTitle(const QString& stage)
{
    if (stage == QLatin1String("reduce"))
        return tr("reduce");
    if (stage.startsWith(QLatin1String("map ")))
        return tr("map %1").arg(stage.mid(4));
    return stage;
}

QString runShortLabel(int id, const RunConfig& c)
{
    QString what;
    if (!c.stage.isEmpty())
        what = stageTitle(c.stage);
    else {
        switch (c.experiment) {
        case Experiment::None:
            switch (c.task) {
            case TaskKind::OneLine: what = tr("one line"); break;
            case TaskKind::KeyPoints: what = tr("key points"); break;
            case TaskKind::Detailed: what = tr("detailed"); break;
            case TaskKind::Question: what = tr("question"); break;
            }
            break;
        case Experiment::KvOff: what = tr("KV off"); break;
        case Experiment::HalfDocument: what = tr("half, cold"); break;
        case Experiment::LongerAnswer: what = tr("detailed"); break;
        case Experiment::ShorterAnswer: what = tr("one line"); break;
        case Experiment::FollowUp: what = tr("follow-up"); break;
        case Experiment::BrokenCache: what = tr("no reuse"); break;
        case Experiment::Concurrent: what = tr("at once %1").arg(c.concurrentIndex + 1); break;
        case Experiment::KvQ8: what = QStringLiteral("q8_0"); break;
        case Experiment::Speculative: what = c.sampling.draftTokens > 0 ? tr("drafts") : tr("no drafts"); break;
        }
    }
    return QStringLiteral("#%1 %2").arg(id).arg(what);
}

QString runLabel(int id, const RunConfig& c)
{
    QString label = QStringLiteral("#%1 ").arg(id);
    if (c.experiment == Experiment::None)
        label += taskTitle(c.task);
    else if (c.parentRunId > 0)
        label += tr("%1 of #%2").arg(experimentTitle(c.experiment)).arg(c.parentRunId);
    else
        label += experimentTitle(c.experiment);
    if (c.experiment == Experiment::Concurrent)
        label += QStringLiteral(" [%1]").arg(c.concurrentIndex + 1);
    // What differs between runs: the KV mode and dtype, the pages, the question.
    // A remote run names its server's model: its KV options are the server's.
    if (c.engine.isRemote())
        label += QStringLiteral(" · ") + tr("remote %1").arg(c.engine.remoteModel.isEmpty()
                                                                 ? QUrl(c.engine.remoteUrl).authority()
                                                                 : c.engine.remoteModel);
    else
        label += QStringLiteral(" · ") + kvModeTitle(c.engine.kvMode);
    if (!c.engine.isRemote() && c.engine.kvDtype != QLatin1String("f16"))
        label += QLatin1Char(' ') + c.engine.kvDtype;
    if (c.documentFraction < 1.0)
        label += QStringLiteral(" · ") + tr("%1% of pp. %2–%3").arg(qRound(c.documentFraction * 100)).arg(c.firstPage).arg(c.lastPage);
    else if (c.firstPage > 1 || !c.stage.isEmpty())
        label += QStringLiteral(" · ") + tr("pp. %1–%2").arg(c.firstPage).arg(c.lastPage);
    if (!c.stage.isEmpty())
        label += QStringLiteral(" · ") + stageTitle(c.stage);
    if (c.task == TaskKind::Question && !c.question.isEmpty())
        label += QStringLiteral(" · “%1”").arg(c.question.size() > 40 ? c.question.left(39) + QChar(0x2026) : c.question);
    return label;
}

}  // namespace kvlens::ui
