// SPDX-License-Identifier: Apache-2.0
// The scheduler: one thread that admits queued requests while the KV pool can
// hold their worst case, then loops over steps. A step is one forward pass
// holding the next token of every decoding request plus one chunk of one
// prefilling request (so decode keeps moving during a long prefill). With the
// KV cache off, a decoding request recomputes its whole sequence instead.
#include "engine/runtime/engine_impl.h"

#include <algorithm>

#include <fmt/format.h>

namespace kvlens {

namespace {

constexpr int k_default_ctx_cap = 8192;

}  // namespace

result<std::unique_ptr<engine>> engine::create(const engine_options& opts) { return engine_impl::create(opts); }

result<std::unique_ptr<engine>> engine_impl::create(const engine_options& opts) {
    if (opts.chunk <= 0) return make_error(fmt::format("chunk size must be positive (got {})", opts.chunk));
    if (opts.parallel <= 0) return make_error(fmt::format("parallel must be positive (got {})", opts.parallel));
    if (opts.kv_block <= 0 || opts.kv_block > 1024)
        return make_error(fmt::format("KV block size {} out of range (1..1024)", opts.kv_block));

    std::unique_ptr<engine_impl> e(new engine_impl());
    e->opts_ = opts;
    auto m = model::load(opts.model_path);
    if (!m) return m.err();
    e->model_ = std::move(*m);
    auto t = tokenizer::from_gguf(e->model_->file());
    if (!t) return make_error(fmt::format("{}: {}", opts.model_path, t.message()));
    e->tok_ = std::move(*t);

    const model_info& info = e->model_->info();
    e->n_ctx_ = opts.n_ctx > 0 ? opts.n_ctx : std::min(info.n_ctx_train, k_default_ctx_cap);
    e->max_batch_ = opts.chunk + opts.parallel;

    backend_options bo;
    bo.n_threads = opts.n_threads;
    bo.max_batch = e->max_batch_;
    bo.max_ctx = e->n_ctx_;
    std::string why_backend;
    if (opts.backend == "cuda" || opts.backend == "auto") {
#if KVLENS_HAVE_CUDA
        auto b = make_cuda_backend(*e->model_, bo);
        if (b) e->backend_ = std::move(*b);
        else if (opts.backend == "cuda") return make_error(fmt::format("CUDA backend: {}", b.message()));
        else why_backend = b.message();
#else
        if (opts.backend == "cuda") return make_error("this build of kvlens has no CUDA backend (built with KVLENS_CUDA=OFF)");
        why_backend = "built without CUDA";
#endif
    } else if (opts.backend != "cpu") {
        return make_error(fmt::format("unknown backend '{}' (cpu, cuda or auto)", opts.backend));
    }
    if (!e->backend_) {
        auto b = make_cpu_backend(*e->model_, bo);
        if (!b) return b.err();
        e->backend_ = std::move(*b);
    }
    e->backend_desc_ = e->backend_->description();
    if (opts.backend == "auto" && !why_backend.empty())
        e->backend_desc_ += fmt::format(" (auto: CUDA unavailable: {})", why_backend);

    kv_geometry g = make_kv_geometry(info, opts.kv_type, opts.kv_block);
    g.layer_window = e->model_->config().layer_window;
    auto n_blocks = opts.kv_budget_mib > 0 ? blocks_for_budget(g, opts.kv_budget_mib)
                                           : blocks_for_context(g, e->n_ctx_, opts.parallel);
    if (!n_blocks) return n_blocks.err();
    kv_pool_options po;
    po.geometry = g;
    po.n_blocks = *n_blocks;
    po.host_storage = false;   // the backend holds the arrays, same layout
    auto pool = kv_pool::create(po);
    if (!pool) return pool.err();
    e->pool_ = std::move(*pool);
    status s = e->backend_->init_kv(g, *n_blocks);
    if (!s) return make_error(fmt::format("KV pool of {} blocks: {}", *n_blocks, s.message()));

    e->logits_.resize(static_cast<std::size_t>(opts.parallel + 1) * info.n_vocab);
    e->thread_ = std::thread([p = e.get()] { p->loop(); });
    return std::unique_ptr<engine>(std::move(e));
}

engine_impl::~engine_impl() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
        for (auto& [id, flag] : cancel_flags_) flag->store(true);
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

// ---- the submitting side ---------------------------------------------------------

request_id engine_impl::submit(request_params params, event_callback on_event) {
    auto r = std::make_unique<request_state>();
    r->t_submit = steady::now();
    r->params = std::move(params);
    r->on_event = std::move(on_event);
    r->cancel_flag = std::make_shared<std::atomic<bool>>(false);

    // Tokenize here, on the caller's thread: it is part of TTFT, measured.
    const auto t0 = steady::now();
    const request_params& p = r->params;
    // Messages and raw prompts are text: only the chat format's own markers
    // become control tokens (a document holding "<|im_end|>" cannot end a turn).
    if (p.chat) {
        if (p.messages.empty()) r->tokenize_error = "chat request with no messages";
        else if (auto ids = tok_->encode_chat(p.messages, true)) r->prompt = std::move(*ids);
        else r->tokenize_error = ids.message();
    } else if (status st = tokenizer::check_input_size(p.text.size(), "a prompt"); !st) {
        r->tokenize_error = st.message();
    } else {
        r->prompt = tok_->encode(p.text, p.add_bos && tok_->add_bos(), false);
    }
    r->fig.tokenize_ms = ms_between(t0, steady::now());
    r->fig.prompt_tokens = static_cast<int>(r->prompt.size());

    std::lock_guard<std::mutex> lock(mutex_);
    r->id = next_id_++;
    const request_id id = r->id;
    cancel_flags_[id] = r->cancel_flag;
    ++in_flight_;
    inbox_.push_back(std::move(r));
    wake_.notify_all();
    return id;
}

void engine_impl::cancel(request_id id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cancel_flags_.find(id);
    if (it != cancel_flags_.end()) it->second->store(true);
    wake_.notify_all();
}

void engine_impl::wait_idle() {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [&] { return in_flight_ == 0; });
}

// ---- the scheduler thread --------------------------------------------------------

void engine_impl::loop() {
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            if (active_.empty() && inbox_.empty())
                wake_.wait(lock, [&] { return stop_ || !inbox_.empty() || !waiting_.empty(); });
            if (stop_) break;
            take_inbox(lock);
        }
        for (auto& r : waiting_)
            if (r->cancel_flag->load()) finish(*r, finish_reason::cancelled);
        for (auto& r : active_)
            if (r->cancel_flag->load()) finish(*r, finish_reason::cancelled);
        reap_finished();
        admit();
        if (!active_.empty()) step();
        reap_finished();
        if (active_.empty() && !waiting_.empty()) {
            // Nothing runs and the head of the queue cannot start: wait for a change.
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait_for(lock, std::chrono::milliseconds(50), [&] { return stop_ || !inbox_.empty(); });
        }
    }
    // Shutting down: everything still here ends as cancelled.
    std::unique_lock<std::mutex> lock(mutex_);
    take_inbox(lock);
    lock.unlock();
    for (auto& r : waiting_) finish(*r, finish_reason::cancelled);
    for (auto& r : active_) finish(*r, finish_reason::cancelled);
    reap_finished();
}

void engine_impl::take_inbox(std::unique_lock<std::mutex>& lock) {
    std::deque<std::unique_ptr<request_state>> fresh;
    fresh.swap(inbox_);
    lock.unlock();
    for (auto& r : fresh) {
        r->on_event(event_queued{r->id, r->fig.prompt_tokens});
        const int n = static_cast<int>(r->prompt.size());
        if (!r->tokenize_error.empty()) finish(*r, finish_reason::error, r->tokenize_error);
        else if (n == 0) finish(*r, finish_reason::error, "the prompt is empty");
        else if (n >= n_ctx_)
            finish(*r, finish_reason::error,
                   fmt::format("prompt of {} tokens does not fit the context of {} tokens (it needs room for at "
                               "least one generated token)", n, n_ctx_));
        else if (r->params.max_tokens <= 0)
            finish(*r, finish_reason::error, fmt::format("max_tokens must be positive (got {})", r->params.max_tokens));
        else {
            r->max_new = std::min(r->params.max_tokens, n_ctx_ - n);
            const std::int64_t worst = pool_->geometry().blocks_for_tokens(n + r->max_new);
            if (worst > pool_->blocks().n_blocks())
                finish(*r, finish_reason::error,
                       fmt::format("the request needs {} KV blocks ({} tokens) but the pool holds {}; raise --kv-budget "
                                   "or lower --max-tokens", worst, n + r->max_new, pool_->blocks().n_blocks()));
        }
        if (r->phase != request_phase::finished) waiting_.push_back(std::move(r));
    }
    lock.lock();
}

std::int64_t engine_impl::blocks_still_needed(const request_state& r) const {
    if (!r.seq) return 0;
    const std::int64_t total = static_cast<std::int64_t>(r.prompt.size()) + r.max_new;
    return r.seq->blocks_needed(total);
}

void engine_impl::admit() {
    while (!waiting_.empty() && static_cast<int>(active_.size()) < opts_.parallel) {
        request_state& r = *waiting_.front();
        if (!try_start(r)) break;   // first come, first served: later requests wait behind it
        active_.push_back(std::move(waiting_.front()));
        waiting_.pop_front();
    }
}

bool engine_impl::try_start(request_state& r) {
    r.seq.emplace(*pool_, opts_.kv);
    auto cached = r.seq->begin(r.prompt, r.max_new);
    if (!cached) {
        r.seq.reset();
        return false;
    }
    std::int64_t promised = 0;
    for (const auto& a : active_) promised += blocks_still_needed(*a);
    if (blocks_still_needed(r) > pool_->blocks().n_available() - promised) {
        r.seq.reset();   // releases the prefix hits it took
        return false;
    }
    r.t_started = steady::now();
    r.phase = request_phase::prefill;
    r.n_prompt_done = static_cast<int>(*cached);
    r.fig.cached_tokens = static_cast<int>(*cached);
    r.fig.queue_ms = ms_between(r.t_submit, r.t_started);
    r.samp.emplace(r.params.sampling);
    for (std::int32_t t : r.prompt) r.samp->accept(t);
    r.on_event(event_started{r.id, r.fig.queue_ms});
    return true;
}

void engine_impl::step() {
    batch_.clear();
    struct part {
        request_state* r;
        int n;          // tokens in the batch
        int logit_row;  // index into the logits, -1: none
    };
    std::vector<part> parts;
    parts.reserve(active_.size());
    std::vector<request_state*> recompute;

    auto add_tokens = [&](request_state& r, const std::int32_t* ids, int n, bool want_logits) {
        const int pos0 = static_cast<int>(r.seq->n_tokens());
        for (int i = 0; i < n; ++i) {
            batch_.tokens.push_back(ids[i]);
            batch_.positions.push_back(pos0 + i);
            batch_.block_tables.push_back(r.seq->block_table().data());
        }
        int row = -1;
        if (want_logits) {
            row = static_cast<int>(batch_.logit_rows.size());
            batch_.logit_rows.push_back(static_cast<std::int32_t>(batch_.size() - 1));
        }
        parts.push_back({&r, n, row});
    };

    for (auto& rp : active_) {
        request_state& r = *rp;
        if (r.phase != request_phase::decode) continue;
        if (opts_.kv == kv_mode::off) { recompute.push_back(&r); continue; }
        status s = r.seq->ensure_capacity(r.seq->n_tokens() + 1);
        if (!s) { finish(r, finish_reason::error, "KV pool exhausted during decode: " + s.message()); continue; }
        add_tokens(r, &r.pending_token, 1, true);
    }
    for (auto& rp : active_) {
        request_state& r = *rp;
        if (r.phase != request_phase::prefill) continue;
        const int left = static_cast<int>(r.prompt.size()) - r.n_prompt_done;
        const int n = std::min({opts_.chunk, left, max_batch_ - static_cast<int>(batch_.size())});
        if (n <= 0) break;
        status s = r.seq->ensure_capacity(r.n_prompt_done + n);
        if (!s) { finish(r, finish_reason::error, "KV pool exhausted during prefill: " + s.message()); continue; }
        add_tokens(r, r.prompt.data() + r.n_prompt_done, n, n == left);
        break;   // one prefill chunk per step
    }

    if (batch_.size() > 0) {
        forward_counts counts;
        const auto t0 = steady::now();
        status s = backend_->forward(batch_, logits_.data(), &counts);
        const auto t1 = steady::now();
        const double step_ms = ms_between(t0, t1);
        const std::size_t V = static_cast<std::size_t>(model_->info().n_vocab);
        for (const part& p : parts) {
            request_state& r = *p.r;
            if (!s) { finish(r, finish_reason::error, "forward pass failed: " + s.message()); continue; }
            const float* logits = p.logit_row >= 0 ? logits_.data() + p.logit_row * V : nullptr;
            if (r.phase == request_phase::decode) {
                r.seq->commit({&r.pending_token, 1});
                r.decode_step_ms += step_ms;
                // Every weight once, plus the K/V this sequence's attention read.
                r.fig.decode_bytes += counts.weight_bytes +
                                      static_cast<double>(pool_->geometry().logical_bytes(r.seq->n_tokens()));
                emit_token(r, r.samp->sample({logits, V}), t1);
            } else {
                r.seq->commit({r.prompt.data() + r.n_prompt_done, static_cast<std::size_t>(p.n)});
                r.n_prompt_done += p.n;
                r.prefill_ms += step_ms;
                r.fig.computed_tokens += p.n;
                r.fig.prefill_flop += counts.flop * p.n / static_cast<double>(batch_.size());
                r.on_event(event_prefill_chunk{r.id, r.n_prompt_done, static_cast<int>(r.prompt.size()),
                                               r.fig.cached_tokens, step_ms, r.since_submit(t1)});
                if (logits) after_prompt_done(r, logits);
            }
        }
    }
    for (request_state* r : recompute) step_kv_off(*r);
}

// KV off: drop the sequence's K/V and recompute every token, chunk by chunk,
// as a model run with use_cache=False does; only the last position's logits count.
void engine_impl::step_kv_off(request_state& r) {
    std::vector<std::int32_t> all(r.prompt);
    all.insert(all.end(), r.generated.begin(), r.generated.end());   // ends with the pending token
    r.seq->release();
    status s = r.seq->ensure_capacity(static_cast<std::int64_t>(all.size()));
    if (!s) { finish(r, finish_reason::error, "KV pool exhausted during recompute: " + s.message()); return; }
    const std::size_t V = static_cast<std::size_t>(model_->info().n_vocab);
    double bytes = 0;
    for (std::size_t done = 0; done < all.size();) {
        const int n = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(opts_.chunk), all.size() - done));
        batch_.clear();
        for (int i = 0; i < n; ++i) {
            batch_.tokens.push_back(all[done + static_cast<std::size_t>(i)]);
            batch_.positions.push_back(static_cast<std::int32_t>(done) + i);
            batch_.block_tables.push_back(r.seq->block_table().data());
        }
        const bool last = done + static_cast<std::size_t>(n) == all.size();
        if (last) batch_.logit_rows.push_back(n - 1);
        forward_counts counts;
        const auto t0 = steady::now();
        s = backend_->forward(batch_, logits_.data(), &counts);
        r.decode_step_ms += ms_between(t0, steady::now());
        if (!s) { finish(r, finish_reason::error, "forward pass failed: " + s.message()); return; }
        bytes += counts.weight_bytes + counts.kv_bytes;
        r.seq->commit({all.data() + done, static_cast<std::size_t>(n)});
        done += static_cast<std::size_t>(n);
    }
    r.fig.decode_bytes += bytes;
    emit_token(r, r.samp->sample({logits_.data(), V}), steady::now());
}

void engine_impl::after_prompt_done(request_state& r, const float* logits) {
    r.phase = request_phase::decode;
    const std::size_t V = static_cast<std::size_t>(model_->info().n_vocab);
    const std::int32_t id = r.samp->sample({logits, V});
    const auto now = steady::now();
    r.fig.prefill_ms = r.prefill_ms;
    emit_token(r, id, now);
}

void engine_impl::emit_token(request_state& r, std::int32_t id, steady::time_point now) {
    const int index = static_cast<int>(r.generated.size());
    r.samp->accept(id);
    const bool eog = tok_->is_end_of_generation(id);
    std::string piece = eog ? std::string() : r.stream.push(tok_->token_to_piece(id));
    // Hidden reasoning: text inside <think>...</think> is not visible.
    bool visible = !r.in_hidden;
    if (piece.find("<think>") != std::string::npos) { r.in_hidden = true; visible = false; }
    if (piece.find("</think>") != std::string::npos) { r.in_hidden = false; visible = false; }
    r.text += piece;

    event_token ev;
    ev.request = r.id;
    ev.index = index;
    ev.id = id;
    ev.text = piece;
    ev.latency_ms = index == 0 ? r.since_submit(now) : ms_between(r.t_last_token, now);
    ev.t_ms = r.since_submit(now);
    ev.visible = visible;
    const kv_figures kf = r.seq->figures();
    ev.kv_tokens = kf.kv_tokens;
    ev.kv_bytes = kf.kv_bytes;
    ev.kv_allocated_bytes = kf.kv_allocated_bytes;
    ev.kv_reserved_bytes = kf.kv_reserved_bytes;
    r.fig.kv_bytes_peak = std::max(r.fig.kv_bytes_peak, kf.kv_bytes);

    if (index == 0) {
        r.t_first_token = now;
        r.fig.ttft_ms = ev.t_ms;
        r.on_event(event_first_token{r.id, ev.t_ms, id, piece});
    }
    if (visible && !r.visible_seen && !piece.empty()) {
        r.visible_seen = true;
        r.fig.ttft_visible_ms = ev.t_ms;
    }
    r.t_last_token = now;
    r.generated.push_back(id);
    r.fig.generated_tokens = static_cast<int>(r.generated.size());
    r.on_event(ev);

    if (eog) finish(r, finish_reason::stop);
    else if (static_cast<int>(r.generated.size()) >= r.max_new) finish(r, finish_reason::length);
    else r.pending_token = id;
}

void engine_impl::finish(request_state& r, finish_reason why, std::string error) {
    if (r.phase == request_phase::finished) return;
    r.phase = request_phase::finished;
    const auto now = steady::now();
    // Bytes of a character the generation stopped in the middle of are dropped:
    // they never form a character (flushing would print U+FFFD).

    request_figures& f = r.fig;
    f.e2e_ms = r.since_submit(now);
    if (r.t_started == steady::time_point{}) f.queue_ms = f.e2e_ms;   // never started
    if (f.generated_tokens > 0) f.decode_ms = ms_between(r.t_first_token, r.t_last_token);
    if (f.prefill_ms == 0) f.prefill_ms = r.prefill_ms;
    f.prefill_tok_s = f.prefill_ms > 0 ? f.computed_tokens / (f.prefill_ms / 1000.0) : 0;
    if (f.generated_tokens > 1 && f.decode_ms > 0) {
        f.decode_tok_s = (f.generated_tokens - 1) / (f.decode_ms / 1000.0);
        f.tpot_ms = f.decode_ms / (f.generated_tokens - 1);
        f.decode_bytes_s = f.decode_bytes / (f.decode_ms / 1000.0);
    }
    f.prefill_flop_s = f.prefill_ms > 0 ? f.prefill_flop / (f.prefill_ms / 1000.0) : 0;
    f.device_memory_peak = backend_->weight_bytes() + backend_->kv_bytes() + backend_->scratch_bytes();
    if (r.seq) r.seq.reset();   // returns the blocks (cached ones stay cached)

    event_done done;
    done.request = r.id;
    done.reason = why;
    done.error = std::move(error);
    done.text = r.text;
    done.figures = f;
    r.on_event(done);

    std::lock_guard<std::mutex> lock(mutex_);
    cancel_flags_.erase(r.id);
    --in_flight_;
    if (in_flight_ == 0) idle_.notify_all();
}

void engine_impl::reap_finished() {
    auto gone = [](const std::unique_ptr<request_state>& r) { return r->phase == request_phase::finished; };
    active_.erase(std::remove_if(active_.begin(), active_.end(), gone), active_.end());
    waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(), gone), waiting_.end());
}

}  // namespace kvlens
