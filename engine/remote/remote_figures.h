// SPDX-License-Identifier: Apache-2.0
// The figures of a remote request, computed once from what the client timed
// and what the server reported (design.md, "Compute a figure once"). Times
// from the client's clock, counts from the server where it said them, each
// server-sourced field named in request_figures::server_fields.
#pragma once

#include <vector>

#include "engine/metrics/events.h"
#include "engine/remote/openai_protocol.h"

namespace kvlens::remote {

// The client's clock, milliseconds since submission.
struct client_timeline {
    double queue_ms = 0;              // submission -> request handed to the HTTP client
    std::vector<double> token_t_ms;   // arrival of each streamed piece (the tokens)
    double first_visible_ms = -1;     // first piece outside hidden reasoning; -1 none
    double end_ms = 0;                // the stream closed
};

// What the server said, collected over the stream.
struct server_report {
    bool has_usage = false;
    server_usage usage;
    bool has_timings = false;
    server_timings timings;
    int progress_events = 0;
    double kv_usage_peak = -1;        // /metrics polls during the request
    double prefix_cache_hit_rate = -1;
};

request_figures remote_figures(const client_timeline& c, const server_report& s);

// The q-quantile (0..1) of values by linear interpolation between order
// statistics; 0 for an empty list.
double quantile(std::vector<double> values, double q);

}  // namespace kvlens::remote
