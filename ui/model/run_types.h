// SPDX-License-Identifier: Apache-2.0
// What crosses from the engine's thread to the window: the engine's own event
// structs (engine/metrics/events.h), registered as a Qt metatype and tagged
// with the window's run id, so no field is copied by hand into a Qt twin.
// Also the series points a run record derives from them for the charts. Times
// are milliseconds since the request's arrival; sizes are bytes.
#pragma once

#include <QMetaType>
#include <QString>
#include <QVector>
#include <variant>

#include "engine/metrics/events.h"

namespace kvlens::ui {

// The request's figures, computed once by the engine (metrics/figures_of).
using RunFigures = kvlens::request_figures;

// The KV cache of one request after a prefill chunk or a decode step, bytes.
struct KvSnapshot {
    qint64 tokens = 0;          // tokens whose K/V are held
    qint64 logicalBytes = 0;    // sum over layers of 2*n_kv_heads*head_dim*bytes/elt*tokens
    qint64 allocatedBytes = 0;  // whole blocks in use
    qint64 reservedBytes = 0;   // what the KV mode set aside
    // By layer group, for a model with sliding-window layers (all 0 without):
    // the local layers hold at most the window, the global layers every token.
    qint64 localTokens = 0;     // tokens each local layer holds
    qint64 localBytes = 0;      // logical bytes of the local layers
    qint64 globalBytes = 0;     // logical bytes of the global layers
    qint64 localAllocatedBytes = 0;
    qint64 globalAllocatedBytes = 0;
    bool localIsConv = false;   // LFM2: the local group is the convolutions' rows
    bool hasGroups() const { return localTokens > 0 || localBytes > 0; }
};
// The snapshot an event carries (prefill_chunk and token events).
template <class Event> KvSnapshot kvSnapshotOf(const Event& e)
{
    return {e.kv_tokens, e.kv_bytes, e.kv_allocated_bytes, e.kv_reserved_bytes,
            e.kv_group.local_tokens, e.kv_group.local_bytes, e.kv_group.global_bytes,
            e.kv_group.local_allocated_bytes, e.kv_group.global_allocated_bytes, e.kv_group.local_is_conv};
}

// One prefill chunk finished (a point of the prefill and KV charts).
struct PrefillProgress {
    int tokensDone = 0;     // prompt tokens whose KV is held (cached included)
    int tokensTotal = 0;    // prompt tokens
    int cachedTokens = 0;   // prompt tokens reused from the prefix cache
    double chunkMs = 0;     // wall time of this chunk's forward pass, ms
    double tMs = 0;         // since arrival, at the end of the chunk, ms
    KvSnapshot kv;          // the request's KV after the chunk
};

// One generated token (a point of the latency and KV charts).
struct TokenStep {
    int index = 0;          // 0-based among generated tokens
    qint32 id = 0;          // token id
    QString text;           // complete UTF-8 text of the token (may be empty)
    double latencyMs = 0;   // since the previous token; index 0: since arrival, ms
    double tMs = 0;         // since arrival, ms
    bool visible = true;    // false inside hidden reasoning
    KvSnapshot kv;
    qint64 recomputedTokens = 0;   // KV off: tokens this step ran again
    bool drafted = false;   // speculative decoding: an accepted draft token, no step of its own
};

enum class FinishReason { None, Stop, Length, Cancelled, Error };
QString finishReasonName(FinishReason r);   // "stop", "length", ... ("" for None)
FinishReason toFinishReason(kvlens::finish_reason r);

// One engine event of one run. A batch is a QVector of them.
struct RunEvent {
    enum class Kind { Queued, Started, PrefillChunk, FirstToken, Token, Done };
    int runId = 0;              // the window's run id (not the engine's request id)
    kvlens::event event;        // the engine's struct, as emitted

    Kind kind() const { return Kind(event.index()); }
    template <class T> const T* as() const { return std::get_if<T>(&event); }
};
QString eventKindName(RunEvent::Kind k);    // "queued", "started", "prefill_chunk", ...
// UTF-8 from the engine as a QString.
inline QString fromEngineText(const std::string& s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

// Memory of the engine while a run goes on, bytes.
struct MemorySnapshot {
    qint64 weightBytes = 0;     // model weights as stored on the backend
    qint64 kvPoolBytes = 0;     // the KV pool set aside
    qint64 scratchBytes = 0;    // activations and work buffers
    // Where they live (engine::device_memory): the device's name, and on a
    // GPU its free and total memory when the run started (0: host memory).
    QString device;             // "NVIDIA H200, 140 GiB, sm_90"; "" or "host memory"
    bool onDevice = false;
    qint64 deviceFreeBytes = 0;
    qint64 deviceTotalBytes = 0;
    QString fallback;           // why CUDA was asked for and the CPU runs (engine::backend_fallback), with sizes
};

}  // namespace kvlens::ui

Q_DECLARE_METATYPE(kvlens::ui::RunEvent)
Q_DECLARE_METATYPE(kvlens::ui::MemorySnapshot)
