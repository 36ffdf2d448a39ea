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

void RunRecord::ingest(const RunEvent& e)
{
    if (state_ == State::Finished)
        return;
    events_.append(e);
    switch (e.kind) {
    case RunEvent::Kind::Queued:
        promptTokens_ = e.promptTokens;
        state_ = State::Queued;
        break;
    case RunEvent::Kind::Started:
        queueMs_ = e.queueMs;
        lastMs_ = std::max(lastMs_, e.queueMs);
        state_ = State::Prefill;
        break;
    case RunEvent::Kind::PrefillChunk:
        prefill_.append(e.prefill);
        if (promptTokens_ == 0)
            promptTokens_ = e.prefill.tokensTotal;
        lastMs_ = std::max(lastMs_, e.prefill.tMs);
        state_ = State::Prefill;
        break;
    case RunEvent::Kind::FirstToken:
        ttftMs_ = e.ttftMs;
        lastMs_ = std::max(lastMs_, e.ttftMs);
        state_ = State::Decode;
        break;
    case RunEvent::Kind::Token:
        tokens_.append(e.token);
        text_ += e.token.text;
        lastMs_ = std::max(lastMs_, e.token.tMs);
        state_ = State::Decode;
        break;
    case RunEvent::Kind::Done:
        state_ = State::Finished;
        reason_ = e.reason;
        error_ = e.error;
        if (!e.text.isEmpty() || tokens_.isEmpty())
            text_ = e.text;
        figures_ = e.figures;
        hasFigures_ = true;
        if (promptTokens_ == 0)
            promptTokens_ = figures_.promptTokens;
        lastMs_ = std::max(lastMs_, figures_.e2eMs);
        break;
    }
}

int RunRecord::cachedTokens() const
{
    if (hasFigures_)
        return figures_.cachedTokens;
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
    if (hasFigures_ && figures_.prefillTokS > 0)
        return figures_.prefillTokS;
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
    const double rate = prefillTokPerSecond();
    if (rate <= 0 || prefill_.isEmpty())
        return -1;
    const int left = prefill_.last().tokensTotal - prefill_.last().tokensDone;
    return left * 1000.0 / rate;
}

double RunRecord::decodeTokPerSecond() const
{
    if (hasFigures_ && figures_.decodeTokS > 0)
        return figures_.decodeTokS;
    if (tokens_.size() < 2)
        return 0;
    const double ms = tokens_.last().tMs - tokens_.first().tMs;
    return ms > 0 ? (tokens_.size() - 1) * 1000.0 / ms : 0;
}

QVector<double> RunRecord::movingAverageLatency(int window) const
{
    QVector<double> out;
    out.reserve(tokens_.size());
    window = std::max(window, 1);
    double sum = 0;
    for (int i = 0; i < tokens_.size(); ++i) {
        sum += tokens_[i].latencyMs;
        if (i >= window)
            sum -= tokens_[i - window].latencyMs;
        out.append(sum / std::min(i + 1, window));
    }
    return out;
}

TtftParts RunRecord::ttftParts() const
{
    TtftParts p;
    if (hasFigures_ && figures_.ttftMs > 0) {
        p.queueMs = figures_.queueMs;
        p.tokenizeMs = figures_.tokenizeMs;
        p.prefillMs = figures_.prefillMs;
        p.sampleMs = std::max(0.0, figures_.ttftMs - p.queueMs - p.tokenizeMs - p.prefillMs);
        return p;
    }
    p.queueMs = queueMs_;
    if (prefill_.isEmpty())
        return p;
    const double prefillStart = prefill_.first().tMs - prefill_.first().chunkMs;
    p.tokenizeMs = std::max(0.0, prefillStart - queueMs_);
    p.prefillMs = std::max(0.0, prefill_.last().tMs - prefillStart);
    if (hasFirstToken())
        p.sampleMs = std::max(0.0, ttftMs_ - prefill_.last().tMs);
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

QVector<QPointF> RunRecord::kvPoints(KvKind kind) const
{
    QVector<QPointF> pts;
    pts.reserve(tokens_.size());
    for (const TokenStep& t : tokens_) {
        qint64 b = t.kv.logicalBytes;
        if (kind == KvKind::Allocated)
            b = t.kv.allocatedBytes;
        else if (kind == KvKind::Reserved)
            b = t.kv.reservedBytes;
        pts.append(QPointF(double(t.kv.tokens), double(b)));
    }
    return pts;
}

qint64 RunRecord::kvPeakBytes(KvKind kind) const
{
    qint64 peak = 0;
    for (const QPointF& p : kvPoints(kind))
        peak = std::max(peak, qint64(p.y()));
    return peak;
}

}  // namespace kvlens::ui
