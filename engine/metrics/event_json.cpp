// SPDX-License-Identifier: Apache-2.0
// JSON encoding of events with nlohmann::json.
#include "engine/metrics/event_json.h"

#include <nlohmann/json.hpp>

namespace kvlens {

namespace {

using json = nlohmann::json;

// Field names and meanings: engine/metrics/request_figures.h and events.h.

// Remote figures (issue 17): the source of each figure, the client's gaps and
// the server's own numbers. Left out for the local engine, whose lines stay as they were.
void add_remote_figures(json& j, const request_figures& f) {
    if (f.source == figure_source::engine) return;
    j["source"] = to_string(f.source);
    j["server_fields"] = f.server_fields;
    j["itl_p50_ms"] = f.itl_p50_ms;
    j["itl_p99_ms"] = f.itl_p99_ms;
    j["itl_max_ms"] = f.itl_max_ms;
    const server_figures& s = f.server;
    j["server"] = json{{"prompt_tokens", s.prompt_tokens},       {"completion_tokens", s.completion_tokens},
                       {"cached_tokens", s.cached_tokens},       {"prompt_n", s.prompt_n},
                       {"cache_n", s.cache_n},                   {"predicted_n", s.predicted_n},
                       {"prompt_ms", s.prompt_ms},               {"predicted_ms", s.predicted_ms},
                       {"prompt_per_second", s.prompt_per_second}, {"predicted_per_second", s.predicted_per_second},
                       {"kv_usage_peak", s.kv_usage_peak},       {"prefix_cache_hit_rate", s.prefix_cache_hit_rate},
                       {"progress_events", s.progress_events}};
}

// The per-group KV split of a sliding-window model (kv_local_*, kv_global_*);
// left out for a model without local layers, whose lines stay as they were.
void add_kv_groups(json& j, const kv_groups& g) {
    if (!g.any()) return;
    j["kv_local_tokens"] = g.local_tokens;
    j["kv_local_bytes"] = g.local_bytes;
    j["kv_local_allocated_bytes"] = g.local_allocated_bytes;
    j["kv_global_tokens"] = g.global_tokens;
    j["kv_global_bytes"] = g.global_bytes;
    j["kv_global_allocated_bytes"] = g.global_allocated_bytes;
    if (g.local_is_conv) j["kv_local_kind"] = "convolution";   // LFM2: the local group is the convolutions' rows
}

json with_source(json j, figure_source s) {
    if (s != figure_source::engine) j["source"] = to_string(s);
    return j;
}

json figures_json(const request_figures& f) {
    json j = json{{"prompt_tokens", f.prompt_tokens},     {"cached_tokens", f.cached_tokens},
                {"computed_tokens", f.computed_tokens}, {"generated_tokens", f.generated_tokens},
                {"recomputed_tokens", f.recomputed_tokens},
                {"draft_steps", f.draft_steps},         {"draft_tokens", f.draft_tokens},
                {"accepted_tokens", f.accepted_tokens}, {"acceptance_rate", f.acceptance_rate},
                {"mean_acceptance_length", f.mean_acceptance_length},
                {"tokenize_ms", f.tokenize_ms},         {"queue_ms", f.queue_ms},
                {"prefill_ms", f.prefill_ms},           {"first_sample_ms", f.first_sample_ms},
                {"ttft_ms", f.ttft_ms},
                {"ttft_visible_ms", f.ttft_visible_ms}, {"decode_ms", f.decode_ms},
                {"e2e_ms", f.e2e_ms},                   {"prefill_forward_ms", f.prefill_forward_ms},
                {"prefill_tok_s", f.prefill_tok_s},
                {"decode_tok_s", f.decode_tok_s},       {"tpot_ms", f.tpot_ms},
                {"kv_bytes_peak", f.kv_bytes_peak},     {"device_memory_peak", f.device_memory_peak},
                {"prefill_flop", f.prefill_flop},       {"prefill_flop_s", f.prefill_flop_s},
                {"decode_bytes", f.decode_bytes},       {"decode_bytes_s", f.decode_bytes_s},
                {"prefill_bytes", f.prefill_bytes},     {"decode_flop", f.decode_flop}};
    add_remote_figures(j, f);
    return j;
}

struct to_json_visitor {
    json operator()(const event_queued& e) const { return with_source({{"prompt_tokens", e.prompt_tokens}}, e.source); }
    json operator()(const event_started& e) const {
        return with_source({{"tokenize_ms", e.tokenize_ms}, {"queue_ms", e.queue_ms}, {"t_ms", e.t_ms}}, e.source);
    }
    json operator()(const event_prefill_chunk& e) const {
        json j = {{"tokens_done", e.tokens_done}, {"tokens_total", e.tokens_total},
                  {"cached_tokens", e.cached_tokens}, {"chunk_ms", e.chunk_ms}, {"t_ms", e.t_ms},
                  {"kv_tokens", e.kv_tokens}, {"kv_bytes", e.kv_bytes},
                  {"kv_allocated_bytes", e.kv_allocated_bytes}, {"kv_reserved_bytes", e.kv_reserved_bytes}};
        add_kv_groups(j, e.kv_group);
        return with_source(std::move(j), e.source);
    }
    json operator()(const event_first_token& e) const {
        return with_source({{"ttft_ms", e.ttft_ms}, {"id", e.id}, {"text", e.text},
                            {"tokenize_ms", e.tokenize_ms}, {"queue_ms", e.queue_ms},
                            {"prefill_ms", e.prefill_ms}, {"first_sample_ms", e.first_sample_ms}},
                           e.source);
    }
    json operator()(const event_token& e) const {
        json j = {{"index", e.index}, {"id", e.id}, {"text", e.text}, {"latency_ms", e.latency_ms},
                  {"t_ms", e.t_ms}, {"visible", e.visible}, {"kv_tokens", e.kv_tokens},
                  {"kv_bytes", e.kv_bytes}, {"kv_allocated_bytes", e.kv_allocated_bytes},
                  {"kv_reserved_bytes", e.kv_reserved_bytes}, {"recomputed_tokens", e.recomputed_tokens}};
        add_kv_groups(j, e.kv_group);
        if (e.drafted) j["drafted"] = true;
        if (e.source != figure_source::engine && e.server_kv_usage >= 0) j["server_kv_usage"] = e.server_kv_usage;
        return with_source(std::move(j), e.source);
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
