// SPDX-License-Identifier: Apache-2.0
// The remote engine against a real server: llama.cpp's own llama-server
// (built by scripts/build-llama-server from the llama.cpp that the
// llama-cpp-python 0.3.36 sdist carries), started on 127.0.0.1 on a free
// port with the default model and --no-repack (the repacked CPU path dies
// with an illegal instruction on this machine). Checks streaming, the
// client's TTFT and gaps, a follow-up that hits the server's prompt cache,
// prompt_progress as prefill_chunk events, cancel mid-stream, and that the
// client's figures contain the server's own timings. Without the binary or
// the model every case SKIPs with a loud message and the suite passes.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include "check.h"
#include "engine/remote/http_client.h"
#include "engine/remote/remote_engine.h"
#include "fake_http_server.h"
#include "tests/support/test_paths.h"

extern char** environ;

using namespace kvlens;
namespace fs = std::filesystem;

namespace {

fs::path server_binary() {
    if (const char* env = std::getenv("KVLENS_LLAMA_SERVER")) {
        fs::path p(env);
        if (fs::is_directory(p)) p /= "bin/llama-server";
        return p;
    }
    fs::path cache;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
        cache = x;
    else if (const char* h = std::getenv("HOME"))
        cache = fs::path(h) / ".cache";
    return cache / "kvlens/llama-server-0.3.36/bin/llama-server";
}

// One llama-server child process for the whole suite.
class llama_server {
public:
    llama_server() {
        const fs::path bin = server_binary();
        if (!fs::exists(bin)) {
            why_ = "no llama-server at " + bin.string() + " (run scripts/build-llama-server)";
            return;
        }
        if (!test::have_default_model()) {
            why_ = "no default model at " + test::default_model().string() + " (run scripts/fetch-model)";
            return;
        }
        port_ = test::closed_port();
        log_ = (fs::temp_directory_path() / ("kvlens-llama-server-" + std::to_string(port_) + ".log")).string();
        // Small batches so that a long prompt reports its progress in several steps.
        std::vector<std::string> args = {bin.string(), "-m", test::default_model().string(), "--host", "127.0.0.1",
                                         "--port", std::to_string(port_), "--no-repack", "-c", "2048", "-np", "1",
                                         "-b", "64", "-ub", "64", "-t", "2", "--metrics", "--no-webui"};
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
        const int rc = posix_spawn(&pid_, bin.c_str(), &fa, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&fa);
        if (rc != 0) {
            why_ = "cannot start " + bin.string();
            pid_ = 0;
            return;
        }
        // /health answers 200 once the model is loaded: at most 180 s.
        remote::http_request h;
        h.url = url() + "/health";
        h.connect_timeout_s = 1;
        h.total_timeout_s = 2;
        for (int i = 0; i < 360; ++i) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                why_ = "llama-server exited at start (log: " + log_ + ")";
                pid_ = 0;
                return;
            }
            if (remote::http_fetch(h).ok()) {
                ready_ = true;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
        }
        why_ = "llama-server did not become healthy in 180 s (log: " + log_ + ")";
    }
    ~llama_server() {
        if (pid_ > 0) {
            kill(pid_, SIGTERM);
            int status = 0;
            for (int i = 0; i < 100 && waitpid(pid_, &status, WNOHANG) == 0; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (waitpid(pid_, &status, WNOHANG) == 0) {
                kill(pid_, SIGKILL);
                waitpid(pid_, &status, 0);
            }
        }
    }
    bool ready() const { return ready_; }
    const std::string& why() const { return why_; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

private:
    pid_t pid_ = 0;
    int port_ = 0;
    bool ready_ = false;
    std::string why_, log_;
};

llama_server& server() {
    static llama_server s;
    return s;
}

std::unique_ptr<engine>& shared_engine() {
    static std::unique_ptr<engine> e;
    return e;
}

// The engine on the suite's server, or nullptr after printing SKIP.
engine* remote_or_skip() {
    llama_server& s = server();
    if (!s.ready()) {
        std::fprintf(stderr, "  SKIP: ***** real-server case not run: %s *****\n", s.why().c_str());
        return nullptr;
    }
    auto& e = shared_engine();
    if (!e) {
        remote::remote_options o;
        o.url = s.url();
        o.stall_timeout_s = 120;
        o.metrics_poll_s = 0.1;
        auto c = remote::connect(o);
        if (!c) {
            test::report(__FILE__, __LINE__, "connect: " + c.message());
            throw test::require_failed{};
        }
        e = std::move(*c);
    }
    return e.get();
}

struct collected {
    std::vector<event> events;
    std::vector<event_token> tokens;
    std::vector<event_prefill_chunk> progress;
    event_done done;
};

collected run(engine& e, request_params p, int cancel_after = 0) {
    collected c;
    std::mutex mu;
    std::atomic<request_id> id{0};
    std::atomic<bool> have_id{false};
    id = e.submit(std::move(p), [&](const event& ev) {
        std::lock_guard<std::mutex> lock(mu);
        c.events.push_back(ev);
        if (const auto* t = std::get_if<event_token>(&ev)) {
            c.tokens.push_back(*t);
            if (cancel_after > 0 && static_cast<int>(c.tokens.size()) == cancel_after) {
                while (!have_id.load()) std::this_thread::yield();
                e.cancel(id.load());
            }
        } else if (const auto* pc = std::get_if<event_prefill_chunk>(&ev)) {
            c.progress.push_back(*pc);
        } else if (const auto* d = std::get_if<event_done>(&ev)) {
            c.done = *d;
        }
    });
    have_id = true;
    e.wait_idle();
    return c;
}

request_params chat(const std::string& system, const std::string& user, int max_tokens) {
    request_params p;
    p.chat = true;
    p.messages = {{"system", system}, {"user", user}};
    p.max_tokens = max_tokens;
    return p;
}

// A system prompt long enough for several 64-token batches.
std::string long_system() {
    std::string s = "You are a careful assistant who reads reports. ";
    for (int i = 0; i < 30; ++i) s += "Paragraph " + std::to_string(i) + " of the report says that the KV cache grows. ";
    return s;
}

}  // namespace

TEST(connectingNamesTheServersModelAndContext) {
    engine* e = remote_or_skip();
    if (!e) return;
    CHECK(!e->info().name.empty());
    CHECK_MSG(e->context_length() == 2048, std::to_string(e->context_length()));
    CHECK(e->info().n_vocab == 49152);
    CHECK(e->backend_description().find("llama.cpp server") != std::string::npos);
}

TEST(aChatAnswerStreamsTokenByTokenWithClientTtftAndGaps) {
    engine* e = remote_or_skip();
    if (!e) return;
    const collected c = run(*e, chat("Be brief.", "Name three colours.", 24));
    REQUIRE_MSG(c.done.reason != finish_reason::error, c.done.error);
    REQUIRE(c.tokens.size() >= 2);
    for (std::size_t i = 0; i < c.tokens.size(); ++i) {
        CHECK(c.tokens[i].index == static_cast<int>(i));
        CHECK(c.tokens[i].source == figure_source::client);
        if (i > 0) CHECK(c.tokens[i].t_ms >= c.tokens[i - 1].t_ms);
    }
    const request_figures& f = c.done.figures;
    CHECK(f.ttft_ms > 0 && f.ttft_ms == c.tokens.front().t_ms);
    CHECK(f.decode_ms > 0 && f.itl_p50_ms > 0 && f.itl_max_ms >= f.itl_p50_ms);
    CHECK(f.server.predicted_n > 0 && f.server.prompt_n > 0);
    CHECK(f.prompt_tokens > 0 && f.generated_tokens == f.server.predicted_n);
    CHECK(!c.done.text.empty());
}

TEST(aFollowUpSharingThePrefixIsServedFromTheServersCache) {
    engine* e = remote_or_skip();
    if (!e) return;
    const std::string sys = long_system();
    const collected first = run(*e, chat(sys, "What grows?", 8));
    REQUIRE_MSG(first.done.reason != finish_reason::error, first.done.error);
    const collected second = run(*e, chat(sys, "What grows, and why?", 8));
    REQUIRE_MSG(second.done.reason != finish_reason::error, second.done.error);
    const request_figures& f = second.done.figures;
    std::fprintf(stderr, "  follow-up: prompt %d, cache_n %d, cached_tokens %d, prompt_n %d\n", f.prompt_tokens,
                 f.server.cache_n, f.server.cached_tokens, f.server.prompt_n);
    CHECK(f.server.cache_n > 0 || f.server.cached_tokens > 0);
    CHECK(f.cached_tokens > 0 && f.computed_tokens < f.prompt_tokens);
    CHECK(f.cached_tokens + f.computed_tokens == f.prompt_tokens);
}

TEST(aLongPromptReportsItsPrefillProgressAsServerChunks) {
    engine* e = remote_or_skip();
    if (!e) return;
    // A different start, so that nothing is cached.
    const collected c = run(*e, chat("Read this. " + long_system(), "Summarise.", 4));
    REQUIRE_MSG(c.done.reason != finish_reason::error, c.done.error);
    REQUIRE_MSG(c.progress.size() >= 3, std::to_string(c.progress.size()) + " progress events");
    int last = -1;
    for (const auto& p : c.progress) {
        CHECK(p.source == figure_source::server);
        CHECK(p.tokens_done >= last);
        CHECK(p.tokens_total == c.progress.front().tokens_total);
        last = p.tokens_done;
    }
    CHECK(c.progress.back().tokens_done == c.progress.back().tokens_total);
    CHECK(c.done.figures.server.progress_events == static_cast<int>(c.progress.size()));
    // Every progress report comes before the first token.
    CHECK(c.progress.back().t_ms <= c.done.figures.ttft_ms);
}

TEST(cancelMidStreamStopsTheAnswerAndTheServerServesTheNextRequest) {
    engine* e = remote_or_skip();
    if (!e) return;
    const collected c = run(*e, chat("Be verbose.", "Tell a long story about a cache.", 400), 3);
    CHECK(c.done.reason == finish_reason::cancelled);
    CHECK_MSG(c.tokens.size() >= 3 && c.tokens.size() < 50, std::to_string(c.tokens.size()));
    const collected next = run(*e, chat("Be brief.", "Say hi.", 4));
    CHECK_MSG(next.done.reason != finish_reason::error, next.done.error);
    CHECK(!next.tokens.empty());
}

// The server's intervals lie inside the client's: its prompt time inside the
// client's TTFT and prompt + decode inside the client's end to end. What is
// left is the network's and the HTTP layers' share, printed.
TEST(clientFiguresContainTheServersOwnTimings) {
    engine* e = remote_or_skip();
    if (!e) return;
    const collected c = run(*e, chat("Be brief.", "Count from one to twenty.", 48));
    REQUIRE_MSG(c.done.reason != finish_reason::error, c.done.error);
    const request_figures& f = c.done.figures;
    const server_figures& s = f.server;
    REQUIRE(s.prompt_ms >= 0 && s.predicted_ms >= 0);
    CHECK_MSG(f.ttft_ms >= s.prompt_ms, std::to_string(f.ttft_ms) + " < " + std::to_string(s.prompt_ms));
    CHECK_MSG(f.e2e_ms >= s.prompt_ms + s.predicted_ms,
              std::to_string(f.e2e_ms) + " < " + std::to_string(s.prompt_ms + s.predicted_ms));
    CHECK(static_cast<int>(c.tokens.size()) <= s.predicted_n);
    std::fprintf(stderr,
                 "  MEASURED client vs server: TTFT %.1f ms vs prompt %.1f ms (share %.1f ms); decode %.1f ms vs "
                 "predicted %.1f ms; e2e %.1f ms vs %.1f ms (share %.1f ms); %zu pieces, %d tokens\n",
                 f.ttft_ms, s.prompt_ms, f.ttft_ms - s.prompt_ms, f.decode_ms, s.predicted_ms, f.e2e_ms,
                 s.prompt_ms + s.predicted_ms, f.e2e_ms - s.prompt_ms - s.predicted_ms, c.tokens.size(),
                 s.predicted_n);
}

TEST(aModelNameTheServerDoesNotHaveIsRefused) {
    if (!remote_or_skip()) return;
    remote::remote_options o;
    o.url = server().url();
    o.model = "no-such-model.gguf";
    auto e = remote::connect(o);
    REQUIRE(!e.ok());
    CHECK_MSG(e.message().find("no model 'no-such-model.gguf'") != std::string::npos, e.message());
}

int main(int argc, char** argv) {
    const int rc = kvlens::test::run_all(argc, argv);
    shared_engine().reset();
    return rc;
}
