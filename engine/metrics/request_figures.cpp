// SPDX-License-Identifier: Apache-2.0
// figures_of(): every figure of a request from its recorded moments and
// counters. Each time is the gap between two recorded moments.
#include "engine/metrics/request_figures.h"

namespace kvlens {

namespace {

bool reached(double moment) { return moment >= 0; }

// The gap from a to b, or 0 when either moment was not reached.
double gap(double a, double b) { return reached(a) && reached(b) ? b - a : 0; }

double per_second(double amount, double ms) { return ms > 0 ? amount / (ms / 1000.0) : 0; }

}  // namespace

request_figures figures_of(const request_timeline& t) {
    request_figures f;
    f.prompt_tokens = t.prompt_tokens;
    f.cached_tokens = t.cached_tokens;
    f.computed_tokens = t.computed_tokens;
    f.generated_tokens = t.generated_tokens;
    f.recomputed_tokens = t.recomputed_tokens;
    f.draft_steps = t.draft_steps;
    f.draft_tokens = t.draft_tokens;
    f.accepted_tokens = t.accepted_tokens;
    if (t.draft_tokens > 0) f.acceptance_rate = static_cast<double>(t.accepted_tokens) / t.draft_tokens;
    if (t.draft_steps > 0) f.mean_acceptance_length = 1.0 + static_cast<double>(t.accepted_tokens) / t.draft_steps;

    // The TTFT segments (arrival is 0).
    f.tokenize_ms = gap(0, t.tokenized_ms);
    f.queue_ms = reached(t.scheduled_ms) ? gap(t.tokenized_ms, t.scheduled_ms) : gap(t.tokenized_ms, t.end_ms);
    f.prefill_ms = gap(t.scheduled_ms, t.prefill_done_ms);
    f.first_sample_ms = gap(t.prefill_done_ms, t.first_token_ms);
    f.ttft_ms = gap(0, t.first_token_ms);
    f.ttft_visible_ms = gap(0, t.first_visible_ms);

    f.decode_ms = gap(t.first_token_ms, t.last_token_ms);
    f.e2e_ms = gap(0, t.end_ms);
    f.prefill_forward_ms = t.prefill_forward_ms;
    f.prefill_tok_s = per_second(t.computed_tokens, t.prefill_forward_ms);
    if (t.generated_tokens > 1 && f.decode_ms > 0) {
        f.decode_tok_s = per_second(t.generated_tokens - 1, f.decode_ms);
        f.tpot_ms = f.decode_ms / (t.generated_tokens - 1);
        f.decode_bytes_s = per_second(t.decode_bytes, f.decode_ms);
    }
    f.kv_bytes_peak = t.kv_bytes_peak;
    f.device_memory_peak = t.device_memory_peak;
    f.prefill_flop = t.prefill_flop;
    f.prefill_flop_s = per_second(t.prefill_flop, t.prefill_forward_ms);
    f.decode_bytes = t.decode_bytes;
    f.prefill_bytes = t.prefill_bytes;
    f.decode_flop = t.decode_flop;
    return f;
}

}  // namespace kvlens
