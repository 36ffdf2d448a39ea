// SPDX-License-Identifier: Apache-2.0
// The remote engine's pure parts, without a network: the incremental
// Server-Sent Events parser, the OpenAI-compatible chunk and error parsers,
// Prometheus text, the figures computed from a client timeline and a server
// report, the events' JSON, and the byte-level stand-in tokenizer. Ends with
// a measurement of what parsing costs per event.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check.h"
#include "common/sanitizer_build.h"
#include "engine/metrics/event_json.h"
#include "engine/remote/byte_vocab.h"
#include "engine/remote/openai_protocol.h"
#include "engine/remote/remote_figures.h"
#include "engine/remote/sse_parser.h"
#include "engine/tokenizer/tokenizer.h"

using namespace kvlens;
using namespace kvlens::remote;

namespace {

std::vector<sse_event> parse_in_pieces(const std::string& stream, std::size_t piece, bool* finished = nullptr) {
    std::vector<sse_event> out;
    sse_parser p([&out](const sse_event& e) { out.push_back(e); });
    for (std::size_t i = 0; i < stream.size(); i += piece) p.feed(std::string_view(stream).substr(i, piece));
    if (finished) *finished = p.finish();
    return out;
}

}  // namespace

TEST(eventsSplitAcrossEveryPossibleChunkBoundaryParseTheSame) {
    const std::string stream =
        ": keep-alive\r\n\r\ndata: {\"a\":1}\r\n\r\nevent: error\ndata: line one\ndata: line two\n\ndata:x\r\rdata: [DONE]\n\n";
    for (std::size_t piece = 1; piece <= stream.size(); ++piece) {
        bool finished = false;
        const auto ev = parse_in_pieces(stream, piece, &finished);
        REQUIRE_MSG(ev.size() == 4, "piece " + std::to_string(piece) + ": " + std::to_string(ev.size()) + " events");
        CHECK(ev[0].data == "{\"a\":1}");
        CHECK(ev[1].event == "error");
        CHECK(ev[1].data == "line one\nline two");
        CHECK(ev[2].data == "x");
        CHECK(ev[3].data == "[DONE]");
        CHECK(finished);
    }
}

TEST(aCommentOnlyOrDataLessEventDispatchesNothing) {
    const auto ev = parse_in_pieces(": ping\n\nid: 7\n\nevent: x\n\n", 3);
    CHECK(ev.empty());
}

TEST(aStreamCutInsideAnEventIsReportedAsUnfinished) {
    bool finished = true;
    const auto ev = parse_in_pieces("data: {\"a\":1}\n\ndata: {\"b\":", 5, &finished);
    CHECK(ev.size() == 1);
    CHECK(!finished);
    finished = true;
    parse_in_pieces("data: {\"a\":1}\n", 4, &finished);   // the blank line never came
    CHECK(!finished);
}

TEST(aLineLongerThanTheCapIsAnErrorNotUnboundedMemory) {
    sse_parser p([](const sse_event&) {}, 64);
    const std::string big(100, 'x');
    CHECK(p.feed("data: "));
    CHECK(!p.feed(big));
    CHECK(p.error().find("longer than 64") != std::string::npos);
    CHECK(!p.feed("\n\n"));
}

TEST(aChatChunkGivesItsTextFinishReasonUsageAndTimings) {
    auto c = parse_stream_chunk(
        R"({"choices":[{"delta":{"content":"Hi"},"finish_reason":"stop"}],"model":"m",)"
        R"("usage":{"prompt_tokens":12,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":8}},)"
        R"("timings":{"cache_n":8,"prompt_n":4,"prompt_ms":5.5,"predicted_n":3,"predicted_ms":9.25}})");
    REQUIRE(c.ok());
    CHECK(c->text == "Hi");
    CHECK(c->finish_reason == "stop");
    CHECK(c->model == "m");
    CHECK(c->has_usage && c->usage.prompt_tokens == 12 && c->usage.completion_tokens == 3 && c->usage.cached_tokens == 8);
    CHECK(c->has_timings && c->timings.cache_n == 8 && c->timings.prompt_n == 4 && c->timings.predicted_n == 3);
    CHECK(c->timings.prompt_ms == 5.5 && c->timings.predicted_ms == 9.25);
}

TEST(aRoleOnlyChunkWithNullContentCarriesNoText) {
    auto c = parse_stream_chunk(R"({"choices":[{"delta":{"role":"assistant","content":null},"finish_reason":null}],)"
                                R"("prompt_progress":{"total":40,"cache":8,"processed":24,"time_ms":12.5}})");
    REQUIRE(c.ok());
    CHECK(c->text.empty());
    CHECK(c->finish_reason.empty());
    CHECK(c->has_progress && c->progress.total == 40 && c->progress.cache == 8 && c->progress.processed == 24);
    CHECK(c->progress.time_ms == 12.5);
}

TEST(countsThatAreNotWholeNumbersInRangeAreTakenAsAbsent) {
    // Found by fuzz_sse: 1e69 converted to int is undefined behaviour.
    auto c = parse_stream_chunk(R"({"choices":[],"prompt_progress":{"total":20,"cache":1e69,"processed":-3,"time_ms":1},)"
                                R"("usage":{"prompt_tokens":4294967296,"completion_tokens":2.5},)"
                                R"("timings":{"prompt_n":7.0,"cache_n":18446744073709551615,"predicted_n":2147483647}})");
    REQUIRE(c.ok());
    CHECK(c->progress.total == 20 && c->progress.cache == 0 && c->progress.processed == 0);
    CHECK(c->usage.prompt_tokens == -1 && c->usage.completion_tokens == -1);
    CHECK(c->timings.prompt_n == 7 && c->timings.cache_n == -1 && c->timings.predicted_n == 2147483647);
}

TEST(aCompletionChunkGivesItsTextAndReasoningIsKeptApart) {
    auto c = parse_stream_chunk(R"({"choices":[{"text":" world","index":0,"finish_reason":null}]})");
    REQUIRE(c.ok());
    CHECK(c->text == " world");
    auto r = parse_stream_chunk(R"({"choices":[{"delta":{"reasoning_content":"hmm"}}]})");
    REQUIRE(r.ok());
    CHECK(r->text.empty() && r->reasoning == "hmm");
}

TEST(aChunkThatIsNotJsonIsAnErrorQuotingIt) {
    auto c = parse_stream_chunk("{\"choices\": [");
    CHECK(!c.ok());
    CHECK(c.message().find("not JSON") != std::string::npos);
    CHECK(!parse_stream_chunk("[1,2]").ok());
}

TEST(anErrorObjectInsideTheStreamIsTheServersMessage) {
    auto c = parse_stream_chunk(R"({"error":{"code":500,"message":"context shift disabled","type":"server_error"}})");
    REQUIRE(c.ok());
    CHECK(c->error == "context shift disabled");
}

TEST(errorBodiesGiveTheServersOwnWordsOnOneLine) {
    CHECK(error_message_from_body(R"({"error":{"message":"Invalid API Key","type":"authentication_error"}})") ==
          "Invalid API Key");
    CHECK(error_message_from_body(R"({"error":"model not found"})") == "model not found");
    CHECK(error_message_from_body(R"({"detail":"Not Found"})") == "Not Found");
    CHECK(error_message_from_body(R"({"object":"error","message":"The model `x` does not exist."})") ==
          "The model `x` does not exist.");
    CHECK(error_message_from_body("Bad Gateway\n<html>") == "Bad Gateway <html>");
    CHECK(error_message_from_body(std::string(1000, 'z')) == std::string(300, 'z') + "...(700 more bytes)");
    // A server's message cannot put escape sequences on the user's terminal.
    CHECK(error_message_from_body(R"({"error":"bad \u001b[2J key"})") == "bad \\x1b[2J key");
    CHECK(error_message_from_body("raw \x1b]0;title\x07") == "raw \\x1b]0;title\\x07");
}

TEST(modelListingsOfLlamaCppAndVllmGiveNamesAndContext) {
    auto l = parse_models(R"({"object":"list","data":[{"id":"smol.gguf","owned_by":"llamacpp",)"
                          R"("meta":{"n_ctx":4096,"n_ctx_train":8192,"n_vocab":49152,"n_params":134515008,"size":100000}}]})");
    REQUIRE(l.ok());
    CHECK(l->ids.size() == 1 && l->ids[0] == "smol.gguf");
    CHECK(l->max_context == 4096 && l->n_ctx_train == 8192 && l->n_vocab == 49152);
    CHECK(l->n_params == 134515008 && l->size_bytes == 100000 && l->owned_by == "llamacpp");
    auto v = parse_models(R"({"data":[{"id":"Qwen/Qwen3-8B","owned_by":"vllm","max_model_len":32768},{"id":"lora"}]})");
    REQUIRE(v.ok());
    CHECK(v->ids.size() == 2 && v->max_context == 32768 && v->owned_by == "vllm");
    CHECK(!parse_models("<html>").ok());
    CHECK(!parse_models(R"({"models":[]})").ok());
}

TEST(llamaCppPropsGiveTheSlotContext) {
    auto p = parse_props(R"({"default_generation_settings":{"n_ctx":2048},"total_slots":1,"model_path":"/m.gguf"})");
    REQUIRE(p.ok());
    CHECK(p->n_ctx == 2048 && p->total_slots == 1 && p->model_path == "/m.gguf");
}

TEST(prometheusTextOfVllmAndSglangGivesKvUsageAndPrefixHits) {
    const std::string vllm =
        "# HELP vllm:kv_cache_usage_perc KV-cache usage.\n# TYPE vllm:kv_cache_usage_perc gauge\n"
        "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} 0.25\r\n"
        "vllm:prefix_cache_queries_total{engine=\"0\"} 400\nvllm:prefix_cache_hits_total{engine=\"0\"} 100\n"
        "vllm:num_requests_running{engine=\"0\"} 2\nvllm:num_requests_running{engine=\"1\"} 1\n"
        "garbage line\nvllm:weird NaN\n";
    const auto k = kv_metrics_from(parse_prometheus(vllm));
    CHECK(k.kv_usage == 0.25);
    CHECK(k.prefix_cache_queries == 400 && k.prefix_cache_hits == 100);
    CHECK(k.prefix_cache_hit_rate == 0.25);
    CHECK(k.requests_running == 3);   // summed over engines
    const auto s = kv_metrics_from(parse_prometheus("sglang:token_usage{model_name=\"m\"} 0.5\nsglang:cache_hit_rate 0.75\n"));
    CHECK(s.kv_usage == 0.5 && s.prefix_cache_hit_rate == 0.75);
    CHECK(!kv_metrics_from(parse_prometheus("llamacpp:prompt_tokens_total 10\n")).any());
}

TEST(requestBodiesAskForUsageAndLlamaCppProgress) {
    request_params p;
    p.chat = true;
    p.messages = {{"system", "be brief"}, {"user", "hi"}};
    p.max_tokens = 7;
    auto j = nlohmann::json::parse(build_request_body(p, {"m1", true, true}));
    CHECK(j["model"] == "m1" && j["stream"] == true && j["max_tokens"] == 7);
    CHECK(j["stream_options"]["include_usage"] == true);
    CHECK(j["messages"].size() == 2 && j["messages"][1]["content"] == "hi");
    CHECK(j["return_progress"] == true);
    CHECK(!j.contains("top_k"));   // greedy: no sampler knobs
    p.chat = false;
    p.text = "Once";
    p.sampling.temperature = 0.7f;
    auto k = nlohmann::json::parse(build_request_body(p, {"", false, false}));
    CHECK(k["prompt"] == "Once" && !k.contains("model") && !k.contains("messages"));
    CHECK(!k.contains("return_progress"));
    CHECK(k.contains("top_k") && k.contains("top_p"));
}

TEST(figuresTakeTimesFromTheClientAndCountsFromTheServerNamingThem) {
    client_timeline c;
    c.queue_ms = 1;
    c.token_t_ms = {100, 110, 130, 160};
    c.first_visible_ms = 100;
    c.end_ms = 170;
    server_report s;
    s.has_usage = true;
    s.usage = {50, 4, 32};
    s.has_timings = true;
    s.timings.prompt_n = 18;
    s.timings.cache_n = 32;
    s.timings.prompt_ms = 45;
    s.timings.predicted_n = 4;
    s.timings.predicted_ms = 60;
    const request_figures f = remote_figures(c, s);
    CHECK(f.source == figure_source::client);
    CHECK(f.ttft_ms == 100 && f.decode_ms == 60 && f.e2e_ms == 170 && f.queue_ms == 1);
    CHECK(f.tpot_ms == 20 && f.decode_tok_s == 50);
    CHECK(f.itl_p50_ms == 20 && f.itl_max_ms == 30);
    CHECK(f.prompt_tokens == 50 && f.cached_tokens == 32 && f.computed_tokens == 18 && f.generated_tokens == 4);
    CHECK(f.prefill_ms == 45 && f.prefill_tok_s == 400);
    CHECK(f.server.prompt_ms == 45 && f.server.cached_tokens == 32);
    auto named = [&f](const char* n) {
        for (const auto& s : f.server_fields)
            if (s == n) return true;
        return false;
    };
    CHECK(named("prompt_tokens") && named("cached_tokens") && named("prefill_ms") && named("generated_tokens"));
    CHECK(!named("ttft_ms") && !named("decode_ms"));
}

TEST(figuresWithoutAServerReportCountTheClientsPiecesOnly) {
    client_timeline c;
    c.token_t_ms = {10};
    c.end_ms = 12;
    const request_figures f = remote_figures(c, {});
    CHECK(f.generated_tokens == 1 && f.prompt_tokens == 0 && f.server_fields.empty());
    CHECK(f.tpot_ms == 0 && f.itl_p50_ms == 0 && f.server.prompt_ms == -1);
}

TEST(remoteEventsCarryTheirSourceIntoJsonAndLocalLinesStayAsTheyWere) {
    event_token t;
    t.request = 3;
    t.text = "a";
    const std::string local = event_to_json_line(t);
    CHECK(local.find("source") == std::string::npos);
    t.source = figure_source::client;
    t.server_kv_usage = 0.5;
    auto j = nlohmann::json::parse(event_to_json_line(t));
    CHECK(j["source"] == "client" && j["server_kv_usage"] == 0.5);
    event_prefill_chunk p;
    p.source = figure_source::server;
    CHECK(nlohmann::json::parse(event_to_json_line(p))["source"] == "server");
    event_done d;
    d.figures.source = figure_source::client;
    d.figures.server_fields = {"cached_tokens"};
    d.figures.server.cache_n = 9;
    auto dj = nlohmann::json::parse(event_to_json_line(d));
    CHECK(dj["figures"]["source"] == "client");
    CHECK(dj["figures"]["server_fields"][0] == "cached_tokens");
    CHECK(dj["figures"]["server"]["cache_n"] == 9);
    CHECK(event_to_json_line(event_done{}).find("server") == std::string::npos);
}

TEST(theStandInTokenizerCountsOneTokenPerByteAndRoundTrips) {
    auto t = byte_level_stand_in();
    REQUIRE_MSG(t.ok(), t.ok() ? "" : t.message());
    const tokenizer& tok = **t;
    const std::string text = "Hello, wörld!\n\t<|im_end|>";
    const auto ids = tok.encode(text, false, false);
    CHECK(ids.size() == text.size());
    CHECK(tok.decode(ids) == text);
    CHECK(tok.n_vocab() == 256);
}

// What the client-side figures cost, in memory: a recorded llama.cpp-like
// stream of 50k chunks through (A) the event-stream and chunk parsers only,
// and (B) the same plus what the client adds per token: a clock read, the
// token event and its JSON line (what --metrics-json writes). A and B
// alternate three times; the best of each and their ratio are printed.
TEST(parsingAndFigureCostPerEventAreMeasured) {
    const std::string chunk =
        "data: {\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"content\":\" word\"}}],"
        "\"created\":1,\"id\":\"chatcmpl-x\",\"model\":\"smol\",\"system_fingerprint\":\"b1\","
        "\"object\":\"chat.completion.chunk\"}\n\n";
    // Under the sanitizers the timings mean nothing and every load is checked,
    // so the parsing check runs on a tenth of the events there.
    const int n = kvlens::built_with_address_sanitizer ? 5000 : 50000;
    std::string stream;
    stream.reserve(chunk.size() * n);
    for (int i = 0; i < n; ++i) stream += chunk;
    auto pass = [&](bool figures) {
        int texts = 0;
        std::size_t json_bytes = 0;
        const auto t0 = std::chrono::steady_clock::now();
        double last = 0;
        sse_parser p([&](const sse_event& e) {
            auto c = parse_stream_chunk(e.data);
            if (!c || c->text.empty()) return;
            ++texts;
            if (!figures) return;
            const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            event_token tok;
            tok.index = texts - 1;
            tok.id = -1;
            tok.text = c->text;
            tok.t_ms = t;
            tok.latency_ms = t - last;
            tok.source = figure_source::client;
            last = t;
            json_bytes += event_to_json_line(tok).size();
        });
        for (std::size_t i = 0; i < stream.size(); i += 16384) p.feed(std::string_view(stream).substr(i, 16384));
        CHECK(texts == n);
        CHECK(!figures || json_bytes > 0);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    double best_a = 1e9, best_b = 1e9;
    for (int round = 0; round < 3; ++round) {
        best_a = std::min(best_a, pass(false));
        best_b = std::min(best_b, pass(true));
    }
    std::fprintf(stderr,
                 "  MEASURED in memory, %d events of %zu bytes: parse only %.0f events/s (%.2f us each); "
                 "with client figures and JSON lines %.0f events/s (%.2f us each); B/A time ratio %.2f\n",
                 n, chunk.size(), n / best_a, 1e6 * best_a / n, n / best_b, 1e6 * best_b / n, best_b / best_a);
}

int main(int argc, char** argv) { return kvlens::test::run_all(argc, argv); }
