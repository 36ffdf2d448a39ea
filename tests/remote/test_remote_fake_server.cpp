// SPDX-License-Identifier: Apache-2.0
// The remote engine against a scripted HTTP server on 127.0.0.1: a streamed
// answer with usage and /metrics, and every kind of bad input the issue lists
// that a real llama-server cannot be made to produce: HTTP statuses with the
// server's message, refused connections, TLS to a plain server, an unknown
// model, malformed, truncated and non-streamed answers, a stall, an endless
// answer, a cancel mid-stream, the API key kept out of events. Ends with a
// measurement of the events per second the client sustains.
#include <chrono>
#include <mutex>
#include <thread>

#include "check.h"
#include "engine/metrics/event_json.h"
#include "engine/remote/remote_engine.h"
#include "fake_http_server.h"

using namespace kvlens;
using kvlens::test::fake_http_server;
using kvlens::test::fake_request;
using kvlens::test::fake_script;

namespace {

const std::string models_json =
    R"({"object":"list","data":[{"id":"fake-model","object":"model","owned_by":"vllm","max_model_len":4096}]})";

std::string token_chunk(const std::string& text) {
    return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text +
           "\"},\"finish_reason\":null}],\"object\":\"chat.completion.chunk\"}\n\n";
}
std::string finish_chunk(const char* reason = "stop") {
    return std::string("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"") + reason + "\"}]}\n\n";
}
std::string usage_chunk(int prompt, int completion, int cached) {
    return "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":" + std::to_string(prompt) +
           ",\"completion_tokens\":" + std::to_string(completion) +
           ",\"prompt_tokens_details\":{\"cached_tokens\":" + std::to_string(cached) + "}}}\n\n";
}
const std::string done_chunk = "data: [DONE]\n\n";

// A server whose /v1/models lists fake-model; `stream` answers the completions.
fake_http_server::handler with_models(std::function<fake_script(const fake_request&)> stream,
                                      std::string metrics = "") {
    return [stream = std::move(stream), metrics = std::move(metrics)](const fake_request& r) {
        if (r.path == "/v1/models") return test::respond(200, "application/json", models_json);
        if (r.path == "/metrics") {
            if (metrics.empty()) return test::respond(404, "text/plain", "no metrics");
            return test::respond(200, "text/plain; version=0.0.4", metrics);
        }
        if (r.path == "/v1/chat/completions" || r.path == "/v1/completions") return stream(r);
        return test::respond(404, "application/json", R"({"detail":"Not Found"})");
    };
}

// Tokens "t0".."t{n-1}" each after pause_ms, then finish, usage and [DONE].
fake_script token_stream(int n, int pause_ms, bool finish = true) {
    fake_script s;
    s.pieces.push_back({test::stream_head(), 0});
    for (int i = 0; i < n; ++i) s.pieces.push_back({token_chunk("t" + std::to_string(i)), pause_ms});
    if (finish) {
        s.pieces.push_back({finish_chunk(), 0});
        s.pieces.push_back({usage_chunk(20, n, 16), 0});
        s.pieces.push_back({done_chunk, 0});
    }
    return s;
}

struct collected {
    std::vector<event> events;
    event_done done;
    int tokens = 0, done_count = 0;
};

remote::remote_options options_for(const fake_http_server& s) {
    remote::remote_options o;
    o.url = s.url();
    o.connect_timeout_s = 5;
    o.stall_timeout_s = 5;
    return o;
}

request_params chat(const std::string& text, int max_tokens = 64) {
    request_params p;
    p.chat = true;
    p.messages = {{"user", text}};
    p.max_tokens = max_tokens;
    return p;
}

// Runs one request to its done event; `on_token` may cancel.
collected run(engine& e, request_params p, std::function<void(engine&, request_id, int)> on_token = {}) {
    collected c;
    std::mutex mu;
    request_id id = 0;
    std::atomic<bool> have_id{false};
    id = e.submit(std::move(p), [&](const event& ev) {
        std::lock_guard<std::mutex> lock(mu);
        c.events.push_back(ev);
        if (std::holds_alternative<event_token>(ev)) {
            ++c.tokens;
            while (on_token && !have_id.load()) std::this_thread::yield();
            if (on_token) on_token(e, id, c.tokens);
        }
        if (const auto* d = std::get_if<event_done>(&ev)) {
            c.done = *d;
            ++c.done_count;
        }
    });
    have_id = true;
    e.wait_idle();
    return c;
}

std::unique_ptr<engine> connect_or_fail(const remote::remote_options& o) {
    auto e = remote::connect(o);
    if (!e) {
        test::report(__FILE__, __LINE__, "connect: " + e.message());
        throw test::require_failed{};
    }
    return std::move(*e);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(aStreamedAnswerArrivesAsTokensTimedAtTheClientWithTheServersUsageAndKvMetrics) {
    fake_http_server server(with_models([](const fake_request&) { return token_stream(5, 20); },
                                        "vllm:kv_cache_usage_perc{engine=\"0\"} 0.42\n"
                                        "vllm:prefix_cache_queries_total 1000\nvllm:prefix_cache_hits_total 250\n"));
    REQUIRE(server.ok());
    auto o = options_for(server);
    o.metrics_poll_s = 0.01;
    auto e = connect_or_fail(o);
    CHECK(e->info().name == "fake-model");
    CHECK(e->context_length() == 4096);
    CHECK(contains(e->backend_description(), "/metrics polled"));
    const collected c = run(*e, chat("hello"));
    REQUIRE(c.done_count == 1);
    CHECK(c.done.reason == finish_reason::stop);
    CHECK(c.done.text == "t0t1t2t3t4");
    CHECK(c.tokens == 5);
    REQUIRE(std::holds_alternative<event_queued>(c.events.front()));
    CHECK(std::holds_alternative<event_started>(c.events[1]));
    int index = 0;
    double last_t = 0;
    bool saw_kv = false;
    for (const auto& ev : c.events) {
        if (const auto* t = std::get_if<event_token>(&ev)) {
            CHECK(t->index == index++);
            CHECK(t->source == figure_source::client);
            CHECK(t->t_ms >= last_t);
            last_t = t->t_ms;
            saw_kv = saw_kv || t->server_kv_usage == 0.42;
        }
    }
    CHECK(saw_kv);
    const request_figures& f = c.done.figures;
    CHECK(f.source == figure_source::client);
    CHECK(f.prompt_tokens == 20 && f.cached_tokens == 16 && f.generated_tokens == 5 && f.computed_tokens == 4);
    CHECK(f.ttft_ms > 0 && f.decode_ms > 0 && f.e2e_ms >= f.ttft_ms + f.decode_ms);
    CHECK(f.itl_p50_ms > 0);
    CHECK(f.server.kv_usage_peak == 0.42);
    CHECK(f.server.cached_tokens == 16 && f.server.prompt_ms == -1);
}

TEST(errorStatusesShowTheStatusAndTheServersOwnMessage) {
    struct want {
        int status;
        const char* body;
        const char* message;
    };
    for (const want& w : {want{401, R"({"error":{"message":"Invalid API key","type":"auth"}})", "Invalid API key"},
                          want{404, R"({"detail":"Not Found"})", "Not Found"},
                          want{429, R"({"error":{"message":"Rate limit reached for requests"}})", "Rate limit reached"},
                          want{500, R"({"error":{"code":500,"message":"llama_decode failed"}})", "llama_decode failed"}}) {
        fake_http_server server(with_models([&w](const fake_request&) {
            return test::respond(w.status, "application/json", w.body);
        }));
        REQUIRE(server.ok());
        auto e = connect_or_fail(options_for(server));
        const collected c = run(*e, chat("x"));
        REQUIRE(c.done_count == 1);
        CHECK(c.done.reason == finish_reason::error);
        CHECK_MSG(contains(c.done.error, "HTTP " + std::to_string(w.status)), c.done.error);
        CHECK_MSG(contains(c.done.error, w.message), c.done.error);
        CHECK(c.tokens == 0);
    }
}

TEST(aRejectedKeyAtConnectIsAClearErrorThatNeverQuotesTheKey) {
    fake_http_server server([](const fake_request&) {
        return test::respond(401, "application/json", R"({"error":{"message":"Incorrect API key provided"}})");
    });
    REQUIRE(server.ok());
    auto o = options_for(server);
    o.api_key = "sk-very-secret-key";
    auto e = remote::connect(o);
    REQUIRE(!e.ok());
    CHECK_MSG(contains(e.message(), "401") && contains(e.message(), "Incorrect API key"), e.message());
    CHECK(!contains(e.message(), "sk-very-secret-key"));
    REQUIRE(!server.requests().empty());
    CHECK(contains(server.requests()[0].headers, "Authorization: Bearer sk-very-secret-key"));
}

TEST(theApiKeyGoesOnlyIntoTheHeaderNeverIntoEvents) {
    fake_http_server server(with_models([](const fake_request&) { return token_stream(3, 0); }));
    REQUIRE(server.ok());
    auto o = options_for(server);
    o.api_key = "sk-very-secret-key";
    auto e = connect_or_fail(o);
    CHECK(!contains(e->backend_description(), "sk-very"));
    const collected c = run(*e, chat("hello"));
    for (const auto& ev : c.events) CHECK(!contains(event_to_json_line(ev), "sk-very"));
    bool sent = false;
    for (const auto& r : server.requests())
        sent = sent || (r.path == "/v1/chat/completions" && contains(r.headers, "Bearer sk-very-secret-key"));
    CHECK(sent);
}

TEST(aModelTheServerDoesNotHaveIsRefusedAtConnectNamingWhatItHas) {
    fake_http_server server(with_models([](const fake_request&) { return token_stream(1, 0); }));
    REQUIRE(server.ok());
    auto o = options_for(server);
    o.model = "gpt-17";
    auto e = remote::connect(o);
    REQUIRE(!e.ok());
    CHECK_MSG(contains(e.message(), "no model 'gpt-17'") && contains(e.message(), "'fake-model'"), e.message());
}

TEST(aServerThatIsNotRunningIsConnectionRefused) {
    remote::remote_options o;
    o.url = "http://127.0.0.1:" + std::to_string(test::closed_port());
    auto e = remote::connect(o);
    REQUIRE(!e.ok());
    CHECK_MSG(contains(e.message(), "cannot connect") && contains(e.message(), "is the server running"), e.message());
}

TEST(httpsToAPlainHttpServerIsATlsError) {
    fake_http_server server(with_models([](const fake_request&) { return token_stream(1, 0); }));
    REQUIRE(server.ok());
    remote::remote_options o;
    o.url = "https://127.0.0.1:" + std::to_string(server.port());
    auto e = remote::connect(o);
    REQUIRE(!e.ok());
    CHECK_MSG(contains(e.message(), "TLS error"), e.message());
}

TEST(aUrlWithoutHttpIsRejectedBeforeAnyConnection) {
    remote::remote_options o;
    o.url = "ftp://127.0.0.1:1";
    auto e = remote::connect(o);
    REQUIRE(!e.ok());
    CHECK(contains(e.message(), "http:// or https://"));
}

TEST(aMalformedEventEndsTheRequestWithAnErrorKeepingWhatArrived) {
    fake_http_server server(with_models([](const fake_request&) {
        fake_script s = token_stream(2, 0, false);
        s.pieces.push_back({"data: {\"choices\": [ oops\n\n", 0});
        s.pieces.push_back({token_chunk("late"), 0});
        return s;
    }));
    REQUIRE(server.ok());
    auto e = connect_or_fail(options_for(server));
    const collected c = run(*e, chat("x"));
    CHECK(c.done.reason == finish_reason::error);
    CHECK_MSG(contains(c.done.error, "malformed event stream"), c.done.error);
    CHECK(c.done.text == "t0t1");
    CHECK(c.tokens == 2);
}

TEST(aStreamThatEndsBeforeTheAnswerIsFinishedIsTruncated) {
    for (bool mid_event : {false, true}) {
        fake_http_server server(with_models([mid_event](const fake_request&) {
            fake_script s = token_stream(3, 0, false);
            if (mid_event) s.pieces.push_back({"data: {\"choices\":[{\"delta\":{\"content\":\"x", 0});
            return s;
        }));
        REQUIRE(server.ok());
        auto e = connect_or_fail(options_for(server));
        const collected c = run(*e, chat("x"));
        CHECK(c.done.reason == finish_reason::error);
        CHECK_MSG(contains(c.done.error, mid_event ? "truncated" : "ended before the server finished"), c.done.error);
        CHECK(contains(c.done.error, "3 pieces received"));
        CHECK(c.done.text == "t0t1t2");
    }
}

TEST(anErrorSentInsideTheStreamIsShown) {
    fake_http_server server(with_models([](const fake_request&) {
        fake_script s = token_stream(1, 0, false);
        s.pieces.push_back({"data: {\"error\":{\"message\":\"the KV cache is full\"}}\n\n", 0});
        return s;
    }));
    REQUIRE(server.ok());
    auto e = connect_or_fail(options_for(server));
    const collected c = run(*e, chat("x"));
    CHECK(c.done.reason == finish_reason::error);
    CHECK_MSG(contains(c.done.error, "the KV cache is full"), c.done.error);
}

TEST(anAnswerThatIsNotAnEventStreamSaysSo) {
    fake_http_server server(with_models([](const fake_request&) {
        return test::respond(200, "application/json", R"({"choices":[{"message":{"content":"hi"}}]})");
    }));
    REQUIRE(server.ok());
    auto e = connect_or_fail(options_for(server));
    const collected c = run(*e, chat("x"));
    CHECK(c.done.reason == finish_reason::error);
    CHECK_MSG(contains(c.done.error, "did not stream"), c.done.error);
}

TEST(aServerThatStopsSendingFailsAfterTheStallTimeout) {
    fake_http_server server(with_models([](const fake_request&) {
        fake_script s = token_stream(2, 0, false);
        s.pieces.push_back({token_chunk("never"), 20000});
        return s;
    }));
    REQUIRE(server.ok());
    auto o = options_for(server);
    o.stall_timeout_s = 0.5;
    auto e = connect_or_fail(o);
    const auto t0 = std::chrono::steady_clock::now();
    const collected c = run(*e, chat("x"));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(c.done.reason == finish_reason::error);
    CHECK_MSG(contains(c.done.error, "stall timeout"), c.done.error);
    CHECK(c.tokens == 2);
    CHECK_MSG(s < 10, std::to_string(s) + " s: the stall did not end the request");
}

TEST(anEndlessAnswerIsCutOffAtTheResponseCap) {
    fake_http_server server(with_models([](const fake_request&) {
        fake_script s = token_stream(0, 0, false);
        s.repeat = token_chunk("spam");
        s.repeat_max_bytes = 256u << 20;
        return s;
    }));
    REQUIRE(server.ok());
    auto o = options_for(server);
    o.max_response_bytes = 1u << 20;
    auto e = connect_or_fail(o);
    const collected c = run(*e, chat("x"));
    CHECK(c.done.reason == finish_reason::error);
    CHECK_MSG(contains(c.done.error, "exceeded 1048576 bytes"), c.done.error);
    CHECK(c.tokens > 1000);
    CHECK(c.done.text.size() < (1u << 20));
}

TEST(cancelMidStreamEndsTheRequestAndClosesTheConnection) {
    fake_http_server server(with_models([](const fake_request&) { return token_stream(200, 25); }));
    REQUIRE(server.ok());
    auto e = connect_or_fail(options_for(server));
    const collected c = run(*e, chat("x"), [](engine& en, request_id id, int n) {
        if (n == 3) en.cancel(id);
    });
    CHECK(c.done.reason == finish_reason::cancelled);
    CHECK(c.tokens >= 3 && c.tokens < 10);
    for (int i = 0; i < 200 && server.client_hangups() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(server.client_hangups() == 1);
}

TEST(requestsQueueBehindEachOtherAndCountTheirQueueTime) {
    fake_http_server server(with_models([](const fake_request&) { return token_stream(3, 30); }));
    REQUIRE(server.ok());
    auto e = connect_or_fail(options_for(server));
    std::mutex mu;
    std::vector<event_done> done;
    for (int i = 0; i < 2; ++i)
        e->submit(chat("x"), [&](const event& ev) {
            if (const auto* d = std::get_if<event_done>(&ev)) {
                std::lock_guard<std::mutex> lock(mu);
                done.push_back(*d);
            }
        });
    e->wait_idle();
    REQUIRE(done.size() == 2);
    // One client worker: the second waited for the whole first (>= 3 x 30 ms).
    CHECK(done[1].figures.queue_ms >= 90);
    CHECK(done[0].figures.queue_ms < done[1].figures.queue_ms);
}

// What the client-side figures cost end to end: a server that writes 20000
// token events as fast as it can; every one must arrive, in order.
TEST(eventsPerSecondTheClientSustainsAreMeasured) {
    const int n = 20000;
    fake_http_server server(with_models([n](const fake_request&) {
        fake_script s;
        std::string body;
        for (int i = 0; i < n; ++i) body += token_chunk("w");
        s.pieces.push_back({test::stream_head(), 0});
        // Written in 64 KiB pieces, as a busy server's socket would deliver them.
        for (std::size_t i = 0; i < body.size(); i += 65536) s.pieces.push_back({body.substr(i, 65536), 0});
        s.pieces.push_back({finish_chunk("length") + done_chunk, 0});
        return s;
    }));
    REQUIRE(server.ok());
    auto o = options_for(server);
    o.max_response_bytes = 64u << 20;
    auto e = connect_or_fail(o);
    const auto t0 = std::chrono::steady_clock::now();
    const collected c = run(*e, chat("x", n));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(c.done.reason == finish_reason::length);
    CHECK(c.tokens == n);
    int index = 0;
    for (const auto& ev : c.events)
        if (const auto* t = std::get_if<event_token>(&ev)) CHECK(t->index == index++);
    std::fprintf(stderr, "  MEASURED loopback stream: %d token events in %.3f s = %.0f events/s\n", n, s, n / s);
}

int main(int argc, char** argv) { return kvlens::test::run_all(argc, argv); }
