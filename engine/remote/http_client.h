// SPDX-License-Identifier: Apache-2.0
// HTTP for the remote engine, on libcurl (the multi interface, polled by the
// calling thread, so that a cancel or a stall ends a transfer within one poll
// of 20 ms instead of at libcurl's next progress tick). Two shapes:
//   http_fetch  - a small request whose whole body is wanted (/v1/models, /props, /metrics);
//   http_stream - a long response handed on as it arrives (Server-Sent Events).
// Both cap what they keep, time out on a stall the caller chooses, and return
// errors as values naming the cause ("connection refused by 127.0.0.1:9").
// Header values (an Authorization key) are never copied into a message.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kvlens::remote {

struct http_request {
    std::string url;
    std::string body;                 // non-empty: POST with this body
    std::vector<std::string> headers; // "Name: value"
    double connect_timeout_s = 10;
    double stall_timeout_s = 60;      // no byte for this long: the transfer fails; 0: never
    double total_timeout_s = 0;       // 0: no limit
    std::size_t max_bytes = 64u << 20; // body bytes accepted at most
};

enum class http_failure {
    none,
    refused,       // connection refused / host unreachable
    resolve,       // the host name did not resolve
    timeout,       // connect or total timeout
    stall,         // no byte for stall_timeout_s
    tls,           // a TLS handshake or certificate error
    too_large,     // more than max_bytes
    cancelled,     // the cancel flag was raised
    aborted,       // the data handler asked to stop
    other,
};

struct http_result {
    http_failure failure = http_failure::none;
    std::string error;        // set when failure != none
    long status = 0;          // HTTP status (0 if none arrived)
    std::string content_type;
    std::string body;         // http_fetch: the body; http_stream: the body of an error status (capped at 64 KiB)
    std::size_t bytes = 0;    // body bytes received
    bool ok() const { return failure == http_failure::none && status >= 200 && status < 300; }
};

// The whole body of a small request.
http_result http_fetch(const http_request& req, const std::atomic<bool>* cancel = nullptr);

// Streams a response: on_data receives each piece of a 2xx body as it arrives
// (return false to stop: the result is then `aborted`). A non-2xx body is kept
// in result.body instead, for its message.
using data_handler = std::function<bool(std::string_view)>;
http_result http_stream(const http_request& req, const data_handler& on_data, const std::atomic<bool>* cancel);

// "http://host:port" from a base URL with any path and trailing '/' removed
// kept as given; checks the scheme (http or https only). False with a reason.
bool normalize_base_url(std::string_view url, std::string& out, std::string& why);

}  // namespace kvlens::remote
