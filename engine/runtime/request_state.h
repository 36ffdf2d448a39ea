// SPDX-License-Identifier: Apache-2.0
// Everything the scheduler keeps about one request while it is queued or
// running: its tokens, its KV sequence, its sampler and text stream, and the
// timeline from which metrics/figures_of() computes the figures of
// docs/design.md.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/kv/kv_sequence.h"
#include "engine/metrics/events.h"
#include "engine/model/forward_batch.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/hidden_reasoning.h"
#include "engine/runtime/sampling.h"
#include "engine/tokenizer/utf8_stream.h"

namespace kvlens {

using steady = std::chrono::steady_clock;

inline double ms_between(steady::time_point a, steady::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

enum class request_phase { waiting, prefill, decode, finished };

struct request_state {
    request_id id = 0;
    request_params params;
    event_callback on_event;
    std::shared_ptr<std::atomic<bool>> cancel_flag;
    std::string tokenize_error;        // set when the prompt could not be built

    std::vector<std::int32_t> prompt;  // (prompt_tokens) ids, BOS included
    int max_new = 0;                   // max_tokens clamped to the context
    request_phase phase = request_phase::waiting;
    std::optional<kv_sequence> seq;
    int n_prompt_done = 0;             // prompt tokens whose K/V are held (cached included)
    std::vector<std::int32_t> generated;
    std::int32_t pending_token = -1;   // sampled, not yet fed back
    std::vector<std::int32_t> history; // prompt then generated: where prompt lookup finds drafts
    std::vector<std::int32_t> draft;   // this step's draft tokens, fed after the pending token
    int draft_room = 0;                // the next draft's length at most (engine_impl::draft_for)
    int draft_misses = 0;              // drafts of one token rejected in a row
    int draft_pause = 0;               // decode steps left without a draft
    std::optional<sampler> samp;
    utf8_stream stream;
    std::string text;                  // whole generated text
    hidden_reasoning reasoning;        // where the text is inside <think>...</think>

    steady::time_point t_arrival;      // engine::submit called: 0 of every time below
    steady::time_point t_last_token;
    request_timeline tl;               // moments (ms since arrival) and counters

    double since_arrival(steady::time_point t) const { return ms_between(t_arrival, t); }
};

}  // namespace kvlens
