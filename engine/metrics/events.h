// SPDX-License-Identifier: Apache-2.0
// The event stream of a request (design.md, "Events and figures"): plain value
// structs that the engine emits on its own thread and the CLI, the metrics file
// and the window consume. Times are milliseconds on a monotonic clock measured
// from the request's submission.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace kvlens {

using request_id = std::uint64_t;

enum class finish_reason { stop, length, cancelled, error };
const char* to_string(finish_reason r);

struct event_queued {
    request_id request = 0;
    int prompt_tokens = 0;      // tokens of the rendered prompt, BOS included
};

struct event_started {
    request_id request = 0;
    double queue_ms = 0;        // submission -> the scheduler took it
};

struct event_prefill_chunk {
    request_id request = 0;
    int tokens_done = 0;        // prompt tokens whose KV is in the cache (cached included)
    int tokens_total = 0;       // prompt tokens
    int cached_tokens = 0;      // prompt tokens reused from the prefix cache
    double chunk_ms = 0;        // wall time of this chunk's forward pass
    double t_ms = 0;            // since submission, at the end of the chunk
};

struct event_first_token {
    request_id request = 0;
    double ttft_ms = 0;         // submission -> first token sampled
    std::int32_t id = 0;
    std::string text;           // the token's text (may be empty: an incomplete UTF-8 sequence)
};

struct event_token {
    request_id request = 0;
    int index = 0;              // 0-based among generated tokens
    std::int32_t id = 0;
    std::string text;           // complete UTF-8 only; a split character comes whole with a later token
    double latency_ms = 0;      // since the previous token; index 0: since submission
    double t_ms = 0;            // since submission
    bool visible = true;        // false inside hidden reasoning (<think>...</think>)
    std::int64_t kv_tokens = 0;            // tokens whose K/V are held for this request
    std::int64_t kv_bytes = 0;             // logical: sum over layers of 2*n_kv_heads*head_dim*bytes/elt*tokens
    std::int64_t kv_allocated_bytes = 0;   // whole blocks in use by this request
    std::int64_t kv_reserved_bytes = 0;    // what the KV mode set aside for this request
};

// Figures of a finished request (design.md).
struct request_figures {
    int prompt_tokens = 0;
    int cached_tokens = 0;      // prompt tokens whose KV came from the prefix cache
    int computed_tokens = 0;    // prompt tokens prefilled by this request
    int generated_tokens = 0;
    double queue_ms = 0;
    double tokenize_ms = 0;
    double prefill_ms = 0;
    double ttft_ms = 0;
    double ttft_visible_ms = 0; // first token outside hidden reasoning; 0 if none
    double decode_ms = 0;       // first token -> last token
    double e2e_ms = 0;
    double prefill_tok_s = 0;   // computed_tokens / prefill_ms
    double decode_tok_s = 0;    // (generated - 1) / decode_ms
    double tpot_ms = 0;         // decode_ms / (generated - 1)
    std::int64_t kv_bytes_peak = 0;
    std::int64_t device_memory_peak = 0;   // bytes: weights + KV pool + scratch on the backend's device
    double prefill_flop = 0;             // counted FLOPs of the prefill
    double prefill_flop_s = 0;           // achieved FLOP/s
    double decode_bytes = 0;             // counted bytes read by the decode steps (weights + KV)
    double decode_bytes_s = 0;           // achieved bytes/s
};

struct event_done {
    request_id request = 0;
    finish_reason reason = finish_reason::stop;
    std::string error;          // set when reason == error
    std::string text;           // the whole generated text
    request_figures figures;
};

using event = std::variant<event_queued, event_started, event_prefill_chunk,
                           event_first_token, event_token, event_done>;

const char* event_name(const event& e);   // "queued", "started", ...
request_id event_request(const event& e);

}  // namespace kvlens
