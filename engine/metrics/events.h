// SPDX-License-Identifier: Apache-2.0
// The event stream of a request (docs/design.md, "Events and figures"): plain
// value structs that the engine emits on its own thread and the CLI, the
// metrics file and the window consume. Times are milliseconds on a monotonic
// clock measured from the request's arrival (engine::submit called); what each
// time means, next to vLLM's and OpenAI's figures, is in request_figures.h.
//
// KV figures (prefill_chunk and token events) are the request's own, after
// the chunk or step: kv_tokens (tokens whose K/V are held), kv_bytes (logical:
// sum over layers of 2 * n_kv_heads * head_dim * bytes per element * tokens
// that layer holds), kv_allocated_bytes (whole blocks in use), kv_reserved_bytes
// (what the KV mode set aside: static reserves prompt + max_new up front). In
// KV mode "off" nothing is kept between steps, so all four are 0 and the token
// events carry recomputed_tokens instead.
//
// Models with sliding-window layers (Gemma 3) split the same figures by layer
// group in kv_groups: the local layers hold at most the window, the global
// layers every token. All zero for a model without local layers.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/metrics/request_figures.h"

namespace kvlens {

using request_id = std::uint64_t;

enum class finish_reason { stop, length, cancelled, error };
const char* to_string(finish_reason r);

// figure_source (engine, client, server) is in request_figures.h.

// The request's KV by layer group, bytes (docs/design.md, "Sliding-window layers").
// local + global logical bytes = kv_bytes; local + global allocated bytes =
// kv_allocated_bytes (paged mode).
struct kv_groups {
    std::int64_t local_tokens = 0;             // tokens each local layer holds: min(kv_tokens, window)
    std::int64_t local_bytes = 0;              // logical bytes of the local layers
    std::int64_t local_allocated_bytes = 0;    // local blocks held, bytes
    std::int64_t global_tokens = 0;            // tokens each global layer holds: kv_tokens
    std::int64_t global_bytes = 0;             // logical bytes of the global layers
    std::int64_t global_allocated_bytes = 0;   // global blocks held, bytes
    bool local_is_conv = false;                // the local layers are LFM2's convolutions (f32 rows, not K/V)
    bool any() const { return local_tokens > 0 || local_bytes > 0 || local_allocated_bytes > 0; }
};

struct event_queued {
    request_id request = 0;
    int prompt_tokens = 0;      // tokens of the rendered prompt, BOS included (remote: 0, not yet known)
    figure_source source = figure_source::engine;
};

struct event_started {
    request_id request = 0;
    double queue_ms = 0;        // tokenized -> scheduled (tokenize not included)
    double tokenize_ms = 0;     // arrival -> tokenized
    double t_ms = 0;            // arrival -> scheduled
    figure_source source = figure_source::engine;   // remote: queue_ms is arrival -> the request was sent
};

struct event_prefill_chunk {
    request_id request = 0;
    int tokens_done = 0;        // prompt tokens whose KV is in the cache (cached included)
    int tokens_total = 0;       // prompt tokens
    int cached_tokens = 0;      // prompt tokens reused from the prefix cache
    double chunk_ms = 0;        // wall time of this chunk's forward pass
    double t_ms = 0;            // since arrival, at the end of the chunk
    std::int64_t kv_tokens = 0;            // the request's KV after this chunk (see the top of this file)
    std::int64_t kv_bytes = 0;
    std::int64_t kv_allocated_bytes = 0;
    std::int64_t kv_reserved_bytes = 0;
    kv_groups kv_group;                    // the same split by layer group (zero without local layers)
    // server: from a remote server's prompt_progress (chunk_ms is the server's
    // time since its previous report; t_ms when the client received it).
    figure_source source = figure_source::engine;
};

// The TTFT breakdown is complete here: the four segments add up to ttft_ms.
struct event_first_token {
    request_id request = 0;
    double ttft_ms = 0;         // arrival -> first token sampled
    std::int32_t id = 0;
    std::string text;           // the token's text (may be empty: an incomplete UTF-8 sequence)
    double tokenize_ms = 0;     // arrival -> tokenized
    double queue_ms = 0;        // tokenized -> scheduled
    double prefill_ms = 0;      // scheduled -> last prefill chunk done
    double first_sample_ms = 0; // last prefill chunk done -> first token sampled
    figure_source source = figure_source::engine;   // client: ttft measured at the HTTP client
};

struct event_token {
    request_id request = 0;
    int index = 0;              // 0-based among generated tokens
    std::int32_t id = 0;
    std::string text;           // complete UTF-8 only; a split character comes whole with a later token
    double latency_ms = 0;      // since the previous token (ITL); index 0: since arrival (TTFT)
    double t_ms = 0;            // since arrival
    bool visible = true;        // false inside hidden reasoning (<think>...</think>)
    std::int64_t kv_tokens = 0;            // tokens whose K/V are held for this request
    std::int64_t kv_bytes = 0;             // logical: sum over layers of 2*n_kv_heads*head_dim*bytes/elt*tokens
    std::int64_t kv_allocated_bytes = 0;   // whole blocks in use by this request
    std::int64_t kv_reserved_bytes = 0;    // what the KV mode set aside for this request
    kv_groups kv_group;                    // the same split by layer group (zero without local layers)
    // KV off: tokens this step ran through the model again because no K/V was
    // kept (the whole sequence so far). 0 with a cache, and for index 0, whose
    // prompt was the prefill.
    std::int64_t recomputed_tokens = 0;
    // Speculative decoding: a draft token the target accepted, emitted by the
    // same step as the token before it (its latency_ms is the gap within that
    // step, next to nothing).
    bool drafted = false;
    // client: a remote engine's streamed piece (id -1: not sent by the server;
    // the kv_* fields above unknown, 0; latency measured at the HTTP client).
    figure_source source = figure_source::engine;
    double server_kv_usage = -1;           // remote: the server's whole KV cache in use, 0..1, last /metrics poll; -1 unknown
};

struct event_done {
    request_id request = 0;
    finish_reason reason = finish_reason::stop;
    std::string error;          // set when reason == error
    std::string text;           // the whole generated text
    request_figures figures;    // figures_of() the request's timeline
};

using event = std::variant<event_queued, event_started, event_prefill_chunk,
                           event_first_token, event_token, event_done>;

const char* event_name(const event& e);   // "queued", "started", ...
request_id event_request(const event& e);

}  // namespace kvlens
