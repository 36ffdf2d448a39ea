// SPDX-License-Identifier: Apache-2.0
// Parser of the compact event scripts (see event_script.h).
#include "event_script.h"

#include <QHash>
#include <QStringList>

namespace kvlens::test {

using kvlens::ui::RunEvent;

namespace {

QString unescape(QString s)
{
    s.replace(QStringLiteral("\\s"), QStringLiteral(" "));
    s.replace(QStringLiteral("\\n"), QStringLiteral("\n"));
    s.replace(QStringLiteral("\\c"), QStringLiteral(","));
    return s;
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
        const auto request = kvlens::request_id(runId);
        const QString& kind = words[0];
        auto text = [&kv](const char* k) { return kv.value(QLatin1String(k)).toStdString(); };
        // The per-group KV of a sliding-window model: local=tokens lbytes= gbytes= lalloc= galloc=.
        auto groups = [&n]() {
            kvlens::kv_groups g{n("local"), n("lbytes"), n("lalloc"), n("global"), n("gbytes"), n("galloc")};
            g.local_is_conv = n("lconv") != 0;   // lconv=1: LFM2's convolution rows
            return g;
        };
        if (kind == QLatin1String("queued")) {
            e.event = kvlens::event_queued{request, int(n("prompt"))};
        } else if (kind == QLatin1String("started")) {
            e.event = kvlens::event_started{request, d("queue"), d("tokenize"), d("t")};
        } else if (kind == QLatin1String("chunk")) {
            kvlens::event_prefill_chunk c{request, int(n("done")), int(n("total")), int(n("cached")), d("ms"), d("t")};
            c.kv_tokens = n("kv");
            c.kv_bytes = n("bytes");
            c.kv_allocated_bytes = n("alloc");
            c.kv_reserved_bytes = n("res");
            c.kv_group = groups();
            e.event = c;
        } else if (kind == QLatin1String("first")) {
            kvlens::event_first_token f{request, d("ttft"), qint32(n("id")), text("text")};
            f.tokenize_ms = d("tokenize");
            f.queue_ms = d("queue");
            f.prefill_ms = d("prefill");
            f.first_sample_ms = d("sample");
            e.event = f;
        } else if (kind == QLatin1String("token")) {
            kvlens::event_token t;
            t.request = request;
            t.index = int(n("i"));
            t.id = qint32(n("id"));
            t.text = text("text");
            t.latency_ms = d("lat");
            t.t_ms = d("t");
            t.visible = kv.value(QStringLiteral("visible"), QStringLiteral("1")) == QLatin1String("1");
            t.kv_tokens = n("kv");
            t.kv_bytes = n("bytes");
            t.kv_allocated_bytes = n("alloc");
            t.kv_reserved_bytes = n("res");
            t.recomputed_tokens = n("recomputed");
            t.drafted = kv.value(QStringLiteral("drafted")) == QLatin1String("1");
            t.kv_group = groups();
            e.event = t;
        } else if (kind == QLatin1String("done")) {
            kvlens::event_done done;
            done.request = request;
            done.reason = reasonOf(kv.value(QStringLiteral("reason")));
            done.error = text("error");
            done.text = text("text");
            auto& f = done.figures;
            f.prompt_tokens = int(n("prompt"));
            f.cached_tokens = int(n("cached"));
            f.computed_tokens = int(n("computed"));
            f.generated_tokens = int(n("generated"));
            f.queue_ms = d("queue");
            f.tokenize_ms = d("tokenize");
            f.prefill_ms = d("prefill");
            f.first_sample_ms = d("sample");
            f.ttft_ms = d("ttft");
            f.decode_ms = d("decode");
            f.e2e_ms = d("e2e");
            f.prefill_tok_s = d("prefill_tok_s");
            f.decode_tok_s = d("decode_tok_s");
            f.tpot_ms = d("tpot");
            f.prefill_forward_ms = d("prefill_forward");
            f.ttft_visible_ms = d("ttft_visible");
            f.draft_steps = int(n("draft_steps"));
            f.draft_tokens = int(n("draft_tokens"));
            f.accepted_tokens = int(n("accepted"));
            f.acceptance_rate = d("acceptance_rate");
            f.mean_acceptance_length = d("acceptance_length");
            e.event = std::move(done);
        } else {
            continue;
        }
        out.append(e);
    }
    return out;
}

}  // namespace kvlens::test
