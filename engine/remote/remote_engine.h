// SPDX-License-Identifier: Apache-2.0
// A remote engine (issue 17): an OpenAI-compatible server (llama.cpp's
// llama-server, vLLM, SGLang, TGI) behind the same `engine` interface and
// event stream as kvlens's own engine, measured at the client and labelled so.
//
// What each event means here:
//   queued/started  at the client: the request was taken by one of the
//                   `parallel` client workers and handed to libcurl (source client);
//   prefill_chunk   llama.cpp's prompt_progress reports (source server);
//   first_token/token one per streamed piece of text (a token on llama.cpp;
//                   possibly several on servers that batch their stream),
//                   latencies on the client's clock, id -1, kv_* fields 0
//                   (unknown), server_kv_usage from /metrics when polled;
//   done            request_figures with source client, server_fields naming
//                   what came from the server, and the server's own numbers.
// Cancel raises a flag the transfer polls every 20 ms and closes the stream.
//
// What is unknown about a remote model, and what the interface answers:
//   info()         name (the /v1/models id), path (the URL), n_ctx_train,
//                  n_vocab, n_params, weight_bytes where llama.cpp reports them;
//                  architecture "remote"; layers/heads 0 (unknown);
//   vocab()        the tokenizer of a local GGUF of the same model when given
//                  (remote_options::tokenizer_gguf), else a byte-level stand-in
//                  (one token per byte: an upper bound, ids meaningless);
//   context_length() the server's per-slot context (llama.cpp /props, vLLM
//                  max_model_len), 0 when the server does not say;
//   kv_usage()     the last /metrics KV usage (vLLM, SGLang), 0 when unknown;
//   kv_pool_bytes(), scratch_bytes() 0 (unknown); weight_bytes() llama.cpp's meta.size or 0.
#pragma once

#include <memory>
#include <string>

#include "engine/runtime/engine.h"

namespace kvlens::remote {

struct remote_options {
    std::string url;                  // base URL: http(s)://host:port[/v1]
    std::string api_key;              // sent as "Authorization: Bearer"; kept in memory only
    std::string model;                // "" : the server's first model
    std::string tokenizer_gguf;       // optional local GGUF whose tokenizer vocab() returns
    int parallel = 1;                 // requests in flight at once
    double connect_timeout_s = 10;
    double stall_timeout_s = 60;      // no byte for this long ends a request with an error
    std::size_t max_response_bytes = 32u << 20;  // a stream larger than this is cut off with an error
    double metrics_poll_s = 0.25;     // /metrics while requests run; 0: never poll
};

// Connects (GET /v1/models, then llama.cpp's /props and /metrics where they
// answer) and checks the model name. Errors name the cause: refused, TLS,
// 401 with the server's message, a model the server does not have.
result<std::unique_ptr<engine>> connect(const remote_options& opts);

}  // namespace kvlens::remote
