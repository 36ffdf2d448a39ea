// SPDX-License-Identifier: Apache-2.0
// RunRecord: ingesting events and deriving the chart series.
#include "ui/model/run_record.h"

#include <algorithm>

namespace kvlens::ui {

RunRecord::RunRecord(int id, RunConfig config)
    : id_(id), config_(std::move(config)), createdAt_(QDateTime::currentDateTime())
{
}

void RunRecord::setSubmitError(const QString& message)
{
    if (state_ == State::Finished)
        return;
    state_ = State::Finished;
    reason_ = FinishReason::Error;
    error_ = message;
}

void RunRecord::ingest(const RunEvent& ev)
{
    if (state_ == State::Finished)
        return;
    events_.append(ev);
    std::visit([this](const auto& e) { take(e); }, ev.event);
}

void RunRecord::take(const kvlens::event_queued& e)
{
    promptTokens_ = e.prompt_tokens;
    state_ = State::Queued;
}

void RunRecord::take(const kvlens::event_started& e)
{
    queueMs_ = e.queue_ms;
    tokenizeMs_ = e.tokenize_ms;
    scheduledMs_ = e.t_ms;
    lastMs_ = std::max(lastMs_, e.t_ms);
    state_ = State::Prefill;
}

void RunRecord::take(const kvlens::event_prefill_chunk& e)
{
    prefill_.append({e.tokens_done, e.tokens_total, e.cached_tokens, e.chunk_ms, e.t_ms,
                     kvSnapshotOf(e)});
    if (promptTokens_ == 0)
        promptTokens_ = e.tokens_total;
    lastMs_ = std::max(lastMs_, e.t_ms);
    state_ = State::Prefill;
}

void RunRecord::take(const kvlens::event_first_token& e)
{
    ttftMs_ = e.ttft_ms;
    firstTokenParts_ = {e.queue_ms, e.tokenize_ms, e.prefill_ms, e.first_sample_ms};
    lastMs_ = std::max(lastMs_, e.ttft_ms);
    state_ = State::Decode;
}

void RunRecord::take(const kvlens::event_token& e)
{
    TokenStep t;
    t.index = e.index;
    t.id = e.id;
    t.text = fromEngineText(e.text);
    t.latencyMs = e.latency_ms;
    t.tMs = e.t_ms;
    t.visible = e.visible;
    t.kv = kvSnapshotOf(e);
    t.recomputedTokens = e.recomputed_tokens;
    t.drafted = e.drafted;
    tokens_.append(t);
    text_ += t.text;
    lastMs_ = std::max(lastMs_, e.t_ms);
    state_ = State::Decode;
}

void RunRecord::take(const kvlens::event_done& e)
{
    state_ = State::Finished;
    reason_ = toFinishReason(e.reason);
    error_ = fromEngineText(e.error);
    if (!e.text.empty() || tokens_.isEmpty())
        text_ = fromEngineText(e.text);
    figures_ = e.figures;
    hasFigures_ = true;
    if (promptTokens_ == 0)
        promptTokens_ = figures_.prompt_tokens;
    lastMs_ = std::max(lastMs_, figures_.e2e_ms);
}

int RunRecord::cachedTokens() const
{
    if (hasFigures_)
        return figures_.cached_tokens;
    return prefill_.isEmpty() ? 0 : prefill_.last().cachedTokens;
}

double RunRecord::prefillFraction() const
{
    if (state_ == State::Decode || (state_ == State::Finished && hasFirstToken()))
        return 1.0;
    if (prefill_.isEmpty() || prefill_.last().tokensTotal <= 0)
        return 0.0;
    return std::clamp(double(prefill_.last().tokensDone) / prefill_.last().tokensTotal, 0.0, 1.0);
}

double RunRecord::prefillTokPerSecond() const
{
    if (hasFigures_ && figures_.prefill_tok_s > 0)
        return figures_.prefill_tok_s;
    double ms = 0;
    for (const PrefillProgress& p : prefill_)
        ms += p.chunkMs;
    if (prefill_.isEmpty() || ms <= 0)
        return 0;
    const int computed = prefill_.last().tokensDone - prefill_.last().cachedTokens;
    return computed > 0 ? computed * 1000.0 / ms : 0;
}

double RunRecord::prefillEtaMs() const
{
    if (prefillFraction() >= 1.0)
        return 0;
    if (prefill_.isEmpty())
        return -1;
    // A chunk's cost grows with its position (attention reads every earlier
    // token), so the time per token is fitted as a + b * position over the
    // chunks measured so far, and summed over the tokens left. With one chunk
    // only the constant rate is known.
    const PrefillProgress& last = prefill_.last();
    const int left = last.tokensTotal - last.tokensDone;
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    int start = prefill_.first().cachedTokens;
    for (const PrefillProgress& p : prefill_) {
        const int tokens = p.tokensDone - start;
        if (tokens > 0 && p.chunkMs > 0) {
            const double x = 0.5 * (start + p.tokensDone);   // the chunk's mid position
            const double y = p.chunkMs / tokens;             // ms per token
            n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
        }
        start = p.tokensDone;
    }
    if (n == 0)
        return -1;
    double a = sy / n, b = 0;
    const double den = n * sxx - sx * sx;
    if (n >= 2 && den > 0) {
        b = std::max(0.0, (n * sxy - sx * sy) / den);
        a = (sy - b * sx) / n;
    }
    const double mid = last.tokensDone + 0.5 * left;
    return std::max(0.0, left * (a + b * mid));
}

double RunRecord::decodeTokPerSecond() const
{
    if (hasFigures_ && figures_.decode_tok_s > 0)
        return figures_.decode_tok_s;
    if (tokens_.size() < 2)
        return 0;
    const double ms = tokens_.last().tMs - tokens_.first().tMs;
    return ms > 0 ? (tokens_.size() - 1) * 1000.0 / ms : 0;
}

QVector<double> RunRecord::movingAverageLatency(int window, int from) const
{
    QVector<double> out;
    from = std::max(from, 0);
    out.reserve(std::max<qsizetype>(0, tokens_.size() - from));
    window = std::max(window, 1);
    double sum = 0;
    for (int i = from; i < tokens_.size(); ++i) {
        sum += tokens_[i].latencyMs;
        if (i - from >= window)
            sum -= tokens_[i - window].latencyMs;
        out.append(sum / std::min(i - from + 1, window));
    }
    return out;
}

TtftParts RunRecord::ttftParts() const
{
    // Every part is measured by the engine at its own boundaries (arrival,
    // tokenized, scheduled, prefill done, first token sampled); none is a
    // remainder. Before the first token, prefill is the time since scheduled
    // up to the latest chunk, as seen so far.
    if (hasFigures_ && figures_.ttft_ms > 0)
        return {figures_.queue_ms, figures_.tokenize_ms, figures_.prefill_ms, figures_.first_sample_ms};
    if (hasFirstToken())
        return firstTokenParts_;
    TtftParts p;
    p.queueMs = queueMs_;
    p.tokenizeMs = tokenizeMs_;
    if (!prefill_.isEmpty() && scheduledMs_ >= 0)
        p.prefillMs = std::max(0.0, prefill_.last().tMs - scheduledMs_);
    return p;
}

QVector<QPointF> RunRecord::prefillPoints() const
{
    QVector<QPointF> pts;
    if (prefill_.isEmpty())
        return pts;
    // The curve starts where the prefill started, at the cached tokens.
    const PrefillProgress& first = prefill_.first();
    pts.append(QPointF(std::max(0.0, first.tMs - first.chunkMs), first.cachedTokens));
    for (const PrefillProgress& p : prefill_)
        pts.append(QPointF(p.tMs, p.tokensDone));
    return pts;
}

QVector<QPointF> RunRecord::latencyPoints() const
{
    QVector<QPointF> pts;
    pts.reserve(tokens_.size());
    for (const TokenStep& t : tokens_)
        pts.append(QPointF(t.index, t.latencyMs));
    return pts;
}

QVector<QPointF> RunRecord::kvPoints(KvKind kind, bool decodeOnly) const
{
    auto bytes = [kind](const KvSnapshot& kv) {
        switch (kind) {
        case KvKind::Allocated: return kv.allocatedBytes;
        case KvKind::Reserved: return kv.reservedBytes;
        case KvKind::LocalLogical: return kv.localBytes;
        case KvKind::GlobalLogical: return kv.globalBytes;
        case KvKind::Logical: break;
        }
        return kv.logicalBytes;
    };
    QVector<QPointF> pts;
    pts.reserve(prefill_.size() + tokens_.size() + 1);
    // KV grows as it happens: from nothing, chunk by chunk through the
    // prefill, then step by step. KV off keeps nothing: no points at all.
    if (!decodeOnly) {
        bool any = false;
        for (const PrefillProgress& p : prefill_) {
            if (p.kv.tokens <= 0 && bytes(p.kv) <= 0)
                continue;
            if (!any) {
                pts.append(QPointF(0, 0));
                any = true;
            }
            pts.append(QPointF(double(p.kv.tokens), double(bytes(p.kv))));
        }
    }
    for (const TokenStep& t : tokens_) {
        if (t.kv.tokens <= 0 && bytes(t.kv) <= 0)
            continue;
        pts.append(QPointF(double(t.kv.tokens), double(bytes(t.kv))));
    }
    return pts;
}

int RunRecord::hiddenTokens() const
{
    int n = 0;
    for (const TokenStep& t : tokens_)
        n += t.visible ? 0 : 1;
    return n;
}

int RunRecord::draftedTokens() const
{
    int n = 0;
    for (const TokenStep& t : tokens_)
        n += t.drafted ? 1 : 0;
    return n;
}

// The engine's rule (engine_impl: first_visible_ms): the first visible token with text.
int RunRecord::firstVisibleIndex() const
{
    for (const TokenStep& t : tokens_) {
        if (t.visible && !t.text.isEmpty())
            return t.index;
    }
    return -1;
}

double RunRecord::firstVisibleMs() const
{
    if (hasFigures_ && figures_.ttft_visible_ms > 0)
        return figures_.ttft_visible_ms;
    for (const TokenStep& t : tokens_) {
        if (t.visible && !t.text.isEmpty())
            return t.tMs;
    }
    return -1;
}

bool RunRecord::kvLocalIsConv() const
{
    for (const PrefillProgress& p : prefill_) {
        if (p.kv.localIsConv)
            return true;
    }
    for (const TokenStep& t : tokens_) {
        if (t.kv.localIsConv)
            return true;
    }
    return false;
}

bool RunRecord::hasKvGroups() const
{
    for (const PrefillProgress& p : prefill_) {
        if (p.kv.hasGroups())
            return true;
    }
    for (const TokenStep& t : tokens_) {
        if (t.kv.hasGroups())
            return true;
    }
    return false;
}

QVector<QPointF> RunRecord::recomputedPoints() const
{
    QVector<QPointF> pts;
    for (const TokenStep& t : tokens_) {
        if (t.recomputedTokens > 0)
            pts.append(QPointF(t.index, double(t.recomputedTokens)));
    }
    return pts;
}

qint64 RunRecord::kvPeakBytes(KvKind kind) const
{
    qint64 peak = 0;
    for (const QPointF& p : kvPoints(kind, false))
        peak = std::max(peak, qint64(p.y()));
    return peak;
}

}  // namespace kvlens::ui
