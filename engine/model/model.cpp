// SPDX-License-Identifier: Apache-2.0
// Model loading: find every tensor the architecture needs, check its shape and
// type against the configuration, and fill the model panel's figures.
#include "engine/model/model.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/model/matrix_types.h"
#include "engine/quant/quant_formats.h"
#include "engine/tokenizer/chat_template.h"

namespace kvlens {

namespace {

// The accepted matrix types, "F32, F16, ...", for error messages.
std::string matrix_types() {
    std::string out;
    for (ggml_type t : accepted_matrix_types()) {
        if (!out.empty()) out += ", ";
        out += type_name(t);
    }
    return out;
}

class weight_loader {
public:
    explicit weight_loader(const gguf_file& f) : f_(f) {}

    // A matrix of n_out rows of n_in elements whose type has dot kernels.
    bool matrix(const std::string& name, std::int64_t n_in, std::int64_t n_out, weight_view& out) {
        const gguf_tensor* t = f_.tensor(name);
        if (!t) return fail(fmt::format("missing tensor '{}'", name));
        if (t->n_dims != 2 || t->ne[0] != n_in || t->ne[1] != n_out)
            return fail(fmt::format("tensor '{}' has shape [{}, {}], expected [{}, {}]", name, t->ne[0],
                                    t->n_dims > 1 ? t->ne[1] : 1, n_in, n_out));
        if (!multipliable(name, *t)) return false;
        out = {t->type, n_in, n_out, t->data, row_bytes(t->type, n_in)};
        return true;
    }
    // Rows [first, first + n_out) of a matrix of n_rows rows of n_in
    // elements: one of the parts of a fused tensor (phi3's attn_qkv, whose
    // rows are Q's, then K's, then V's, and its ffn_up, gate's then up's).
    bool matrix_rows(const std::string& name, std::int64_t n_in, std::int64_t n_rows, std::int64_t first,
                     std::int64_t n_out, weight_view& out) {
        if (!matrix(name, n_in, n_rows, out)) return false;
        out.data += first * out.row_bytes;
        out.n_out = n_out;
        return true;
    }
    // The n_expert matrices of a layer's experts (p: "blk.N.", kind:
    // "ffn_gate", "ffn_up" or "ffn_down"): the 3-D tensor p + kind + "_exps"
    // [n_in, n_out, n_expert], one view per expert (its slice of n_out rows),
    // or, in files converted before llama.cpp merged them (early 2024
    // Mixtral files), one 2-D tensor per expert, p + kind + ".E".
    bool experts(const std::string& p, const std::string& kind, std::int64_t n_in, std::int64_t n_out,
                 std::int64_t n_expert, std::vector<weight_view>& out) {
        const std::string name = p + kind + "_exps.weight";
        const gguf_tensor* t = f_.tensor(name);
        if (!t && f_.tensor(p + kind + ".0.weight")) {
            out.assign(static_cast<std::size_t>(n_expert), weight_view{});
            for (std::int64_t e = 0; e < n_expert; ++e)
                if (!matrix(fmt::format("{}{}.{}.weight", p, kind, e), n_in, n_out, out[static_cast<std::size_t>(e)]))
                    return false;
            return true;
        }
        if (!t) return fail(fmt::format("missing tensor '{}'", name));
        if (t->n_dims != 3 || t->ne[0] != n_in || t->ne[1] != n_out || t->ne[2] != n_expert)
            return fail(fmt::format("tensor '{}' has shape [{}, {}, {}], expected [{}, {}, {}]", name, t->ne[0],
                                    t->n_dims > 1 ? t->ne[1] : 1, t->n_dims > 2 ? t->ne[2] : 1, n_in, n_out, n_expert));
        if (!multipliable(name, *t)) return false;
        const std::int64_t rb = row_bytes(t->type, n_in);
        out.clear();
        for (std::int64_t e = 0; e < n_expert; ++e) out.push_back({t->type, n_in, n_out, t->data + e * n_out * rb, rb});
        return true;
    }
    // A vector of n elements, converted to f32.
    bool vector(const std::string& name, std::int64_t n, f32_vector& out, bool optional = false) {
        const gguf_tensor* t = f_.tensor(name);
        if (!t) return optional ? true : fail(fmt::format("missing tensor '{}'", name));
        if (t->n_elements != n)
            return fail(fmt::format("tensor '{}' has {} elements, expected {}", name, t->n_elements, n));
        to_float_fn conv = quant::reference_to_float(t->type);
        if (!conv) return fail(fmt::format("tensor '{}' has unsupported type {}", name, type_name(t->type)));
        out.resize(static_cast<std::size_t>(n));
        conv(t->data, out.data(), n);
        return true;
    }
    const std::string& why() const { return why_; }

private:
    // Whether the tensor's type has dot kernels; else why not.
    bool multipliable(const std::string& name, const gguf_tensor& t) {
        if (matrix_type_accepted(t.type)) return true;
        return fail(fmt::format("tensor '{}' has type {}, which kvlens cannot multiply (supported: {})", name,
                                type_name(t.type), matrix_types()));
    }
    bool fail(std::string w) {
        why_ = std::move(w);
        return false;
    }
    const gguf_file& f_;
    std::string why_;
};

// The chat format as the tokenizer recognises it: from the template and the
// vocabulary together (chat_template.h).
std::string chat_kind_of(const gguf_file& f) {
    const std::vector<std::string_view> tokens = f.get_string_array("tokenizer.ggml.tokens");
    const auto has = [&tokens](std::string_view s) { return std::find(tokens.begin(), tokens.end(), s) != tokens.end(); };
    return to_string(chat_format::detect(f.get_string("tokenizer.chat_template"), has).kind);
}

}  // namespace

result<std::unique_ptr<model>> model::load(const std::string& path) {
    auto f = gguf_file::open(path);
    if (!f) return f.err();
    return from_file(*f);
}

result<std::unique_ptr<model>> model::from_file(std::shared_ptr<gguf_file> f) {
    auto cfg = read_model_config(*f);
    if (!cfg) return make_error(fmt::format("{}: {}", f->path(), cfg.message()));
    std::unique_ptr<model> m(new model());
    m->file_ = f;
    m->config_ = *cfg;
    const model_config& c = m->config_;
    model_weights& w = m->weights_;
    weight_loader ld(*f);
    auto fail = [&] { return make_error(fmt::format("{}: {}", f->path(), ld.why())); };

    // The embedding must be readable row by row (any type with a converter).
    const gguf_tensor* emb = f->tensor("token_embd.weight");
    if (!emb) return make_error(fmt::format("{}: missing tensor 'token_embd.weight'", f->path()));
    if (emb->n_dims != 2 || emb->ne[0] != c.n_embd || emb->ne[1] != c.n_vocab)
        return make_error(fmt::format("{}: token_embd.weight has shape [{}, {}], expected [{}, {}]", f->path(),
                                      emb->ne[0], emb->ne[1], c.n_embd, c.n_vocab));
    if (!vector_type_accepted(emb->type))
        return make_error(fmt::format("{}: token_embd.weight has unsupported type {}", f->path(), type_name(emb->type)));
    w.tok_embd = {emb->type, c.n_embd, c.n_vocab, emb->data, row_bytes(emb->type, c.n_embd)};

    // LFM2's converter names its final norm token_embd_norm (llama.cpp reads it so).
    if (!ld.vector(c.architecture == arch::lfm2 ? "token_embd_norm.weight" : "output_norm.weight", c.n_embd, w.output_norm))
        return fail();
    if (c.norm_bias && !ld.vector("output_norm.bias", c.n_embd, w.output_norm_b)) return fail();
    if (c.has_output_bias && !ld.vector("output.bias", c.n_vocab, w.output_b)) return fail();
    // GPT-2's learned positions: a row per position of the trained context, read like the embedding's.
    if (c.learned_positions) {
        const gguf_tensor* pos = f->tensor("position_embd.weight");
        if (!pos) return make_error(fmt::format("{}: missing tensor 'position_embd.weight'", f->path()));
        if (pos->n_dims != 2 || pos->ne[0] != c.n_embd || pos->ne[1] != c.n_ctx_train)
            return make_error(fmt::format("{}: position_embd.weight has shape [{}, {}], expected [{}, {}] (embedding "
                                          "length, context length)",
                                          f->path(), pos->ne[0], pos->n_dims > 1 ? pos->ne[1] : 1, c.n_embd, c.n_ctx_train));
        if (!vector_type_accepted(pos->type))
            return make_error(fmt::format("{}: position_embd.weight has unsupported type {}", f->path(), type_name(pos->type)));
        w.pos_embd = {pos->type, c.n_embd, c.n_ctx_train, pos->data, row_bytes(pos->type, c.n_embd)};
    }
    // Gemma (1) and Cohere's models always multiply by their embedding, as llama.cpp does.
    if (f->tensor("output.weight") && c.architecture != arch::gemma && c.architecture != arch::command_r) {
        if (!ld.matrix("output.weight", c.n_embd, c.n_vocab, w.output)) return fail();
    } else {
        if (!matrix_type_accepted(emb->type))
            return make_error(fmt::format("{}: tied output uses token_embd.weight of type {}, which kvlens cannot multiply",
                                          f->path(), type_name(emb->type)));
        w.output = w.tok_embd;
    }

    // RoPE frequency factors: Llama 3.1's, or phi3's LongRoPE pair.
    const auto factors = [&](const char* name, f32_vector& out) -> status {
        if (!ld.vector(name, c.n_rot / 2, out, true)) return fail();
        for (const float ff : out)
            if (!(ff > 0) || !std::isfinite(ff))
                return make_error(fmt::format("{}: {} holds {}, not a positive factor", f->path(), name, ff));
        return {};
    };
    // llama.cpp multiplies by rope_freqs.weight where the file has it in
    // these architectures (get_rope_factors in their graphs).
    // Granite's and MiniCPM's read the LongRoPE pair instead when the file's
    // scaling is longrope.
    const bool granite_longrope = (c.architecture == arch::granite || c.architecture == arch::granitemoe) && c.rope_longrope;
    if ((c.architecture == arch::llama || c.architecture == arch::exaone || c.architecture == arch::exaone4 ||
         c.architecture == arch::granite || c.architecture == arch::granitemoe || c.architecture == arch::mistral3 ||
         c.architecture == arch::arcee) && !granite_longrope)
        if (status st = factors("rope_freqs.weight", w.rope_freqs); !st) return st.err();
    if (c.architecture == arch::phi3 || granite_longrope) {
        if (status st = factors("rope_factors_short.weight", w.rope_factors_short); !st) return st.err();
        if (status st = factors("rope_factors_long.weight", w.rope_factors_long); !st) return st.err();
    }

    w.layers.resize(static_cast<std::size_t>(c.n_layer));
    for (int il = 0; il < c.n_layer; ++il) {
        layer_weights& l = w.layers[static_cast<std::size_t>(il)];
        const std::string p = fmt::format("blk.{}.", il);
        // phi3 files fuse Q, K and V (where they are not apart, as llama.cpp
        // allows), and always gate and up: views of the fused tensors' rows.
        const bool fused_qkv = ((c.architecture == arch::phi3 || c.architecture == arch::lfm2 || c.architecture == arch::phi2) &&
                                f->tensor(p + "attn_qkv.weight")) ||
                               c.architecture == arch::gpt2 || c.architecture == arch::gptneox;
        const std::int64_t n_qkv = c.n_q() + 2LL * c.n_kv();
        if (c.is_conv(il)) {   // LFM2: a short convolution in place of attention
            if (!ld.matrix(p + "shortconv.in_proj.weight", c.n_embd, 3LL * c.n_embd, l.conv_in) ||
                !ld.matrix(p + "shortconv.out_proj.weight", c.n_embd, c.n_embd, l.conv_out))
                return fail();
            const std::string kernel = p + "shortconv.conv.weight";
            const gguf_tensor* t = f->tensor(kernel);
            if (t && (t->n_dims != 2 || t->ne[0] != c.shortconv_l_cache || t->ne[1] != c.n_embd))
                return make_error(fmt::format("{}: tensor '{}' has shape [{}, {}], expected [{}, {}]", f->path(), kernel,
                                              t->ne[0], t->n_dims > 1 ? t->ne[1] : 1, c.shortconv_l_cache, c.n_embd));
            if (!ld.vector(kernel, static_cast<std::int64_t>(c.shortconv_l_cache) * c.n_embd, l.conv_kernel)) return fail();
        } else if (fused_qkv ? !ld.matrix_rows(p + "attn_qkv.weight", c.n_embd, n_qkv, 0, c.n_q(), l.wq) ||
                            !ld.matrix_rows(p + "attn_qkv.weight", c.n_embd, n_qkv, c.n_q(), c.n_kv(), l.wk) ||
                            !ld.matrix_rows(p + "attn_qkv.weight", c.n_embd, n_qkv, c.n_q() + c.n_kv(), c.n_kv(), l.wv)
                      : !ld.matrix(p + "attn_q.weight", c.n_embd, c.n_q(), l.wq) ||
                            !ld.matrix(p + "attn_k.weight", c.n_embd, c.n_kv(), l.wk) ||
                            !ld.matrix(p + "attn_v.weight", c.n_embd, c.n_kv(), l.wv))
            return fail();
        const bool fused_up = c.architecture == arch::phi3 || c.architecture == arch::glm4;
        if (c.layer_moe(il)) {
            if (c.moe_expert_bias &&
                !ld.vector(p + "exp_probs_b.bias", c.n_expert, l.expert_bias, c.moe_expert_bias_optional))
                return fail();
            if (c.moe_biases && (!ld.vector(p + "ffn_gate_inp.bias", c.n_expert, l.router_bias) ||
                                 !ld.vector(p + "ffn_gate_exps.bias", std::int64_t{c.n_expert} * c.n_ff_exp, l.exp_gate_bias) ||
                                 !ld.vector(p + "ffn_up_exps.bias", std::int64_t{c.n_expert} * c.n_ff_exp, l.exp_up_bias) ||
                                 !ld.vector(p + "ffn_down_exps.bias", std::int64_t{c.n_expert} * c.n_embd, l.exp_down_bias)))
                return fail();
            if (!ld.matrix(p + "ffn_gate_inp.weight", c.n_embd, c.n_expert, l.router) ||
                !ld.experts(p, "ffn_gate", c.n_embd, c.n_ff_exp, c.n_expert, l.exp_gate) ||
                !ld.experts(p, "ffn_up", c.n_embd, c.n_ff_exp, c.n_expert, l.exp_up) ||
                !ld.experts(p, "ffn_down", c.n_ff_exp, c.n_embd, c.n_expert, l.exp_down))
                return fail();
            if (c.n_ff_shared > 0 &&
                (!ld.matrix(p + "ffn_gate_shexp.weight", c.n_embd, c.n_ff_shared, l.shared_gate) ||
                 !ld.matrix(p + "ffn_up_shexp.weight", c.n_embd, c.n_ff_shared, l.shared_up) ||
                 !ld.matrix(p + "ffn_down_shexp.weight", c.n_ff_shared, c.n_embd, l.shared_down) ||
                 (c.architecture == arch::qwen2moe &&   // Granite's shared expert is not gated
                  !ld.vector(p + "ffn_gate_inp_shexp.weight", c.n_embd, l.shared_gate_inp))))
                return fail();
        } else if (fused_up ? !ld.matrix_rows(p + "ffn_up.weight", c.n_embd, 2LL * c.n_ff, 0, c.n_ff, l.w_gate) ||
                           !ld.matrix_rows(p + "ffn_up.weight", c.n_embd, 2LL * c.n_ff, c.n_ff, c.n_ff, l.w_up)
                     : (c.ffn_act != ffn_activation::relu_sqr && c.ffn_act != ffn_activation::gelu &&   // Arcee's, Nemotron's, GPT-2's: no gate
                        !ld.matrix(p + "ffn_gate.weight", c.n_embd, c.n_ff, l.w_gate)) ||
                           !ld.matrix(p + "ffn_up.weight", c.n_embd, c.n_ff, l.w_up))
            return fail();
        if ((!c.is_conv(il) && !ld.matrix(p + "attn_output.weight", c.n_q(), c.n_embd, l.wo)) ||
            (!c.layer_moe(il) && !ld.matrix(p + "ffn_down.weight", c.n_ff, c.n_embd, l.w_down)))
            return fail();
        // gpt-oss's norm before the feed-forward block is named post_attention_norm.
        const char* ffn_norm_name = c.architecture == arch::gpt_oss ? "post_attention_norm.weight" : "ffn_norm.weight";
        // Cohere's parallel blocks share the one norm (attn_norm).
        if (c.has_pre_norms && (!ld.vector(p + "attn_norm.weight", c.n_embd, l.attn_norm) ||
                                (!c.shared_block_norm && !ld.vector(p + ffn_norm_name, c.n_embd, l.ffn_norm))))
            return fail();
        if (c.has_attn_out_bias && !ld.vector(p + "attn_output.bias", c.n_embd, l.bo, c.optional_biases)) return fail();
        if (c.norm_bias && (!ld.vector(p + "attn_norm.bias", c.n_embd, l.attn_norm_b) ||
                            (!c.shared_block_norm && !ld.vector(p + "ffn_norm.bias", c.n_embd, l.ffn_norm_b))))
            return fail();
        if (c.has_ffn_bias &&
            (!ld.vector(p + "ffn_up.bias", c.n_ff, l.up_b, c.optional_biases) ||
             !ld.vector(p + "ffn_down.bias", c.n_embd, l.down_b, c.optional_biases)))
            return fail();
        // GPT-2's Q, K and V biases are one tensor as their product is: its three parts.
        if (c.has_qkv_bias && fused_qkv) {
            f32_vector qkv_b;
            if (!ld.vector(p + "attn_qkv.bias", n_qkv, qkv_b)) return fail();
            l.bq.assign(qkv_b.begin(), qkv_b.begin() + c.n_q());
            l.bk.assign(qkv_b.begin() + c.n_q(), qkv_b.begin() + c.n_q() + c.n_kv());
            l.bv.assign(qkv_b.begin() + c.n_q() + c.n_kv(), qkv_b.end());
        }
        if (c.has_attn_sinks && !ld.vector(p + "attn_sinks.weight", c.n_head, l.attn_sinks)) return fail();
        // Phi-2's and StarCoder 2's apart Q, K, V have theirs, as llama.cpp requires.
        const bool qkv_bias_optional = c.architecture != arch::phi2 && c.architecture != arch::starcoder2;
        if (c.has_qkv_bias && !fused_qkv &&
            (!ld.vector(p + "attn_q.bias", c.n_q(), l.bq, qkv_bias_optional) ||
             !ld.vector(p + "attn_k.bias", c.n_kv(), l.bk, qkv_bias_optional) ||
             !ld.vector(p + "attn_v.bias", c.n_kv(), l.bv, qkv_bias_optional)))
            return fail();
        if (c.has_post_norms && (!ld.vector(p + "post_attention_norm.weight", c.n_embd, l.post_attn_norm) ||
                                 !ld.vector(p + "post_ffw_norm.weight", c.n_embd, l.post_ffw_norm)))
            return fail();
        if (c.has_qk_norm && !c.is_conv(il) && (!ld.vector(p + "attn_q_norm.weight", c.qk_norm_whole ? c.n_q() : c.head_dim, l.q_norm) ||
                              !ld.vector(p + "attn_k_norm.weight", c.qk_norm_whole ? c.n_kv() : c.head_dim, l.k_norm)))
            return fail();
        // Biases llama.cpp would add where its graph has them, and kvlens
        // does not: such a file is refused, not run without them.
        struct bias_tensor {
            const char* name;
            bool added;   // read above and added by both backends
        };
        const bias_tensor biases[] = {{"attn_q.bias", c.has_qkv_bias},  {"attn_k.bias", c.has_qkv_bias},
                                      {"attn_v.bias", c.has_qkv_bias},  {"attn_output.bias", c.has_attn_out_bias},
                                      {"ffn_gate.bias", false},         {"ffn_up.bias", c.has_ffn_bias},
                                      {"ffn_down.bias", c.has_ffn_bias}, {"attn_qkv.bias", c.has_qkv_bias && fused_qkv}};
        for (const auto& [bias, added] : biases) {
            if (!added && f->tensor(p + bias))
                return make_error(fmt::format("{}: tensor '{}{}' is a bias kvlens does not add in a {} model", f->path(),
                                              p, bias, c.arch_name));
        }
    }

    // Counted figures: FLOPs of the matrix products and bytes a decode step reads.
    double flop = 0, bytes = 0;
    auto count = [&](const weight_view& v) {
        flop += 2.0 * static_cast<double>(v.n_in) * static_cast<double>(v.n_out);
        bytes += static_cast<double>(v.row_bytes) * static_cast<double>(v.n_out);
    };
    double expert_flop = 0, expert_bytes = 0;   // of every layer's n_expert_used experts, averaged over its experts
    for (const auto& l : w.layers) {
        count(l.wq); count(l.wk); count(l.wv); count(l.wo); count(l.conv_in); count(l.conv_out);
        count(l.w_gate); count(l.w_up); count(l.w_down);
        count(l.router); count(l.shared_gate); count(l.shared_up); count(l.shared_down);
        if (l.exp_gate.empty()) continue;
        const double before_flop = flop, before_bytes = bytes;
        for (std::size_t e = 0; e < l.exp_gate.size(); ++e) {
            count(l.exp_gate[e]); count(l.exp_up[e]); count(l.exp_down[e]);
        }
        const double share = static_cast<double>(c.n_expert_used) / static_cast<double>(c.n_expert);
        expert_flop += (flop - before_flop) * share;
        expert_bytes += (bytes - before_bytes) * share;
        flop = before_flop;
        bytes = before_bytes;
    }
    count(w.output);
    m->matmul_flop_ = flop + expert_flop;
    m->dense_weight_bytes_ = bytes;
    m->decode_weight_bytes_ = bytes + expert_bytes;

    model_info& info = m->info_;
    info.path = f->path();
    info.n_file_parts = f->n_parts();
    info.name = f->get_string("general.name", "");
    info.architecture = c.arch_name;
    info.n_layer = c.n_layer;
    info.n_head = c.n_head;
    info.n_head_kv = c.n_head_kv;
    info.head_dim = c.head_dim;
    info.n_embd = c.n_embd;
    info.n_ff = c.n_ff;
    info.n_ctx_train = c.n_ctx_train;
    info.n_vocab = c.n_vocab;
    for (const auto& t : f->tensors()) {
        info.n_params += t.n_elements;
        info.weight_bytes += t.n_bytes;
        info.tensor_types[type_name(t.type)] += 1;
    }
    info.n_expert = c.n_expert;
    info.n_expert_used = c.n_expert_used;
    info.n_ff_exp = c.moe() ? c.n_ff_exp : 0;
    info.n_ff_shared = c.n_ff_shared;
    info.n_dense_lead = c.moe() ? c.n_dense_lead : 0;
    info.expert_sigmoid = c.moe_sigmoid;
    info.expert_softmax_chosen = c.moe_softmax_chosen;
    for (const layer_weights& l : w.layers)
        info.expert_softmax_bias = info.expert_softmax_bias || (!c.moe_sigmoid && !l.expert_bias.empty());
    info.attn_sinks = c.has_attn_sinks;
    // Each layer's unused experts: 3 matrices of n_embd x n_ff_exp each.
    info.n_params_active = info.n_params - static_cast<std::int64_t>(c.n_moe_layers()) * (c.n_expert - c.n_expert_used) * 3 *
                                               c.n_embd * static_cast<std::int64_t>(c.n_ff_exp);
    if (!c.moe()) info.n_params_active = info.n_params;
    for (int il = 0; il < c.n_layer; ++il) {
        if (c.is_conv(il)) {
            ++info.n_conv_layers;
            info.conv_layers.push_back(il);
            continue;
        }
        const int w = c.layer_window[static_cast<std::size_t>(il)];
        info.sliding_window = std::max(info.sliding_window, w);
        info.n_window_layers += w > 0 ? 1 : 0;
    }
    info.conv_taps = c.shortconv_l_cache;
    info.conv_state_bytes = static_cast<std::int64_t>(info.n_conv_layers) * c.shortconv_l_cache * c.n_embd * 4;
    const std::int64_t kv_elems_per_token = 2LL * info.n_attention_layers() * c.n_head_kv * c.head_dim;
    info.kv_bytes_per_token_f16 = kv_elems_per_token * 2;
    info.kv_q8_0_possible = c.head_dim % 32 == 0;
    info.kv_bytes_per_token_q8_0 = info.kv_q8_0_possible ? kv_elems_per_token / 32 * 34 : 0;
    info.chat_template_kind = chat_kind_of(*f);
    info.rope_freq_base = c.rope_freq_base;
    info.rope_llama3_factors = !w.rope_freqs.empty();
    // YaRN's factor is not linear scaling: only the slow pairs are scaled.
    info.rope_linear_factor = c.yarn() ? 1.0 : 1.0 / c.rope_freq_scale;
    const double base = info.rope_freq_base;
    info.rope = base == std::floor(base) && base < 1e15 ? fmt::format("base {:.0f}", base) : fmt::format("base {:g}", base);
    if (info.rope_llama3_factors) info.rope += ", Llama 3.1 frequency factors";
    if (info.rope_linear_factor != 1.0) info.rope += fmt::format(", linear scaling x{:g}", info.rope_linear_factor);
    info.rope_yarn_factor = c.yarn() ? 1.0 / c.rope_freq_scale : 0.0;
    if (c.yarn())
        info.rope += fmt::format(", YaRN x{:g} from an original {}", 1.0 / c.rope_freq_scale, c.rope_original_ctx);
    if (c.attn_temp_scale != 0.0f)
        info.rope += fmt::format(", queries x (1 + {:g} ln(floor(position / {}) + 1)) after it", c.attn_temp_scale,
                                 c.attn_temp_floor);
    info.rope_plain_in_windows = c.swa_plain_rope && info.n_window_layers > 0 && (c.yarn() || c.rope_attn_factor != 1.0f);
    if (info.rope_plain_in_windows) info.rope += ", not in the windowed layers (plain rotation there)";
    info.attn_softcap = c.attn_logit_softcap;
    info.final_softcap = c.final_logit_softcap;
    info.rope_longrope_factors = !w.rope_factors_short.empty() || !w.rope_factors_long.empty();
    info.rope_original_ctx = c.rope_original_ctx;
    info.rope_attn_factor = c.rope_attn_factor;
    if (info.rope_longrope_factors)
        info.rope += fmt::format(", LongRoPE factors (short up to a context of {} tokens, long beyond)",
                                 info.rope_original_ctx);
    info.rope_yarn_log_mul = c.yarn_log_mul;
    info.attn_temp_scale = c.attn_temp_scale;
    info.attn_temp_floor = c.attn_temp_floor;
    if (c.yarn_log_mul != 0.0f) {   // YaRN's own magnitude replaced: say what the rotation's magnitude comes to
        info.rope_magnitude = info.rope_attn_factor * (1.0 + 0.1 * std::log(1.0 / c.rope_freq_scale));
        info.rope += fmt::format(", magnitude x{:.4g} (log multiplier {:g})", info.rope_magnitude, c.yarn_log_mul);
    } else if (info.rope_attn_factor != 1.0) {
        info.rope += fmt::format(", attention factor x{:.4g}", info.rope_attn_factor);
    }
    for (int il = 0; il < c.n_layer; ++il)
        if (!c.rotates(il) && !c.learned_positions) info.unrotated_layers.push_back(il);
    info.learned_positions = c.learned_positions;
    info.rope_dims = c.learned_positions ? 0 : c.n_rot;
    if (!c.learned_positions && c.n_rot < c.head_dim)
        info.rope += fmt::format(", over the first {} of each head's {} dimensions", c.n_rot, c.head_dim);
    if (c.learned_positions) {   // GPT-2: no RoPE at all
        info.rope_freq_base = 0;
        info.rope = fmt::format("none: learned positions (position_embd), {} of them", c.n_ctx_train);
    } else if (static_cast<int>(info.unrotated_layers.size()) == c.n_layer) {
        info.rope += ", in no layer (the file turns it off)";
    }
    else if (!info.unrotated_layers.empty() && !c.learned_positions)
        info.rope += fmt::format(", not in {} of {} layers (NoPE: layer{} {})", info.unrotated_layers.size(), c.n_layer,
                                 info.unrotated_layers.size() == 1 ? "" : "s", fmt::join(info.unrotated_layers, ", "));
    info.pre_norms = c.has_pre_norms;
    info.post_norms = c.has_post_norms;
    info.qk_norm = !c.has_qk_norm        ? model_info::qk_norm_kind::none
                   : c.qk_norm_whole      ? model_info::qk_norm_kind::whole_rows
                   : c.qk_norm_after_rope ? model_info::qk_norm_kind::per_head_after_rope
                                          : model_info::qk_norm_kind::per_head;
    info.layer_norm = c.layer_norm;
    info.norm_bias = c.norm_bias;
    info.parallel_blocks = c.parallel_blocks;
    info.shared_block_norm = c.shared_block_norm;
    info.norms = c.shared_block_norm                  ? "one per layer, read by attention and the feed-forward block side by side"
                 : c.parallel_blocks                  ? "one per block, the blocks side by side from the same input"
                 : c.has_pre_norms && c.has_post_norms ? "before and after each block"
                 : c.has_pre_norms                   ? "before each block"
                                                     : "after each block";
    if (c.layer_norm) info.norms = (c.norm_bias ? "LayerNorm with biases, " : "LayerNorm, ") + info.norms;
    if (info.qk_norm == model_info::qk_norm_kind::per_head) info.norms += ", Q and K per head";
    if (info.qk_norm == model_info::qk_norm_kind::whole_rows) info.norms += ", Q and K over whole rows";
    if (info.qk_norm == model_info::qk_norm_kind::per_head_after_rope) info.norms += ", Q and K per head after RoPE";
    // A score scale the file sets to 1 / sqrt(head_dim) (Gemma 2 and 3 write
    // theirs out) is the default, not a scale of its own.
    const float default_score_scale = 1.0f / std::sqrt(static_cast<float>(c.head_dim));
    const float own_score_scale = c.attn_scale > 0 && c.attn_scale != default_score_scale ? c.attn_scale : 0.0f;
    info.embedding_scale = c.embd_scale;
    info.attention_scale = own_score_scale;
    info.residual_scale = c.residual_scale;
    info.logit_scale = c.logit_scale;
    info.logit_mul = c.logit_mul;
    std::vector<std::string> scales;
    if (c.embd_scale != 1.0f) scales.push_back(fmt::format("embeddings x{:.6g}", c.embd_scale));
    if (own_score_scale > 0)
        scales.push_back(fmt::format("attention scores x{:.6g} (instead of 1/sqrt({}) = {:.6g})", own_score_scale, c.head_dim,
                                     1.0 / std::sqrt(static_cast<double>(c.head_dim))));
    if (c.residual_scale != 1.0f) scales.push_back(fmt::format("block outputs x{:.6g} before the residual add", c.residual_scale));
    if (c.logit_scale != 1.0f) scales.push_back(fmt::format("logits / {:.6g}", c.logit_scale));
    if (c.logit_mul != 1.0f) scales.push_back(fmt::format("logits x{:.6g}", c.logit_mul));
    info.scales = fmt::format("{}", fmt::join(scales, ", "));
    static const char* const file_types[] = {"F32", "F16", "Q4_0", "Q4_1", "Q4_1_SOME_F16", "Q4_2", "Q4_3", "Q8_0",
                                             "Q5_0", "Q5_1", "Q2_K", "Q3_K_S", "Q3_K_M", "Q3_K_L", "Q4_K_S",
                                             "Q4_K_M", "Q5_K_S", "Q5_K_M", "Q6_K", "IQ2_XXS", "IQ2_XS",
                                             "Q2_K_S", "IQ3_XS", "IQ3_XXS", "IQ1_S", "IQ4_NL", "IQ3_S", "IQ3_M",
                                             "IQ2_S", "IQ2_M", "IQ4_XS", "IQ1_M", "BF16", "", "", "", "TQ1_0",
                                             "TQ2_0", "MXFP4_MOE"};   // llama.cpp's llama_ftype, 0..38
    const std::int64_t ft = f->get_int("general.file_type", -1);
    const auto n_file_types = static_cast<std::int64_t>(std::size(file_types));
    info.file_type = ft >= 0 && ft < n_file_types ? file_types[ft] : "";
    return m;
}

const f32_vector& model::rope_factors_for(int n_ctx) const {
    if (!weights_.rope_freqs.empty()) return weights_.rope_freqs;
    return n_ctx > config_.rope_original_ctx ? weights_.rope_factors_long : weights_.rope_factors_short;
}

forward_counts model::count_forward(const forward_batch& b, std::int64_t kv_row_bytes) const {
    const weight_view& out = weights_.output;
    const double out_flop = 2.0 * static_cast<double>(out.n_in) * static_cast<double>(out.n_out);
    double keys = 0;   // (token, key, layer) triples attention visits
    int n_conv = 0;    // LFM2's convolution layers: no attention; each token reads taps - 1 earlier f32 rows
    for (int il = 0; il < config_.n_layer; ++il) {
        if (config_.is_conv(il)) {
            ++n_conv;
            continue;
        }
        const int w = config_.layer_window[static_cast<std::size_t>(il)];
        for (const std::int32_t pos : b.positions) keys += w > 0 ? std::min(pos + 1, w) : pos + 1;
    }
    const double n = static_cast<double>(b.size());
    const double taps = config_.shortconv_l_cache;
    forward_counts c;
    // The convolutions: taps multiply-adds per channel, then C times that, per token and layer.
    c.flop = (matmul_flop_ - out_flop) * n + out_flop * static_cast<double>(b.logit_rows.size()) +
             4.0 * keys * config_.head_dim * config_.n_head + n * n_conv * config_.n_embd * (2.0 * taps + 1.0);
    c.weight_bytes = decode_weight_bytes_;
    c.kv_bytes = keys * 2.0 * static_cast<double>(kv_row_bytes) + n * n_conv * (taps - 1.0) * config_.n_embd * 4.0;
    return c;
}

}  // namespace kvlens
