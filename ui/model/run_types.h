// SPDX-License-Identifier: Apache-2.0
// Plain Qt value types that carry the engine's events (engine/metrics/events.h)
// across threads by queued signals and into the run records. No widgets, no
// engine types: the GUI side of the event stream. Times are milliseconds since
// the request's submission; sizes are bytes.
#pragma once

#include <QMetaType>
#include <QString>
#include <QVector>

namespace kvlens::ui {

// One prefill chunk finished.
struct PrefillProgress {
    int tokensDone = 0;     // prompt tokens whose KV is held (cached included)
    int tokensTotal = 0;    // prompt tokens
    int cachedTokens = 0;   // prompt tokens reused from the prefix cache
    double chunkMs = 0;     // wall time of this chunk's forward pass, ms
    double tMs = 0;         // since submission, at the end of the chunk, ms
};

// The KV cache of one request after a decode step, bytes.
struct KvSnapshot {
    qint64 tokens = 0;          // tokens whose K/V are held
    qint64 logicalBytes = 0;    // sum over layers of 2*n_kv_heads*head_dim*bytes/elt*tokens
    qint64 allocatedBytes = 0;  // whole blocks in use
    qint64 reservedBytes = 0;   // what the KV mode set aside
};

// One generated token.
struct TokenStep {
    int index = 0;          // 0-based among generated tokens
    qint32 id = 0;          // token id
    QString text;           // complete UTF-8 text of the token (may be empty)
    double latencyMs = 0;   // since the previous token; index 0: since submission, ms
    double tMs = 0;         // since submission, ms
    bool visible = true;    // false inside hidden reasoning
    KvSnapshot kv;
};

// The figures of a finished request (docs/design.md, "Events and figures").
struct RunFigures {
    int promptTokens = 0;
    int cachedTokens = 0;
    int computedTokens = 0;
    int generatedTokens = 0;
    double queueMs = 0;
    double tokenizeMs = 0;
    double prefillMs = 0;
    double ttftMs = 0;
    double ttftVisibleMs = 0;
    double decodeMs = 0;
    double e2eMs = 0;
    double prefillTokS = 0;     // computed tokens / prefill time, tok/s
    double decodeTokS = 0;      // (generated - 1) / decode time, tok/s
    double tpotMs = 0;          // ms per output token after the first
    qint64 kvBytesPeak = 0;
    qint64 deviceMemoryPeak = 0;
    double prefillFlop = 0;     // FLOP counted for the prefill
    double prefillFlopS = 0;    // achieved FLOP/s
    double decodeBytes = 0;     // bytes read by the decode steps
    double decodeBytesS = 0;    // achieved bytes/s
};

enum class FinishReason { None, Stop, Length, Cancelled, Error };
QString finishReasonName(FinishReason r);   // "stop", "length", ... ("" for None)

// One event of one run, flattened so that a batch is a QVector. Only the
// fields of `kind` are meaningful.
struct RunEvent {
    enum class Kind { Queued, Started, PrefillChunk, FirstToken, Token, Done };
    Kind kind = Kind::Queued;
    int runId = 0;              // the window's run id (not the engine's request id)
    int promptTokens = 0;       // Queued
    double queueMs = 0;         // Started
    PrefillProgress prefill;    // PrefillChunk
    double ttftMs = 0;          // FirstToken
    TokenStep token;            // FirstToken (index 0, id, text) and Token
    FinishReason reason = FinishReason::None;  // Done
    QString error;              // Done, reason Error
    QString text;               // Done: the whole generated text
    RunFigures figures;         // Done
};
QString eventKindName(RunEvent::Kind k);    // "queued", "started", "prefill_chunk", ...

// Memory of the engine while a run goes on, bytes.
struct MemorySnapshot {
    qint64 weightBytes = 0;     // model weights as stored on the backend
    qint64 kvPoolBytes = 0;     // the KV pool set aside
    qint64 scratchBytes = 0;    // activations and work buffers
};

}  // namespace kvlens::ui

Q_DECLARE_METATYPE(kvlens::ui::RunEvent)
Q_DECLARE_METATYPE(kvlens::ui::MemorySnapshot)
