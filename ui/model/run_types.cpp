// SPDX-License-Identifier: Apache-2.0
// Names of finish reasons and event kinds, as docs/design.md spells them.
#include "ui/model/run_types.h"

namespace kvlens::ui {

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
