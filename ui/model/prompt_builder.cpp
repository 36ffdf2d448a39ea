// SPDX-License-Identifier: Apache-2.0
// Prompts for the tasks (wording and layout from tasks/), and the experiments.
#include "ui/model/prompt_builder.h"

#include "tasks/instructions.h"

#include <algorithm>
#include <cmath>

namespace kvlens::ui {

namespace {

QString fromStd(const std::string& s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
std::string toStd(const QString& s) { return s.toUtf8().toStdString(); }

}  // namespace

tasks::task_kind toTaskKind(TaskKind t)
{
    switch (t) {
    case TaskKind::OneLine: return tasks::task_kind::one_line;
    case TaskKind::KeyPoints: return tasks::task_kind::key_points;
    case TaskKind::Detailed: return tasks::task_kind::detailed;
    case TaskKind::Question: return tasks::task_kind::question;
    }
    return tasks::task_kind::one_line;
}

QString systemPrompt(const QString& documentText)
{
    return fromStd(tasks::system_prompt(tasks::document_language(toStd(documentText))));
}

QString taskInstruction(TaskKind task, const QString& question)
{
    return fromStd(tasks::instruction(toTaskKind(task), toStd(question)));
}

QVector<ChatTurn> fromTasksChat(const std::vector<tasks::chat_turn>& chat)
{
    QVector<ChatTurn> out;
    for (const tasks::chat_turn& t : chat)
        out.append({fromStd(t.role), fromStd(t.content)});
    return out;
}

QString selectedText(const DocumentText& doc, const RunConfig& config)
{
    if (doc.pages.isEmpty())
        return {};
    const int first = std::clamp(config.firstPage, 1, doc.pageCount());
    const int last = std::clamp(config.lastPage, first, doc.pageCount());
    const QStringList pages = doc.pages.mid(first - 1, last - first + 1);
    const QString separator = QStringLiteral("\n\n");
    QString text = pages.join(separator);
    const double fraction = std::clamp(config.documentFraction, 0.0, 1.0);
    if (fraction >= 1.0)
        return text;
    // A fraction of the text's characters (pages are often uneven: half the
    // pages can be nearly all of the text), ending at a page break when one
    // lies within a tenth of the text of the cut, else at a space.
    const qsizetype target = qsizetype(double(text.size()) * fraction);
    qsizetype cut = -1;
    qsizetype pageEnd = 0;
    for (qsizetype i = 0; i + 1 < pages.size(); ++i) {
        pageEnd += pages[i].size();
        if (qAbs(pageEnd - target) * 10 <= text.size() && (cut < 0 || qAbs(pageEnd - target) < qAbs(cut - target)))
            cut = pageEnd;
        pageEnd += separator.size();
    }
    if (cut < 0) {
        cut = target;
        const qsizetype space = text.lastIndexOf(QLatin1Char(' '), cut);
        if (space > cut / 2)
            cut = space;
    }
    text.truncate(cut);
    return text;
}

QVector<ChatTurn> buildChat(const DocumentText& doc, const RunConfig& config)
{
    // The layout and the wording are the tasks layer's, shared with the CLI.
    const QString text = selectedText(doc, config);
    QString system = systemPrompt(text);
    if (config.timestampSystemPrompt)
        system = QStringLiteral("[%1] ").arg(config.timestamp) + system;
    tasks::chat_parts parts;
    parts.system = toStd(system);
    parts.title = toStd(doc.title);
    parts.document = toStd(text);
    parts.instruction = toStd(taskInstruction(config.task, config.question));
    for (const QString& h : config.history)
        parts.history.push_back(toStd(h));
    return fromTasksChat(tasks::layout_chat(parts));
}

QString completionPrompt(const QVector<ChatTurn>& chat)
{
    QString out;
    for (const ChatTurn& t : chat) {
        if (t.content.isEmpty())
            continue;
        if (t.role == QLatin1String("assistant"))
            out += QStringLiteral("Answer: ") + t.content + QStringLiteral("\n\n");
        else
            out += t.content + QStringLiteral("\n\n");
    }
    return out + QStringLiteral("Answer:");
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
        // Cold: a fresh prefix in front of the system prompt, so no block of
        // the parent's prompt is reused and TTFT falls with the document.
        c.documentFraction = base.documentFraction * 0.5;
        c.timestampSystemPrompt = true;
        c.timestamp = QStringLiteral("cold ") + now.toString(Qt::ISODateWithMs);
        break;
    case Experiment::LongerAnswer:
        // What is asked changes (a detailed summary), not only the limit: the
        // prompt's document part is the same, so TTFT stays flat and decode grows.
        c.task = TaskKind::Detailed;
        c.sampling.maxTokens = base.sampling.maxTokens * 2;
        break;
    case Experiment::ShorterAnswer:
        c.task = TaskKind::OneLine;
        c.sampling.maxTokens = std::max(1, base.sampling.maxTokens / 4);
        break;
    case Experiment::KvQ8:
        c.engine.kvDtype = QStringLiteral("q8_0");
        break;
    case Experiment::Speculative:
        // Drafts on (or, for a run that had them, off): the same text either way.
        c.sampling.draftTokens = base.sampling.draftTokens > 0 ? 0 : kExperimentDraftTokens;
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
