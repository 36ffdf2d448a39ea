// SPDX-License-Identifier: Apache-2.0
// JSON encoding of events with nlohmann::json.
#include "engine/metrics/event_json.h"

#include <nlohmann/json.hpp>

namespace kvlens {

namespace {

using json = nlohmann::json;

// Field names and meanings: engine/metrics/request_figures.h and events.h.
json figures_json(const request_figures& f) {
    return json{{"prompt_tokens", f.prompt_tokens},     {"cached_tokens", f.cached_tokens},
                {"computed_tokens", f.computed_tokens}, {"generated_tokens", f.generated_tokens},
                {"recomputed_tokens", f.recomputed_tokens},
                {"tokenize_ms", f.tokenize_ms},         {"queue_ms", f.queue_ms},
                {"prefill_ms", f.prefill_ms},           {"first_sample_ms", f.first_sample_ms},
                {"ttft_ms", f.ttft_ms},
                {"ttft_visible_ms", f.ttft_visible_ms}, {"decode_ms", f.decode_ms},
                {"e2e_ms", f.e2e_ms},                   {"prefill_forward_ms", f.prefill_forward_ms},
                {"prefill_tok_s", f.prefill_tok_s},
                {"decode_tok_s", f.decode_tok_s},       {"tpot_ms", f.tpot_ms},
                {"kv_bytes_peak", f.kv_bytes_peak},     {"device_memory_peak", f.device_memory_peak},
                {"prefill_flop", f.prefill_flop},       {"prefill_flop_s", f.prefill_flop_s},
                {"decode_bytes", f.decode_bytes},       {"decode_bytes_s", f.decode_bytes_s}};
}

struct to_json_visitor {
    json operator()(const event_queued& e) const { return {{"prompt_tokens", e.prompt_tokens}}; }
    json operator()(const event_started& e) const {
        return {{"tokenize_ms", e.tokenize_ms}, {"queue_ms", e.queue_ms}, {"t_ms", e.t_ms}};
    }
    json operator()(const event_prefill_chunk& e) const {
        return {{"tokens_done", e.tokens_done}, {"tokens_total", e.tokens_total},
                {"cached_tokens", e.cached_tokens}, {"chunk_ms", e.chunk_ms}, {"t_ms", e.t_ms},
                {"kv_tokens", e.kv_tokens}, {"kv_bytes", e.kv_bytes},
                {"kv_allocated_bytes", e.kv_allocated_bytes}, {"kv_reserved_bytes", e.kv_reserved_bytes}};
    }
    json operator()(const event_first_token& e) const {
        return {{"ttft_ms", e.ttft_ms}, {"id", e.id}, {"text", e.text},
                {"tokenize_ms", e.tokenize_ms}, {"queue_ms", e.queue_ms},
                {"prefill_ms", e.prefill_ms}, {"first_sample_ms", e.first_sample_ms}};
    }
    json operator()(const event_token& e) const {
        return {{"index", e.index}, {"id", e.id}, {"text", e.text}, {"latency_ms", e.latency_ms},
                {"t_ms", e.t_ms}, {"visible", e.visible}, {"kv_tokens", e.kv_tokens},
                {"kv_bytes", e.kv_bytes}, {"kv_allocated_bytes", e.kv_allocated_bytes},
                {"kv_reserved_bytes", e.kv_reserved_bytes}, {"recomputed_tokens", e.recomputed_tokens}};
    }
    json operator()(const event_done& e) const {
        json j = {{"reason", to_string(e.reason)}, {"figures", figures_json(e.figures)}};
        if (!e.error.empty()) j["error"] = e.error;
        return j;
    }
};

}  // namespace

std::string event_to_json_line(const event& e) {
    json j = {{"event", event_name(e)}, {"request", event_request(e)}};
    j.update(std::visit(to_json_visitor{}, e));
    // Invalid UTF-8 cannot reach here (the text stream emits whole characters), but never throw.
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string figures_to_json(const request_figures& f) {
    return figures_json(f).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace kvlens
