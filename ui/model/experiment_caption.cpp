// SPDX-License-Identifier: Apache-2.0
// Experiment captions from the runs' measured figures.
#include "ui/model/experiment_caption.h"

#include <QCoreApplication>
#include <QLocale>

#include "ui/model/format.h"
#include "ui/model/run_record.h"

namespace kvlens::ui {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }
QString arrow(const QString& a, const QString& b) { return a + QStringLiteral(" → ") + b; }
QString ttft(const RunRecord& r) { return formatMs(r.figures().ttft_ms); }
QString decode(const RunRecord& r) { return formatMs(r.figures().decode_ms); }

}  // namespace

QString experimentCaption(const RunRecord& run, const RunRecord& parent, const QVector<const RunRecord*>& siblings)
{
    if (!run.hasFigures() || !parent.hasFigures())
        return {};
    const RunFigures& f = run.figures();
    const RunFigures& pf = parent.figures();
    switch (run.config().experiment) {
    case Experiment::None: return {};
    case Experiment::FollowUp:
        return tr("TTFT %1: %2 of %3 prompt tokens came from the prefix cache")
            .arg(arrow(ttft(parent), ttft(run)), formatCount(f.cached_tokens), formatCount(f.prompt_tokens));
    case Experiment::BrokenCache:
        return tr("TTFT %1: %2 of %3 prompt tokens came from the prefix cache (a timestamp changed the first block)")
            .arg(arrow(ttft(parent), ttft(run)), formatCount(f.cached_tokens), formatCount(f.prompt_tokens));
    case Experiment::HalfDocument:
        return tr("Prompt %1 tokens, run cold: TTFT %2, prefill %3")
            .arg(arrow(formatCount(pf.prompt_tokens), formatCount(f.prompt_tokens)), arrow(ttft(parent), ttft(run)),
                 arrow(formatMs(pf.prefill_ms), formatMs(f.prefill_ms)));
    case Experiment::LongerAnswer:
    case Experiment::ShorterAnswer:
        return tr("Answer %1 tokens: decode time %2, while TTFT %3")
            .arg(arrow(formatCount(pf.generated_tokens), formatCount(f.generated_tokens)),
                 arrow(decode(parent), decode(run)), arrow(ttft(parent), ttft(run)));
    case Experiment::KvOff: {
        const QString recomputed = formatCount(f.recomputed_tokens);
        return tr("KV off: no cache kept (peak %1), %2 tokens recomputed by the decode steps; "
                  "decode %3, time per token %4")
            .arg(formatBytes(double(f.kv_bytes_peak)), recomputed,
                 arrow(formatTokS(pf.decode_tok_s), formatTokS(f.decode_tok_s)),
                 arrow(formatMs(pf.tpot_ms), formatMs(f.tpot_ms)));
    }
    case Experiment::KvQ8:
        return tr("KV as q8_0: %1 per token, peak %2; decode %3")
            .arg(arrow(formatBytes(double(parent.kvBytesPerToken())), formatBytes(double(run.kvBytesPerToken()))),
                 arrow(formatBytes(double(pf.kv_bytes_peak)), formatBytes(double(f.kv_bytes_peak))),
                 arrow(formatTokS(pf.decode_tok_s), formatTokS(f.decode_tok_s)));
    case Experiment::Speculative: {
        // Greedy text is the same with and without drafts; say what was measured.
        const QString same = run.text() == parent.text() ? tr("the same answer") : tr("a different answer (sampling)");
        const QString speed = arrow(formatTokS(pf.decode_tok_s), formatTokS(f.decode_tok_s));
        if (run.config().engine.isRemote())
            return tr("Speculative decoding runs on the local engine only: the server decoded as it does (%1)")
                .arg(speed);
        if (f.draft_steps == 0)
            return tr("Without drafts: decode %1, time per token %2; %3")
                .arg(speed, arrow(formatMs(pf.tpot_ms), formatMs(f.tpot_ms)), same);
        return tr("Speculative decoding: %1 of %2 draft tokens accepted, %3 tokens per step; decode %4; %5")
            .arg(formatCount(f.accepted_tokens), formatCount(f.draft_tokens),
                 QLocale().toString(f.mean_acceptance_length, 'f', 2), speed, same);
    }
    case Experiment::Concurrent: {
        qint64 total = f.kv_bytes_peak;
        QStringList queues{formatMs(f.queue_ms)};
        for (const RunRecord* s : siblings) {
            if (!s->hasFigures())
                return {};
            total += s->figures().kv_bytes_peak;
            queues << formatMs(s->figures().queue_ms);
        }
        return tr("%1 requests at once: KV %2 together (one alone: %3); queue %4")
            .arg(siblings.size() + 1)
            .arg(formatBytes(double(total)), formatBytes(double(pf.kv_bytes_peak)), queues.join(QStringLiteral(", ")));
    }
    }
    return {};
}

}  // namespace kvlens::ui
