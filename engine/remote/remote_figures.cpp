// SPDX-License-Identifier: Apache-2.0
// A remote request's figures (see remote_figures.h).
#include "engine/remote/remote_figures.h"

#include <algorithm>

namespace kvlens::remote {

double quantile(std::vector<double> values, double q) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const double pos = q * static_cast<double>(values.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    const double frac = pos - static_cast<double>(lo);
    return values[lo] + (values[hi] - values[lo]) * frac;
}

request_figures remote_figures(const client_timeline& c, const server_report& s) {
    request_figures f;
    f.source = figure_source::client;
    const server_timings& t = s.timings;
    const server_usage& u = s.usage;

    // ---- client clock
    f.queue_ms = c.queue_ms;
    f.e2e_ms = c.end_ms;
    const int n_pieces = static_cast<int>(c.token_t_ms.size());
    if (n_pieces > 0) {
        f.ttft_ms = c.token_t_ms.front();
        f.decode_ms = c.token_t_ms.back() - c.token_t_ms.front();
        std::vector<double> gaps;
        gaps.reserve(c.token_t_ms.size());
        for (std::size_t i = 1; i < c.token_t_ms.size(); ++i) gaps.push_back(c.token_t_ms[i] - c.token_t_ms[i - 1]);
        if (!gaps.empty()) {
            f.itl_p50_ms = quantile(gaps, 0.50);
            f.itl_p99_ms = quantile(gaps, 0.99);
            f.itl_max_ms = *std::max_element(gaps.begin(), gaps.end());
        }
    }
    if (c.first_visible_ms >= 0) f.ttft_visible_ms = c.first_visible_ms;

    // ---- counts: the server's where it said them
    auto from_server = [&f](const char* field) { f.server_fields.emplace_back(field); };
    f.generated_tokens = n_pieces;
    if (s.has_usage && u.completion_tokens >= 0) {
        f.generated_tokens = u.completion_tokens;
        from_server("generated_tokens");
    } else if (s.has_timings && t.predicted_n >= 0) {
        f.generated_tokens = t.predicted_n;
        from_server("generated_tokens");
    }
    if (s.has_usage && u.prompt_tokens >= 0) {
        f.prompt_tokens = u.prompt_tokens;
        from_server("prompt_tokens");
    } else if (s.has_timings && t.prompt_n >= 0 && t.cache_n >= 0) {
        f.prompt_tokens = t.prompt_n + t.cache_n;
        from_server("prompt_tokens");
    }
    if (s.has_timings && t.cache_n >= 0) {
        f.cached_tokens = t.cache_n;
        from_server("cached_tokens");
    } else if (s.has_usage && u.cached_tokens >= 0) {
        f.cached_tokens = u.cached_tokens;
        from_server("cached_tokens");
    }
    if (s.has_timings && t.prompt_n >= 0) {
        f.computed_tokens = t.prompt_n;
        from_server("computed_tokens");
    } else if (f.prompt_tokens > 0) {
        f.computed_tokens = std::max(0, f.prompt_tokens - f.cached_tokens);
        from_server("computed_tokens");
    }
    if (s.has_timings && t.prompt_ms >= 0) {
        f.prefill_ms = t.prompt_ms;
        from_server("prefill_ms");
        if (t.prompt_ms > 0 && f.computed_tokens > 0) {
            f.prefill_tok_s = f.computed_tokens / (t.prompt_ms / 1000.0);
            from_server("prefill_tok_s");
        }
    }

    // ---- decode rate at the client: pieces after the first over the client's decode time
    if (n_pieces > 1 && f.decode_ms > 0) {
        f.tpot_ms = f.decode_ms / (n_pieces - 1);
        f.decode_tok_s = (n_pieces - 1) / (f.decode_ms / 1000.0);
    }

    // ---- verbatim server figures
    server_figures& out = f.server;
    out.prompt_tokens = u.prompt_tokens;
    out.completion_tokens = u.completion_tokens;
    out.cached_tokens = u.cached_tokens;
    out.prompt_n = t.prompt_n;
    out.cache_n = t.cache_n;
    out.predicted_n = t.predicted_n;
    out.prompt_ms = t.prompt_ms;
    out.predicted_ms = t.predicted_ms;
    out.prompt_per_second = t.prompt_per_second;
    out.predicted_per_second = t.predicted_per_second;
    out.kv_usage_peak = s.kv_usage_peak;
    out.prefix_cache_hit_rate = s.prefix_cache_hit_rate;
    out.progress_events = s.progress_events;
    return f;
}

}  // namespace kvlens::remote
