// SPDX-License-Identifier: Apache-2.0
// The chat template's view of the system prompt and of the whole prompt.
#include "ui/model/chat_preview.h"

#include <QCoreApplication>
#include <algorithm>

#include "engine/gguf/gguf_reader.h"

namespace kvlens::ui {

namespace {

std::vector<kvlens::chat_message> toMessages(const QVector<ChatTurn>& chat)
{
    std::vector<kvlens::chat_message> out;
    for (const ChatTurn& t : chat)
        out.push_back({t.role.toStdString(), t.content.toStdString()});
    return out;
}

}  // namespace

TemplateInfo readTemplateInfo(const QString& modelPath)
{
    TemplateInfo t;
    auto f = kvlens::gguf_file::open(modelPath.toStdString());
    if (!f) {
        t.error = QString::fromStdString(f.message());
        return t;
    }
    const kvlens::gguf_file& file = **f;
    const std::vector<std::string_view> tokens = file.get_string_array("tokenizer.ggml.tokens");
    const auto has = [&tokens](std::string_view s) { return std::find(tokens.begin(), tokens.end(), s) != tokens.end(); };
    t.format = kvlens::chat_format::detect(file.get_string("tokenizer.chat_template"), has);
    return t;
}

QString systemAsSeen(const TemplateInfo& t, const QString& system)
{
    // Rendered alone, without the opening of an answer: the segments that are
    // text (not format markers) are what the model reads as the system turn.
    QString out;
    for (const kvlens::chat_segment& s : t.format.render_segments({{"system", system.toStdString()}}, false)) {
        if (!s.control)
            out += QString::fromStdString(s.text);
    }
    out = out.trimmed();
    // Formats with no system role (Mistral's [INST] ones) put the system text
    // into a user turn, and only when there is one: rendered with a question,
    // the text before the question is what the model reads as the system prompt.
    if (out.isEmpty() && !system.trimmed().isEmpty()) {
        const std::string question = "\x01question\x01";
        std::string text;
        for (const kvlens::chat_segment& s :
             t.format.render_segments({{"system", system.toStdString()}, {"user", question}}, false)) {
            if (!s.control)
                text += s.text;
        }
        const std::size_t at = text.find(question);
        if (at != std::string::npos)
            out = QString::fromStdString(text.substr(0, at)).trimmed();
    }
    // Role names the template writes as text ("system\n", "user\n") are not
    // part of what the prompt says.
    for (const QString& role : {QStringLiteral("system"), QStringLiteral("user")}) {
        if (out.startsWith(role + QLatin1Char('\n')))
            out = out.mid(role.size() + 1).trimmed();
    }
    return out;
}

QString renderedPrompt(const TemplateInfo& t, const QVector<ChatTurn>& chat, int keepChars)
{
    QVector<ChatTurn> shown = chat;
    if (keepChars > 0) {
        // The document rides in the first user turn: cut its middle.
        for (ChatTurn& turn : shown) {
            if (turn.role != QLatin1String("user"))
                continue;
            if (turn.content.size() > 2 * keepChars + 200) {
                const int cut = int(turn.content.size()) - 2 * keepChars;
                turn.content = turn.content.left(keepChars)
                    + QCoreApplication::translate("kvlens::ui", "\n[… %1 characters of the document …]\n").arg(cut)
                    + turn.content.right(keepChars);
            }
            break;
        }
    }
    return QString::fromStdString(t.format.render(toMessages(shown), true));
}

}  // namespace kvlens::ui
