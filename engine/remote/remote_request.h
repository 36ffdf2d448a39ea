// SPDX-License-Identifier: Apache-2.0
// One remote request, start to finish, on the calling thread: the streamed
// POST, the event-stream parser, the chunk parser, the client's clock and the
// events it emits (queued ... done, exactly one done). remote_engine runs it
// on its workers; the tests run it directly against a fake server.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "engine/remote/http_client.h"
#include "engine/remote/openai_protocol.h"
#include "engine/runtime/engine.h"

namespace kvlens::remote {

struct stream_target {
    std::string base_url;             // normalized (no trailing /v1)
    std::vector<std::string> headers; // Authorization among them; never printed
    request_shape shape;              // model, llama.cpp extras (chat is set per request)
    double connect_timeout_s = 10;
    double stall_timeout_s = 60;
    std::size_t max_response_bytes = 32u << 20;
};

// The server's /metrics as last polled (all -1 when never).
using metrics_source = std::function<server_kv_metrics()>;

// "the server answered HTTP 401 (Unauthorized: check the API key): <its message>"
std::string describe_status(long status, const std::string& body);

void run_remote_request(const stream_target& target, const request_params& params, request_id id,
                        std::chrono::steady_clock::time_point arrival, const std::atomic<bool>& cancel,
                        const event_callback& emit, const metrics_source& metrics);

}  // namespace kvlens::remote
