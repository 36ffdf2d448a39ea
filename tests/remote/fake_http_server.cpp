// SPDX-License-Identifier: Apache-2.0
// The scripted loopback HTTP server of the remote-engine tests (see fake_http_server.h).
#include "fake_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

namespace kvlens::test {

namespace {

const char* reason_phrase(int status) {
    switch (status) {
        case 200: return "OK";
        case 401: return "Unauthorized";
        case 404: return "Not Found";
        case 429: return "Too Many Requests";
        case 500: return "Internal Server Error";
        default: return "Status";
    }
}

int bind_loopback(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(port));
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

int port_of(int fd) {
    sockaddr_in a{};
    socklen_t len = sizeof a;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) return 0;
    return ntohs(a.sin_port);
}

bool send_all(int fd, const std::string& s) {
    std::size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
        if (n <= 0) return false;
        off += static_cast<std::size_t>(n);
    }
    return true;
}

// Reads the head and a Content-Length body (at most 1 MiB, 5 s).
bool read_request(int fd, fake_request& r) {
    std::string buf;
    char tmp[4096];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    std::size_t head_end = std::string::npos;
    std::size_t want = 0;
    while (buf.size() < (1u << 20) && std::chrono::steady_clock::now() < deadline) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        const ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
        if (n <= 0) return false;
        buf.append(tmp, static_cast<std::size_t>(n));
        if (head_end == std::string::npos) {
            head_end = buf.find("\r\n\r\n");
            if (head_end == std::string::npos) continue;
            r.headers = buf.substr(0, head_end);
            const auto sp1 = r.headers.find(' ');
            const auto sp2 = r.headers.find(' ', sp1 + 1);
            r.method = r.headers.substr(0, sp1);
            r.path = r.headers.substr(sp1 + 1, sp2 - sp1 - 1);
            std::string lower = r.headers;
            for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (auto cl = lower.find("content-length:"); cl != std::string::npos)
                want = std::strtoul(lower.c_str() + cl + 15, nullptr, 10);
        }
        if (buf.size() >= head_end + 4 + want) {
            r.body = buf.substr(head_end + 4, want);
            return true;
        }
    }
    return false;
}

}  // namespace

fake_script respond(int status, const std::string& content_type, const std::string& body) {
    fake_script s;
    s.pieces.push_back({"HTTP/1.1 " + std::to_string(status) + " " + reason_phrase(status) +
                            "\r\nContent-Type: " + content_type + "\r\nContent-Length: " + std::to_string(body.size()) +
                            "\r\nConnection: close\r\n\r\n" + body,
                        0});
    return s;
}

std::string stream_head(const std::string& content_type) {
    return "HTTP/1.1 200 OK\r\nContent-Type: " + content_type + "\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
}

fake_http_server::fake_http_server(handler h) : handler_(std::move(h)) {
    listen_fd_ = bind_loopback(0);
    if (listen_fd_ < 0 || ::listen(listen_fd_, 16) != 0) return;
    port_ = port_of(listen_fd_);
    acceptor_ = std::thread([this] { accept_loop(); });
}

fake_http_server::~fake_http_server() { stop(); }

void fake_http_server::stop() {
    if (stop_.exchange(true)) return;
    if (acceptor_.joinable()) acceptor_.join();
    std::vector<std::thread> conns;
    {
        std::lock_guard<std::mutex> lock(mu_);
        conns.swap(conns_);
    }
    for (auto& t : conns) t.join();
    if (listen_fd_ >= 0) ::close(listen_fd_);
}

std::vector<fake_request> fake_http_server::requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
}

void fake_http_server::accept_loop() {
    while (!stop_) {
        pollfd p{listen_fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        const int fd = ::accept(listen_fd_, nullptr, nullptr);
        if (fd < 0) continue;
        std::lock_guard<std::mutex> lock(mu_);
        conns_.emplace_back([this, fd] { serve(fd); });
    }
}

void fake_http_server::serve(int fd) {
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fake_request r;
    if (read_request(fd, r)) {
        {
            std::lock_guard<std::mutex> lock(mu_);
            requests_.push_back(r);
        }
        const fake_script s = handler_(r);
        bool alive = true;
        for (const auto& piece : s.pieces) {
            for (int waited = 0; waited < piece.pause_ms && !stop_; waited += 5) {
                ::usleep(5000);
                // A client that went away shows as a readable socket at EOF.
                pollfd p{fd, POLLIN, 0};
                char c;
                if (::poll(&p, 1, 0) > 0 && ::recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0) {
                    alive = false;
                    break;
                }
            }
            if (!alive || stop_ || !send_all(fd, piece.bytes)) {
                alive = false;
                break;
            }
        }
        std::size_t sent = 0;
        while (alive && !stop_ && !s.repeat.empty() && sent < s.repeat_max_bytes) {
            if (!send_all(fd, s.repeat)) alive = false;
            sent += s.repeat.size();
        }
        if (!alive && !stop_) ++hangups_;
    }
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
}

int closed_port() {
    const int fd = bind_loopback(0);
    if (fd < 0) return 0;
    const int port = port_of(fd);
    ::close(fd);
    return port;
}

}  // namespace kvlens::test
