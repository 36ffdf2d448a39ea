// SPDX-License-Identifier: Apache-2.0
// RunStore: run.json files back into runs, and the bounded folder of them.
#include "ui/model/run_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include "ui/model/run_export.h"

namespace kvlens::ui {

namespace {


std::string toEngineText(const QJsonValue& v) { return v.toString().toStdString(); }
qint64 i64(const QJsonObject& o, const char* key) { return qint64(o.value(QLatin1String(key)).toDouble()); }
int i32(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toInt(); }
double f64(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toDouble(); }

// The per-group KV split (absent for a model without local layers: all 0).
kvlens::kv_groups kvGroupsOf(const QJsonObject& o)
{
    kvlens::kv_groups g{i64(o, "kv_local_tokens"),  i64(o, "kv_local_bytes"),  i64(o, "kv_local_allocated_bytes"),
                        i64(o, "kv_global_tokens"), i64(o, "kv_global_bytes"), i64(o, "kv_global_allocated_bytes")};
    g.local_is_conv = o.value(QLatin1String("kv_local_kind")).toString() == QLatin1String("convolution");
    return g;
}

kvlens::figure_source sourceOf(const QJsonObject& o)
{
    const QString s = o.value(QLatin1String("source")).toString();
    if (s == QLatin1String("client"))
        return kvlens::figure_source::client;
    if (s == QLatin1String("server"))
        return kvlens::figure_source::server;
    return kvlens::figure_source::engine;
}

kvlens::request_figures figuresFromJson(const QJsonObject& o)
{
    kvlens::request_figures f;
    f.prompt_tokens = i32(o, "prompt_tokens");
    f.cached_tokens = i32(o, "cached_tokens");
    f.computed_tokens = i32(o, "computed_tokens");
    f.generated_tokens = i32(o, "generated_tokens");
    f.recomputed_tokens = i64(o, "recomputed_tokens");
    f.draft_steps = i32(o, "draft_steps");
    f.draft_tokens = i32(o, "draft_tokens");
    f.accepted_tokens = i32(o, "accepted_tokens");
    f.acceptance_rate = f64(o, "acceptance_rate");
    f.mean_acceptance_length = f64(o, "mean_acceptance_length");
    f.tokenize_ms = f64(o, "tokenize_ms");
    f.queue_ms = f64(o, "queue_ms");
    f.prefill_ms = f64(o, "prefill_ms");
    f.first_sample_ms = f64(o, "first_sample_ms");
    f.ttft_ms = f64(o, "ttft_ms");
    f.ttft_visible_ms = f64(o, "ttft_visible_ms");
    f.decode_ms = f64(o, "decode_ms");
    f.e2e_ms = f64(o, "e2e_ms");
    f.prefill_forward_ms = f64(o, "prefill_forward_ms");
    f.prefill_tok_s = f64(o, "prefill_tok_s");
    f.decode_tok_s = f64(o, "decode_tok_s");
    f.tpot_ms = f64(o, "tpot_ms");
    f.kv_bytes_peak = i64(o, "kv_bytes_peak");
    f.device_memory_peak = i64(o, "device_memory_peak");
    f.prefill_flop = f64(o, "prefill_flop");
    f.prefill_flop_s = f64(o, "prefill_flop_s");
    f.decode_bytes = f64(o, "decode_bytes");
    f.decode_bytes_s = f64(o, "decode_bytes_s");
    f.prefill_bytes = f64(o, "prefill_bytes");
    f.decode_flop = f64(o, "decode_flop");
    f.source = sourceOf(o);
    for (const QJsonValue& v : o.value(QLatin1String("server_fields")).toArray())
        f.server_fields.push_back(toEngineText(v));
    f.itl_p50_ms = f64(o, "itl_p50_ms");
    f.itl_p99_ms = f64(o, "itl_p99_ms");
    f.itl_max_ms = f64(o, "itl_max_ms");
    if (o.contains(QLatin1String("server"))) {
        const QJsonObject s = o.value(QLatin1String("server")).toObject();
        kvlens::server_figures& sf = f.server;
        sf.prompt_tokens = s.value(QLatin1String("prompt_tokens")).toInt(-1);
        sf.completion_tokens = s.value(QLatin1String("completion_tokens")).toInt(-1);
        sf.cached_tokens = s.value(QLatin1String("cached_tokens")).toInt(-1);
        sf.prompt_n = s.value(QLatin1String("prompt_n")).toInt(-1);
        sf.cache_n = s.value(QLatin1String("cache_n")).toInt(-1);
        sf.predicted_n = s.value(QLatin1String("predicted_n")).toInt(-1);
        sf.prompt_ms = s.value(QLatin1String("prompt_ms")).toDouble(-1);
        sf.predicted_ms = s.value(QLatin1String("predicted_ms")).toDouble(-1);
        sf.prompt_per_second = s.value(QLatin1String("prompt_per_second")).toDouble(-1);
        sf.predicted_per_second = s.value(QLatin1String("predicted_per_second")).toDouble(-1);
        sf.kv_usage_peak = s.value(QLatin1String("kv_usage_peak")).toDouble(-1);
        sf.prefix_cache_hit_rate = s.value(QLatin1String("prefix_cache_hit_rate")).toDouble(-1);
        sf.progress_events = s.value(QLatin1String("progress_events")).toInt();
    }
    return f;
}

kvlens::finish_reason reasonOf(const QString& s)
{
    if (s == QLatin1String("length"))
        return kvlens::finish_reason::length;
    if (s == QLatin1String("cancelled"))
        return kvlens::finish_reason::cancelled;
    if (s == QLatin1String("error"))
        return kvlens::finish_reason::error;
    return kvlens::finish_reason::stop;
}

bool parseExperimentKey(const QString& key, Experiment& out)
{
    for (Experiment e : allExperiments()) {
        if (experimentKey(e) == key) {
            out = e;
            return true;
        }
    }
    return false;
}

}  // namespace

RunConfig configFromJson(const QJsonObject& o)
{
    RunConfig c;
    parseTaskKey(o.value(QLatin1String("task")).toString(), c.task);
    c.question = o.value(QLatin1String("question")).toString();
    c.documentTitle = o.value(QLatin1String("document")).toString();
    c.firstPage = o.value(QLatin1String("first_page")).toInt(1);
    c.lastPage = o.value(QLatin1String("last_page")).toInt(1);
    c.documentFraction = o.value(QLatin1String("document_fraction")).toDouble(1.0);
    if (parseExperimentKey(o.value(QLatin1String("experiment")).toString(), c.experiment))
        c.parentRunId = o.value(QLatin1String("varies_run")).toInt();
    c.concurrentIndex = o.value(QLatin1String("concurrent_index")).toInt();
    if (o.contains(QLatin1String("system_prompt_timestamp"))) {
        c.timestampSystemPrompt = true;
        c.timestamp = o.value(QLatin1String("system_prompt_timestamp")).toString();
    }
    c.stage = o.value(QLatin1String("stage")).toString();
    c.mapReduceId = o.value(QLatin1String("map_reduce")).toInt();
    for (const QJsonValue& v : o.value(QLatin1String("history")).toArray())
        c.history << v.toString();
    const QJsonObject e = o.value(QLatin1String("engine")).toObject();
    c.engine.modelPath = e.value(QLatin1String("model")).toString();
    c.engine.backend = e.value(QLatin1String("backend")).toString(c.engine.backend);
    c.engine.kvMode = e.value(QLatin1String("kv_mode")).toString(c.engine.kvMode);
    c.engine.kvDtype = e.value(QLatin1String("kv_dtype")).toString(c.engine.kvDtype);
    c.engine.kvBlock = e.value(QLatin1String("kv_block")).toInt(c.engine.kvBlock);
    c.engine.chunk = e.value(QLatin1String("chunk")).toInt(c.engine.chunk);
    c.engine.contextTokens = e.value(QLatin1String("context")).toInt(c.engine.contextTokens);
    c.engine.parallel = e.value(QLatin1String("parallel")).toInt(c.engine.parallel);
    const QJsonObject s = o.value(QLatin1String("sampling")).toObject();
    c.sampling.maxTokens = s.value(QLatin1String("max_tokens")).toInt(c.sampling.maxTokens);
    c.sampling.temperature = s.value(QLatin1String("temperature")).toDouble(c.sampling.temperature);
    c.sampling.topK = s.value(QLatin1String("top_k")).toInt(c.sampling.topK);
    c.sampling.topP = s.value(QLatin1String("top_p")).toDouble(c.sampling.topP);
    c.sampling.minP = s.value(QLatin1String("min_p")).toDouble(c.sampling.minP);
    c.sampling.repeatPenalty = s.value(QLatin1String("repeat_penalty")).toDouble(c.sampling.repeatPenalty);
    c.sampling.seed = s.value(QLatin1String("seed")).toString().toULongLong();
    c.sampling.draftTokens = s.value(QLatin1String("draft_tokens")).toInt(0);
    return c;
}

bool eventFromJson(const QJsonObject& o, kvlens::event& out, QString& error)
{
    const QString name = o.value(QLatin1String("event")).toString();
    const auto request = kvlens::request_id(o.value(QLatin1String("request")).toDouble());
    if (name == QLatin1String("queued")) {
        kvlens::event_queued e;
        e.request = request;
        e.prompt_tokens = i32(o, "prompt_tokens");
        e.source = sourceOf(o);
        out = e;
    } else if (name == QLatin1String("started")) {
        kvlens::event_started e;
        e.request = request;
        e.tokenize_ms = f64(o, "tokenize_ms");
        e.queue_ms = f64(o, "queue_ms");
        e.t_ms = f64(o, "t_ms");
        e.source = sourceOf(o);
        out = e;
    } else if (name == QLatin1String("prefill_chunk")) {
        kvlens::event_prefill_chunk e;
        e.request = request;
        e.tokens_done = i32(o, "tokens_done");
        e.tokens_total = i32(o, "tokens_total");
        e.cached_tokens = i32(o, "cached_tokens");
        e.chunk_ms = f64(o, "chunk_ms");
        e.t_ms = f64(o, "t_ms");
        e.kv_tokens = i64(o, "kv_tokens");
        e.kv_bytes = i64(o, "kv_bytes");
        e.kv_allocated_bytes = i64(o, "kv_allocated_bytes");
        e.kv_reserved_bytes = i64(o, "kv_reserved_bytes");
        e.kv_group = kvGroupsOf(o);
        e.source = sourceOf(o);
        out = e;
    } else if (name == QLatin1String("first_token")) {
        kvlens::event_first_token e;
        e.request = request;
        e.ttft_ms = f64(o, "ttft_ms");
        e.id = i32(o, "id");
        e.text = toEngineText(o.value(QLatin1String("text")));
        e.tokenize_ms = f64(o, "tokenize_ms");
        e.queue_ms = f64(o, "queue_ms");
        e.prefill_ms = f64(o, "prefill_ms");
        e.first_sample_ms = f64(o, "first_sample_ms");
        e.source = sourceOf(o);
        out = e;
    } else if (name == QLatin1String("token")) {
        kvlens::event_token e;
        e.request = request;
        e.index = i32(o, "index");
        e.id = i32(o, "id");
        e.text = toEngineText(o.value(QLatin1String("text")));
        e.latency_ms = f64(o, "latency_ms");
        e.t_ms = f64(o, "t_ms");
        e.visible = o.value(QLatin1String("visible")).toBool(true);
        e.kv_tokens = i64(o, "kv_tokens");
        e.kv_bytes = i64(o, "kv_bytes");
        e.kv_allocated_bytes = i64(o, "kv_allocated_bytes");
        e.kv_reserved_bytes = i64(o, "kv_reserved_bytes");
        e.recomputed_tokens = i64(o, "recomputed_tokens");
        e.drafted = o.value(QLatin1String("drafted")).toBool(false);
        e.kv_group = kvGroupsOf(o);
        e.source = sourceOf(o);
        e.server_kv_usage = o.value(QLatin1String("server_kv_usage")).toDouble(-1);
        out = e;
    } else if (name == QLatin1String("done")) {
        kvlens::event_done e;
        e.request = request;
        e.reason = reasonOf(o.value(QLatin1String("reason")).toString());
        e.error = toEngineText(o.value(QLatin1String("error")));
        e.figures = figuresFromJson(o.value(QLatin1String("figures")).toObject());
        out = e;
    } else {
        error = QCoreApplication::translate("kvlens::ui", "unknown event \"%1\"").arg(name);
        return false;
    }
    return true;
}

std::unique_ptr<RunRecord> runFromJson(const QJsonObject& o, int id, QString& error)
{
    if (!o.value(QLatin1String("config")).isObject() || !o.value(QLatin1String("events")).isArray()) {
        error = QCoreApplication::translate("kvlens::ui", "not a saved run (no settings or events)");
        return nullptr;
    }
    auto run = std::make_unique<RunRecord>(id, configFromJson(o.value(QLatin1String("config")).toObject()));
    const QDateTime created = QDateTime::fromString(o.value(QLatin1String("created")).toString(), Qt::ISODateWithMs);
    if (created.isValid())
        run->setCreatedAt(created);
    const QJsonObject mem = o.value(QLatin1String("memory")).toObject();
    MemorySnapshot m;
    m.weightBytes = i64(mem, "weight_bytes");
    m.kvPoolBytes = i64(mem, "kv_pool_bytes");
    m.scratchBytes = i64(mem, "scratch_bytes");
    run->setMemory(m);
    run->setKvBytesPerToken(i64(mem, "kv_bytes_per_token"));
    const QJsonArray events = o.value(QLatin1String("events")).toArray();
    for (const QJsonValue& v : events) {
        RunEvent e;
        e.runId = id;
        if (!v.isObject() || !eventFromJson(v.toObject(), e.event, error))
            return nullptr;
        run->ingest(e);
    }
    if (events.isEmpty() && o.contains(QLatin1String("error")))
        run->setSubmitError(o.value(QLatin1String("error")).toString());
    if (!run->isFinished())   // saved before its end: not expected, shown as such
        run->setSubmitError(QCoreApplication::translate("kvlens::ui", "saved before it finished"));
    return run;
}

RunStore::RunStore(QString folder, int maxRuns) : folder_(std::move(folder)), maxRuns_(std::max(1, maxRuns)) {}

QStringList RunStore::files() const
{
    // Names start with the run's time, so the name order is the age order.
    return QDir(folder_).entryList({QStringLiteral("run-*.json")}, QDir::Files, QDir::Name);
}

QString RunStore::save(const RunRecord& run)
{
    if (!QDir().mkpath(folder_))
        return QCoreApplication::translate("kvlens::ui", "cannot create %1").arg(folder_);
    const QString name = QStringLiteral("run-%1-%2.json")
                             .arg(run.createdAt().toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")))
                             .arg(run.id());
    const QString err = writeRunJson(run, QDir(folder_).filePath(name));
    if (!err.isEmpty())
        return err;
    const QStringList all = files();
    for (int i = 0; i + maxRuns_ < all.size(); ++i)
        QFile::remove(QDir(folder_).filePath(all[i]));
    return {};
}

RunStore::Loaded RunStore::load() const
{
    Loaded out;
    QStringList all = files();
    if (all.size() > maxRuns_)
        all = all.mid(all.size() - maxRuns_);
    for (const QString& name : all) {
        QFile f(QDir(folder_).filePath(name));
        if (!f.open(QIODevice::ReadOnly)) {
            out.errors << QCoreApplication::translate("kvlens::ui", "%1: cannot read (%2)").arg(name, f.errorString());
            continue;
        }
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
        if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
            out.errors << QCoreApplication::translate("kvlens::ui", "%1: not a saved run (%2)")
                              .arg(name, pe.error != QJsonParseError::NoError ? pe.errorString() : QCoreApplication::translate("kvlens::ui", "not an object"));
            continue;
        }
        out.runs.append(doc.object());
    }
    return out;
}

}  // namespace kvlens::ui
