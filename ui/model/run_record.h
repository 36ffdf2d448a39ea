// SPDX-License-Identifier: Apache-2.0
// RunRecord: everything one run produced, built by ingesting its events in
// order, plus the series the charts plot (prefill progress over time, per-token
// latency and its moving average, KV bytes per token held, the TTFT parts).
// No widgets: tests feed it hand-made event sequences.
#pragma once

#include <QDateTime>
#include <QPointF>
#include <QString>
#include <QVector>

#include "ui/model/run_config.h"
#include "ui/model/run_types.h"

namespace kvlens::ui {

// TTFT split into its parts, ms, each measured by the engine between two
// moments: arrival -tokenize-> tokenized -queue-> scheduled -prefill-> prefill
// done -sample-> first token sampled. Live (from the started and chunk events)
// before the first token; the first token's and the figures' afterwards.
struct TtftParts {
    double queueMs = 0;         // tokenized -> scheduled (vLLM: request_queue_time)
    double tokenizeMs = 0;      // arrival -> tokenized (chat template + tokenizer)
    double prefillMs = 0;       // scheduled -> last prefill chunk done
    double sampleMs = 0;        // last prefill chunk done -> first token sampled
    double total() const { return queueMs + tokenizeMs + prefillMs + sampleMs; }
};

class RunRecord {
public:
    enum class State { Waiting, Queued, Prefill, Decode, Finished };

    RunRecord(int id, RunConfig config);

    int id() const { return id_; }
    const RunConfig& config() const { return config_; }
    QString label() const { return runLabel(id_, config_); }
    QDateTime createdAt() const { return createdAt_; }
    void setCreatedAt(const QDateTime& t) { createdAt_ = t; }   // a run read back from the saved history

    // Events must come in the engine's order; an event after Done is ignored.
    void ingest(const RunEvent& e);
    void setMemory(const MemorySnapshot& m) { memory_ = m; }
    void setKvBytesPerToken(qint64 bytes) { kvBytesPerToken_ = bytes; }
    void setSubmitError(const QString& message);  // the run never reached the engine

    State state() const { return state_; }
    bool isFinished() const { return state_ == State::Finished; }
    FinishReason finishReason() const { return reason_; }
    QString error() const { return error_; }
    // The answer so far (tokens joined); the whole text once done.
    QString text() const { return text_; }

    int promptTokens() const { return promptTokens_; }
    int cachedTokens() const;
    double queueMs() const { return queueMs_; }
    bool hasFirstToken() const { return ttftMs_ >= 0; }
    double ttftMs() const { return ttftMs_; }
    double lastEventMs() const { return lastMs_; }
    const QVector<PrefillProgress>& prefill() const { return prefill_; }
    const QVector<TokenStep>& tokens() const { return tokens_; }
    const QVector<RunEvent>& events() const { return events_; }
    bool hasFigures() const { return hasFigures_; }
    const RunFigures& figures() const { return figures_; }
    const MemorySnapshot& memory() const { return memory_; }
    qint64 kvBytesPerToken() const { return kvBytesPerToken_; }

    // Prefill: fraction done in 0..1, computed tokens per second so far, and
    // the estimated time left (ms, -1 while unknown).
    double prefillFraction() const;
    double prefillTokPerSecond() const;
    double prefillEtaMs() const;

    // Decode: tokens per second over the tokens after the first (0 if < 2).
    double decodeTokPerSecond() const;
    // Mean of the last `window` latencies at each token from `from` on (the
    // latency chart starts at 1: the first token's latency is the TTFT), ms.
    QVector<double> movingAverageLatency(int window, int from = 0) const;
    TtftParts ttftParts() const;
    // Hidden reasoning (<think>…</think>): the generated tokens inside it, and
    // the first token with visible text after it: its index (-1 none yet) and
    // its time since arrival (the figures' ttft_visible_ms once done; -1 none).
    int hiddenTokens() const;
    // Speculative decoding: the generated tokens that were accepted drafts.
    int draftedTokens() const;
    int firstVisibleIndex() const;
    double firstVisibleMs() const;

    // Chart series: (t ms, tokens done), (token index, latency ms) and
    // (tokens held, bytes) for the logical, allocated and reserved KV.
    QVector<QPointF> prefillPoints() const;
    QVector<QPointF> latencyPoints() const;
    // KV points from the first prefill chunk on (from 0), or only the decode
    // steps (the zoom); none in KV mode "off", which keeps no cache.
    // LocalLogical / GlobalLogical: the logical bytes of the sliding-window
    // layers and of the full-attention ones (a model with both: Gemma 3),
    // against the tokens the request holds.
    enum class KvKind { Logical, Allocated, Reserved, LocalLogical, GlobalLogical };
    QVector<QPointF> kvPoints(KvKind kind, bool decodeOnly = false) const;
    // Whether the run's KV figures are split by layer group (local layers present).
    bool hasKvGroups() const;
    // Whether its local group is LFM2's convolution rows rather than windowed attention.
    bool kvLocalIsConv() const;
    // KV off: (token index, tokens recomputed by that step).
    QVector<QPointF> recomputedPoints() const;
    qint64 kvPeakBytes(KvKind kind) const;

private:
    void take(const kvlens::event_queued& e);
    void take(const kvlens::event_started& e);
    void take(const kvlens::event_prefill_chunk& e);
    void take(const kvlens::event_first_token& e);
    void take(const kvlens::event_token& e);
    void take(const kvlens::event_done& e);

    int id_ = 0;
    RunConfig config_;
    QDateTime createdAt_;
    State state_ = State::Waiting;
    FinishReason reason_ = FinishReason::None;
    QString error_;
    QString text_;
    int promptTokens_ = 0;
    double queueMs_ = 0;
    double tokenizeMs_ = 0;
    double scheduledMs_ = -1;            // arrival -> scheduled, from the started event
    TtftParts firstTokenParts_;          // the first token event's measured segments
    double ttftMs_ = -1;
    double lastMs_ = 0;
    QVector<PrefillProgress> prefill_;   // one per chunk, in order
    QVector<TokenStep> tokens_;          // one per generated token, in order
    QVector<RunEvent> events_;           // every event, for run.json
    bool hasFigures_ = false;
    RunFigures figures_;
    MemorySnapshot memory_;
    qint64 kvBytesPerToken_ = 0;         // the formula's bytes per token (all layers, K and V)
};

}  // namespace kvlens::ui
