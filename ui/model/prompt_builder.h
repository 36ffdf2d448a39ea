// SPDX-License-Identifier: Apache-2.0
// The chat a run sends: a system prompt, the document first (so every task
// and follow-up on the same pages shares the longest possible prefix, which
// the engine's prefix cache reuses), then the task. Also the teaching
// experiments as transformations of a run's config. No widgets, no engine.
#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QVector>

#include "tasks/chat_layout.h"
#include "tasks/task_kind.h"
#include "ui/model/document_text.h"
#include "ui/model/run_config.h"

namespace kvlens::ui {

struct ChatTurn {
    QString role;       // "system", "user", "assistant"
    QString content;
};

// The system prompt, asking for the answer in the language of `documentText`.
QString systemPrompt(const QString& documentText = QString());
QString taskInstruction(TaskKind task, const QString& question);
tasks::task_kind toTaskKind(TaskKind t);
QVector<ChatTurn> fromTasksChat(const std::vector<tasks::chat_turn>& chat);
// The selected pages (clamped to the document), cut to documentFraction.
QString selectedText(const DocumentText& doc, const RunConfig& config);
QVector<ChatTurn> buildChat(const DocumentText& doc, const RunConfig& config);
// The same chat as one completion-style text, for a base model that carries
// no chat template (Gemma 3 270M): the turns one after another, each answer
// after "Answer:", ending in "Answer:" for the model to continue. The order
// is the chat's, so the document still comes first and a follow-up shares it.
QString completionPrompt(const QVector<ChatTurn>& chat);

// The config of an experiment run that varies `base` (whose answer was
// `baseAnswer`). `now` stamps BrokenCache; `question` is the FollowUp's.
RunConfig experimentConfig(const RunConfig& base, int baseRunId, const QString& baseAnswer,
                           Experiment e, const QString& question, const QDateTime& now);
QString defaultFollowUpQuestion();
// How many copies the Concurrent experiment submits.
constexpr int kConcurrentCopies = 3;

}  // namespace kvlens::ui
