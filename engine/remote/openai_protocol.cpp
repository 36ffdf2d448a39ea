// SPDX-License-Identifier: Apache-2.0
// The OpenAI-compatible wire format (see openai_protocol.h), with
// nlohmann::json parsing that never throws out of these functions.
#include "engine/remote/openai_protocol.h"

#include "common/printable.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include <nlohmann/json.hpp>

namespace kvlens::remote {

namespace {

using json = nlohmann::json;

// A count a server sent: a whole number from 0 to INT_MAX (20, 20.0), or the
// fallback for anything else (-3, 2.5, 2^40, 1e69): converting the large ones
// to int would wrap or be undefined.
int count_at(const json& o, const char* key, int fallback = -1) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_number()) return fallback;
    constexpr double lo = 0, hi = std::numeric_limits<int>::max();
    if (it->is_number_unsigned()) {
        const auto u = it->get<std::uint64_t>();
        return u <= static_cast<std::uint64_t>(hi) ? static_cast<int>(u) : fallback;
    }
    if (it->is_number_integer()) {
        const auto i = it->get<std::int64_t>();
        return i >= lo && i <= hi ? static_cast<int>(i) : fallback;
    }
    const double d = it->get<double>();
    return d >= lo && d <= hi && d == std::floor(d) ? static_cast<int>(d) : fallback;
}

double num_at(const json& o, const char* key, double fallback = -1) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_number()) return fallback;
    return it->get<double>();
}

std::string str_at(const json& o, const char* key) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return {};
    return it->get<std::string>();
}

// A server's words for a one-line message: whitespace runs become one space and
// control characters and broken UTF-8 are escaped (printable()), so a hostile
// server cannot move the terminal's cursor; at most 300 bytes of it are shown.
std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return printable(s, 300);
}

std::string message_of(const json& j) {
    if (j.is_string()) return j.get<std::string>();
    if (!j.is_object()) return {};
    if (auto e = j.find("error"); e != j.end()) {
        if (e->is_string()) return e->get<std::string>();
        if (e->is_object()) {
            std::string m = str_at(*e, "message");
            if (!m.empty()) return m;
            return e->dump();
        }
    }
    for (const char* key : {"message", "detail", "msg"}) {
        if (auto m = j.find(key); m != j.end()) {
            if (m->is_string()) return m->get<std::string>();
            return m->dump();
        }
    }
    return {};
}

}  // namespace

std::string build_request_body(const request_params& p, const request_shape& shape) {
    json body;
    if (!shape.model.empty()) body["model"] = shape.model;
    if (shape.chat) {
        json msgs = json::array();
        for (const auto& m : p.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
        body["messages"] = std::move(msgs);
    } else {
        body["prompt"] = p.text;
    }
    body["stream"] = true;
    body["stream_options"] = {{"include_usage", true}};
    body["max_tokens"] = p.max_tokens;
    const auto& s = p.sampling;
    body["temperature"] = s.temperature;
    body["seed"] = s.seed;
    if (s.temperature > 0) {
        body["top_p"] = s.top_p;
        // Not OpenAI's own names, but llama.cpp, vLLM and SGLang take them.
        body["top_k"] = s.top_k > 0 ? s.top_k : -1;
        body["min_p"] = s.min_p;
    }
    if (s.repeat_penalty != 1.0f) body[shape.llama_cpp ? "repeat_penalty" : "repetition_penalty"] = s.repeat_penalty;
    if (shape.llama_cpp) {
        body["return_progress"] = true;   // prompt_progress chunks during prefill
        body["timings_per_token"] = false;
        body["cache_prompt"] = true;
    }
    return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

result<stream_chunk> parse_stream_chunk(std::string_view data) {
    json j = json::parse(data.begin(), data.end(), nullptr, false);
    if (j.is_discarded()) {
        std::string head(data.substr(0, 80));
        return make_error("the server sent an event that is not JSON: '" + one_line(head) + "'");
    }
    if (!j.is_object()) return make_error("the server sent an event that is not a JSON object");
    stream_chunk c;
    if (j.contains("error")) {
        c.error = one_line(message_of(j));
        if (c.error.empty()) c.error = "the server reported an error without a message";
        return c;
    }
    c.model = str_at(j, "model");
    if (auto ch = j.find("choices"); ch != j.end() && ch->is_array() && !ch->empty()) {
        const json& c0 = (*ch)[0];
        if (c0.is_object()) {
            if (auto d = c0.find("delta"); d != c0.end() && d->is_object()) {
                c.text = str_at(*d, "content");
                c.reasoning = str_at(*d, "reasoning_content");
                if (c.reasoning.empty()) c.reasoning = str_at(*d, "reasoning");
            } else {
                c.text = str_at(c0, "text");
            }
            c.finish_reason = str_at(c0, "finish_reason");
        }
    }
    if (auto u = j.find("usage"); u != j.end() && u->is_object()) {
        c.has_usage = true;
        c.usage.prompt_tokens = count_at(*u, "prompt_tokens");
        c.usage.completion_tokens = count_at(*u, "completion_tokens");
        if (auto d = u->find("prompt_tokens_details"); d != u->end() && d->is_object())
            c.usage.cached_tokens = count_at(*d, "cached_tokens");
    }
    if (auto t = j.find("timings"); t != j.end() && t->is_object()) {
        c.has_timings = true;
        c.timings.prompt_n = count_at(*t, "prompt_n");
        c.timings.cache_n = count_at(*t, "cache_n");
        c.timings.predicted_n = count_at(*t, "predicted_n");
        c.timings.prompt_ms = num_at(*t, "prompt_ms");
        c.timings.predicted_ms = num_at(*t, "predicted_ms");
        c.timings.prompt_per_second = num_at(*t, "prompt_per_second");
        c.timings.predicted_per_second = num_at(*t, "predicted_per_second");
    }
    if (auto pp = j.find("prompt_progress"); pp != j.end() && pp->is_object()) {
        c.has_progress = true;
        c.progress.total = count_at(*pp, "total", 0);
        c.progress.cache = count_at(*pp, "cache", 0);
        c.progress.processed = count_at(*pp, "processed", 0);
        c.progress.time_ms = num_at(*pp, "time_ms", 0);
    }
    return c;
}

std::string error_message_from_body(std::string_view body) {
    json j = json::parse(body.begin(), body.end(), nullptr, false);
    if (!j.is_discarded()) {
        std::string m = message_of(j);
        if (!m.empty()) return one_line(m);
    }
    return one_line(std::string(body));
}

result<model_listing> parse_models(std::string_view body) {
    json j = json::parse(body.begin(), body.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return make_error("/v1/models did not answer with a JSON object");
    const auto data = j.find("data");
    if (data == j.end() || !data->is_array()) return make_error("/v1/models has no 'data' list");
    model_listing out;
    for (const auto& m : *data) {
        if (!m.is_object()) continue;
        std::string id = str_at(m, "id");
        if (id.empty()) continue;
        if (out.ids.empty()) {
            out.owned_by = str_at(m, "owned_by");
            out.max_context = count_at(m, "max_model_len", 0);
            if (auto meta = m.find("meta"); meta != m.end() && meta->is_object()) {
                out.n_ctx_train = count_at(*meta, "n_ctx_train", 0);
                out.n_vocab = count_at(*meta, "n_vocab", 0);
                out.n_params = static_cast<std::int64_t>(num_at(*meta, "n_params", 0));
                out.size_bytes = static_cast<std::int64_t>(num_at(*meta, "size", 0));
                if (out.max_context == 0) out.max_context = count_at(*meta, "n_ctx", 0);
                if (out.max_context == 0) out.max_context = out.n_ctx_train;
            }
        }
        out.ids.push_back(std::move(id));
    }
    return out;
}

result<server_props> parse_props(std::string_view body) {
    json j = json::parse(body.begin(), body.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return make_error("/props did not answer with a JSON object");
    server_props p;
    if (auto d = j.find("default_generation_settings"); d != j.end() && d->is_object()) p.n_ctx = count_at(*d, "n_ctx", 0);
    if (p.n_ctx == 0) p.n_ctx = count_at(j, "n_ctx", 0);
    p.total_slots = count_at(j, "total_slots", 0);
    p.model_path = str_at(j, "model_path");
    p.build_info = str_at(j, "build_info");
    return p;
}

std::map<std::string, double> parse_prometheus(std::string_view text) {
    std::map<std::string, double> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line.front() == '#') continue;
        // name{labels} value [timestamp]
        std::size_t name_end = line.find_first_of("{ ");
        if (name_end == std::string_view::npos || name_end == 0) continue;
        std::string name(line.substr(0, name_end));
        std::size_t value_start = name_end;
        if (line[name_end] == '{') {
            const std::size_t close = line.find('}', name_end);
            if (close == std::string_view::npos) continue;
            value_start = close + 1;
        }
        while (value_start < line.size() && line[value_start] == ' ') ++value_start;
        std::size_t value_end = line.find(' ', value_start);
        if (value_end == std::string_view::npos) value_end = line.size();
        const std::string value(line.substr(value_start, value_end - value_start));
        char* stop = nullptr;
        const double v = std::strtod(value.c_str(), &stop);
        if (stop == value.c_str() || !std::isfinite(v)) continue;
        out[name] += v;
    }
    return out;
}

server_kv_metrics kv_metrics_from(const std::map<std::string, double>& m) {
    auto first = [&m](std::initializer_list<const char*> names) {
        for (const char* n : names)
            if (auto it = m.find(n); it != m.end()) return it->second;
        return -1.0;
    };
    server_kv_metrics k;
    // vLLM v1 names first, then v0's, SGLang's and llama.cpp's.
    k.kv_usage = first({"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage",
                        "llamacpp:kv_cache_usage_ratio"});
    k.prefix_cache_queries = first({"vllm:prefix_cache_queries_total", "vllm:prefix_cache_queries",
                                    "vllm:gpu_prefix_cache_queries_total"});
    k.prefix_cache_hits = first({"vllm:prefix_cache_hits_total", "vllm:prefix_cache_hits",
                                 "vllm:gpu_prefix_cache_hits_total"});
    k.prefix_cache_hit_rate = first({"sglang:cache_hit_rate", "vllm:gpu_prefix_cache_hit_rate"});
    if (k.prefix_cache_hit_rate < 0 && k.prefix_cache_queries > 0 && k.prefix_cache_hits >= 0)
        k.prefix_cache_hit_rate = k.prefix_cache_hits / k.prefix_cache_queries;
    k.requests_running = first({"vllm:num_requests_running", "sglang:num_running_reqs", "llamacpp:requests_processing"});
    k.requests_waiting = first({"vllm:num_requests_waiting", "sglang:num_queue_reqs", "llamacpp:requests_deferred"});
    return k;
}

}  // namespace kvlens::remote
