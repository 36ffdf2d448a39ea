// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli info MODEL.gguf [--json]`: what a model is, and what its KV cache costs.
#include <cstdio>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "common/printable.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"
#if KVLENS_HAVE_CUDA
#include "engine/backend/cuda/cuda_device.h"
#endif

namespace {

struct info_args {
    std::string model;
    bool json = false;
};

std::string backend_line() {
#if KVLENS_HAVE_CUDA
    std::string why;
    if (auto d = kvlens::cuda_probe_device(why)) return fmt::format("auto -> cuda ({})", *d);
    return fmt::format("auto -> cpu (CUDA unavailable: {})", why);
#else
    return "auto -> cpu (built without CUDA)";
#endif
}

int run_info(const info_args& a) {
    auto m = kvlens::model::load(a.model);
    if (!m) {
        fmt::print(stderr, "kvlens-cli info: {}\n", m.message());
        return 1;
    }
    auto tok = kvlens::tokenizer::from_gguf((*m)->file());
    if (!tok) {
        fmt::print(stderr, "kvlens-cli info: {}: {}\n", a.model, tok.message());
        return 1;
    }
    const kvlens::model_info& i = (*m)->info();
    if (a.json) {
        nlohmann::json j = {{"path", i.path}, {"name", i.name}, {"architecture", i.architecture},
                            {"n_layer", i.n_layer}, {"n_head", i.n_head}, {"n_head_kv", i.n_head_kv},
                            {"head_dim", i.head_dim}, {"n_embd", i.n_embd}, {"n_ff", i.n_ff},
                            {"n_ctx_train", i.n_ctx_train}, {"n_vocab", i.n_vocab}, {"n_params", i.n_params},
                            {"n_params_active", i.n_params_active}, {"n_expert", i.n_expert},
                            {"n_expert_used", i.n_expert_used}, {"n_ff_exp", i.n_ff_exp}, {"n_ff_shared", i.n_ff_shared},
                            {"weight_bytes", i.weight_bytes},
                            {"kv_bytes_per_token", {{"f16", i.kv_bytes_per_token_f16}, {"q8_0", i.kv_bytes_per_token_q8_0}}},
                            {"tensor_types", i.tensor_types}, {"chat_template", (*tok)->chat_template_kind()},
                            {"rope", i.rope}, {"sliding_window", i.sliding_window},
                            {"n_window_layers", i.n_window_layers}, {"n_conv_layers", i.n_conv_layers},
                            {"conv_taps", i.conv_taps}, {"conv_state_bytes", i.conv_state_bytes},
                            {"attn_logit_softcap", i.attn_softcap}, {"final_logit_softcap", i.final_softcap},
                            {"embedding_scale", i.embedding_scale}, {"attention_scale", i.attention_scale},
                            {"residual_scale", i.residual_scale}, {"logit_scale", i.logit_scale},
                            {"logit_multiplier", i.logit_mul}, {"layer_norm", i.layer_norm},
                            {"parallel_blocks", i.parallel_blocks},
                            {"unrotated_layers", i.unrotated_layers}, {"norms", i.norms},
                            {"file_type", i.file_type}, {"tokenizer", (*tok)->model_name()},
                            {"pre_tokenizer", (*tok)->pre_name()}, {"backend", backend_line()},
                            {"default_system_prompt", (*tok)->default_system_prompt()},
                            {"cpu_kernels", kvlens::cpu_kernel_level()}};
        // JSON escapes control characters; bytes that are not UTF-8 are replaced.
        fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
        return 0;
    }
    // Everything the file says is shown escaped: no terminal sequence gets through.
    using kvlens::printable;
    fmt::print("model          {}{}\n", printable(i.path, 1024),
               i.n_file_parts > 1 ? fmt::format(" (the first of {} parts)", i.n_file_parts) : std::string());
    fmt::print("name           {}\n", printable(i.name));
    if (i.file_type.empty()) fmt::print("architecture   {}\n", printable(i.architecture));   // no general.file_type
    else fmt::print("architecture   {}  ({})\n", printable(i.architecture), printable(i.file_type));
    if (i.n_conv_layers > 0)
        fmt::print("layers         {}: {} short convolutions ({} taps), {} attention\n", i.n_layer, i.n_conv_layers,
                   i.conv_taps, i.n_attention_layers());
    else
        fmt::print("layers         {}\n", i.n_layer);
    fmt::print("heads          {} query, {} key/value (GQA group {}), head_dim {}\n", i.n_head, i.n_head_kv,
               i.n_head / i.n_head_kv, i.head_dim);
    fmt::print("n_embd / n_ff  {} / {}\n", i.n_embd, i.n_ff);
    if (i.n_expert > 0)
        fmt::print("experts        {} per layer, {} per token, {} rows each{}{}{}\n", i.n_expert, i.n_expert_used, i.n_ff_exp,
                   i.n_ff_shared > 0 ? fmt::format("; a shared expert of {} rows", i.n_ff_shared) : std::string(),
                   i.expert_sigmoid                ? "; chosen by sigmoid plus an expert bias"
                   : i.expert_softmax_chosen       ? "; weighted by the softmax of the chosen logits, with biases"
                   : i.expert_softmax_bias         ? "; chosen by the softmax plus an expert bias"
                                                   : "",
                   i.n_dense_lead > 0 ? fmt::format("; the first {} layer{} dense", i.n_dense_lead, i.n_dense_lead == 1 ? "" : "s")
                                      : std::string());
    fmt::print("context        {} tokens (trained)\n", i.n_ctx_train);
    fmt::print("rope           {}\n", i.rope);
    if (i.n_window_layers > 0)
        fmt::print("attention      a sliding window of {} tokens in {} of {} layers, the others full\n", i.sliding_window,
                   i.n_window_layers, i.n_layer);
    if (i.attn_sinks) fmt::print("sinks          a learned logit per head in each softmax's denominator\n");
    if (i.attn_softcap > 0 || i.final_softcap > 0)
        fmt::print("soft-capping   attention scores at {:g}, logits at {:g} (c * tanh(x / c); 0: none)\n",
                   i.attn_softcap, i.final_softcap);
    fmt::print("{}{}\n", i.layer_norm ? "norms          " : "RMS norms      ", i.norms);
    if (!i.scales.empty()) fmt::print("scales         {}\n", i.scales);
    fmt::print("vocabulary     {} tokens ({} tokenizer, pre-tokenizer {}), chat template: {}\n", i.n_vocab,
               printable((*tok)->model_name()), kvlens::quoted((*tok)->pre_name()), (*tok)->chat_template_kind());
    const std::string& system = (*tok)->default_system_prompt();
    fmt::print("system prompt  {}\n", system.empty() ? std::string("(none: the template adds none)")
                                                     : "the template adds, when a chat has none: " + kvlens::quoted(system, 400));
    if (i.n_expert > 0)
        fmt::print("parameters     {} ({:.1f} M; {:.1f} M per token)\n", i.n_params, i.n_params / 1e6,
                   i.n_params_active / 1e6);
    else
        fmt::print("parameters     {} ({:.1f} M)\n", i.n_params, i.n_params / 1e6);
    fmt::print("weights        {} bytes ({:.1f} MiB)\n", i.weight_bytes, i.weight_bytes / 1048576.0);
    fmt::print("KV per token   f16: {} bytes = 2 x {} {}layers x {} kv_heads x {} head_dim x 2 bytes\n",
               i.kv_bytes_per_token_f16, i.n_attention_layers(), i.n_conv_layers > 0 ? "attention " : "", i.n_head_kv,
               i.head_dim);
    if (i.kv_q8_0_possible)
        fmt::print("               q8_0: {} bytes (34 bytes per 32 elements)\n", i.kv_bytes_per_token_q8_0);
    else
        fmt::print("               q8_0: not possible (a block of 32 would straddle two heads of {})\n", i.head_dim);
    if (i.n_conv_layers > 0)
        fmt::print("conv state     {} bytes per sequence, however long = {} convolution layers x {} tokens x {} "
                   "x 4 bytes (f32)\n",
                   i.conv_state_bytes, i.n_conv_layers, i.conv_taps, i.n_embd);
    std::string types;
    for (const auto& [t, n] : i.tensor_types) types += fmt::format("{}{} x{}", types.empty() ? "" : ", ", printable(t), n);
    fmt::print("tensor types   {}\n", types);
    fmt::print("backend        {}\n", backend_line());
    fmt::print("cpu kernels    {}\n", kvlens::cpu_kernel_level());
    return 0;
}

}  // namespace

void add_info_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<info_args>();
    CLI::App* cmd = app.add_subcommand("info", "Describe a GGUF model: shape, sizes, KV bytes per token");
    cmd->add_option("model", args->model, "GGUF model file")->required();
    cmd->add_flag("--json", args->json, "One JSON document on stdout");
    cmd->callback([args, &exit_code] { exit_code = run_info(*args); });
}
