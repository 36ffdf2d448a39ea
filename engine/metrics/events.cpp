// SPDX-License-Identifier: Apache-2.0
// Names of events and finish reasons, as the metrics file writes them.
#include "engine/metrics/events.h"

namespace kvlens {

const char* to_string(finish_reason r) {
    switch (r) {
        case finish_reason::stop: return "stop";
        case finish_reason::length: return "length";
        case finish_reason::cancelled: return "cancelled";
        case finish_reason::error: return "error";
    }
    return "error";
}

const char* event_name(const event& e) {
    static const char* const names[] = {"queued", "started", "prefill_chunk", "first_token", "token", "done"};
    return names[e.index()];
}

request_id event_request(const event& e) {
    return std::visit([](const auto& x) { return x.request; }, e);
}

}  // namespace kvlens
