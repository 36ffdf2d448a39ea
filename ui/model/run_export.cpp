// SPDX-License-Identifier: Apache-2.0
// CSV and JSON export of a run.
#include "ui/model/run_export.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace kvlens::ui {

namespace {

// RFC 4180: quote a field that holds a comma, quote, CR or LF; double quotes.
QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n'))
        && !s.contains(QLatin1Char('\r')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString num(double v) { return QString::number(v, 'f', 3); }

QString writeBytes(const QByteArray& data, const QString& path)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("kvlens::ui", "cannot write %1: %2").arg(path, f.errorString());
    f.write(data);
    if (!f.commit())
        return QCoreApplication::translate("kvlens::ui", "cannot write %1: %2").arg(path, f.errorString());
    return {};
}

QJsonObject configToJson(const RunConfig& c)
{
    QJsonObject o;
    o[QStringLiteral("task")] = taskKey(c.task);
    if (!c.question.isEmpty())
        o[QStringLiteral("question")] = c.question;
    o[QStringLiteral("document")] = c.documentTitle;
    o[QStringLiteral("first_page")] = c.firstPage;
    o[QStringLiteral("last_page")] = c.lastPage;
    o[QStringLiteral("document_fraction")] = c.documentFraction;
    if (c.experiment != Experiment::None) {
        o[QStringLiteral("experiment")] = experimentKey(c.experiment);
        o[QStringLiteral("varies_run")] = c.parentRunId;
    }
    if (c.timestampSystemPrompt)
        o[QStringLiteral("system_prompt_timestamp")] = c.timestamp;
    QJsonObject e;
    e[QStringLiteral("model")] = c.engine.modelPath;
    e[QStringLiteral("backend")] = c.engine.backend;
    e[QStringLiteral("kv_mode")] = c.engine.kvMode;
    e[QStringLiteral("kv_dtype")] = c.engine.kvDtype;
    e[QStringLiteral("kv_block")] = c.engine.kvBlock;
    e[QStringLiteral("chunk")] = c.engine.chunk;
    e[QStringLiteral("context")] = c.engine.contextTokens;
    e[QStringLiteral("parallel")] = c.engine.parallel;
    o[QStringLiteral("engine")] = e;
    QJsonObject s;
    s[QStringLiteral("max_tokens")] = c.sampling.maxTokens;
    s[QStringLiteral("temperature")] = c.sampling.temperature;
    s[QStringLiteral("top_k")] = c.sampling.topK;
    s[QStringLiteral("top_p")] = c.sampling.topP;
    s[QStringLiteral("min_p")] = c.sampling.minP;
    s[QStringLiteral("repeat_penalty")] = c.sampling.repeatPenalty;
    s[QStringLiteral("seed")] = QString::number(c.sampling.seed);
    o[QStringLiteral("sampling")] = s;
    return o;
}

}  // namespace

QString runCsvHeader()
{
    return QStringLiteral("run,index,token_id,text,t_ms,latency_ms,visible,kv_tokens,kv_bytes,"
                          "kv_allocated_bytes,kv_reserved_bytes");
}

QString runToCsv(const RunRecord& run)
{
    QString out = runCsvHeader() + QLatin1Char('\n');
    for (const TokenStep& t : run.tokens()) {
        const QStringList row = {QString::number(run.id()), QString::number(t.index), QString::number(t.id),
                                 csvField(t.text), num(t.tMs), num(t.latencyMs),
                                 t.visible ? QStringLiteral("1") : QStringLiteral("0"),
                                 QString::number(t.kv.tokens), QString::number(t.kv.logicalBytes),
                                 QString::number(t.kv.allocatedBytes), QString::number(t.kv.reservedBytes)};
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

QJsonObject figuresToJson(const RunFigures& f)
{
    QJsonObject o;
    o[QStringLiteral("prompt_tokens")] = f.promptTokens;
    o[QStringLiteral("cached_tokens")] = f.cachedTokens;
    o[QStringLiteral("computed_tokens")] = f.computedTokens;
    o[QStringLiteral("generated_tokens")] = f.generatedTokens;
    o[QStringLiteral("queue_ms")] = f.queueMs;
    o[QStringLiteral("tokenize_ms")] = f.tokenizeMs;
    o[QStringLiteral("prefill_ms")] = f.prefillMs;
    o[QStringLiteral("ttft_ms")] = f.ttftMs;
    o[QStringLiteral("ttft_visible_ms")] = f.ttftVisibleMs;
    o[QStringLiteral("decode_ms")] = f.decodeMs;
    o[QStringLiteral("e2e_ms")] = f.e2eMs;
    o[QStringLiteral("prefill_tok_s")] = f.prefillTokS;
    o[QStringLiteral("decode_tok_s")] = f.decodeTokS;
    o[QStringLiteral("tpot_ms")] = f.tpotMs;
    o[QStringLiteral("kv_bytes_peak")] = double(f.kvBytesPeak);
    o[QStringLiteral("device_memory_peak")] = double(f.deviceMemoryPeak);
    o[QStringLiteral("prefill_flop")] = f.prefillFlop;
    o[QStringLiteral("prefill_flop_s")] = f.prefillFlopS;
    o[QStringLiteral("decode_bytes")] = f.decodeBytes;
    o[QStringLiteral("decode_bytes_s")] = f.decodeBytesS;
    return o;
}

QJsonObject eventToJson(const RunEvent& e)
{
    QJsonObject o;
    o[QStringLiteral("event")] = eventKindName(e.kind);
    o[QStringLiteral("request")] = e.runId;
    switch (e.kind) {
    case RunEvent::Kind::Queued:
        o[QStringLiteral("prompt_tokens")] = e.promptTokens;
        break;
    case RunEvent::Kind::Started:
        o[QStringLiteral("queue_ms")] = e.queueMs;
        break;
    case RunEvent::Kind::PrefillChunk:
        o[QStringLiteral("tokens_done")] = e.prefill.tokensDone;
        o[QStringLiteral("tokens_total")] = e.prefill.tokensTotal;
        o[QStringLiteral("cached_tokens")] = e.prefill.cachedTokens;
        o[QStringLiteral("chunk_ms")] = e.prefill.chunkMs;
        o[QStringLiteral("t_ms")] = e.prefill.tMs;
        break;
    case RunEvent::Kind::FirstToken:
        o[QStringLiteral("ttft_ms")] = e.ttftMs;
        o[QStringLiteral("id")] = e.token.id;
        o[QStringLiteral("text")] = e.token.text;
        break;
    case RunEvent::Kind::Token:
        o[QStringLiteral("index")] = e.token.index;
        o[QStringLiteral("id")] = e.token.id;
        o[QStringLiteral("text")] = e.token.text;
        o[QStringLiteral("latency_ms")] = e.token.latencyMs;
        o[QStringLiteral("t_ms")] = e.token.tMs;
        o[QStringLiteral("visible")] = e.token.visible;
        o[QStringLiteral("kv_tokens")] = double(e.token.kv.tokens);
        o[QStringLiteral("kv_bytes")] = double(e.token.kv.logicalBytes);
        o[QStringLiteral("kv_allocated_bytes")] = double(e.token.kv.allocatedBytes);
        o[QStringLiteral("kv_reserved_bytes")] = double(e.token.kv.reservedBytes);
        break;
    case RunEvent::Kind::Done:
        o[QStringLiteral("reason")] = finishReasonName(e.reason);
        if (!e.error.isEmpty())
            o[QStringLiteral("error")] = e.error;
        o[QStringLiteral("figures")] = figuresToJson(e.figures);
        break;
    }
    return o;
}

QJsonObject runToJson(const RunRecord& run)
{
    QJsonObject o;
    o[QStringLiteral("run")] = run.id();
    o[QStringLiteral("label")] = run.label();
    o[QStringLiteral("created")] = run.createdAt().toString(Qt::ISODateWithMs);
    o[QStringLiteral("config")] = configToJson(run.config());
    o[QStringLiteral("finish_reason")] = finishReasonName(run.finishReason());
    if (!run.error().isEmpty())
        o[QStringLiteral("error")] = run.error();
    o[QStringLiteral("text")] = run.text();
    QJsonArray events;
    for (const RunEvent& e : run.events())
        events.append(eventToJson(e));
    o[QStringLiteral("events")] = events;
    if (run.hasFigures())
        o[QStringLiteral("figures")] = figuresToJson(run.figures());
    QJsonObject mem;
    mem[QStringLiteral("weight_bytes")] = double(run.memory().weightBytes);
    mem[QStringLiteral("kv_pool_bytes")] = double(run.memory().kvPoolBytes);
    mem[QStringLiteral("scratch_bytes")] = double(run.memory().scratchBytes);
    mem[QStringLiteral("kv_bytes_per_token")] = double(run.kvBytesPerToken());
    o[QStringLiteral("memory")] = mem;
    return o;
}

QString writeRunCsv(const RunRecord& run, const QString& path)
{
    return writeBytes(runToCsv(run).toUtf8(), path);
}

QString writeRunJson(const RunRecord& run, const QString& path)
{
    return writeBytes(QJsonDocument(runToJson(run)).toJson(QJsonDocument::Indented), path);
}

}  // namespace kvlens::ui
