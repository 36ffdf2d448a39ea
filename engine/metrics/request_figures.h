// SPDX-License-Identifier: Apache-2.0
// The figures of one request (docs/design.md, "Events and figures"), computed
// in one place: figures_of() takes the moments and counters the engine
// recorded (a request_timeline) and returns request_figures. The engine uses
// it for its events and the done event; the CLI prints the done event's
// figures; the window can fill a timeline from the events' t_ms and call the
// same function instead of deriving a figure of its own.
//
// The clock: milliseconds on a monotonic clock, 0 at arrival (the moment
// engine::submit was called). TTFT is cut into four segments, each the gap
// between two recorded moments, none of them a remainder:
//
//   arrival ─tokenize─▶ tokenized ─queue─▶ scheduled ─prefill─▶ prefill done ─first sample─▶ first token
//
// Meanings next to the serving engines' ones:
//   ttft_ms          arrival → first token sampled. vLLM's
//                    vllm:time_to_first_token_seconds (arrival → first token,
//                    so tokenization and queueing are in it); what an
//                    OpenAI-compatible client measures from sending the request
//                    to the first streamed token, less the network.
//   tokenize_ms      arrival → tokenized: chat template + tokenizer. vLLM does
//                    this in the API server before the request reaches the
//                    engine; it counts in vLLM's TTFT but in none of its
//                    engine-side intervals.
//   queue_ms         tokenized → scheduled: waiting for a free slot and KV
//                    blocks. vLLM's vllm:request_queue_time_seconds (queued →
//                    first scheduled). Tokenize is not in it.
//   prefill_ms       scheduled → the last prefill chunk's forward pass
//                    returned (wall time, so chunks of other requests that ran
//                    first are in it). vLLM's request_prefill_time_seconds
//                    runs from scheduled to the first token, i.e. our
//                    prefill_ms + first_sample_ms.
//   first_sample_ms  prefill done → first token sampled: the sampler on the
//                    last logits row, plus the other requests of the same
//                    batch whose results were handled first.
//   latency_ms       (token events) the gap to the previous token: vLLM's
//                    inter-token latency (ITL, vllm:inter_token_latency_seconds).
//   decode_ms        first token → last token: vLLM's request_decode_time_seconds.
//   tpot_ms          decode_ms / (generated − 1): time per output token after the
//                    first, vLLM's request_time_per_output_token_seconds and the
//                    TPOT of vLLM's benchmarks ((e2e − ttft) / (output − 1)).
//   e2e_ms           arrival → done: vllm:e2e_request_latency_seconds.
//   draft_steps, draft_tokens, accepted_tokens (speculative decoding): vLLM's
//                    vllm:spec_decode_num_drafts, _num_draft_tokens and
//                    _num_accepted_tokens for this request; acceptance_rate =
//                    accepted / draft tokens and mean_acceptance_length = 1 +
//                    accepted / drafts (tokens emitted per verifying step, the
//                    target's own token counted), as vLLM derives them.
//   prompt_tokens, cached_tokens, generated_tokens: OpenAI's usage.prompt_tokens,
//                    usage.prompt_tokens_details.cached_tokens and
//                    usage.completion_tokens.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kvlens {

// Where a figure was measured (issue 17): in the engine's own process, at
// kvlens's HTTP client (a remote engine's clock: arrival, bytes, tokens), or
// reported by a remote server in its own words (usage, timings, /metrics).
enum class figure_source { engine, client, server };
inline const char* to_string(figure_source s) {
    return s == figure_source::engine ? "engine" : s == figure_source::client ? "client" : "server";
}

// What a remote server reported about a request in its own words (-1: not reported).
struct server_figures {
    int prompt_tokens = -1;        // usage.prompt_tokens
    int completion_tokens = -1;    // usage.completion_tokens
    int cached_tokens = -1;        // usage.prompt_tokens_details.cached_tokens
    int prompt_n = -1;             // llama.cpp timings: prompt tokens evaluated
    int cache_n = -1;              // llama.cpp timings: prompt tokens reused from the cache
    int predicted_n = -1;          // llama.cpp timings: tokens generated
    double prompt_ms = -1;         // llama.cpp timings: server prefill time
    double predicted_ms = -1;      // llama.cpp timings: server decode time
    double prompt_per_second = -1;
    double predicted_per_second = -1;
    double kv_usage_peak = -1;     // /metrics during the run: the server's KV cache in use, 0..1
    double prefix_cache_hit_rate = -1;  // /metrics: hits / queries (or SGLang's gauge) at the end
    int progress_events = 0;       // prompt_progress reports received
};

// What the engine records about a request. Moments are ms since arrival; a
// negative moment was not reached (a cancelled or failed request).
struct request_timeline {
    double tokenized_ms = -1;        // chat template + tokenizer done
    double scheduled_ms = -1;        // the scheduler took it (KV blocks promised)
    double prefill_done_ms = -1;     // the forward pass holding its last prompt chunk returned
    double first_token_ms = -1;      // first token sampled
    double first_visible_ms = -1;    // first token with visible text (outside <think>...</think>)
    double last_token_ms = -1;       // latest token sampled
    double end_ms = -1;              // finished (done event)

    int prompt_tokens = 0;           // rendered prompt, BOS included
    int cached_tokens = 0;           // prompt tokens whose KV came from the prefix cache
    int computed_tokens = 0;         // prompt tokens prefilled by this request
    int generated_tokens = 0;
    std::int64_t recomputed_tokens = 0;   // KV off: tokens run again by the decode steps, summed
    int draft_steps = 0;             // speculative decoding: decode steps that checked a draft
    int draft_tokens = 0;            // draft tokens proposed in those steps
    int accepted_tokens = 0;         // of which the target accepted (emitted without a step of their own)
    double prefill_forward_ms = 0;   // wall time of the forward passes that held its prompt chunks
    double prefill_flop = 0;         // counted FLOPs of those passes, its share
    double decode_bytes = 0;         // counted bytes read by its decode steps (weights + KV)
    double prefill_bytes = 0;        // counted bytes read by the passes that held its prompt chunks, its share
    double decode_flop = 0;          // counted FLOPs of the passes of its decode steps, its share (by tokens)
    std::int64_t kv_bytes_peak = 0;  // largest logical KV held, bytes
    std::int64_t device_memory_peak = 0;  // weights + KV pool + scratch on the device, bytes
};

// Figures of a request. Times in ms; a segment whose end was not reached is 0.
struct request_figures {
    int prompt_tokens = 0;
    int cached_tokens = 0;      // prompt tokens whose KV came from the prefix cache
    int computed_tokens = 0;    // prompt tokens prefilled by this request
    int generated_tokens = 0;
    std::int64_t recomputed_tokens = 0;  // KV off: tokens recomputed by decode steps, summed; else 0
    int draft_steps = 0;        // speculative decoding (0 without): steps that checked a draft
    int draft_tokens = 0;       // draft tokens proposed
    int accepted_tokens = 0;    // draft tokens accepted
    double acceptance_rate = 0;         // accepted / draft tokens, 0..1; 0 without drafts
    double mean_acceptance_length = 0;  // 1 + accepted / draft steps; 0 without drafts
    double tokenize_ms = 0;     // arrival -> tokenized
    double queue_ms = 0;        // tokenized -> scheduled (never scheduled: tokenized -> end)
    double prefill_ms = 0;      // scheduled -> prefill done
    double first_sample_ms = 0; // prefill done -> first token sampled
    double ttft_ms = 0;         // arrival -> first token sampled (= the four segments above)
    double ttft_visible_ms = 0; // arrival -> first visible token; 0 if none
    double decode_ms = 0;       // first token -> last token
    double e2e_ms = 0;          // arrival -> done
    double prefill_forward_ms = 0;  // the forward passes that held its prompt chunks (<= prefill_ms)
    double prefill_tok_s = 0;   // computed_tokens / prefill_forward_ms
    double decode_tok_s = 0;    // (generated - 1) / decode_ms
    double tpot_ms = 0;         // decode_ms / (generated - 1)
    std::int64_t kv_bytes_peak = 0;
    std::int64_t device_memory_peak = 0;   // bytes: weights + KV pool + scratch on the backend's device
    double prefill_flop = 0;             // counted FLOPs of the prefill
    double prefill_flop_s = 0;           // achieved FLOP/s: prefill_flop / prefill_forward_ms
    double decode_bytes = 0;             // counted bytes read by the decode steps (weights + KV)
    double decode_bytes_s = 0;           // achieved bytes/s: decode_bytes / decode_ms
    double prefill_bytes = 0;            // counted bytes read by the prefill (weights + KV), its share
    double decode_flop = 0;              // counted FLOPs of the decode steps, its share
    // Remote engines (issue 17): `source` is client, the times above were taken
    // at the HTTP client, and the fields named in server_fields (e.g.
    // "prompt_tokens", "cached_tokens", "prefill_ms") came from the server.
    figure_source source = figure_source::engine;
    std::vector<std::string> server_fields;
    double itl_p50_ms = 0;               // client inter-token gaps (tokens 1..n-1); 0 with fewer than 2 tokens
    double itl_p99_ms = 0;
    double itl_max_ms = 0;
    server_figures server;               // verbatim; all -1 for the local engine
};

// The one derivation of a request's figures from what was recorded.
request_figures figures_of(const request_timeline& t);

}  // namespace kvlens
