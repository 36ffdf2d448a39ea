// SPDX-License-Identifier: Apache-2.0
// What the chat template does with the system prompt, for the Model tab and
// the prompt preview: the model's chat format (read from its GGUF metadata
// and vocabulary, as the engine's tokenizer detects it), the template's own
// default system turn that it inserts when a chat brings none (SmolLM2: "You
// are a helpful AI assistant named SmolLM..."), the dated lines Llama 3.1+
// always put in front, and the prompt rendered as the model will read it.
#pragma once

#include <QString>
#include <QVector>

#include "engine/tokenizer/chat_template.h"
#include "ui/model/prompt_builder.h"

namespace kvlens::ui {

struct TemplateInfo {
    kvlens::chat_format format;   // kind, default system, dated system
    QString error;                // the model file could not be read ("" : fine)

    QString kind() const { return QString::fromLatin1(kvlens::to_string(format.kind)); }
    // The template's hidden default system prompt ("" : it inserts none).
    QString defaultSystem() const { return QString::fromStdString(format.default_system); }
};

// Reads tokenizer.chat_template and the vocabulary's markers from `modelPath`.
TemplateInfo readTemplateInfo(const QString& modelPath);

// The system turn the model reads when the window sends `system`: the text
// the template puts around it (Llama 3.1+: the knowledge-cutoff lines; Gemma,
// Mistral: no system role, so it opens a user turn). Markers left out; empty
// when the template drops the system prompt (Phi-3-mini's first template).
QString systemAsSeen(const TemplateInfo& t, const QString& system);

// The whole prompt as rendered by the template, markers included, with the
// document cut to its first and last `keepChars` characters (0: whole).
QString renderedPrompt(const TemplateInfo& t, const QVector<ChatTurn>& chat, int keepChars = 400);

}  // namespace kvlens::ui
