// SPDX-License-Identifier: Apache-2.0
// Engine events for the tests that make their own (the fake engine of the
// window's tests, the run-record tests): a token event and the KV figures an
// event carries, filled in one place so every fake speaks as the engine does
// (engine/metrics/events.h). Figures of a whole request come from
// figures_of() (engine/metrics/request_figures.h), never from a test's own sum.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "engine/metrics/events.h"

namespace kvlens::test {

// The KV a request holds after an event: tokens, and bytes logical, in whole
// blocks, and set aside by the KV mode.
struct kv_held {
    std::int64_t tokens = 0;
    std::int64_t bytes = 0;
    std::int64_t allocated_bytes = 0;
    std::int64_t reserved_bytes = 0;
};

template <class Event>
void set_kv(Event& ev, const kv_held& kv) {
    ev.kv_tokens = kv.tokens;
    ev.kv_bytes = kv.bytes;
    ev.kv_allocated_bytes = kv.allocated_bytes;
    ev.kv_reserved_bytes = kv.reserved_bytes;
}

// Token `index` of a request: id, text, the gap to the previous token and the
// time since arrival (ms).
inline event_token token_event(request_id request, int index, std::int32_t id, std::string text, double latency_ms,
                               double t_ms) {
    event_token t;
    t.request = request;
    t.index = index;
    t.id = id;
    t.text = std::move(text);
    t.latency_ms = latency_ms;
    t.t_ms = t_ms;
    return t;
}

}  // namespace kvlens::test
