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
};

using event_callback = std::function<void(const event&)>;

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
