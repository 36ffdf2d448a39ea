// SPDX-License-Identifier: Apache-2.0
// The engine's implementation: a model, a backend, a KV pool and the
// scheduler thread that turns queued requests into forward passes: prefill in
// chunks, decode steps of up to `parallel` requests batched together.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "engine/backend/backend.h"
#include "engine/kv/kv_pool.h"
#include "engine/model/model.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/request_state.h"
#include "engine/tokenizer/tokenizer.h"

namespace kvlens {

class engine_impl final : public engine {
public:
    static result<std::unique_ptr<engine>> create(const engine_options& opts);
    ~engine_impl() override;

    const model_info& info() const override { return model_->info(); }
    const tokenizer& vocab() const override { return *tok_; }
    std::string backend_description() const override { return backend_desc_; }
    int context_length() const override { return n_ctx_; }

    request_id submit(request_params params, event_callback on_event) override;
    void cancel(request_id id) override;
    void wait_idle() override;

    double kv_usage() const override { return pool_->usage(); }
    std::int64_t kv_pool_bytes() const override { return backend_->kv_bytes(); }
    kv_layer_groups layer_groups() const override;
    reasoning_evidence hidden_reasoning() const override;
    bool has_chat_template() const override;
    std::int64_t weight_bytes() const override { return backend_->weight_bytes(); }
    std::int64_t scratch_bytes() const override { return backend_->scratch_bytes(); }
    std::string backend_fallback() const override { return backend_fallback_; }
    memory_figures device_memory() const override { return backend_->memory(); }

private:
    engine_impl() = default;
    void loop();
    void take_inbox(std::unique_lock<std::mutex>& lock);
    void admit();
    bool try_start(request_state& r);
    // One step, in its phases (engine_impl.cpp, "one step").
    void step();
    void add_decode_tokens();
    void add_prefill_chunk();
    void add_part(request_state& r, const std::int32_t* ids, int n, bool want_logits);
    void run_batch();
    void apply_decode_result(request_state& r, const float* logits, int n_fed, const forward_counts& counts,
                             steady::time_point t_done);
    std::vector<std::int32_t> draft_for(const request_state& r) const;
    void apply_prefill_result(request_state& r, int n, const float* logits, const forward_counts& counts,
                              double step_ms, steady::time_point t_done);
    void recompute_without_cache(request_state& r);
    void after_prompt_done(request_state& r, const float* logits);
    // False (and the request ended with an error naming the cause) when a row
    // of V logits holds NaN or +infinity: weights that overflow, from a
    // damaged or hostile file, would otherwise pick tokens at random.
    bool logits_usable(request_state& r, const float* row, std::size_t V);
    // recomputed: tokens this step ran again for lack of a cache (KV off), else 0.
    // drafted: a draft token the target accepted (speculative decoding).
    void emit_token(request_state& r, std::int32_t id, steady::time_point now, std::int64_t recomputed,
                    bool drafted = false);
    kv_figures held_kv(const request_state& r) const;
    kv_groups groups_of(const kv_figures& kf) const;   // the event's copy of the per-group split
    void finish(request_state& r, finish_reason why, std::string error = {});
    void reap_finished();
    std::int64_t blocks_still_needed(const request_state& r) const;

    engine_options opts_;
    std::unique_ptr<model> model_;
    std::unique_ptr<tokenizer> tok_;
    std::unique_ptr<backend> backend_;
    std::unique_ptr<kv_pool> pool_;
    std::string backend_desc_;
    std::string backend_fallback_;   // why the CUDA asked for does not run; empty when it does
    int n_ctx_ = 0;
    int max_batch_ = 0;

    // Shared with submitting threads (under mutex_).
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_;
    std::deque<std::unique_ptr<request_state>> inbox_;
    std::map<request_id, std::shared_ptr<std::atomic<bool>>> cancel_flags_;
    request_id next_id_ = 1;
    int in_flight_ = 0;            // submitted and not yet done
    bool stop_ = false;

    // The scheduler thread's own state.
    std::deque<std::unique_ptr<request_state>> waiting_;
    std::vector<std::unique_ptr<request_state>> active_;
    forward_batch batch_;
    struct batch_part {
        request_state* r;
        int n;           // its tokens in the batch
        int logit_row;   // its (first) row of logits_, -1: none; a decode part with a draft has n rows
    };
    std::vector<batch_part> parts_;   // the requests of batch_, in batch order
    std::vector<std::int32_t> fed_;   // a speculating request's pending token and draft, for batch_
    std::vector<float> logits_;    // (parallel x (1 + k_max_draft_tokens) + 1, n_vocab): the most logit rows of a step
    std::thread thread_;
};

}  // namespace kvlens
