// SPDX-License-Identifier: Apache-2.0
// CSV and JSON export of a run.
#include "ui/model/run_export.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include "engine/metrics/event_json.h"

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
    if (c.concurrentIndex > 0)
        o[QStringLiteral("concurrent_index")] = c.concurrentIndex;
    if (c.timestampSystemPrompt)
        o[QStringLiteral("system_prompt_timestamp")] = c.timestamp;
    if (!c.stage.isEmpty()) {
        o[QStringLiteral("stage")] = c.stage;
        o[QStringLiteral("map_reduce")] = c.mapReduceId;
    }
    if (!c.history.isEmpty())
        o[QStringLiteral("history")] = QJsonArray::fromStringList(c.history);
    QJsonObject e;
    e[QStringLiteral("model")] = c.engine.modelPath;
    e[QStringLiteral("backend")] = c.engine.backend;
    e[QStringLiteral("kv_mode")] = c.engine.kvMode;
    e[QStringLiteral("kv_dtype")] = c.engine.kvDtype;
    e[QStringLiteral("kv_block")] = c.engine.kvBlock;
    e[QStringLiteral("chunk")] = c.engine.chunk;
    e[QStringLiteral("context")] = c.engine.contextTokens;
    e[QStringLiteral("parallel")] = c.engine.parallel;
    if (c.engine.isRemote()) {
        // The server, never its key (the key file's path is not recorded either).
        e[QStringLiteral("remote_url")] = c.engine.remoteUrl;
        e[QStringLiteral("remote_model")] = c.engine.remoteModel;
    }
    o[QStringLiteral("engine")] = e;
    QJsonObject s;
    s[QStringLiteral("max_tokens")] = c.sampling.maxTokens;
    s[QStringLiteral("temperature")] = c.sampling.temperature;
    s[QStringLiteral("top_k")] = c.sampling.topK;
    s[QStringLiteral("top_p")] = c.sampling.topP;
    s[QStringLiteral("min_p")] = c.sampling.minP;
    s[QStringLiteral("repeat_penalty")] = c.sampling.repeatPenalty;
    s[QStringLiteral("seed")] = QString::number(c.sampling.seed);
    s[QStringLiteral("draft_tokens")] = c.sampling.draftTokens;
    o[QStringLiteral("sampling")] = s;
    return o;
}

}  // namespace

QString runCsvHeader()
{
    return QStringLiteral("run,index,token_id,text,t_ms,latency_ms,visible,kv_tokens,kv_bytes,"
                          "kv_allocated_bytes,kv_reserved_bytes,kv_local_tokens,kv_local_bytes,kv_global_bytes,drafted");
}

QString runToCsv(const RunRecord& run)
{
    QString out = runCsvHeader() + QLatin1Char('\n');
    for (const TokenStep& t : run.tokens()) {
        const QStringList row = {QString::number(run.id()), QString::number(t.index), QString::number(t.id),
                                 csvField(t.text), num(t.tMs), num(t.latencyMs),
                                 t.visible ? QStringLiteral("1") : QStringLiteral("0"),
                                 QString::number(t.kv.tokens), QString::number(t.kv.logicalBytes),
                                 QString::number(t.kv.allocatedBytes), QString::number(t.kv.reservedBytes),
                                 QString::number(t.kv.localTokens), QString::number(t.kv.localBytes),
                                 QString::number(t.kv.globalBytes), t.drafted ? QStringLiteral("1") : QStringLiteral("0")};
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

// The engine's one JSON form of figures and events (engine/metrics/event_json),
// read back as Qt JSON; only the request id becomes the window's run id.
QJsonObject figuresToJson(const RunFigures& f)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(kvlens::figures_to_json(f))).object();
}

QJsonObject eventToJson(const RunEvent& e)
{
    QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(kvlens::event_to_json_line(e.event))).object();
    o[QStringLiteral("request")] = e.runId;
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
