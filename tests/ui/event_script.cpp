// SPDX-License-Identifier: Apache-2.0
// Parser of the compact event scripts (see event_script.h).
#include "event_script.h"

#include <QHash>
#include <QStringList>

namespace kvlens::test {

using kvlens::ui::FinishReason;
using kvlens::ui::RunEvent;

namespace {

QString unescape(QString s)
{
    s.replace(QStringLiteral("\\s"), QStringLiteral(" "));
    s.replace(QStringLiteral("\\n"), QStringLiteral("\n"));
    s.replace(QStringLiteral("\\c"), QStringLiteral(","));
    return s;
}

FinishReason reasonOf(const QString& s)
{
    if (s == QLatin1String("length"))
        return FinishReason::Length;
    if (s == QLatin1String("cancelled"))
        return FinishReason::Cancelled;
    if (s == QLatin1String("error"))
        return FinishReason::Error;
    return FinishReason::Stop;
}

}  // namespace

QVector<RunEvent> parseEvents(const QString& script, int runId)
{
    QVector<RunEvent> out;
    const QStringList lines = script.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString& raw : lines) {
        const QStringList words = raw.trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.isEmpty())
            continue;
        QHash<QString, QString> kv;
        for (int i = 1; i < words.size(); ++i) {
            const int eq = int(words[i].indexOf(QLatin1Char('=')));
            kv.insert(words[i].left(eq), unescape(words[i].mid(eq + 1)));
        }
        auto d = [&kv](const char* k) { return kv.value(QLatin1String(k)).toDouble(); };
        auto n = [&kv](const char* k) { return kv.value(QLatin1String(k)).toLongLong(); };
        RunEvent e;
        e.runId = runId;
        const QString& kind = words[0];
        if (kind == QLatin1String("queued")) {
            e.kind = RunEvent::Kind::Queued;
            e.promptTokens = int(n("prompt"));
        } else if (kind == QLatin1String("started")) {
            e.kind = RunEvent::Kind::Started;
            e.queueMs = d("queue");
        } else if (kind == QLatin1String("chunk")) {
            e.kind = RunEvent::Kind::PrefillChunk;
            e.prefill = {int(n("done")), int(n("total")), int(n("cached")), d("ms"), d("t")};
        } else if (kind == QLatin1String("first")) {
            e.kind = RunEvent::Kind::FirstToken;
            e.ttftMs = d("ttft");
            e.token.id = qint32(n("id"));
            e.token.text = kv.value(QStringLiteral("text"));
        } else if (kind == QLatin1String("token")) {
            e.kind = RunEvent::Kind::Token;
            e.token.index = int(n("i"));
            e.token.id = qint32(n("id"));
            e.token.text = kv.value(QStringLiteral("text"));
            e.token.latencyMs = d("lat");
            e.token.tMs = d("t");
            e.token.visible = kv.value(QStringLiteral("visible"), QStringLiteral("1")) == QLatin1String("1");
            e.token.kv = {n("kv"), n("bytes"), n("alloc"), n("res")};
        } else if (kind == QLatin1String("done")) {
            e.kind = RunEvent::Kind::Done;
            e.reason = reasonOf(kv.value(QStringLiteral("reason")));
            e.error = kv.value(QStringLiteral("error"));
            e.text = kv.value(QStringLiteral("text"));
            auto& f = e.figures;
            f.promptTokens = int(n("prompt"));
            f.cachedTokens = int(n("cached"));
            f.computedTokens = int(n("computed"));
            f.generatedTokens = int(n("generated"));
            f.queueMs = d("queue");
            f.tokenizeMs = d("tokenize");
            f.prefillMs = d("prefill");
            f.ttftMs = d("ttft");
            f.decodeMs = d("decode");
            f.e2eMs = d("e2e");
            f.prefillTokS = d("prefill_tok_s");
            f.decodeTokS = d("decode_tok_s");
        } else {
            continue;
        }
        out.append(e);
    }
    return out;
}

}  // namespace kvlens::test
