// SPDX-License-Identifier: Apache-2.0
// Engine events -> RunEvent.
#include "ui/model/event_convert.h"

#include <type_traits>

namespace kvlens::ui {

namespace {

QString fromUtf8(const std::string& s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

FinishReason toReason(kvlens::finish_reason r)
{
    switch (r) {
    case kvlens::finish_reason::stop: return FinishReason::Stop;
    case kvlens::finish_reason::length: return FinishReason::Length;
    case kvlens::finish_reason::cancelled: return FinishReason::Cancelled;
    case kvlens::finish_reason::error: return FinishReason::Error;
    }
    return FinishReason::Error;
}

}  // namespace

RunFigures toRunFigures(const kvlens::request_figures& f)
{
    RunFigures r;
    r.promptTokens = f.prompt_tokens;
    r.cachedTokens = f.cached_tokens;
    r.computedTokens = f.computed_tokens;
    r.generatedTokens = f.generated_tokens;
    r.queueMs = f.queue_ms;
    r.tokenizeMs = f.tokenize_ms;
    r.prefillMs = f.prefill_ms;
    r.ttftMs = f.ttft_ms;
    r.ttftVisibleMs = f.ttft_visible_ms;
    r.decodeMs = f.decode_ms;
    r.e2eMs = f.e2e_ms;
    r.prefillTokS = f.prefill_tok_s;
    r.decodeTokS = f.decode_tok_s;
    r.tpotMs = f.tpot_ms;
    r.kvBytesPeak = f.kv_bytes_peak;
    r.deviceMemoryPeak = f.device_memory_peak;
    r.prefillFlop = f.prefill_flop;
    r.prefillFlopS = f.prefill_flop_s;
    r.decodeBytes = f.decode_bytes;
    r.decodeBytesS = f.decode_bytes_s;
    return r;
}

RunEvent toRunEvent(const kvlens::event& ev, int runId)
{
    RunEvent out;
    out.runId = runId;
    std::visit(
        [&out](const auto& e) {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, kvlens::event_queued>) {
                out.kind = RunEvent::Kind::Queued;
                out.promptTokens = e.prompt_tokens;
            } else if constexpr (std::is_same_v<T, kvlens::event_started>) {
                out.kind = RunEvent::Kind::Started;
                out.queueMs = e.queue_ms;
            } else if constexpr (std::is_same_v<T, kvlens::event_prefill_chunk>) {
                out.kind = RunEvent::Kind::PrefillChunk;
                out.prefill = {e.tokens_done, e.tokens_total, e.cached_tokens, e.chunk_ms, e.t_ms};
            } else if constexpr (std::is_same_v<T, kvlens::event_first_token>) {
                out.kind = RunEvent::Kind::FirstToken;
                out.ttftMs = e.ttft_ms;
                out.token.id = e.id;
                out.token.text = fromUtf8(e.text);
                out.token.tMs = e.ttft_ms;
                out.token.latencyMs = e.ttft_ms;
            } else if constexpr (std::is_same_v<T, kvlens::event_token>) {
                out.kind = RunEvent::Kind::Token;
                out.token.index = e.index;
                out.token.id = e.id;
                out.token.text = fromUtf8(e.text);
                out.token.latencyMs = e.latency_ms;
                out.token.tMs = e.t_ms;
                out.token.visible = e.visible;
                out.token.kv = {e.kv_tokens, e.kv_bytes, e.kv_allocated_bytes, e.kv_reserved_bytes};
            } else if constexpr (std::is_same_v<T, kvlens::event_done>) {
                out.kind = RunEvent::Kind::Done;
                out.reason = toReason(e.reason);
                out.error = fromUtf8(e.error);
                out.text = fromUtf8(e.text);
                out.figures = toRunFigures(e.figures);
            }
        },
        ev);
    return out;
}

}  // namespace kvlens::ui
