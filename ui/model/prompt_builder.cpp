// SPDX-License-Identifier: Apache-2.0
// Prompts for the tasks, and the experiments.
#include "ui/model/prompt_builder.h"

#include <algorithm>
#include <cmath>

namespace kvlens::ui {

QString systemPrompt()
{
    return QStringLiteral(
        "You are a careful reading assistant. Answer only from the report the user gives you. "
        "Be concise and factual, and keep the report's numbers exact.");
}

QString taskInstruction(TaskKind task, const QString& question)
{
    switch (task) {
    case TaskKind::OneLine: return QStringLiteral("Summarize this report in one sentence.");
    case TaskKind::KeyPoints:
        return QStringLiteral("List the key points of this report as 3 to 6 short bullet points.");
    case TaskKind::Detailed:
        return QStringLiteral("Write a detailed summary of this report in a few paragraphs: its purpose, "
                              "its main findings with their numbers, and its conclusions.");
    case TaskKind::Question: return question.trimmed();
    }
    return {};
}

QString selectedText(const DocumentText& doc, const RunConfig& config)
{
    if (doc.pages.isEmpty())
        return {};
    const int first = std::clamp(config.firstPage, 1, doc.pageCount());
    const int last = std::clamp(config.lastPage, first, doc.pageCount());
    QStringList pages = doc.pages.mid(first - 1, last - first + 1);
    const double fraction = std::clamp(config.documentFraction, 0.0, 1.0);
    if (fraction < 1.0 && pages.size() >= 2) {
        const int keep = std::max(1, int(std::ceil(pages.size() * fraction)));
        pages = pages.mid(0, keep);
        return pages.join(QStringLiteral("\n\n"));
    }
    QString text = pages.join(QStringLiteral("\n\n"));
    if (fraction < 1.0) {
        qsizetype cut = qsizetype(text.size() * fraction);
        const qsizetype space = text.lastIndexOf(QLatin1Char(' '), cut);
        if (space > cut / 2)
            cut = space;
        text.truncate(cut);
    }
    return text;
}

QVector<ChatTurn> buildChat(const DocumentText& doc, const RunConfig& config)
{
    QVector<ChatTurn> turns;
    QString system = systemPrompt();
    if (config.timestampSystemPrompt)
        system = QStringLiteral("[%1] ").arg(config.timestamp) + system;
    turns.append({QStringLiteral("system"), system});

    const QString title = doc.title.isEmpty() ? QStringLiteral("report") : doc.title;
    const QString header = QStringLiteral("Report \"%1\":\n\n").arg(title);
    const QString body = header + selectedText(doc, config) + QStringLiteral("\n\n");
    const QString instruction = taskInstruction(config.task, config.question);
    if (config.history.isEmpty()) {
        turns.append({QStringLiteral("user"), body + instruction});
        return turns;
    }
    // A conversation: the document rides with the first user turn.
    for (int i = 0; i < config.history.size(); ++i) {
        const bool user = i % 2 == 0;
        const QString content = (i == 0 ? body : QString()) + config.history[i];
        turns.append({user ? QStringLiteral("user") : QStringLiteral("assistant"), content});
    }
    turns.append({QStringLiteral("user"), instruction});
    return turns;
}

QString defaultFollowUpQuestion()
{
    return QStringLiteral("Which number in the report matters most, and why?");
}

RunConfig experimentConfig(const RunConfig& base, int baseRunId, const QString& baseAnswer, Experiment e,
                           const QString& question, const QDateTime& now)
{
    RunConfig c = base;
    c.experiment = e;
    c.parentRunId = baseRunId;
    c.concurrentIndex = 0;
    switch (e) {
    case Experiment::None:
        c.parentRunId = 0;
        break;
    case Experiment::KvOff:
        c.engine.kvMode = QStringLiteral("off");
        break;
    case Experiment::HalfDocument:
        c.documentFraction = base.documentFraction * 0.5;
        break;
    case Experiment::LongerAnswer:
        c.sampling.maxTokens = base.sampling.maxTokens * 2;
        break;
    case Experiment::ShorterAnswer:
        c.sampling.maxTokens = std::max(1, base.sampling.maxTokens / 4);
        break;
    case Experiment::FollowUp:
        c.history = base.history;
        c.history << taskInstruction(base.task, base.question) << baseAnswer;
        c.task = TaskKind::Question;
        c.question = question.trimmed().isEmpty() ? defaultFollowUpQuestion() : question.trimmed();
        break;
    case Experiment::BrokenCache:
        c.timestampSystemPrompt = true;
        c.timestamp = now.toString(Qt::ISODateWithMs);
        break;
    case Experiment::Concurrent:
        break;
    }
    return c;
}

}  // namespace kvlens::ui
