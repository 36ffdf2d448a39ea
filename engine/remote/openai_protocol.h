// SPDX-License-Identifier: Apache-2.0
// The OpenAI-compatible wire format, as llama.cpp's llama-server, vLLM and
// SGLang speak it: request bodies for /v1/chat/completions and
// /v1/completions, the streamed chunks (text, finish reason, usage, and
// llama.cpp's `timings` and `prompt_progress`), error bodies, /v1/models,
// llama.cpp's /props and the Prometheus text of /metrics. Pure functions on
// strings, no I/O: the tests feed them recorded bodies.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "engine/runtime/engine.h"

namespace kvlens::remote {

// What the server said about its own work (-1: not reported).
struct server_usage {
    int prompt_tokens = -1;       // usage.prompt_tokens
    int completion_tokens = -1;   // usage.completion_tokens
    int cached_tokens = -1;       // usage.prompt_tokens_details.cached_tokens
};

// llama.cpp's `timings` object (-1: absent).
struct server_timings {
    int prompt_n = -1;            // prompt tokens evaluated by this request
    int cache_n = -1;             // prompt tokens reused from the slot's cache
    int predicted_n = -1;         // tokens generated
    double prompt_ms = -1;
    double predicted_ms = -1;
    double prompt_per_second = -1;
    double predicted_per_second = -1;
};

// llama.cpp's streamed `prompt_progress` (with "return_progress": true).
struct server_progress {
    int total = 0;                // prompt tokens
    int cache = 0;                // of those, reused from the cache
    int processed = 0;            // done so far (cache included)
    double time_ms = 0;           // server time spent on the prompt so far
};

// One parsed `data:` payload of the stream.
struct stream_chunk {
    std::string text;             // visible text of this chunk
    std::string reasoning;        // hidden reasoning text (delta.reasoning_content)
    std::string finish_reason;    // "" until the server says
    std::string model;
    bool has_usage = false;
    server_usage usage;
    bool has_timings = false;
    server_timings timings;
    bool has_progress = false;
    server_progress progress;
    std::string error;            // an error object sent inside the stream
};

struct request_shape {
    std::string model;            // "" : the server's only/default model
    bool chat = true;
    bool llama_cpp = false;       // ask for prompt_progress and timings, send its sampler names
};

// The JSON body of a streamed request.
std::string build_request_body(const request_params& p, const request_shape& shape);

// Parses a `data:` payload other than "[DONE]". Errors name what is wrong.
result<stream_chunk> parse_stream_chunk(std::string_view data);

// The server's own words in an error body ({"error":{"message":...}},
// {"error":"..."}, {"message":...}, {"detail":...}, or the text itself),
// as one line: at most 300 of its bytes, control characters and broken UTF-8
// escaped (common/printable.h), the cut said ("...(N more bytes)").
std::string error_message_from_body(std::string_view body);

struct model_listing {
    std::vector<std::string> ids;   // /v1/models data[].id
    // Of the first model, where the server says (0: unknown):
    int max_context = 0;            // vLLM max_model_len, llama.cpp meta.n_ctx (per slot) or meta.n_ctx_train
    int n_ctx_train = 0;            // llama.cpp meta.n_ctx_train
    int n_vocab = 0;                // llama.cpp meta.n_vocab
    std::int64_t n_params = 0;      // llama.cpp meta.n_params
    std::int64_t size_bytes = 0;    // llama.cpp meta.size: bytes of the weights
    std::string owned_by;           // "llamacpp", "vllm", "sglang", ...
};
result<model_listing> parse_models(std::string_view body);

// llama.cpp /props: the slot context length and model path.
struct server_props {
    int n_ctx = 0;                  // default_generation_settings.n_ctx (per slot); 0 unknown
    int total_slots = 0;
    std::string model_path;
    std::string build_info;
};
result<server_props> parse_props(std::string_view body);

// Prometheus text exposition: metric name (labels dropped) -> sum of its samples.
std::map<std::string, double> parse_prometheus(std::string_view text);

// The KV figures found in /metrics under the names vLLM, SGLang and llama.cpp
// use (-1 each when absent).
struct server_kv_metrics {
    double kv_usage = -1;             // 0..1 of the server's KV cache in use
    double prefix_cache_queries = -1; // tokens looked up in the prefix cache (vLLM counter)
    double prefix_cache_hits = -1;    // tokens found
    double prefix_cache_hit_rate = -1;// SGLang's gauge, or hits / queries
    double requests_running = -1;
    double requests_waiting = -1;
    bool any() const { return kv_usage >= 0 || prefix_cache_hits >= 0 || prefix_cache_hit_rate >= 0; }
};
server_kv_metrics kv_metrics_from(const std::map<std::string, double>& m);

}  // namespace kvlens::remote
