// SPDX-License-Identifier: Apache-2.0
// The CPU backend: the forward pass of every architecture model_config knows
// (the llama family's block and its variants: norms, biases, windows, RoPE
// kinds, experts, scales, soft-capping; LFM2's short convolutions in place of
// attention in some layers) over a batch of tokens, with the KV cache in host
// memory. Buffers are allocated once for the largest batch; a forward pass
// allocates nothing.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "common/huge_page_buffer.h"
#include "engine/backend/backend.h"
#include "engine/backend/cpu/attention.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul.h"
#include "engine/backend/cpu/matmul_rows8.h"
#include "engine/backend/cpu/rows16.h"
#include "engine/backend/cpu/rows8.h"
#include "engine/backend/cpu/short_conv.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/backend/cpu/moe_routing.h"
#include "engine/backend/cpu/ops.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/kv/kv_storage.h"
#include "engine/model/model.h"

namespace kvlens {

namespace {

class cpu_backend final : public backend {
public:
    cpu_backend(const model& m, const backend_options& o)
        : m_(m), c_(m.config()), pool_(o.n_threads), max_batch_(o.max_batch), max_ctx_(o.max_ctx) {}

    status allocate() {
        status placed = place_weights();
        if (!placed) return placed;
        const std::size_t B = static_cast<std::size_t>(max_batch_);
        try {
            x_.resize(B * c_.n_embd);
            xb_.resize(B * c_.n_embd);
            if (c_.parallel_blocks) xn_.resize(B * c_.n_embd);
            q_.resize(B * c_.n_q());
            k_.resize(B * c_.n_kv());
            v_.resize(B * c_.n_kv());
            att_.resize(B * c_.n_q());
            hb_.resize(B * c_.n_ff_widest());
            hb2_.resize(B * c_.n_ff_widest());
            if (c_.moe()) {
                router_.resize(B * c_.n_expert);
                xg_.resize(B * c_.n_embd);
                yg_.resize(B * c_.n_embd);
                moe_out_.resize(B * c_.n_embd);
            }
            if (c_.has_conv()) {
                conv_bcx_.resize(B * 3 * c_.n_embd);
                conv_y_.resize(B * c_.n_embd);
            }
            att_scratch_.reserve(pool_.size(), c_.n_head / c_.n_head_kv, max_ctx_, c_.head_dim);
            // Quantized activations: the widest input row (n_ff) for a whole batch,
            // and, where matrices were regrouped, the rows8 kernels' expanded ones
            // for the widest of those (about 9 bytes per element).
            mm_.act.resize(std::max(static_cast<std::size_t>(B) * (c_.n_ff_widest() * 4 + 64),
                                    rows8_widest_ > 0 ? static_cast<std::size_t>(rows8_scratch_bytes(rows8_widest_, B)) : 0));
        } catch (const std::bad_alloc&) {
            return make_error(fmt::format("out of memory allocating CPU buffers for a batch of {} tokens", max_batch_));
        }
        return {};
    }

    std::string name() const override { return "cpu"; }
    std::string description() const override {
        // "+ amx": prefill products run on AMX-INT8 tiles (matmul_simd.h);
        // "+ avx-vnni": the AVX2 rows8 kernels multiply with vpdpbusd (rows8.h).
        const std::string_view level = cpu_kernel_level();
        const bool amx = level == "avx512" && amx_usable();
        const bool vnni = level == "avx2" && avx_vnni_usable();
        return fmt::format("cpu: {} threads, {} kernels{}", pool_.size(), level, amx ? " + amx" : vnni ? " + avx-vnni" : "");
    }

    status init_kv(const kv_geometry& g, std::int32_t n_blocks) override {
        if (g.dtype == kv_dtype::q8_0 && g.head_dim % 32 != 0)
            return make_error(fmt::format("a q8_0 KV cache needs a head dimension that is a multiple of 32 (this model: {})",
                                          g.head_dim));
        // One storage per layer group (kv_pool.h): the sliding-window layers'
        // blocks are their own, released as they leave the window.
        for (layer_group lg : {layer_group::global, layer_group::local}) {
            if (g.n_group_layers(lg) == 0) continue;
            auto s = kv_storage::create(g.group_geometry(lg), lg == layer_group::local ? g.local_blocks(n_blocks) : n_blocks);
            if (!s) return s.err();
            (lg == layer_group::local ? kv_local_ : kv_) = std::move(*s);
        }
        geo_ = g;
        kv_ready_ = true;
        return {};
    }

    std::int64_t weight_bytes() const override { return m_.info().weight_bytes; }
    std::int64_t kv_bytes() const override {
        return (kv_.n_layer() ? kv_.total_bytes() : 0) + (kv_local_.n_layer() ? kv_local_.total_bytes() : 0);
    }
    std::int64_t scratch_bytes() const override {
        std::int64_t b = 0;
        for (const auto* v : {&x_, &xb_, &q_, &k_, &v_, &att_, &hb_, &hb2_, &router_, &xg_, &yg_, &moe_out_, &conv_bcx_,
                              &conv_y_})
            b += static_cast<std::int64_t>(v->size()) * 4;
        for (const auto& s : att_scratch_.scores) b += static_cast<std::int64_t>(s.size()) * 4;
        return b + static_cast<std::int64_t>(mm_.act.size());
    }

    status forward(const forward_batch& batch, float* logits, forward_counts* counts) override;

private:
    void embed(const forward_batch& b);
    void layer(int il, const forward_batch& b, int n);
    void attention_block(int il, const forward_batch& b, int n);
    void short_conv_block(int il, const std::int32_t* positions, int n);
    void parallel_layer(int il, const forward_batch& b, int n);
    void add_residual(int n);
    void pre_norm(const f32_vector& weight, const f32_vector& bias, int n);
    // One row of n_embd, RMS norm or LayerNorm (bias: empty, or GPT-2's).
    void norm_row(const float* x, const f32_vector& weight, const f32_vector& bias, float* y) const;
    void dense_ffn(const layer_weights& l, int n);
    void moe_ffn(const layer_weights& l, int n);
    void expert_rows(const weight_view* gate_up, const weight_view& down, const float* x, int m,
                     std::int64_t kernel_tokens, float* y, const float* const* biases = nullptr);
    // Row groups (see plan_row_groups): products over a batch's rows, a call per group.
    struct row_group {
        int begin = 0;                  // first row
        int n = 0;                      // rows
        std::int64_t kernel_tokens = 0; // the run length that picks the kernel (matmul.h)
    };
    void plan_row_groups(const forward_batch& b);
    void hint_next_product(const weight_view* const* ws, int n_mats);
    void hint_qkv(int il);   // layer il's Q, K and V
    void hint_after_layer(int il);   // the next layer's Q, K and V, or after the last the output matrix
    void mm(const weight_view& w, const float* x, float* y, const std::vector<row_group>& groups);
    void mm_group(const weight_view* ws, float* const* ys, int n_mats, const float* x);

    // Copies the matrices out of the file mapping into one anonymous buffer on
    // huge pages (where the kernel allows them): decode streams every weight
    // once per token, and 2 MiB pages take the page walks out of that stream.
    // Falls back to the mapping when the memory cannot be had.
    status place_weights();

    const model& m_;
    const model_config& c_;
    model_weights w_;                 // the model's weights, matrices pointing into weight_copy_
    huge_page_buffer weight_copy_;    // the matrices, 64-byte aligned each
    thread_pool pool_;
    int max_batch_;
    int max_ctx_;
    kv_storage kv_;         // the global layers' K/V (every layer's without sliding windows)
    kv_storage kv_local_;   // the sliding-window layers' K/V, indexed by the local block tables
    kv_geometry geo_;
    bool kv_ready_ = false;
    std::int64_t rows8_widest_ = 0;   // the largest n_in of the matrices regrouped into rows8 (0: none)
    std::vector<const std::int32_t*> local_tables_;   // (batch) each token's sliding-window layers' block table

    std::vector<float> x_;     // (max_batch, n_embd) residual stream
    std::vector<float> xb_;    // (max_batch, n_embd) normed input / branch output
    std::vector<float> xn_;    // (max_batch, n_embd) parallel blocks (Cohere): the normed input, then attention's output
    std::vector<float> q_;     // (max_batch, n_head * head_dim)
    std::vector<float> k_;     // (max_batch, n_head_kv * head_dim)
    std::vector<float> v_;     // (max_batch, n_head_kv * head_dim)
    std::vector<float> att_;   // (max_batch, n_head * head_dim) attention output
    std::vector<float> hb_;    // (max_batch, n_ff_widest) gate, then silu(gate) * up
    std::vector<float> hb2_;   // (max_batch, n_ff_widest) up
    // A mixture of experts' buffers (empty for a dense model):
    std::vector<float> router_;    // (max_batch, n_expert) router logits
    std::vector<float> xg_;        // (max_batch, n_embd) an expert's tokens' input rows, gathered
    std::vector<float> yg_;        // (max_batch, n_embd) its output rows
    std::vector<float> moe_out_;   // (max_batch, n_embd) the weighted sum of the tokens' experts
    // LFM2's short convolutions' buffers (empty without them):
    std::vector<float> conv_bcx_;  // (max_batch, 3 n_embd) in_proj's B, C and X
    std::vector<float> conv_y_;    // (max_batch, n_embd) C * conv(B*X)
    moe_routes routes_;
    std::vector<int> class_of_token_;              // (batch) each token's row group's matmul_kernel_class
    std::vector<std::int64_t> class_kernel_tokens_;  // (classes) a kernel_tokens of each class, by class
    std::vector<int> expert_pairs_;                // an expert's pairs of one kernel class
    double expert_bytes_read_ = 0; // this forward's experts' weight bytes, each expert once per layer
    matmul_scratch mm_;
    attention_scratch att_scratch_;
    std::vector<row_group> groups_;        // of the batch's token rows
    std::vector<row_group> logit_groups_;  // of its logit rows
    std::vector<int> run_of_;              // (batch) run index of each token
    std::vector<int> run_len_;             // (runs) tokens of each run
    std::vector<std::uint8_t> step_;       // (batch) 1: a decode step (forward_batch::is_step), 0: a prompt token
    // RoPE angles of the batch's tokens, worked out once per forward for all
    // layers (per layer, 2 x 32 sin and cos of SmolLM2 took 1.5 % of a decode step):
    // A layer's rotation: its RoPE base, linear scale, and whether the file's
    // YaRN ramp and attention factor apply (not in OLMo 3's windowed layers).
    struct rope_kind {
        float base, scale;
        bool scaled;
        bool operator==(const rope_kind&) const = default;
    };
    std::vector<int> rope_kind_of_layer_;  // (n_layer) index of the layer's kind in rope_kinds_
    std::vector<rope_kind> rope_kinds_;    // the distinct kinds of the layers
    std::vector<float> rope_table_;        // (kinds, batch, 2, rope_pairs) cos, then sin, of each pair's angle
    void fill_rope_table(const forward_batch& b);
    const float* rope_cos(int il, int t) const {
        const std::size_t pairs = static_cast<std::size_t>(rope_pairs(c_.n_rot));
        const std::size_t kind = static_cast<std::size_t>(rope_kind_of_layer_[static_cast<std::size_t>(il)]);
        return rope_table_.data() + (kind * static_cast<std::size_t>(max_batch_) + static_cast<std::size_t>(t)) * 2 * pairs;
    }
};

status cpu_backend::place_weights() {
    w_ = m_.weights();
    std::vector<weight_view*> mats;
    for (auto& l : w_.layers) {
        for (weight_view* v : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down, &l.router, &l.shared_gate,
                               &l.shared_up, &l.shared_down, &l.conv_in, &l.conv_out})
            if (v->n_out > 0) mats.push_back(v);
        for (auto* experts : {&l.exp_gate, &l.exp_up, &l.exp_down})
            for (weight_view& v : *experts) mats.push_back(&v);
    }
    const bool tied = w_.output.data == w_.tok_embd.data;
    if (!tied) mats.push_back(&w_.output);
    // A matrix's bytes as placed: the K-quants' grouped layouts are a little larger than the file's (k_quant_groups.h).
    const auto placed_bytes = [](const weight_view& v) {
        const std::int64_t row = rows16_applies(v) ? rows16_row_bytes(v) : rows8_applies(v) ? rows8_row_bytes(v) : v.row_bytes;
        return (static_cast<std::size_t>(row * v.n_out) + 63) & ~std::size_t{63};
    };
    std::size_t total = 0;
    for (const weight_view* v : mats) total += placed_bytes(*v);
    if (tied) total += placed_bytes(w_.output);
    // A model too large to hold twice comfortably keeps reading the mapping
    // (its prefill regroups rows as it goes: matmul_rows8's repack).
    // KVLENS_NO_WEIGHT_COPY=1 does the same for any model (to measure that).
    const std::size_t phys = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGE_SIZE));
    if (total > phys / 4 || std::getenv("KVLENS_NO_WEIGHT_COPY") != nullptr) return {};
    weight_copy_ = huge_page_buffer::allocate(total);
    if (!weight_copy_) return {};   // keep reading from the file mapping
    std::uint8_t* at = weight_copy_.data();
    // q4_0 / q4_1 (and q8_0) matrices are regrouped into the rows16 layout
    // on AVX-512 without AMX (rows16.h) and the rows8 layout on AVX2
    // (rows8.h), where those are the faster ones; the others are copied as they are.
    auto place = [&](weight_view& v) {
        const std::size_t n = placed_bytes(v);
        if (rows16_applies(v)) {
            repack_rows16(v, at);
            rows8_widest_ = std::max(rows8_widest_, v.n_in);
            v.row_bytes = rows16_row_bytes(v);
            v.layout = weight_layout::rows16;
        } else if (rows8_applies(v)) {
            repack_rows8(v, at);
            rows8_widest_ = std::max(rows8_widest_, v.n_in);
            v.row_bytes = rows8_row_bytes(v);
            v.layout = weight_layout::rows8;
        } else {
            std::memcpy(at, v.data, static_cast<std::size_t>(v.row_bytes * v.n_out));
        }
        v.data = at;
        at += n;
    };
    for (weight_view* v : mats) place(*v);
    if (tied) place(w_.output);   // the embedding keeps reading rows from the mapping
    return {};
}

void cpu_backend::fill_rope_table(const forward_batch& b) {
    if (rope_kind_of_layer_.empty()) {
        for (int il = 0; il < c_.n_layer; ++il) {
            const rope_kind kind{c_.rope_base(il), c_.rope_scale(il), c_.scaled_rope(il)};
            auto at = std::find(rope_kinds_.begin(), rope_kinds_.end(), kind);
            if (at == rope_kinds_.end()) at = rope_kinds_.insert(rope_kinds_.end(), kind);
            rope_kind_of_layer_.push_back(static_cast<int>(at - rope_kinds_.begin()));
        }
    }
    const std::size_t pairs = static_cast<std::size_t>(rope_pairs(c_.n_rot));
    rope_table_.resize(rope_kinds_.size() * static_cast<std::size_t>(max_batch_) * 2 * pairs);
    // Frequency factors (Llama 3.1's, phi3's LongRoPE for this context) and
    // the attention factor, both in every layer, as llama.cpp applies them;
    // YaRN's ramp where the file asks for it, placed by each kind's base.
    const std::vector<float>& ff = m_.rope_factors_for(max_ctx_);
    const float* factors = ff.empty() ? nullptr : ff.data();
    for (std::size_t kind = 0; kind < rope_kinds_.size(); ++kind) {
        const auto [base, scale, scaled] = rope_kinds_[kind];
        rope_yarn_ramp yarn;
        if (c_.yarn() && scaled) {
            const std::array<float, 2> dims = c_.yarn_corr_dims(base);
            yarn = {c_.yarn_ext_factor, dims[0], dims[1]};
        }
        for (std::size_t t = 0; t < b.size(); ++t) {
            float* cs = rope_table_.data() + (kind * static_cast<std::size_t>(max_batch_) + t) * 2 * pairs;
            rope_angles(c_.n_rot, b.positions[t], base, scale, cs, cs + pairs, factors,
                        scaled ? c_.rope_attn_factor : 1.0f, yarn);
        }
    }
}

void cpu_backend::embed(const forward_batch& b) {
    const weight_view& e = w_.tok_embd;
    const to_float_fn conv = to_float_for(e.type);
    for (std::size_t t = 0; t < b.size(); ++t)
        conv(e.data + static_cast<std::int64_t>(b.tokens[t]) * e.row_bytes, x_.data() + t * c_.n_embd, c_.n_embd);
    if (c_.embd_scale != 1.0f)   // gemma2, gemma3: sqrt(n_embd)
        for (std::size_t i = 0; i < b.size() * c_.n_embd; ++i) x_[i] *= c_.embd_scale;
    if (c_.learned_positions) {   // GPT-2: plus its position's row (check_forward_batch bounds them by the table)
        const weight_view& p = w_.pos_embd;
        const to_float_fn pconv = to_float_for(p.type);
        std::vector<float>& row = xb_;   // free until the first norm
        for (std::size_t t = 0; t < b.size(); ++t) {
            pconv(p.data + static_cast<std::int64_t>(b.positions[t]) * p.row_bytes, row.data(), c_.n_embd);
            add_inplace(x_.data() + t * c_.n_embd, row.data(), c_.n_embd);
        }
    }
}

// ---- row groups ---------------------------------------------------------------------
// A batch holds runs: consecutive tokens of one sequence (a decode step is a
// run of 1, a prefill chunk a run of its length). The kernels of a product
// round differently, and matmul picks one from the number of rows computed
// together; picking it from the batch size would make a sequence's numbers
// depend on its neighbours (batched greedy text differing from solo). So each
// row is computed with the kernel its own run selects: a decode step the
// decode kernels, a prompt run the prefill kernels whatever its length
// (prefill_kernel_tokens); adjacent runs that select the same kernels form
// one group and one matmul call (a batch of decode tokens stays one call).
// Logit rows likewise, by how many logit rows their run asks for (1 per
// sequence in the engine).

void cpu_backend::plan_row_groups(const forward_batch& b) {
    const int n = static_cast<int>(b.size());
    std::vector<int>& run_of = run_of_;
    std::vector<int>& run_len = run_len_;
    run_of.resize(static_cast<std::size_t>(n));
    run_len.clear();
    step_.resize(static_cast<std::size_t>(n));
    for (std::size_t t = 0; t < step_.size(); ++t) step_[t] = b.is_step(t) ? 1 : 0;
    for (int t = 0; t < n; ++t) {
        // A decode step (forward_batch::step) is a run of its own.
        const auto u = static_cast<std::size_t>(t);
        const bool same = b.continues_run(u) && !step_[u] && !step_[u - 1];
        if (!same) run_len.push_back(0);
        ++run_len.back();
        run_of[static_cast<std::size_t>(t)] = static_cast<int>(run_len.size()) - 1;
    }
    auto add = [](std::vector<row_group>& groups, int begin, int n_rows, std::int64_t kernel_tokens) {
        if (!groups.empty() && matmul_kernel_class(groups.back().kernel_tokens) == matmul_kernel_class(kernel_tokens) &&
            groups.back().begin + groups.back().n == begin)
            groups.back().n += n_rows;
        else
            groups.push_back({begin, n_rows, kernel_tokens});
    };
    groups_.clear();
    class_of_token_.resize(static_cast<std::size_t>(n));
    class_kernel_tokens_.clear();
    for (int t = 0; t < n;) {
        const int len = run_len[static_cast<std::size_t>(run_of[static_cast<std::size_t>(t)])];
        const std::int64_t kernel_tokens = step_[static_cast<std::size_t>(t)] ? 1 : prefill_kernel_tokens(len);
        add(groups_, t, len, kernel_tokens);
        const int cls = matmul_kernel_class(kernel_tokens);
        std::fill_n(class_of_token_.begin() + t, len, cls);
        if (class_kernel_tokens_.size() <= static_cast<std::size_t>(cls)) class_kernel_tokens_.resize(static_cast<std::size_t>(cls) + 1, 0);
        class_kernel_tokens_[static_cast<std::size_t>(cls)] = kernel_tokens;
        t += len;
    }
    logit_groups_.clear();
    const int n_logits = static_cast<int>(b.logit_rows.size());
    for (int i = 0; i < n_logits;) {
        const int run = run_of[static_cast<std::size_t>(b.logit_rows[static_cast<std::size_t>(i)])];
        int j = i + 1;
        while (j < n_logits && run_of[static_cast<std::size_t>(b.logit_rows[static_cast<std::size_t>(j)])] == run) ++j;
        add(logit_groups_, i, j - i, j - i);
        i = j;
    }
}

// Tells the pool what each thread's share of the next product reads first
// (a share is a fraction of the matrices' bytes, in order, as the products
// split them), so a thread done with its part of the current job loads it
// while it waits (thread_pool::set_idle_loads). SmolLM2 tg128 @ d0, 2
// threads, alternated: 258.8 against 256.1 tok/s without; tg64 @ d4096 q8_0
// 138.4 against 136.5.
void cpu_backend::hint_qkv(int il) {
    const layer_weights& l = w_.layers[static_cast<std::size_t>(il)];
    if (c_.is_conv(il)) {   // LFM2: the convolution's in_proj comes first
        const weight_view* const in[1] = {&l.conv_in};
        hint_next_product(in, 1);
        return;
    }
    const weight_view* const qkv[3] = {&l.wq, &l.wk, &l.wv};
    hint_next_product(qkv, 3);
}

void cpu_backend::hint_after_layer(int il) {
    if (il + 1 < c_.n_layer) {
        hint_qkv(il + 1);
        return;
    }
    const weight_view* const out[1] = {&w_.output};
    hint_next_product(out, 1);
}

void cpu_backend::hint_next_product(const weight_view* const* ws, int n_mats) {
    std::int64_t total = 0;
    for (int m = 0; m < n_mats; ++m) total += ws[m]->n_out * ws[m]->row_bytes;
    const int nth = pool_.size();
    for (int i = 0; i < nth; ++i) {
        std::int64_t off = total * i / nth;
        const std::int64_t share = total * (i + 1) / nth - off;
        int m = 0;
        while (m + 1 < n_mats && off >= ws[m]->n_out * ws[m]->row_bytes) {
            off -= ws[m]->n_out * ws[m]->row_bytes;
            ++m;
        }
        pool_.set_idle_loads(i, ws[m]->data + off, std::min(share, ws[m]->n_out * ws[m]->row_bytes - off));
    }
}

void cpu_backend::mm(const weight_view& w, const float* x, float* y, const std::vector<row_group>& groups) {
    for (const row_group& g : groups)
        matmul(w, x + g.begin * w.n_in, g.n, y + g.begin * w.n_out, pool_, mm_, g.kernel_tokens);
}

void cpu_backend::mm_group(const weight_view* ws, float* const* ys, int n_mats, const float* x) {
    for (const row_group& g : groups_) {
        float* y[3] = {nullptr, nullptr, nullptr};
        for (int m = 0; m < n_mats; ++m) y[m] = ys[m] + g.begin * ws[m].n_out;
        matmul_group(ws, y, n_mats, x + g.begin * ws[0].n_in, g.n, pool_, mm_, g.kernel_tokens);
    }
}

// ---- the forward pass -----------------------------------------------------------------

void cpu_backend::layer(int il, const forward_batch& b, int n) {
    const layer_weights& l = w_.layers[static_cast<std::size_t>(il)];
    const int E = c_.n_embd;
    if (c_.parallel_blocks) {
        parallel_layer(il, b, n);
        return;
    }

    // Attention block, or LFM2's short convolution in its place: xb = its output.
    pre_norm(l.attn_norm, l.attn_norm_b, n);
    if (c_.is_conv(il)) short_conv_block(il, b.positions.data(), n);
    else attention_block(il, b, n);
    if (!l.post_attn_norm.empty())   // gemma2, gemma3
        for (int t = 0; t < n; ++t) rms_norm(&xb_[t * E], l.post_attn_norm.data(), &xb_[t * E], E, c_.rms_eps);
    add_residual(n);

    // Feed-forward block (SwiGLU, or GeGLU for gemma3; a mixture of experts' SwiGLU experts).
    pre_norm(l.ffn_norm, l.ffn_norm_b, n);
    if (c_.layer_moe(il)) moe_ffn(l, n);
    else dense_ffn(l, n);
    hint_after_layer(il);
    if (c_.layer_moe(il)) std::copy(moe_out_.begin(), moe_out_.begin() + static_cast<std::ptrdiff_t>(n) * E, xb_.begin());
    else mm(l.w_down, hb_.data(), xb_.data(), groups_);
    if (!l.down_b.empty())   // GPT-2
        for (int t = 0; t < n; ++t) add_inplace(&xb_[static_cast<std::size_t>(t) * E], l.down_b.data(), E);
    if (!l.post_ffw_norm.empty())   // gemma2, gemma3
        for (int t = 0; t < n; ++t) rms_norm(&xb_[t * E], l.post_ffw_norm.data(), &xb_[t * E], E, c_.rms_eps);
    add_residual(n);
}

// Parallel blocks (Cohere, GPT-NeoX, Phi-2, StableLM 2 12B): both read x, normed once or each by its own
// norm; their outputs join x in the model's order (parallel_order). xn_ keeps the normed rows while
// attention overwrites xb_, then attention's output while the feed-forward block runs.
void cpu_backend::parallel_layer(int il, const forward_batch& b, int n) {
    const layer_weights& l = w_.layers[static_cast<std::size_t>(il)];
    const auto len = static_cast<std::ptrdiff_t>(n) * c_.n_embd;
    pre_norm(l.attn_norm, l.attn_norm_b, n);
    std::copy(xb_.begin(), xb_.begin() + len, xn_.begin());
    attention_block(il, b, n);
    std::swap(xb_, xn_);
    if (!c_.shared_block_norm) pre_norm(l.ffn_norm, l.ffn_norm_b, n);   // GPT-NeoX: the FFN's own norm of x
    dense_ffn(l, n);
    hint_after_layer(il);
    mm(l.w_down, hb_.data(), xb_.data(), groups_);
    if (!l.down_b.empty())
        for (int t = 0; t < n; ++t) add_inplace(&xb_[static_cast<std::size_t>(t) * c_.n_embd], l.down_b.data(), c_.n_embd);
    // xb_: the feed-forward block's output, xn_: attention's; added in the model's order.
    if (c_.parallel_order == parallel_adds::branches_x) {   // Phi-2: (attention + ffn) + x
        add_inplace(xn_.data(), xb_.data(), len);
        add_inplace(x_.data(), xn_.data(), len);
    } else {   // StableLM: attention first; Cohere, GPT-NeoX: ffn first
        const bool attention_first = c_.parallel_order == parallel_adds::attention_x_ffn;
        add_inplace(x_.data(), attention_first ? xn_.data() : xb_.data(), len);
        add_inplace(x_.data(), attention_first ? xb_.data() : xn_.data(), len);
    }
    std::swap(xb_, xn_);
}

// xb = attention's output (wo's product) for the batch's n tokens; K and V go in the cache.
void cpu_backend::attention_block(int il, const forward_batch& b, int n) {
    const layer_weights& l = w_.layers[static_cast<std::size_t>(il)];
    const int NQ = c_.n_q(), NKV = c_.n_kv(), HD = c_.head_dim;
    // Before each pool job, the product after it (hint_next_product): the
    // threads load the start of their shares of it while they wait.
    const weight_view* const wo[1] = {&l.wo};
    // A mixture of experts' feed-forward block starts with its router.
    const weight_view* const ffn_first[2] = {c_.layer_moe(il) ? &l.router : &l.w_gate, &l.w_up};
    hint_next_product(wo, 1);
    {
        const weight_view qkv[3] = {l.wq, l.wk, l.wv};
        float* const out[3] = {q_.data(), k_.data(), v_.data()};
        mm_group(qkv, out, 3, xb_.data());
    }
    for (int t = 0; t < n; ++t) {
        float* q = &q_[static_cast<std::size_t>(t) * NQ];
        float* k = &k_[static_cast<std::size_t>(t) * NKV];
        if (!l.bq.empty()) add_inplace(q, l.bq.data(), NQ);
        if (!l.bk.empty()) add_inplace(k, l.bk.data(), NKV);
        if (!l.bv.empty()) add_inplace(&v_[static_cast<std::size_t>(t) * NKV], l.bv.data(), NKV);
        const auto qk_norms = [&] {
            if (!l.q_norm.empty() && c_.qk_norm_whole) {   // olmo2: over the whole rows
                rms_norm(q, l.q_norm.data(), q, NQ, c_.rms_eps);
                rms_norm(k, l.k_norm.data(), k, NKV, c_.rms_eps);
            } else if (!l.q_norm.empty()) {
                for (int h = 0; h < c_.n_head; ++h) rms_norm(q + h * HD, l.q_norm.data(), q + h * HD, HD, c_.rms_eps);
                for (int h = 0; h < c_.n_head_kv; ++h) rms_norm(k + h * HD, l.k_norm.data(), k + h * HD, HD, c_.rms_eps);
            }
        };
        if (!c_.qk_norm_after_rope) qk_norms();
        if (c_.rotates(il)) {   // not in smollm3's NoPE layers
            const float* cs = rope_cos(il, t);
            const float* sn = cs + rope_pairs(c_.n_rot);
            rope_rotate(q, c_.n_head, HD, c_.n_rot, cs, sn, c_.rope_neox);
            rope_rotate(k, c_.n_head_kv, HD, c_.n_rot, cs, sn, c_.rope_neox);
        }
        if (c_.qk_norm_after_rope) qk_norms();   // Hunyuan's dense models
        if (c_.attn_temp_scale != 0.0f) {   // Ministral 3: attention past the original context a little sharper
            const float temperature = c_.attn_temperature(b.positions[t]);
            for (int i = 0; i < NQ; ++i) q[i] *= temperature;
        }
    }
    // A sliding-window layer's K/V live in the local group's storage, through the local tables.
    const bool local = geo_.is_local(il);
    const kv_storage& kv = local ? kv_local_ : kv_;
    const int kv_layer = geo_.index_in_group(il);
    const std::int32_t* const* tables = local ? local_tables_.data() : b.block_tables.data();
    store_kv(local ? kv_local_ : kv_, geo_.dtype, kv_layer, k_.data(), v_.data(), n, NKV, tables, b.positions.data());

    attention_args a;
    a.q = q_.data();
    a.out = att_.data();
    a.n_tokens = n;
    a.n_head = c_.n_head;
    a.n_head_kv = c_.n_head_kv;
    a.head_dim = HD;
    a.layer = kv_layer;
    a.window = c_.layer_window[static_cast<std::size_t>(il)];
    a.scale = c_.score_scale();
    a.softcap = c_.attn_logit_softcap;
    a.dtype = geo_.dtype;
    a.kv = &kv;
    a.block_tables = tables;
    a.positions = b.positions.data();
    a.steps = step_.data();
    a.sinks = l.attn_sinks.empty() ? nullptr : l.attn_sinks.data();
    // wo's shares stay named through the attention job (a hint stays set
    // until set again): the loads after it go over them again, the lines
    // loaded after Q, K and V hitting the cache.
    attention(a, pool_, att_scratch_);

    hint_next_product(ffn_first, c_.layer_moe(il) ? 1 : 2);
    mm(l.wo, att_.data(), xb_.data(), groups_);
    if (!l.bo.empty())   // gpt-oss
        for (int t = 0; t < n; ++t) add_inplace(&xb_[static_cast<std::size_t>(t) * c_.n_embd], l.bo.data(), c_.n_embd);
}

// xb = out_proj(C * conv(B*X)) with B, C, X = in_proj(xb), for n tokens (short_conv.h).
void cpu_backend::short_conv_block(int il, const std::int32_t* positions, int n) {
    const layer_weights& l = w_.layers[static_cast<std::size_t>(il)];
    const weight_view* const out[1] = {&l.conv_out};
    hint_next_product(out, 1);
    mm(l.conv_in, xb_.data(), conv_bcx_.data(), groups_);
    short_conv_args a;
    a.bcx = conv_bcx_.data();
    a.out = conv_y_.data();
    a.kernel = l.conv_kernel.data();
    a.n_tokens = n;
    a.n_embd = c_.n_embd;
    a.taps = c_.shortconv_l_cache;
    a.layer = geo_.index_in_group(il);
    a.state = &kv_local_;
    a.block_tables = local_tables_.data();
    a.positions = positions;
    short_conv(a);
    const weight_view* const ffn_first[2] = {c_.layer_moe(il) ? &l.router : &l.w_gate, &l.w_up};
    hint_next_product(ffn_first, c_.layer_moe(il) ? 1 : 2);
    mm(l.conv_out, conv_y_.data(), xb_.data(), groups_);
}


// hb = act(xb gate) * (xb up) for the batch's n rows (w_down follows in layer()).
void cpu_backend::dense_ffn(const layer_weights& l, int n) {
    const weight_view* const down[1] = {&l.w_down};
    hint_next_product(down, 1);
    if (c_.ffn_act == ffn_activation::gelu) {   // GPT-2: no gate, gelu(x up + b)
        mm(l.w_up, xb_.data(), hb_.data(), groups_);
        if (!l.up_b.empty())
            for (int t = 0; t < n; ++t) add_inplace(&hb_[static_cast<std::size_t>(t) * c_.n_ff], l.up_b.data(), c_.n_ff);
        gelu_inplace(hb_.data(), hb2_.data(), static_cast<std::int64_t>(n) * c_.n_ff);
        return;
    }
    if (c_.ffn_act == ffn_activation::relu_sqr) {   // Arcee, Nemotron: no gate, relu(x up + b)^2
        mm(l.w_up, xb_.data(), hb_.data(), groups_);
        if (!l.up_b.empty())   // Nemotron's, where its file has one
            for (int t = 0; t < n; ++t) add_inplace(&hb_[static_cast<std::size_t>(t) * c_.n_ff], l.up_b.data(), c_.n_ff);
        float* h = hb_.data();
        for (std::int64_t i = 0, e = static_cast<std::int64_t>(n) * c_.n_ff; i < e; ++i) {
            const float r = h[i] > 0.0f ? h[i] : 0.0f;
            h[i] = r * r;
        }
        return;
    }
    const weight_view gate_up_views[2] = {l.w_gate, l.w_up};
    float* const out[2] = {hb_.data(), hb2_.data()};
    mm_group(gate_up_views, out, 2, xb_.data());
    if (c_.ffn_act == ffn_activation::gelu_tanh)
        gelu_tanh_mul(hb_.data(), hb2_.data(), hb_.data(), static_cast<std::int64_t>(n) * c_.n_ff);
    else
        silu_mul(hb_.data(), hb2_.data(), hb_.data(), static_cast<std::int64_t>(n) * c_.n_ff);
}

// y (m, n_embd) = down(silu(x gate) * (x up)) for m rows x (m, n_embd): one
// expert's rows, all of one kernel class (matmul.h), through hb_ and hb2_.
// gpt-oss: each product plus its bias (`biases`: gate's, up's, down's, this
// expert's; nullptr: none) and swiglu_oai for silu.
void cpu_backend::expert_rows(const weight_view* gate_up, const weight_view& down, const float* x, int m,
                              std::int64_t kernel_tokens, float* y, const float* const* biases) {
    float* const h[2] = {hb_.data(), hb2_.data()};
    matmul_group(gate_up, h, 2, x, m, pool_, mm_, kernel_tokens);
    const int F = gate_up[0].n_out;
    if (biases)
        for (int r = 0; r < m; ++r) {
            add_inplace(&hb_[static_cast<std::size_t>(r) * F], biases[0], F);
            add_inplace(&hb2_[static_cast<std::size_t>(r) * F], biases[1], F);
        }
    if (c_.ffn_act == ffn_activation::swiglu_oai) swiglu_oai(hb_.data(), hb2_.data(), hb_.data(), static_cast<std::int64_t>(m) * F);
    else silu_mul(hb_.data(), hb2_.data(), hb_.data(), static_cast<std::int64_t>(m) * F);
    matmul(down, hb_.data(), m, y, pool_, mm_, kernel_tokens);
    if (biases)
        for (int r = 0; r < m; ++r) add_inplace(&y[static_cast<std::size_t>(r) * down.n_out], biases[2], down.n_out);
}

// moe_out (n, n_embd) = each token's experts' outputs times their weights,
// summed (in expert order), plus qwen2moe's gated shared expert. Each
// expert's product takes only its tokens' rows, gathered, split by their
// row groups' kernel classes so a row rounds as it would alone (matmul.h).
void cpu_backend::moe_ffn(const layer_weights& l, int n) {
    const int E = c_.n_embd;
    mm(l.router, xb_.data(), router_.data(), groups_);
    if (!l.router_bias.empty())   // gpt-oss
        for (int t = 0; t < n; ++t) add_inplace(&router_[static_cast<std::size_t>(t) * c_.n_expert], l.router_bias.data(), c_.n_expert);
    moe_gating gating;
    gating.sigmoid = c_.moe_sigmoid;
    gating.renormalize = c_.moe_norm_weights;
    gating.softmax_chosen = c_.moe_softmax_chosen;
    gating.selection_bias = l.expert_bias.empty() ? nullptr : l.expert_bias.data();
    route_tokens(router_.data(), n, c_.n_expert, c_.n_expert_used, gating, routes_);
    std::fill(moe_out_.begin(), moe_out_.begin() + static_cast<std::ptrdiff_t>(n) * E, 0.0f);
    for (int e = 0; e < c_.n_expert; ++e) {
        if (routes_.tokens_of(e) == 0) continue;
        const auto ue = static_cast<std::size_t>(e);
        const weight_view gate_up[2] = {l.exp_gate[ue], l.exp_up[ue]};
        for (const weight_view* v : {&gate_up[0], &gate_up[1], &l.exp_down[ue]})   // the file's bytes, as every weight figure
            expert_bytes_read_ += static_cast<double>(row_bytes(v->type, v->n_in)) * static_cast<double>(v->n_out);
        // Its pairs one kernel class at a time (usually one class: all prompt rows or all decode steps).
        for (std::size_t cls = 0; cls < class_kernel_tokens_.size(); ++cls) {
            if (class_kernel_tokens_[cls] == 0) continue;   // no row of the batch in this class
            expert_pairs_.clear();
            for (int i = routes_.first[ue]; i < routes_.first[ue + 1]; ++i)
                if (class_of_token_[static_cast<std::size_t>(routes_.token[static_cast<std::size_t>(i)])] == static_cast<int>(cls))
                    expert_pairs_.push_back(i);
            const int m = static_cast<int>(expert_pairs_.size());
            if (m == 0) continue;
            for (int r = 0; r < m; ++r) {
                const int t = routes_.token[static_cast<std::size_t>(expert_pairs_[static_cast<std::size_t>(r)])];
                std::copy_n(&xb_[static_cast<std::size_t>(t) * E], E, &xg_[static_cast<std::size_t>(r) * E]);
            }
            const float* bias_rows[3] = {};   // gpt-oss: this expert's biases
            if (!l.exp_gate_bias.empty()) {
                bias_rows[0] = l.exp_gate_bias.data() + ue * static_cast<std::size_t>(c_.n_ff_exp);
                bias_rows[1] = l.exp_up_bias.data() + ue * static_cast<std::size_t>(c_.n_ff_exp);
                bias_rows[2] = l.exp_down_bias.data() + ue * static_cast<std::size_t>(E);
            }
            expert_rows(gate_up, l.exp_down[ue], xg_.data(), m, class_kernel_tokens_[cls], yg_.data(),
                        l.exp_gate_bias.empty() ? nullptr : bias_rows);
            for (int r = 0; r < m; ++r) {
                const auto pair = static_cast<std::size_t>(expert_pairs_[static_cast<std::size_t>(r)]);
                const float w = routes_.token_weight[pair];
                float* out = &moe_out_[static_cast<std::size_t>(routes_.token[pair]) * E];
                const float* y = &yg_[static_cast<std::size_t>(r) * E];
                for (int d = 0; d < E; ++d) out[d] += w * y[d];
            }
        }
    }
    if (l.shared_gate.n_out == 0) return;
    // The shared expert, every token: qwen2moe's gated by sigmoid(x . gate_inp), Granite's not.
    const weight_view gate_up[2] = {l.shared_gate, l.shared_up};
    float* const h[2] = {hb_.data(), hb2_.data()};
    mm_group(gate_up, h, 2, xb_.data());
    silu_mul(hb_.data(), hb2_.data(), hb_.data(), static_cast<std::int64_t>(n) * c_.n_ff_shared);
    mm(l.shared_down, hb_.data(), yg_.data(), groups_);
    for (int t = 0; t < n; ++t) {
        const float* x = &xb_[static_cast<std::size_t>(t) * E];
        float g = 1.0f;
        if (!l.shared_gate_inp.empty()) {
            float dot = 0;
            for (int d = 0; d < E; ++d) dot += x[d] * l.shared_gate_inp[static_cast<std::size_t>(d)];
            g = moe_sigmoid(dot);
        }
        float* out = &moe_out_[static_cast<std::size_t>(t) * E];
        const float* y = &yg_[static_cast<std::size_t>(t) * E];
        for (int d = 0; d < E; ++d) out[d] += y[d] * g;
    }
}

// xb = the block's input for n tokens: x normed by `weight`, or x itself
// where the architecture has no norm before its blocks (olmo2).
void cpu_backend::pre_norm(const f32_vector& weight, const f32_vector& bias, int n) {
    const int E = c_.n_embd;
    if (weight.empty()) {
        std::copy(x_.begin(), x_.begin() + static_cast<std::ptrdiff_t>(n) * E, xb_.begin());
        return;
    }
    for (int t = 0; t < n; ++t) norm_row(&x_[t * E], weight, bias, &xb_[t * E]);
}

void cpu_backend::norm_row(const float* x, const f32_vector& weight, const f32_vector& bias, float* y) const {
    if (c_.layer_norm) layer_norm(x, weight.data(), bias.empty() ? nullptr : bias.data(), y, c_.n_embd, c_.rms_eps);
    else rms_norm(x, weight.data(), y, c_.n_embd, c_.rms_eps);
}

// x += xb for n tokens, xb first times the residual scale (granite).
void cpu_backend::add_residual(int n) {
    const std::int64_t len = static_cast<std::int64_t>(n) * c_.n_embd;
    if (c_.residual_scale != 1.0f)
        for (std::int64_t i = 0; i < len; ++i) xb_[static_cast<std::size_t>(i)] *= c_.residual_scale;
    add_inplace(x_.data(), xb_.data(), len);
}

status cpu_backend::forward(const forward_batch& b, float* logits, forward_counts* counts) {
    const int n = static_cast<int>(b.size());
    if (auto st = check_forward_batch(b, c_.n_vocab, max_batch_, c_.position_limit(max_ctx_)); !st) return st;
    if (n == 0) return {};
    if (!kv_ready_) return make_error("KV storage not initialised");
    // The sliding-window layers' table of each token: its sequence's local
    // table, or (a caller that keeps one table, such as a test) the global
    // one, the local storage having as many blocks.
    local_tables_.resize(static_cast<std::size_t>(n));
    for (std::size_t t = 0; t < static_cast<std::size_t>(n); ++t)
        local_tables_[t] = t < b.local_block_tables.size() && b.local_block_tables[t] ? b.local_block_tables[t]
                                                                                      : b.block_tables[t];

    plan_row_groups(b);
    fill_rope_table(b);
    expert_bytes_read_ = 0;
    embed(b);
    for (int il = 0; il < c_.n_layer; ++il) layer(il, b, n);

    const int E = c_.n_embd;
    const int n_logits = static_cast<int>(b.logit_rows.size());
    for (int i = 0; i < n_logits; ++i)
        norm_row(&x_[static_cast<std::size_t>(b.logit_rows[i]) * E], w_.output_norm, w_.output_norm_b,
                 &xb_[static_cast<std::size_t>(i) * E]);
    hint_qkv(0);   // the next forward's first product
    if (n_logits > 0) mm(w_.output, xb_.data(), logits, logit_groups_);
    if (!w_.output_b.empty())   // Phi-2
        for (int i = 0; i < n_logits; ++i) add_inplace(logits + static_cast<std::int64_t>(i) * c_.n_vocab, w_.output_b.data(), c_.n_vocab);
    if (c_.logit_scale != 1.0f) {   // granite: times 1 / logit_scale, as llama.cpp scales them
        const float inv = 1.0f / c_.logit_scale;
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(n_logits) * c_.n_vocab; ++i) logits[i] *= inv;
    }
    if (c_.logit_mul != 1.0f)   // Cohere: times logit_scale
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(n_logits) * c_.n_vocab; ++i) logits[i] *= c_.logit_mul;
    if (c_.final_logit_softcap > 0) soft_cap(logits, static_cast<std::int64_t>(n_logits) * c_.n_vocab, c_.final_logit_softcap);

    if (counts) {
        *counts = m_.count_forward(b, geo_.row_bytes());
        // A mixture of experts read the experts its tokens were routed to, each once.
        if (c_.moe()) counts->weight_bytes = m_.dense_weight_bytes() + expert_bytes_read_;
    }
    return {};
}

}  // namespace

result<std::unique_ptr<backend>> make_cpu_backend(const model& m, const backend_options& o) {
    auto b = std::make_unique<cpu_backend>(m, o);
    status s = b->allocate();
    if (!s) return s.err();
    return std::unique_ptr<backend>(std::move(b));
}

}  // namespace kvlens
