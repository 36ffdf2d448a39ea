// SPDX-License-Identifier: Apache-2.0
// libcurl transfers for the remote engine (see http_client.h). One easy handle
// per transfer inside its own multi handle; the calling thread polls it, so
// the cancel flag, the stall clock and the byte cap are checked every 20 ms.
#include "engine/remote/http_client.h"

#include <chrono>
#include <mutex>

#include <curl/curl.h>

namespace kvlens::remote {

namespace {

using clock_type = std::chrono::steady_clock;
constexpr std::size_t error_body_cap = 64u << 10;

void global_init() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct transfer {
    CURL* easy = nullptr;
    const data_handler* on_data = nullptr;   // null: collect the body
    std::size_t max_bytes = 0;
    http_result* out = nullptr;
    clock_type::time_point last_byte;
    bool status_checked = false;
    bool streaming_body = false;   // a 2xx body handed to on_data
    http_failure stop_reason = http_failure::none;
};

std::size_t on_write(char* ptr, std::size_t size, std::size_t n, void* user) {
    auto* t = static_cast<transfer*>(user);
    const std::size_t len = size * n;
    t->last_byte = clock_type::now();
    if (!t->status_checked) {
        t->status_checked = true;
        curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->out->status);
        const char* ct = nullptr;
        curl_easy_getinfo(t->easy, CURLINFO_CONTENT_TYPE, &ct);
        if (ct) t->out->content_type = ct;
        t->streaming_body = t->on_data && t->out->status >= 200 && t->out->status < 300;
    }
    t->out->bytes += len;
    if (t->out->bytes > t->max_bytes) {
        t->stop_reason = http_failure::too_large;
        return 0;   // libcurl ends the transfer with CURLE_WRITE_ERROR
    }
    if (t->streaming_body) {
        if (!(*t->on_data)(std::string_view(ptr, len))) {
            t->stop_reason = http_failure::aborted;
            return 0;
        }
        return len;
    }
    const std::size_t cap = t->on_data ? error_body_cap : t->max_bytes;
    if (t->out->body.size() < cap) t->out->body.append(ptr, std::min(len, cap - t->out->body.size()));
    return len;
}

// A transfer's own header so that "Expect: 100-continue" never delays a POST.
curl_slist* make_headers(const http_request& req) {
    curl_slist* list = nullptr;
    for (const auto& h : req.headers) list = curl_slist_append(list, h.c_str());
    list = curl_slist_append(list, "Expect:");
    return list;
}

http_failure classify(CURLcode code) {
    switch (code) {
        case CURLE_COULDNT_CONNECT: return http_failure::refused;
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY: return http_failure::resolve;
        case CURLE_OPERATION_TIMEDOUT: return http_failure::timeout;
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CERTPROBLEM:
        case CURLE_SSL_CIPHER:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_ISSUER_ERROR:
        case CURLE_SSL_INVALIDCERTSTATUS:
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        case CURLE_USE_SSL_FAILED: return http_failure::tls;
        default: return http_failure::other;
    }
}

std::string describe(http_failure f, const std::string& url, const char* curl_message) {
    switch (f) {
        case http_failure::refused: return "cannot connect to " + url + " (refused or unreachable: is the server running?): " + curl_message;
        case http_failure::resolve: return "cannot resolve the host of " + url + ": " + curl_message;
        case http_failure::timeout: return "timed out talking to " + url + ": " + curl_message;
        case http_failure::tls: return "TLS error with " + url + ": " + curl_message;
        default: return std::string("transfer from ") + url + " failed: " + curl_message;
    }
}

http_result run(const http_request& req, const data_handler* on_data, const std::atomic<bool>* cancel) {
    global_init();
    http_result out;
    CURL* easy = curl_easy_init();
    CURLM* multi = curl_multi_init();
    if (!easy || !multi) {
        if (easy) curl_easy_cleanup(easy);
        if (multi) curl_multi_cleanup(multi);
        out.failure = http_failure::other;
        out.error = "libcurl could not start a transfer";
        return out;
    }
    char errbuf[CURL_ERROR_SIZE] = {};
    transfer t;
    t.easy = easy;
    t.on_data = on_data;
    t.max_bytes = req.max_bytes;
    t.out = &out;
    curl_slist* headers = make_headers(req);

    curl_easy_setopt(easy, CURLOPT_URL, req.url.c_str());
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &on_write);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(req.connect_timeout_s * 1000));
    if (req.total_timeout_s > 0) curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(req.total_timeout_s * 1000));
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");   // whatever libcurl can decode
    curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
    if (!req.body.empty()) {
        curl_easy_setopt(easy, CURLOPT_POST, 1L);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, req.body.c_str());
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
    }
    curl_multi_add_handle(multi, easy);

    t.last_byte = clock_type::now();
    const auto stall = std::chrono::duration<double>(req.stall_timeout_s);
    CURLcode done_code = CURLE_OK;
    bool finished = false;
    while (!finished) {
        int running = 0;
        if (curl_multi_perform(multi, &running) != CURLM_OK) {
            t.stop_reason = http_failure::other;
            break;
        }
        int queued = 0;
        while (CURLMsg* msg = curl_multi_info_read(multi, &queued)) {
            if (msg->msg == CURLMSG_DONE) {
                done_code = msg->data.result;
                finished = true;
            }
        }
        if (finished || t.stop_reason != http_failure::none) break;
        if (cancel && cancel->load()) {
            t.stop_reason = http_failure::cancelled;
            break;
        }
        if (req.stall_timeout_s > 0 && clock_type::now() - t.last_byte > stall) {
            t.stop_reason = http_failure::stall;
            break;
        }
        curl_multi_poll(multi, nullptr, 0, 20, nullptr);
    }
    if (!t.status_checked || out.status == 0) curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &out.status);

    if (t.stop_reason != http_failure::none) {
        out.failure = t.stop_reason;
        switch (t.stop_reason) {
            case http_failure::too_large:
                out.error = "the response from " + req.url + " exceeded " + std::to_string(req.max_bytes) + " bytes; stopped reading";
                break;
            case http_failure::stall:
                out.error = "the server at " + req.url + " sent nothing for " + std::to_string(req.stall_timeout_s) +
                            " s (stall timeout)";
                break;
            case http_failure::cancelled: out.error = "cancelled"; break;
            case http_failure::aborted: out.error = "stopped by the reader"; break;
            default: out.error = "libcurl failed on " + req.url; break;
        }
    } else if (done_code != CURLE_OK) {
        out.failure = classify(done_code);
        out.error = describe(out.failure, req.url, errbuf[0] ? errbuf : curl_easy_strerror(done_code));
    }
    curl_multi_remove_handle(multi, easy);
    curl_easy_cleanup(easy);
    curl_multi_cleanup(multi);
    curl_slist_free_all(headers);
    return out;
}

}  // namespace

http_result http_fetch(const http_request& req, const std::atomic<bool>* cancel) {
    return run(req, nullptr, cancel);
}

http_result http_stream(const http_request& req, const data_handler& on_data, const std::atomic<bool>* cancel) {
    return run(req, &on_data, cancel);
}

bool normalize_base_url(std::string_view url, std::string& out, std::string& why) {
    std::string s(url);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
    if (s.rfind("http://", 0) != 0 && s.rfind("https://", 0) != 0) {
        why = "the server URL must start with http:// or https:// (got '" + s + "')";
        return false;
    }
    while (!s.empty() && s.back() == '/') s.pop_back();
    if (s.size() >= 3 && s.compare(s.size() - 3, 3, "/v1") == 0) s.resize(s.size() - 3);
    const std::size_t host = s.find("://") + 3;
    if (host >= s.size()) {
        why = "the server URL has no host";
        return false;
    }
    out = s;
    return true;
}

}  // namespace kvlens::remote
