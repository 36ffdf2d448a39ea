// SPDX-License-Identifier: Apache-2.0
// The remote engine (see remote_engine.h): connect() probes the server once;
// then `parallel` client workers take requests from a queue and run each with
// run_remote_request, and a poller reads /metrics while any request runs.
#include "engine/remote/remote_engine.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "engine/gguf/gguf_reader.h"
#include "engine/remote/byte_vocab.h"
#include "engine/remote/http_client.h"
#include "engine/remote/remote_request.h"
#include "engine/tokenizer/tokenizer.h"

namespace kvlens::remote {

namespace {

using clock_type = std::chrono::steady_clock;

// What connect() learned about the server.
struct server_probe {
    model_listing models;
    bool has_props = false;          // llama.cpp answers /props
    server_props props;
    bool has_metrics = false;        // /metrics answered with KV figures
    std::string model;               // the model requests name
};

http_request get_request(const std::string& url, const std::vector<std::string>& headers, double connect_s) {
    http_request r;
    r.url = url;
    r.headers = headers;
    r.connect_timeout_s = connect_s;
    r.stall_timeout_s = 10;
    r.total_timeout_s = 20;
    r.max_bytes = 4u << 20;
    return r;
}

result<server_probe> probe(const std::string& base, const std::vector<std::string>& headers, const remote_options& o) {
    server_probe p;
    const http_result models = http_fetch(get_request(base + "/v1/models", headers, o.connect_timeout_s));
    if (models.failure != http_failure::none) return make_error(models.error);
    if (!models.ok()) return make_error(base + "/v1/models: " + describe_status(models.status, models.body));
    auto listing = parse_models(models.body);
    if (!listing) return make_error(base + "/v1/models: " + listing.message());
    p.models = std::move(*listing);
    if (p.models.ids.empty()) return make_error(base + "/v1/models lists no model");
    if (o.model.empty()) {
        p.model = p.models.ids.front();
    } else if (std::find(p.models.ids.begin(), p.models.ids.end(), o.model) != p.models.ids.end()) {
        p.model = o.model;
    } else {
        std::string have;
        for (const auto& id : p.models.ids) have += (have.empty() ? "'" : ", '") + id + "'";
        return make_error("the server at " + base + " has no model '" + o.model + "'; it has " + have);
    }
    // llama.cpp's own endpoints; other servers answer 404, which is fine.
    const http_result props = http_fetch(get_request(base + "/props", headers, o.connect_timeout_s));
    if (props.ok()) {
        if (auto pr = parse_props(props.body)) {
            p.props = *pr;
            p.has_props = true;
        }
    }
    if (o.metrics_poll_s > 0) {
        const http_result m = http_fetch(get_request(base + "/metrics", headers, o.connect_timeout_s));
        p.has_metrics = m.ok() && kv_metrics_from(parse_prometheus(m.body)).any();
    }
    return p;
}

class remote_engine final : public engine {
public:
    remote_engine(const remote_options& o, std::string base, std::vector<std::string> headers, server_probe p,
                  const tokenizer* vocab, std::unique_ptr<tokenizer> owned_vocab)
        : opts_(o), probe_(std::move(p)), vocab_(vocab), owned_vocab_(std::move(owned_vocab)) {
        target_.base_url = std::move(base);
        target_.headers = std::move(headers);
        target_.shape.model = probe_.model;
        target_.shape.llama_cpp = probe_.has_props || probe_.models.owned_by == "llamacpp";
        target_.connect_timeout_s = o.connect_timeout_s;
        target_.stall_timeout_s = o.stall_timeout_s;
        target_.max_response_bytes = o.max_response_bytes;
        fill_info();
        const int n = std::max(1, o.parallel);
        for (int i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
        if (probe_.has_metrics) poller_ = std::thread([this] { poll(); });
    }

    ~remote_engine() override {
        {
            std::lock_guard<std::mutex> lock(mu_);
            stop_ = true;
            stop_flag_.store(true);
            for (auto& [id, flag] : cancel_) flag->store(true);
        }
        cv_.notify_all();
        poll_cv_.notify_all();
        for (auto& w : workers_) w.join();
        if (poller_.joinable()) poller_.join();
    }

    const model_info& info() const override { return info_; }
    const tokenizer& vocab() const override { return *vocab_; }
    std::string backend_description() const override {
        std::string kind = target_.shape.llama_cpp ? "llama.cpp server" : probe_.models.owned_by.empty()
                                                                             ? "OpenAI-compatible server"
                                                                             : probe_.models.owned_by + " server";
        return "remote " + kind + " at " + target_.base_url + ", model " + probe_.model +
               (probe_.has_metrics ? " (/metrics polled)" : "");
    }
    int context_length() const override { return probe_.props.n_ctx > 0 ? probe_.props.n_ctx : probe_.models.max_context; }

    request_id submit(request_params params, event_callback on_event) override {
        std::lock_guard<std::mutex> lock(mu_);
        const request_id id = ++next_id_;
        auto flag = std::make_shared<std::atomic<bool>>(false);
        cancel_[id] = flag;
        queue_.push_back(job{id, std::move(params), std::move(on_event), clock_type::now(), std::move(flag)});
        ++pending_;
        cv_.notify_all();
        return id;
    }

    void cancel(request_id id) override {
        std::lock_guard<std::mutex> lock(mu_);
        if (auto it = cancel_.find(id); it != cancel_.end()) it->second->store(true);
    }

    void wait_idle() override {
        std::unique_lock<std::mutex> lock(mu_);
        idle_cv_.wait(lock, [this] { return pending_ == 0; });
    }

    double kv_usage() const override {
        std::lock_guard<std::mutex> lock(metrics_mu_);
        return std::max(0.0, latest_.kv_usage);
    }
    std::int64_t kv_pool_bytes() const override { return 0; }
    std::int64_t weight_bytes() const override { return probe_.models.size_bytes; }
    std::int64_t scratch_bytes() const override { return 0; }

private:
    struct job {
        request_id id;
        request_params params;
        event_callback on_event;
        clock_type::time_point arrival;
        std::shared_ptr<std::atomic<bool>> cancel;
    };

    void fill_info() {
        info_.path = target_.base_url;
        info_.name = probe_.model;
        info_.architecture = "remote";
        info_.n_ctx_train = probe_.models.n_ctx_train > 0 ? probe_.models.n_ctx_train : probe_.models.max_context;
        info_.n_vocab = probe_.models.n_vocab;
        info_.n_params = probe_.models.n_params;
        info_.weight_bytes = probe_.models.size_bytes;
        info_.chat_template_kind = "server";   // the server applies its own template
    }

    void work() {
        for (;;) {
            job j;
            {
                std::unique_lock<std::mutex> lock(mu_);
                cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
                if (queue_.empty()) return;   // stop_ and nothing left
                j = std::move(queue_.front());
                queue_.pop_front();
                ++running_;
            }
            poll_cv_.notify_all();
            run_remote_request(target_, j.params, j.id, j.arrival, *j.cancel, j.on_event,
                               [this] { return latest_metrics(); });
            {
                std::lock_guard<std::mutex> lock(mu_);
                cancel_.erase(j.id);
                --running_;
                --pending_;
            }
            idle_cv_.notify_all();
        }
    }

    server_kv_metrics latest_metrics() const {
        std::lock_guard<std::mutex> lock(metrics_mu_);
        return latest_;
    }

    // Reads /metrics every metrics_poll_s while a request runs.
    void poll() {
        http_request req = get_request(target_.base_url + "/metrics", target_.headers, opts_.connect_timeout_s);
        req.total_timeout_s = 2;
        const auto period = std::chrono::duration<double>(opts_.metrics_poll_s);
        std::unique_lock<std::mutex> lock(mu_);
        while (!stop_) {
            if (running_ == 0) {
                poll_cv_.wait(lock, [this] { return stop_ || running_ > 0; });
                continue;
            }
            lock.unlock();
            const http_result r = http_fetch(req, &stop_flag_);
            if (r.ok()) {
                const server_kv_metrics m = kv_metrics_from(parse_prometheus(r.body));
                std::lock_guard<std::mutex> ml(metrics_mu_);
                latest_ = m;
            }
            lock.lock();
            poll_cv_.wait_for(lock, period, [this] { return stop_; });
        }
    }

    remote_options opts_;
    server_probe probe_;
    stream_target target_;
    model_info info_;
    const tokenizer* vocab_;
    std::unique_ptr<tokenizer> owned_vocab_;

    std::mutex mu_;                  // guards the queue, counters and cancel flags
    std::condition_variable cv_, idle_cv_, poll_cv_;
    std::deque<job> queue_;
    std::map<request_id, std::shared_ptr<std::atomic<bool>>> cancel_;
    request_id next_id_ = 0;
    int pending_ = 0;                // queued + running
    int running_ = 0;
    bool stop_ = false;
    std::atomic<bool> stop_flag_{false};
    std::vector<std::thread> workers_;
    std::thread poller_;

    mutable std::mutex metrics_mu_;
    server_kv_metrics latest_;
};

}  // namespace

result<std::unique_ptr<engine>> connect(const remote_options& o) {
    std::string base, why;
    if (!normalize_base_url(o.url, base, why)) return make_error(why);
    std::vector<std::string> headers;
    if (!o.api_key.empty()) headers.push_back("Authorization: Bearer " + o.api_key);
    auto p = probe(base, headers, o);
    if (!p) return make_error(p.message());

    const tokenizer* vocab = nullptr;
    std::unique_ptr<tokenizer> owned;
    if (!o.tokenizer_gguf.empty()) {
        auto file = gguf_file::open(o.tokenizer_gguf);
        if (!file) return make_error("tokenizer GGUF '" + o.tokenizer_gguf + "': " + file.message());
        auto t = tokenizer::from_gguf(**file);
        if (!t) return make_error("tokenizer GGUF '" + o.tokenizer_gguf + "': " + t.message());
        owned = std::move(*t);
        vocab = owned.get();
    } else {
        auto stand_in = byte_level_stand_in();
        if (!stand_in) return make_error(stand_in.message());
        vocab = *stand_in;
    }
    return std::unique_ptr<engine>(
        std::make_unique<remote_engine>(o, std::move(base), std::move(headers), std::move(*p), vocab, std::move(owned)));
}

}  // namespace kvlens::remote
