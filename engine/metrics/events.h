// SPDX-License-Identifier: Apache-2.0
// The event stream of a request (design.md, "Events and figures"): plain value
// structs that the engine emits on its own thread and the CLI, the metrics file
// and the window consume. Times are milliseconds on a monotonic clock measured
// from the request's submission.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace kvlens {

using request_id = std::uint64_t;

enum class finish_reason { stop, length, cancelled, error };
const char* to_string(finish_reason r);

// Where a figure was measured (issue 17): in the engine's own process, at
// kvlens's HTTP client (a remote engine's clock: arrival, bytes, tokens), or
// reported by a remote server in its own words (usage, timings, /metrics).
enum class figure_source { engine, client, server };
inline const char* to_string(figure_source s) {
    return s == figure_source::engine ? "engine" : s == figure_source::client ? "client" : "server";
}

struct event_queued {
    request_id request = 0;
    int prompt_tokens = 0;      // tokens of the rendered prompt, BOS included (remote: 0, not yet known)
    figure_source source = figure_source::engine;
};

struct event_started {
    request_id request = 0;
    double queue_ms = 0;        // submission -> the scheduler took it (remote: -> the request was sent)
    figure_source source = figure_source::engine;
};

struct event_prefill_chunk {
    request_id request = 0;
    int tokens_done = 0;        // prompt tokens whose KV is in the cache (cached included)
    int tokens_total = 0;       // prompt tokens
    int cached_tokens = 0;      // prompt tokens reused from the prefix cache
    double chunk_ms = 0;        // wall time of this chunk's forward pass
    double t_ms = 0;            // since submission, at the end of the chunk
    // server: from a remote server's prompt_progress (chunk_ms is the server's
    // time since its previous report; t_ms when the client received it).
    figure_source source = figure_source::engine;
};

struct event_first_token {
    request_id request = 0;
    double ttft_ms = 0;         // submission -> first token sampled
    std::int32_t id = 0;
    std::string text;           // the token's text (may be empty: an incomplete UTF-8 sequence)
    figure_source source = figure_source::engine;   // client: ttft measured at the HTTP client
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
    // client: a remote engine's streamed piece (id -1: not sent by the server;
    // the kv_* fields above unknown, 0; latency measured at the HTTP client).
    figure_source source = figure_source::engine;
    double server_kv_usage = -1;           // remote: the server's whole KV cache in use, 0..1, last /metrics poll; -1 unknown
};

// What a remote server reported about a request in its own words (-1: not reported).
struct server_figures {
    int prompt_tokens = -1;        // usage.prompt_tokens
    int completion_tokens = -1;    // usage.completion_tokens
    int cached_tokens = -1;        // usage.prompt_tokens_details.cached_tokens
    int prompt_n = -1;             // llama.cpp timings: prompt tokens evaluated
    int cache_n = -1;              // llama.cpp timings: prompt tokens reused from the cache
    int predicted_n = -1;          // llama.cpp timings: tokens generated
    double prompt_ms = -1;         // llama.cpp timings: server prefill time
    double predicted_ms = -1;      // llama.cpp timings: server decode time
    double prompt_per_second = -1;
    double predicted_per_second = -1;
    double kv_usage_peak = -1;     // /metrics during the run: the server's KV cache in use, 0..1
    double prefix_cache_hit_rate = -1;  // /metrics: hits / queries (or SGLang's gauge) at the end
    int progress_events = 0;       // prompt_progress reports received
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
    // Remote engines (issue 17): `source` is client, the times above were taken
    // at the HTTP client, and the fields named in server_fields (e.g.
    // "prompt_tokens", "cached_tokens", "prefill_ms") came from the server.
    figure_source source = figure_source::engine;
    std::vector<std::string> server_fields;
    double itl_p50_ms = 0;               // client inter-token gaps (tokens 1..n-1); 0 with fewer than 2 tokens
    double itl_p99_ms = 0;
    double itl_max_ms = 0;
    server_figures server;               // verbatim; all -1 for the local engine
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
