// SPDX-License-Identifier: Apache-2.0
// The scheduler: one thread that admits queued requests while the KV pool can
// hold their worst case, then loops over steps. A step is one forward pass
// holding the next token of every decoding request plus one chunk of one
// prefilling request (so decode keeps moving during a long prefill), in named
// phases: add_decode_tokens(), add_prefill_chunk(), run_batch() and the
// results, apply_decode_result() / apply_prefill_result(). With the KV cache
// off, a decoding request recomputes its whole sequence instead
// (recompute_without_cache()). Figures: metrics/figures_of() on the
// request's timeline.
//
// Speculative decoding: a request that asks for it feeds its pending token
// and up to k draft tokens (prompt_lookup.h) in one step, each computed as
// its own decode step would be (forward_batch::append_steps). Row i's logits
// pick the token after draft i; while that token is the next draft token the
// draft is accepted and the next row counts, so a step emits the accepted
// drafts plus one token of the model's own, and keeps the K/V of the tokens
// it accepted (a rejected draft's K/V, written past the sequence's end, is
// overwritten by the next step).
#include "engine/runtime/engine_impl.h"

#include "engine/backend/cpu/thread_pool.h"

#include "engine/runtime/backend_choice.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

namespace kvlens {

namespace {

constexpr int k_default_ctx_cap = 8192;

}  // namespace

result<std::unique_ptr<engine>> engine::create(const engine_options& opts) { return engine_impl::create(opts); }

result<std::unique_ptr<engine>> engine_impl::create(const engine_options& opts) {
    if (opts.chunk <= 0) return make_error(fmt::format("chunk size must be positive (got {})", opts.chunk));
    if (opts.parallel <= 0) return make_error(fmt::format("parallel must be positive (got {})", opts.parallel));
    if (opts.n_threads < 0 || opts.n_threads > thread_pool::max_threads())
        return make_error(fmt::format("{} CPU threads: give 0 (one per core) up to {} (4 per hardware thread of "
                                      "this machine)", opts.n_threads, thread_pool::max_threads()));
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
    if (info.learned_positions && e->n_ctx_ > info.n_ctx_train)   // GPT-2: no position past its table
        return make_error(fmt::format("{}: a context of {} tokens, but the model has learned {} positions and knows no "
                                      "later one; give a context of at most {}",
                                      opts.model_path, e->n_ctx_, info.n_ctx_train, info.n_ctx_train));
    // Room for a prefill chunk and every decoding request's token with a full draft.
    e->max_batch_ = opts.chunk + opts.parallel * (1 + k_max_draft_tokens);

    backend_options bo;
    bo.n_threads = opts.n_threads;
    bo.max_batch = e->max_batch_;
    bo.max_ctx = e->n_ctx_;
    kv_geometry g = make_kv_geometry(info, opts.kv_type, opts.kv_block);
    g.layer_window = e->model_->config().layer_window;
    auto n_blocks = opts.kv_budget_mib > 0 ? blocks_for_budget(g, opts.kv_budget_mib)
                                           : blocks_for_context(g, e->n_ctx_, opts.parallel);
    if (!n_blocks) return n_blocks.err();
    // The local group (sliding windows, LFM2's convolutions) for the active
    // sequences, not the whole context; KV mode off recomputes a whole
    // sequence at once, so there it keeps as many as the global group.
    if (opts.kv != kv_mode::off)
        g.local_pool_blocks = local_pool_blocks_for(g, *n_blocks, opts.parallel, opts.chunk + 1 + k_max_draft_tokens);
    // The backend, its KV storage allocated; CUDA that cannot run falls back to the CPU.
    backend_request br;
    br.which = opts.backend;
    br.options = bo;
    br.kv = g;
    br.kv_blocks = *n_blocks;
    auto chosen = choose_backend(*e->model_, br);
    if (!chosen) return chosen.err();
    e->backend_ = std::move(chosen->chosen);
    e->backend_fallback_ = std::move(chosen->fallback);
    e->backend_desc_ = e->backend_->description();
    if (!e->backend_fallback_.empty()) e->backend_desc_ += fmt::format(" ({})", e->backend_fallback_);

    kv_pool_options po;
    po.geometry = g;
    po.n_blocks = *n_blocks;
    po.host_storage = false;   // the backend holds the arrays, same layout
    auto pool = kv_pool::create(po);
    if (!pool) return pool.err();
    e->pool_ = std::move(*pool);

    e->logits_.resize(static_cast<std::size_t>(opts.parallel * (1 + k_max_draft_tokens) + 1) * info.n_vocab);
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
    r->t_arrival = steady::now();
    r->params = std::move(params);
    r->on_event = std::move(on_event);
    r->cancel_flag = std::make_shared<std::atomic<bool>>(false);

    // Tokenize here, on the caller's thread: it is part of TTFT, measured.
    const request_params& p = r->params;
    // Messages and raw prompts are text: only the chat format's own markers
    // become control tokens (a document holding "<|im_end|>" cannot end a turn).
    if (p.chat) {
        if (p.messages.empty()) r->tokenize_error = "chat request with no messages";
        else if (auto ids = tok_->encode_chat(p.messages, true)) r->prompt = std::move(*ids);
        else r->tokenize_error = ids.message();
        // A prompt that opens the reasoning: the answer starts after </think>.
        if (tok_->chat_opens_reasoning()) r->reasoning.open();
        // Harmony: the answer is the final channel's content.
        if (tok_->chat_kind_value() == chat_kind::harmony) r->reasoning.use(hidden_reasoning::syntax::harmony_channels);
    } else if (status st = tokenizer::check_input_size(p.text.size(), "a prompt"); !st) {
        r->tokenize_error = st.message();
    } else {
        r->prompt = tok_->encode(p.text, p.add_bos && tok_->add_bos(), false);
    }
    r->tl.tokenized_ms = r->since_arrival(steady::now());
    r->tl.prompt_tokens = static_cast<int>(r->prompt.size());

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
        r->on_event(event_queued{r->id, r->tl.prompt_tokens});
        const int n = static_cast<int>(r->prompt.size());
        if (!r->tokenize_error.empty()) finish(*r, finish_reason::error, r->tokenize_error);
        else if (n == 0) finish(*r, finish_reason::error, "the prompt is empty");
        else if (n >= n_ctx_)
            finish(*r, finish_reason::error,
                   fmt::format("prompt of {} tokens does not fit the context of {} tokens (it needs room for at "
                               "least one generated token)", n, n_ctx_));
        else if (r->params.max_tokens <= 0)
            finish(*r, finish_reason::error, fmt::format("max_tokens must be positive (got {})", r->params.max_tokens));
        else if (r->params.speculation.draft_tokens < 0 || r->params.speculation.draft_tokens > k_max_draft_tokens)
            finish(*r, finish_reason::error, fmt::format("draft tokens per step must be 0 (off) to {} (got {})",
                                                         k_max_draft_tokens, r->params.speculation.draft_tokens));
        else if (r->params.speculation.draft_tokens > 0 && r->params.speculation.ngram <= 0)
            finish(*r, finish_reason::error, fmt::format("the draft lookup's n-gram must be at least 1 (got {})",
                                                         r->params.speculation.ngram));
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
    r.tl.scheduled_ms = r.since_arrival(steady::now());
    r.phase = request_phase::prefill;
    r.n_prompt_done = static_cast<int>(*cached);
    r.tl.cached_tokens = static_cast<int>(*cached);
    r.samp.emplace(r.params.sampling);
    for (std::int32_t t : r.prompt) r.samp->accept(t);
    if (r.params.speculation.draft_tokens > 0) r.history = r.prompt;
    r.draft_room = r.params.speculation.draft_tokens;
    const request_figures f = figures_of(r.tl);
    event_started ev;
    ev.request = r.id;
    ev.tokenize_ms = f.tokenize_ms;
    ev.queue_ms = f.queue_ms;
    ev.t_ms = r.tl.scheduled_ms;
    r.on_event(ev);
    return true;
}

// ---- one step: build the batch, run it, apply the results -------------------------

void engine_impl::step() {
    // KV off: the requests decoding when the step begins recompute after the batch.
    std::vector<request_state*> recompute;
    if (opts_.kv == kv_mode::off)
        for (auto& rp : active_)
            if (rp->phase == request_phase::decode) recompute.push_back(rp.get());
    batch_.clear();
    parts_.clear();
    add_decode_tokens();
    add_prefill_chunk();
    if (batch_.size() > 0) run_batch();
    for (request_state* r : recompute)
        if (r->phase == request_phase::decode) recompute_without_cache(*r);
}

// Adds a part to the batch: n of r's tokens from its next position.
void engine_impl::add_part(request_state& r, const std::int32_t* ids, int n, bool want_logits) {
    const std::span<const std::int32_t> part{ids, static_cast<std::size_t>(n)};
    const auto pos = static_cast<std::int32_t>(r.seq->n_tokens());
    // A prompt chunk is prefill however short; a decoding request's token is a decode step.
    const int row = r.phase == request_phase::prefill
                        ? batch_.append_prompt(part, pos, r.seq->block_table().data(), want_logits, r.seq->local_block_table_data())
                        : batch_.append(part, pos, r.seq->block_table().data(), want_logits, r.seq->local_block_table_data());
    parts_.push_back({&r, n, row});
}

// The next token of every decoding request (its pending token goes in, its
// next token's logits come out), with its draft when it speculates. KV off
// decodes by recomputing instead.
void engine_impl::add_decode_tokens() {
    if (opts_.kv == kv_mode::off) return;
    for (auto& rp : active_) {
        request_state& r = *rp;
        if (r.phase != request_phase::decode) continue;
        r.draft = draft_for(r);
        const int n = 1 + static_cast<int>(r.draft.size());
        status s = r.seq->ensure_capacity(r.seq->n_tokens() + n);
        if (!s) { finish(r, finish_reason::error, "KV pool exhausted during decode: " + s.message()); continue; }
        if (r.draft.empty()) {
            add_part(r, &r.pending_token, 1, true);
            continue;
        }
        std::vector<std::int32_t>& fed = fed_;   // reused: no allocation per step
        fed.assign(1, r.pending_token);
        fed.insert(fed.end(), r.draft.begin(), r.draft.end());
        const int row = batch_.append_steps(fed, static_cast<std::int32_t>(r.seq->n_tokens()),
                                            r.seq->block_table().data(), r.seq->local_block_table_data());
        parts_.push_back({&r, n, row});
    }
}

// This step's draft: prompt lookup over the request's tokens, no longer than
// the tokens it may still generate after the step's own one (so the K/V
// stays within what was reserved for it).
std::vector<std::int32_t> engine_impl::draft_for(const request_state& r) const {
    const speculation_params& sp = r.params.speculation;
    if (sp.draft_tokens <= 0 || r.draft_pause > 0) return {};
    const int room = r.max_new - static_cast<int>(r.generated.size()) - 1;
    return prompt_lookup_draft(r.history, sp.ngram, std::min(r.draft_room, room), sp.ngram_min);
}

// One chunk of the first prefilling request, in the room the decode tokens
// left; the chunk that ends the prompt asks for the logits of its last token.
void engine_impl::add_prefill_chunk() {
    for (auto& rp : active_) {
        request_state& r = *rp;
        if (r.phase != request_phase::prefill) continue;
        const int left = static_cast<int>(r.prompt.size()) - r.n_prompt_done;
        int n = std::min({opts_.chunk, left, max_batch_ - static_cast<int>(batch_.size())});
        if (n <= 0) return;
        status s = r.seq->ensure_capacity(r.n_prompt_done + n);
        if (!s) { finish(r, finish_reason::error, "KV pool exhausted during prefill: " + s.message()); continue; }
        add_part(r, r.prompt.data() + r.n_prompt_done, n, n == left);
        return;   // one prefill chunk per step
    }
}

// The forward pass of the batch, then each part's results.
void engine_impl::run_batch() {
    forward_counts counts;
    const auto t0 = steady::now();
    const status s = backend_->forward(batch_, logits_.data(), &counts);
    const auto t1 = steady::now();
    const double step_ms = ms_between(t0, t1);
    const std::size_t V = static_cast<std::size_t>(model_->info().n_vocab);
    for (const batch_part& p : parts_) {
        request_state& r = *p.r;
        if (!s) { finish(r, finish_reason::error, "forward pass failed: " + s.message()); continue; }
        const float* logits = p.logit_row >= 0 ? logits_.data() + static_cast<std::size_t>(p.logit_row) * V : nullptr;
        if (r.phase == request_phase::decode) apply_decode_result(r, logits, p.n, counts, t1);
        else apply_prefill_result(r, p.n, logits, counts, step_ms, t1);
    }
}

// n_fed: the pending token and the draft's tokens (1 without a draft), each
// with its row of logits.
void engine_impl::apply_decode_result(request_state& r, const float* logits, int n_fed, const forward_counts& counts,
                                      steady::time_point t_done) {
    const std::int64_t held = r.seq->n_tokens();
    r.seq->commit({&r.pending_token, 1});
    // Every weight once, plus the K/V each fed token's attention read.
    for (int i = 0; i < n_fed; ++i)
        r.tl.decode_bytes += static_cast<double>(pool_->geometry().logical_bytes(held + 1 + i));
    r.tl.decode_bytes += counts.weight_bytes;
    r.tl.decode_flop += counts.flop * n_fed / static_cast<double>(batch_.size());
    const std::size_t V = static_cast<std::size_t>(model_->info().n_vocab);
    const std::vector<std::int32_t> draft = std::move(r.draft);
    r.draft.clear();
    const int accepted_before = r.tl.accepted_tokens;
    if (!draft.empty()) {
        ++r.tl.draft_steps;
        r.tl.draft_tokens += static_cast<int>(draft.size());
    }
    // Row i follows draft token i - 1: while the token it picks is draft token
    // i, that draft token is accepted (its K/V kept) and row i + 1 counts.
    for (std::size_t i = 0; i < static_cast<std::size_t>(n_fed); ++i) {
        const float* row = logits + i * V;
        const bool checks = i < draft.size();
        if (!logits_usable(r, row, V)) break;
        const std::int32_t id = checks ? r.samp->verify({row, V}, draft[i]) : r.samp->sample({row, V});
        const bool accepted = checks && id == draft[i];
        if (accepted) {
            r.seq->commit({&draft[i], 1});
            ++r.tl.accepted_tokens;
        }
        emit_token(r, id, t_done, 0, i > 0);
        if (!accepted || r.phase == request_phase::finished) break;
    }
    // The next draft: each checked token costs a share of a step even when
    // it is rejected, so the length follows what was accepted (one more than
    // this draft's accepted tokens after a rejection, twice as many after a
    // full acceptance), and after one-token drafts rejected in a row drafting
    // pauses for 2, 4, ... 16 steps.
    if (draft.empty()) {
        if (r.draft_pause > 0) --r.draft_pause;
    } else {
        const int took = r.tl.accepted_tokens - accepted_before;
        r.draft_room = took < static_cast<int>(draft.size()) ? took + 1
                                                             : std::min(r.params.speculation.draft_tokens, 2 * took);
        r.draft_misses = took == 0 && draft.size() == 1 ? r.draft_misses + 1 : 0;
        if (r.draft_misses > 0) r.draft_pause = 1 << std::min(r.draft_misses, 4);
    }
}

void engine_impl::apply_prefill_result(request_state& r, int n, const float* logits, const forward_counts& counts,
                                       double step_ms, steady::time_point t_done) {
    r.seq->commit({r.prompt.data() + r.n_prompt_done, static_cast<std::size_t>(n)});
    r.n_prompt_done += n;
    r.tl.prefill_forward_ms += step_ms;
    r.tl.computed_tokens += n;
    r.tl.prefill_flop += counts.flop * n / static_cast<double>(batch_.size());
    r.tl.prefill_bytes += (counts.weight_bytes + counts.kv_bytes) * n / static_cast<double>(batch_.size());
    event_prefill_chunk ev;
    ev.request = r.id;
    ev.tokens_done = r.n_prompt_done;
    ev.tokens_total = static_cast<int>(r.prompt.size());
    ev.cached_tokens = r.tl.cached_tokens;
    ev.chunk_ms = step_ms;
    ev.t_ms = r.since_arrival(t_done);
    const kv_figures kf = held_kv(r);
    ev.kv_tokens = kf.kv_tokens;
    ev.kv_bytes = kf.kv_bytes;
    ev.kv_allocated_bytes = kf.kv_allocated_bytes;
    ev.kv_reserved_bytes = kf.kv_reserved_bytes;
    ev.kv_group = groups_of(kf);
    r.tl.kv_bytes_peak = std::max(r.tl.kv_bytes_peak, kf.kv_bytes);
    r.on_event(ev);
    if (logits) {
        r.tl.prefill_done_ms = ev.t_ms;
        after_prompt_done(r, logits);
    }
}

// KV off: drop the sequence's K/V and recompute every token, chunk by chunk,
// as a model run with use_cache=False does; only the last position's logits count.
void engine_impl::recompute_without_cache(request_state& r) {
    std::vector<std::int32_t> all(r.prompt);
    all.insert(all.end(), r.generated.begin(), r.generated.end());   // ends with the pending token
    r.seq->release();
    status s = r.seq->ensure_capacity(static_cast<std::int64_t>(all.size()));
    if (!s) { finish(r, finish_reason::error, "KV pool exhausted during recompute: " + s.message()); return; }
    const std::size_t V = static_cast<std::size_t>(model_->info().n_vocab);
    double bytes = 0, flop = 0;
    for (std::size_t done = 0; done < all.size();) {
        const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(opts_.chunk), all.size() - done);
        batch_.clear();
        batch_.append_prompt({all.data() + done, n}, static_cast<std::int32_t>(done), r.seq->block_table().data(),
                             done + n == all.size(), r.seq->local_block_table_data());
        forward_counts counts;
        s = backend_->forward(batch_, logits_.data(), &counts);
        if (!s) { finish(r, finish_reason::error, "forward pass failed: " + s.message()); return; }
        bytes += counts.weight_bytes + counts.kv_bytes;
        flop += counts.flop;
        r.seq->commit({all.data() + done, n});
        done += n;
    }
    r.tl.decode_bytes += bytes;
    r.tl.decode_flop += flop;
    if (!logits_usable(r, logits_.data(), V)) return;
    const std::int32_t id = r.samp->sample({logits_.data(), V});
    emit_token(r, id, steady::now(), static_cast<std::int64_t>(all.size()));
}

void engine_impl::after_prompt_done(request_state& r, const float* logits) {
    r.phase = request_phase::decode;
    const std::size_t V = static_cast<std::size_t>(model_->info().n_vocab);
    if (!logits_usable(r, logits, V)) return;
    const std::int32_t id = r.samp->sample({logits, V});
    emit_token(r, id, steady::now(), 0);
}

bool engine_impl::logits_usable(request_state& r, const float* row, std::size_t V) {
    std::size_t bad = 0;   // NaN or +inf, counted without a branch per element
    for (std::size_t i = 0; i < V; ++i) bad += !(row[i] < std::numeric_limits<float>::infinity());
    if (bad == 0) return true;
    finish(r, finish_reason::error,
           fmt::format("the model's logits after {} tokens are not finite ({} of {} are NaN or infinite): its weights "
                       "overflow in the computation: the file is likely damaged, or not a working model",
                       r.seq ? r.seq->n_tokens() : static_cast<std::int64_t>(r.prompt.size()), bad, V));
    return false;
}

// The request's KV after the latest step; nothing in KV mode off, whose blocks
// are scratch of one forward pass.
kv_figures engine_impl::held_kv(const request_state& r) const {
    if (opts_.kv == kv_mode::off || !r.seq) return {};
    return r.seq->figures();
}

kv_layer_groups engine_impl::layer_groups() const {
    const kv_geometry& g = pool_->geometry();
    kv_layer_groups out;
    out.n_local_layers = g.n_group_layers(layer_group::local);
    out.n_global_layers = g.n_layer - out.n_local_layers;
    out.window = g.local_window();
    out.local_is_conv = g.has_conv_layers();
    out.local_bytes_per_token = 2 * static_cast<std::int64_t>(out.n_local_layers) * g.group_row_bytes(layer_group::local);
    out.global_bytes_per_token = 2 * static_cast<std::int64_t>(out.n_global_layers) * g.row_bytes();
    return out;
}

reasoning_evidence engine_impl::hidden_reasoning() const {
    if (tok_->chat_kind_value() == chat_kind::harmony) return reasoning_evidence::harmony_channels;
    return reasoning_evidence_of(tok_->find_token("<think>") >= 0, tok_->find_token("</think>") >= 0,
                                 tok_->chat_template());
}

bool engine_impl::has_chat_template() const { return !tok_->chat_template().empty(); }

kv_groups engine_impl::groups_of(const kv_figures& kf) const {
    kv_groups g{kf.local_tokens, kf.local_bytes, kf.local_allocated_bytes,
                kf.global_tokens, kf.global_bytes, kf.global_allocated_bytes};
    g.local_is_conv = g.any() && pool_->geometry().has_conv_layers();
    return g;
}

void engine_impl::emit_token(request_state& r, std::int32_t id, steady::time_point now,
                             std::int64_t recomputed, bool drafted) {
    const int index = static_cast<int>(r.generated.size());
    r.samp->accept(id);
    const bool eog = tok_->is_end_of_generation(id);
    std::string piece = eog ? std::string() : r.stream.push(tok_->token_to_piece(id));
    // Hidden reasoning: text inside <think>...</think> (tags too) is not visible.
    // A token with no text (end of generation, half a character) is visible where it stands.
    const bool visible = piece.empty() ? !r.reasoning.inside() : r.reasoning.push(piece);
    r.text += piece;

    event_token ev;
    ev.request = r.id;
    ev.index = index;
    ev.id = id;
    ev.text = piece;
    ev.latency_ms = index == 0 ? r.since_arrival(now) : ms_between(r.t_last_token, now);
    ev.t_ms = r.since_arrival(now);
    ev.visible = visible;
    ev.recomputed_tokens = recomputed;
    ev.drafted = drafted;
    r.tl.recomputed_tokens += recomputed;
    const kv_figures kf = held_kv(r);
    ev.kv_tokens = kf.kv_tokens;
    ev.kv_bytes = kf.kv_bytes;
    ev.kv_allocated_bytes = kf.kv_allocated_bytes;
    ev.kv_reserved_bytes = kf.kv_reserved_bytes;
    ev.kv_group = groups_of(kf);
    r.tl.kv_bytes_peak = std::max(r.tl.kv_bytes_peak, kf.kv_bytes);

    if (index == 0) {
        r.tl.first_token_ms = ev.t_ms;
        const request_figures f = figures_of(r.tl);
        event_first_token first;
        first.request = r.id;
        first.ttft_ms = f.ttft_ms;
        first.id = id;
        first.text = piece;
        first.tokenize_ms = f.tokenize_ms;
        first.queue_ms = f.queue_ms;
        first.prefill_ms = f.prefill_ms;
        first.first_sample_ms = f.first_sample_ms;
        r.on_event(first);
    }
    if (visible && !piece.empty() && r.tl.first_visible_ms < 0) r.tl.first_visible_ms = ev.t_ms;
    r.t_last_token = now;
    r.tl.last_token_ms = ev.t_ms;
    r.generated.push_back(id);
    if (r.params.speculation.draft_tokens > 0) r.history.push_back(id);
    r.tl.generated_tokens = static_cast<int>(r.generated.size());
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

    r.tl.end_ms = r.since_arrival(now);
    r.tl.device_memory_peak = backend_->weight_bytes() + backend_->kv_bytes() + backend_->scratch_bytes();
    if (r.seq) r.seq.reset();   // returns the blocks (cached ones stay cached)

    event_done done;
    done.request = r.id;
    done.reason = why;
    done.error = std::move(error);
    done.text = r.text;
    done.figures = figures_of(r.tl);
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
