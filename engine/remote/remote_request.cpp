// SPDX-License-Identifier: Apache-2.0
// One remote request (see remote_request.h). The data flow, in order:
// libcurl's write callback -> sse_parser::feed -> parse_stream_chunk ->
// an event, timed by the client's clock on arrival of its bytes. After the
// transfer, one verdict: cancelled, an HTTP status, a transport failure, a
// malformed or truncated stream, or the server's own finish reason.
#include "engine/remote/remote_request.h"

#include <algorithm>

#include "engine/remote/remote_figures.h"
#include "engine/remote/sse_parser.h"

namespace kvlens::remote {

namespace {

using clock_type = std::chrono::steady_clock;

const char* status_hint(long status) {
    switch (status) {
        case 400: return "bad request";
        case 401: return "unauthorized: check the API key";
        case 403: return "forbidden: check the API key";
        case 404: return "not found: check the URL and the model name";
        case 408: return "request timeout";
        case 413: return "request too large";
        case 422: return "the server rejected the request's fields";
        case 429: return "rate limited or overloaded: try again later";
        case 500: return "internal server error";
        case 502: return "bad gateway";
        case 503: return "service unavailable: the server is loading or overloaded";
        case 504: return "gateway timeout";
        default: return status >= 500 ? "server error" : "client error";
    }
}

// The stream's state as chunks arrive.
struct stream_state {
    bool saw_done = false;
    std::string finish;
    std::string error;          // malformed or an error event: the first one wins
    std::string text;           // visible text
    int index = 0;
    double last_t = 0;
    double last_progress_ms = 0;
    client_timeline timeline;
    server_report report;
};

}  // namespace

std::string describe_status(long status, const std::string& body) {
    std::string out = "the server answered HTTP " + std::to_string(status) + " (" + status_hint(status) + ")";
    const std::string message = error_message_from_body(body);
    if (!message.empty()) out += ": " + message;
    return out;
}

void run_remote_request(const stream_target& target, const request_params& params, request_id id,
                        clock_type::time_point arrival, const std::atomic<bool>& cancel, const event_callback& emit,
                        const metrics_source& metrics) {
    auto now_ms = [arrival] { return std::chrono::duration<double, std::milli>(clock_type::now() - arrival).count(); };
    stream_state st;

    event_queued q;
    q.request = id;
    q.source = figure_source::client;
    emit(q);
    st.timeline.queue_ms = now_ms();
    event_started s;
    s.request = id;
    s.queue_ms = st.timeline.queue_ms;
    s.source = figure_source::client;
    emit(s);

    request_shape shape = target.shape;
    shape.chat = params.chat;
    http_request req;
    req.url = target.base_url + (params.chat ? "/v1/chat/completions" : "/v1/completions");
    req.body = build_request_body(params, shape);
    req.headers = target.headers;
    req.headers.push_back("Content-Type: application/json");
    req.headers.push_back("Accept: text/event-stream");
    req.connect_timeout_s = target.connect_timeout_s;
    req.stall_timeout_s = target.stall_timeout_s;
    req.max_bytes = target.max_response_bytes;

    const server_kv_metrics m_start = metrics ? metrics() : server_kv_metrics{};
    auto note_metrics = [&]() -> double {
        if (!metrics) return -1;
        const server_kv_metrics m = metrics();
        st.report.kv_usage_peak = std::max(st.report.kv_usage_peak, m.kv_usage);
        return m.kv_usage;
    };

    auto emit_piece = [&](const std::string& piece, bool visible, double t) {
        event_token tok;
        tok.request = id;
        tok.index = st.index;
        tok.id = -1;
        tok.text = piece;
        tok.t_ms = t;
        tok.latency_ms = st.index == 0 ? t : t - st.last_t;
        tok.visible = visible;
        tok.source = figure_source::client;
        tok.server_kv_usage = note_metrics();
        if (st.index == 0) {
            event_first_token ft;
            ft.request = id;
            ft.ttft_ms = t;
            ft.id = -1;
            ft.text = piece;
            ft.source = figure_source::client;
            emit(ft);
        }
        if (visible && st.timeline.first_visible_ms < 0) st.timeline.first_visible_ms = t;
        st.timeline.token_t_ms.push_back(t);
        st.last_t = t;
        ++st.index;
        emit(tok);
    };

    sse_parser parser([&](const sse_event& ev) {
        if (!st.error.empty() || st.saw_done) return;
        if (ev.data == "[DONE]") {
            st.saw_done = true;
            return;
        }
        if (ev.event == "error") {
            st.error = "the server reported an error mid-stream: " + error_message_from_body(ev.data);
            return;
        }
        auto chunk = parse_stream_chunk(ev.data);
        if (!chunk) {
            st.error = "malformed event stream: " + chunk.message();
            return;
        }
        const stream_chunk& c = *chunk;
        if (!c.error.empty()) {
            st.error = "the server reported an error mid-stream: " + c.error;
            return;
        }
        const double t = now_ms();
        if (c.has_progress) {
            event_prefill_chunk p;
            p.request = id;
            p.tokens_done = c.progress.processed;
            p.tokens_total = c.progress.total;
            p.cached_tokens = c.progress.cache;
            p.chunk_ms = c.progress.time_ms - st.last_progress_ms;
            p.t_ms = t;
            p.source = figure_source::server;
            st.last_progress_ms = c.progress.time_ms;
            ++st.report.progress_events;
            emit(p);
        }
        if (!c.reasoning.empty()) emit_piece(c.reasoning, false, t);
        if (!c.text.empty()) {
            st.text += c.text;
            emit_piece(c.text, true, t);
        }
        if (!c.finish_reason.empty()) st.finish = c.finish_reason;
        if (c.has_usage) {
            st.report.has_usage = true;
            st.report.usage = c.usage;
        }
        if (c.has_timings) {
            st.report.has_timings = true;
            st.report.timings = c.timings;
        }
    });

    const data_handler on_data = [&](std::string_view bytes) { return parser.feed(bytes) && st.error.empty(); };
    http_result r;
    if (cancel.load())
        r.failure = http_failure::cancelled;
    else
        r = http_stream(req, on_data, &cancel);
    st.timeline.end_ms = now_ms();

    // ---- the verdict
    event_done d;
    d.request = id;
    d.reason = finish_reason::error;
    const std::string received = " (" + std::to_string(st.index) + " pieces received)";
    if (r.failure == http_failure::cancelled) {
        d.reason = finish_reason::cancelled;
    } else if (r.status != 0 && (r.status < 200 || r.status >= 300)) {
        d.error = describe_status(r.status, r.body);
    } else if (r.failure == http_failure::aborted) {
        d.error = !st.error.empty() ? st.error : "malformed event stream: " + parser.error();
    } else if (r.failure != http_failure::none) {
        d.error = r.error + received;
    } else if (r.content_type.find("text/event-stream") == std::string::npos && st.index == 0 && !st.saw_done) {
        d.error = "the server did not stream: it answered with Content-Type '" + r.content_type + "', not text/event-stream";
    } else if (!st.error.empty()) {
        d.error = st.error;
    } else if (!st.saw_done && !parser.finish()) {
        d.error = "the event stream was cut off in the middle of an event (truncated)" + received;
    } else if (!st.saw_done && st.finish.empty()) {
        d.error = "the event stream ended before the server finished the answer (no finish_reason, no [DONE])" + received;
    } else {
        d.reason = st.finish == "length" ? finish_reason::length : finish_reason::stop;
    }
    if (metrics) {
        const server_kv_metrics m_end = metrics();
        st.report.kv_usage_peak = std::max(st.report.kv_usage_peak, m_end.kv_usage);
        const double dq = m_end.prefix_cache_queries - m_start.prefix_cache_queries;
        if (m_start.prefix_cache_queries >= 0 && dq > 0)
            st.report.prefix_cache_hit_rate = (m_end.prefix_cache_hits - m_start.prefix_cache_hits) / dq;
        else
            st.report.prefix_cache_hit_rate = m_end.prefix_cache_hit_rate;
    }
    d.text = std::move(st.text);
    d.figures = remote_figures(st.timeline, st.report);
    emit(d);
}

}  // namespace kvlens::remote
