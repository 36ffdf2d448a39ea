// SPDX-License-Identifier: Apache-2.0
// The Engine (docs/design.md, "Engine contract"): owns a loaded model, a backend and a
// KV pool; takes requests from any thread, runs them on its own thread and
// reports each through an event callback. The one header the CLI and the window
// need.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend/memory_figures.h"
#include "common/result.h"
#include "engine/kv/kv_types.h"
#include "engine/metrics/events.h"
#include "engine/model/model_info.h"
#include "engine/runtime/hidden_reasoning.h"
#include "engine/runtime/prompt_lookup.h"
#include "engine/runtime/sampling.h"
#include "engine/tokenizer/chat_message.h"

namespace kvlens {

class tokenizer;

struct engine_options {
    std::string model_path;
    std::string backend = "auto";   // "cpu", "cuda" or "auto"
    int n_threads = 0;              // 0: one per core
    int n_ctx = 0;                  // context per sequence; 0: the model's, capped at 8192
    kv_mode kv = kv_mode::paged;
    kv_dtype kv_type = kv_dtype::f16;
    int kv_block = 16;              // tokens per KV block
    std::int64_t kv_budget_mib = 0; // KV pool size in MiB; 0: room for n_ctx tokens x parallel
    int chunk = 256;                // prefill chunk, tokens
    int parallel = 1;               // requests decoded together at most
};

struct request_params {
    // Either a chat (rendered through the model's chat template, generation
    // prompt appended) or raw text.
    bool chat = false;
    std::vector<chat_message> messages;
    std::string text;               // raw prompt when chat == false
    bool add_bos = true;            // raw prompts: prepend BOS when the model asks for it
    int max_tokens = 256;
    sampling_params sampling;
    // Speculative decoding by prompt lookup (prompt_lookup.h); off by default.
    // With a KV cache only (KV mode off recomputes instead). On the CPU the
    // text is the same as without it, token for token (each checked token is
    // computed as its own decode step would be: forward_batch::step).
    speculation_params speculation;
};

using event_callback = std::function<void(const event&)>;

// The KV cache's layer groups (docs/design.md, "Sliding-window layers"): how
// many layers keep a sliding window of K/V and how many keep every token, and
// the bytes one token costs in each group in the engine's KV dtype. A model
// without sliding-window layers has n_local_layers 0.
struct kv_layer_groups {
    int n_local_layers = 0;
    int n_global_layers = 0;
    int window = 0;                              // tokens a local layer keeps at most
    // The local layers are LFM2's short convolutions (their rows B*X in f32,
    // kept for the convolution's taps), not windowed attention.
    bool local_is_conv = false;
    std::int64_t local_bytes_per_token = 0;      // 2 * n_local_layers * the local group's row bytes
    std::int64_t global_bytes_per_token = 0;     // 2 * n_global_layers * row bytes
};

class engine {
public:
    // Loads the model and picks the backend. Errors name the cause.
    static result<std::unique_ptr<engine>> create(const engine_options& opts);
    virtual ~engine() = default;

    virtual const model_info& info() const = 0;
    virtual const tokenizer& vocab() const = 0;
    virtual std::string backend_description() const = 0;  // "cpu (2 threads, AVX-512)" / "cuda: NVIDIA H200"
    virtual int context_length() const = 0;                // n_ctx per sequence

    // Queues a request; events arrive on the engine's thread through on_event,
    // ending with exactly one event_done. Never blocks on the computation.
    virtual request_id submit(request_params params, event_callback on_event) = 0;
    // Takes effect within one prefill chunk or one decode step.
    virtual void cancel(request_id id) = 0;
    // Blocks until every submitted request has finished.
    virtual void wait_idle() = 0;

    // KV pool usage in 0..1, and bytes, for charts.
    virtual double kv_usage() const = 0;
    virtual std::int64_t kv_pool_bytes() const = 0;
    virtual std::int64_t weight_bytes() const = 0;
    virtual std::int64_t scratch_bytes() const = 0;
    // The KV pool's layer groups (all layers global for most models).
    virtual kv_layer_groups layer_groups() const { return {}; }
    // Whether the model may emit hidden reasoning (<think>…</think>), from its
    // vocabulary or chat template; none when it cannot tell (a remote server).
    virtual reasoning_evidence hidden_reasoning() const { return reasoning_evidence::none; }
    // Whether the model file carries a chat template; a base model (Gemma 3
    // 270M) does not, and is better asked with a completion-style prompt.
    virtual bool has_chat_template() const { return true; }

    // Why the CUDA backend that was asked for does not run and the CPU does
    // instead, as a sentence to show ("cuda: 2.1 GiB of weights + 1.0 GiB KV
    // pool do not fit in 0.5 GiB free of 16.0 GiB; using the CPU"); empty
    // when the backend asked for runs.
    virtual std::string backend_fallback() const { return {}; }
    // The backend's bytes by part with the device's free and total memory
    // (queried at the call), for the memory chart.
    virtual memory_figures device_memory() const { return {}; }
};

}  // namespace kvlens
