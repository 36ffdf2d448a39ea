// SPDX-License-Identifier: Apache-2.0
// Names of finish reasons and event kinds, as docs/design.md spells them.
#include "ui/model/run_types.h"

namespace kvlens::ui {

static_assert(std::variant_size_v<kvlens::event> == 6, "RunEvent::Kind follows kvlens::event's alternatives");
static_assert(std::is_same_v<std::variant_alternative_t<int(RunEvent::Kind::PrefillChunk), kvlens::event>,
                             kvlens::event_prefill_chunk>);
static_assert(std::is_same_v<std::variant_alternative_t<int(RunEvent::Kind::Done), kvlens::event>,
                             kvlens::event_done>);

QString finishReasonName(FinishReason r)
{
    switch (r) {
    case FinishReason::None: return {};
    case FinishReason::Stop: return QStringLiteral("stop");
    case FinishReason::Length: return QStringLiteral("length");
    case FinishReason::Cancelled: return QStringLiteral("cancelled");
    case FinishReason::Error: return QStringLiteral("error");
    }
    return {};
}

FinishReason toFinishReason(kvlens::finish_reason r)
{
    switch (r) {
    case kvlens::finish_reason::stop: return FinishReason::Stop;
    case kvlens::finish_reason::length: return FinishReason::Length;
    case kvlens::finish_reason::cancelled: return FinishReason::Cancelled;
    case kvlens::finish_reason::error: return FinishReason::Error;
    }
    return FinishReason::Error;
}

QString eventKindName(RunEvent::Kind k)
{
    switch (k) {
    case RunEvent::Kind::Queued: return QStringLiteral("queued");
    case RunEvent::Kind::Started: return QStringLiteral("started");
    case RunEvent::Kind::PrefillChunk: return QStringLiteral("prefill_chunk");
    case RunEvent::Kind::FirstToken: return QStringLiteral("first_token");
    case RunEvent::Kind::Token: return QStringLiteral("token");
    case RunEvent::Kind::Done: return QStringLiteral("done");
    }
    return {};
}

}  // namespace kvlens::ui
