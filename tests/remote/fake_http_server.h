// SPDX-License-Identifier: Apache-2.0
// A tiny scripted HTTP/1.1 server on 127.0.0.1 for the remote-engine tests:
// statuses and streams llama-server cannot be made to produce (401, 429, a
// malformed or truncated event stream, a stall, an endless answer). Each
// connection reads one request, asks the handler for a script and plays it:
// pieces of bytes with a pause before each, then closes. Loopback only;
// every loop is bounded; stop() ends pauses early.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kvlens::test {

struct fake_request {
    std::string method, path, headers, body;
};

struct fake_piece {
    std::string bytes;
    int pause_ms = 0;          // before sending
};

struct fake_script {
    std::vector<fake_piece> pieces;     // the head included (see respond())
    // Endless mode: after the pieces, repeat `repeat` until the client goes
    // away or repeat_max_bytes were sent.
    std::string repeat;
    std::size_t repeat_max_bytes = 0;
};

// A script that sends a status line, headers and a body at once.
fake_script respond(int status, const std::string& content_type, const std::string& body);
// The head of a streamed 200 (Connection: close ends the body).
std::string stream_head(const std::string& content_type = "text/event-stream");

class fake_http_server {
public:
    using handler = std::function<fake_script(const fake_request&)>;
    explicit fake_http_server(handler h);
    ~fake_http_server();
    int port() const { return port_; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    bool ok() const { return port_ > 0; }
    // The client closed a connection before the script ended (a send failed).
    int client_hangups() const { return hangups_.load(); }
    std::vector<fake_request> requests() const;
    void stop();

private:
    void accept_loop();
    void serve(int fd);

    handler handler_;
    int listen_fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<int> hangups_{0};
    std::thread acceptor_;
    mutable std::mutex mu_;
    std::vector<std::thread> conns_;
    std::vector<fake_request> requests_;
};

// A port on 127.0.0.1 that nothing listens on (bound, then closed).
int closed_port();

}  // namespace kvlens::test
