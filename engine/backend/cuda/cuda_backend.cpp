// SPDX-License-Identifier: Apache-2.0
// The CUDA backend: the forward pass of the dense architectures on the
// device (the llama family's block and its variants; LFM2's short
// convolutions), the same story as the CPU backend's cpu_backend.cpp.
// Weights stay quantized on the device; the KV pool lives there in the
// kv_storage layout. A batch's small inputs (tokens, positions, block tables)
// travel in one copy from a pinned staging buffer; a decode step (up to
// mv_max_tokens tokens) is captured once per batch shape as a CUDA graph and
// replayed (KVLENS_CUDA_GRAPHS=0 in the environment launches kernels one by
// one instead); logits come back to host memory.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "engine/backend/backend.h"
#include "engine/backend/cuda/attention.h"
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/cuda_device.h"
#include "engine/backend/cuda/cuda_weights.h"
#include "engine/backend/cuda/dequant.h"
#include "engine/backend/cuda/kernel_timer.h"
#include "engine/backend/cuda/device_buffer.h"
#include "engine/backend/cuda/matmul.h"
#include "engine/backend/cuda/matvec.h"
#include "engine/backend/cuda/norm_rope.h"
#include "engine/backend/cuda/paged_kv.h"
#include "engine/backend/cuda/short_conv.h"
#include "engine/model/model.h"

namespace kvlens {

namespace {

class cuda_backend final : public backend {
public:
    cuda_backend(const model& m, const backend_options& o) : m_(m), c_(m.config()), o_(o) {}
    ~cuda_backend() override;

    status init(const cuda_device_info& dev);

    std::string name() const override { return "cuda"; }
    std::string description() const override {
        return fmt::format("cuda: {}{}{}", describe(dev_), graphs_enabled_ ? ", decode as CUDA graphs" : "",
                           timer_ ? ", timing every kernel (KVLENS_CUDA_PROFILE)" : "");
    }
    status init_kv(const kv_geometry& g, std::int32_t n_blocks) override;
    status forward(const forward_batch& batch, float* logits, forward_counts* counts) override;
    std::int64_t weight_bytes() const override { return static_cast<std::int64_t>(w_.storage.bytes()); }
    std::int64_t kv_bytes() const override { return static_cast<std::int64_t>(kv_.bytes()); }
    std::int64_t scratch_bytes() const override {
        return static_cast<std::int64_t>(scratch_.bytes() + batch_dev_.bytes());
    }
    memory_figures memory() const override {
        memory_figures f;
        f.device = describe(dev_);
        f.on_device = true;
        f.weight_bytes = weight_bytes();
        f.kv_bytes = kv_bytes();
        f.scratch_bytes = scratch_bytes();
        cuda_memory_info(f.free_bytes, f.total_bytes);
        return f;
    }

private:
    status allocate_scratch();
    status pack_batch(const forward_batch& b, int& n_rows);
    std::size_t batch_copy_ints(int n_rows) const { return 4 * static_cast<std::size_t>(o_.max_batch) + static_cast<std::size_t>(n_rows) * table_stride_; }
    status enqueue_step(int n, int n_logits, int n_rows, float* logits_dst);
    status layer(int il, int n, bool decode);
    status attention_block(int il, int n, bool decode, cudaStream_t s);
    status short_conv_block(int il, int n, cudaStream_t s);
    status add_residual(int n, cudaStream_t s);
    status pre_norm(const float* weight, const float* bias, int n, cudaStream_t s);
    status norm_rows(const float* x, const std::int32_t* rows, const float* weight, const float* bias, float* y, int n_rows,
                     cudaStream_t s);
    status dense_ffn(const dev_layer& l, int n, cudaStream_t s);
    status parallel_layer(int il, int n, bool decode);
    status run_decode_graph(int n, int n_logits);
    void drop_graphs();
    void mark(const char* op) { if (timer_) timer_->mark(op, stream_); }

    // The packed batch (pinned host and device, same layout), int32:
    //   tokens [max_batch] | positions [max_batch] | table row per token [max_batch] |
    //   logit rows [max_batch] | block tables [n_rows][table_stride]
    std::int32_t* d_tokens() const { return batch_dev_.as<std::int32_t>(); }
    std::int32_t* d_positions() const { return d_tokens() + o_.max_batch; }
    std::int32_t* d_tok_row() const { return d_tokens() + 2 * o_.max_batch; }
    std::int32_t* d_logit_rows() const { return d_tokens() + 3 * o_.max_batch; }
    std::int32_t* d_tables() const { return d_tokens() + 4 * o_.max_batch; }

    const model& m_;
    const model_config& c_;
    backend_options o_;
    cuda_device_info dev_;
    cudaStream_t stream_ = nullptr;
    cublasHandle_t cublas_ = nullptr;
    dev_weights w_;

    // Activations, one arena (device, f32 unless noted), rows of max_batch tokens:
    device_arena scratch_;
    float* x_ = nullptr;        // (max_batch, n_embd) residual stream
    float* xb_ = nullptr;       // (max_batch, n_embd) normed input / branch output
    float* xn_ = nullptr;       // (max_batch, n_embd) parallel blocks (Cohere): the normed input, a branch's output
    float* q_ = nullptr;        // (max_batch, n_head * head_dim)
    float* k_ = nullptr;        // (max_batch, n_head_kv * head_dim)
    float* v_ = nullptr;        // (max_batch, n_head_kv * head_dim)
    float* att_ = nullptr;      // (max_batch, n_head * head_dim) attention output
    float* hb_ = nullptr;       // (max_batch, n_ff) gate, then silu(gate) * up
    float* hb2_ = nullptr;      // (max_batch, n_ff) up
    float* conv_bcx_ = nullptr; // (max_batch, 3 n_embd) LFM2's in_proj output; null without convolutions
    float* conv_y_ = nullptr;   // (max_batch, n_embd) C * conv(B*X)
    float* logits_ = nullptr;   // (max_batch, n_vocab)
    float* part_acc_ = nullptr; // (mv_max_tokens, n_head, max_splits, head_dim) attention partials
    float* part_ml_ = nullptr;  // (mv_max_tokens, n_head, max_splits, 2)
    matmul_workspace mm_;       // q8_1 / f16 activations, f16 weight scratch

    // KV pool: per layer a K and a V array (n_blocks, block_size, row_bytes), one allocation.
    device_buffer kv_;
    kv_geometry geo_;
    std::int32_t n_blocks_ = 0;
    std::vector<std::uint8_t*> k_layer_, v_layer_;   // (n_layer) device pointers into kv_
    std::vector<std::int64_t> row_bytes_;             // (n_layer) a K (or V) row: LFM2's convolution rows are f32
    int table_stride_ = 0;      // block-table entries per row: ceil(max_ctx / block_size)

    pinned_buffer batch_host_;  // the packed batch, staged
    device_buffer batch_dev_;
    pinned_buffer logits_host_; // (mv_max_tokens, n_vocab) decode logits, staged

    bool graphs_enabled_ = true;
    std::unique_ptr<kernel_timer> timer_;   // KVLENS_CUDA_PROFILE: per-operation event timings
    std::map<std::pair<int, int>, cudaGraphExec_t> graphs_;   // (n tokens, n logits) -> decode step
};

cuda_backend::~cuda_backend() {
    drop_graphs();
    if (cublas_) cublasDestroy(cublas_);
    if (stream_) cudaStreamDestroy(stream_);
}

void cuda_backend::drop_graphs() {
    for (auto& [key, exec] : graphs_) cudaGraphExecDestroy(exec);
    graphs_.clear();
}

status cuda_backend::init(const cuda_device_info& dev) {
    dev_ = dev;
    if (const char* e = std::getenv("KVLENS_CUDA_GRAPHS"); e && std::strcmp(e, "0") == 0) graphs_enabled_ = false;
    timer_ = kernel_timer::from_env();
    if (timer_) graphs_enabled_ = false;   // marks between launches, not inside a graph
    if (o_.max_batch < 1 || o_.max_ctx < 1) return make_error("CUDA backend: max_batch and max_ctx must be positive");
    // Before any allocation: do the weights and the planned KV pool fit at all?
    if (auto why = device_misfit(m_.info().weight_bytes, o_.kv_pool_bytes, dev.free_bytes, dev.total_bytes)) return make_error(*why);
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CUBLAS_CHECK(cublasCreate(&cublas_));
    CUBLAS_CHECK(cublasSetStream(cublas_, stream_));
    auto w = upload_weights(m_, o_.max_ctx, stream_);
    if (!w) return w.err();
    w_ = std::move(*w);
    if (auto st = allocate_scratch(); !st) return st;
    // A first kernel: a build without code for this device fails here, clearly.
    if (auto st = launch_add(x_, xb_, 1, stream_); !st)
        return make_error(fmt::format("the CUDA kernels cannot run on {}: {}", describe(dev_), st.message()));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return {};
}

status cuda_backend::allocate_scratch() {
    const std::int64_t B = o_.max_batch, E = c_.n_embd, NQ = c_.n_q(), NKV = c_.n_kv(), FF = c_.n_ff;
    // One token has the most splits (decode_attention_splits falls with the token count).
    const std::int64_t max_splits = decode_attention_splits(dev_.sm_count, c_.n_head_kv, 1, o_.max_ctx);
    device_arena& a = scratch_;
    const std::size_t f = sizeof(float);
    const std::size_t ox = a.reserve(B * E * f), oxb = a.reserve(B * E * f);
    const std::size_t oxn = c_.parallel_blocks ? a.reserve(B * E * f) : 0;
    const std::size_t oq = a.reserve(B * NQ * f), ok = a.reserve(B * NKV * f), ov = a.reserve(B * NKV * f);
    const std::size_t oatt = a.reserve(B * NQ * f);
    const std::size_t ohb = a.reserve(B * FF * f), ohb2 = a.reserve(B * FF * f);
    const std::size_t obcx = c_.has_conv() ? a.reserve(B * 3 * E * f) : 0;
    const std::size_t oconv = c_.has_conv() ? a.reserve(B * E * f) : 0;
    const std::size_t ologits = a.reserve(B * c_.n_vocab * f);
    const std::size_t opa = a.reserve(mv_max_tokens * c_.n_head * max_splits * c_.head_dim * f);
    const std::size_t opm = a.reserve(mv_max_tokens * c_.n_head * max_splits * 2 * f);
    const std::size_t oxq = a.reserve(mv_max_tokens * (w_.widest_input / 32) * sizeof(block_q8_1_dev));
    const bool gemm = B > mv_max_tokens;   // prefill batches: dequantize + cuBLAS
    const std::size_t oxh = gemm ? a.reserve(B * w_.widest_input * 2) : 0;
    const std::size_t owh = gemm ? a.reserve(w_.largest_matrix_elems * 2) : 0;
    if (auto st = a.allocate("activation scratch"); !st) return st;
    x_ = a.at<float>(ox);
    xb_ = a.at<float>(oxb);
    if (c_.parallel_blocks) xn_ = a.at<float>(oxn);
    q_ = a.at<float>(oq);
    k_ = a.at<float>(ok);
    v_ = a.at<float>(ov);
    att_ = a.at<float>(oatt);
    hb_ = a.at<float>(ohb);
    hb2_ = a.at<float>(ohb2);
    if (c_.has_conv()) {
        conv_bcx_ = a.at<float>(obcx);
        conv_y_ = a.at<float>(oconv);
    }
    logits_ = a.at<float>(ologits);
    part_acc_ = a.at<float>(opa);
    part_ml_ = a.at<float>(opm);
    mm_.cublas = cublas_;
    mm_.xq = a.at<block_q8_1_dev>(oxq);
    if (gemm) {
        mm_.x_f16 = a.at<std::uint16_t>(oxh);
        mm_.w_f16 = a.at<std::uint16_t>(owh);
        mm_.w_f16_elems = w_.largest_matrix_elems;
    }
    auto lh = pinned_buffer::allocate(static_cast<std::size_t>(mv_max_tokens) * c_.n_vocab * f, "decode logits");
    if (!lh) return lh.err();
    logits_host_ = std::move(*lh);
    return {};
}

status cuda_backend::init_kv(const kv_geometry& g, std::int32_t n_blocks) {
    if (auto st = validate(g); !st) return st;
    if (n_blocks < 1) return make_error("KV pool: at least one block is needed");
    if (g.n_layer != c_.n_layer || g.n_kv_heads != c_.n_head_kv || g.head_dim != c_.head_dim)
        return make_error("KV geometry does not match the model");
    drop_graphs();   // they captured the old pool's addresses
    kv_ = device_buffer();
    // Every layer's K and V arrays hold every block (the global tables index
    // them all); a layer's rows are its own size (LFM2's convolution rows f32).
    std::vector<std::int64_t> aligned(static_cast<std::size_t>(g.n_layer));
    std::int64_t total = 0;
    for (int il = 0; il < g.n_layer; ++il) {
        const std::int64_t layer_bytes = static_cast<std::int64_t>(n_blocks) * g.block_size * g.layer_row_bytes(il);
        aligned[static_cast<std::size_t>(il)] = (layer_bytes + 255) / 256 * 256;
        total += 2 * aligned[static_cast<std::size_t>(il)];
    }
    auto buf = device_buffer::allocate(static_cast<std::size_t>(total), "the KV pool");
    if (!buf) return make_error(fmt::format("{} ({} blocks of {} tokens, {})", buf.message(), n_blocks, g.block_size, to_string(g.dtype)));
    kv_ = std::move(*buf);
    geo_ = g;
    n_blocks_ = n_blocks;
    k_layer_.resize(static_cast<std::size_t>(g.n_layer));
    v_layer_.resize(static_cast<std::size_t>(g.n_layer));
    row_bytes_.resize(static_cast<std::size_t>(g.n_layer));
    std::int64_t at = 0;
    for (int il = 0; il < g.n_layer; ++il) {
        const std::int64_t a = aligned[static_cast<std::size_t>(il)];
        k_layer_[il] = kv_.as<std::uint8_t>() + at;
        v_layer_[il] = kv_.as<std::uint8_t>() + at + a;
        row_bytes_[il] = g.layer_row_bytes(il);
        at += 2 * a;
    }

    table_stride_ = (o_.max_ctx + g.block_size - 1) / g.block_size;

    const std::size_t ints = batch_copy_ints(o_.max_batch);
    auto h = pinned_buffer::allocate(ints * sizeof(std::int32_t), "the batch staging");
    if (!h) return h.err();
    auto d = device_buffer::allocate(ints * sizeof(std::int32_t), "the batch inputs");
    if (!d) return d.err();
    batch_host_ = std::move(*h);
    batch_dev_ = std::move(*d);
    return {};
}

// Fills the pinned staging with the batch; sequences sharing a block table
// share a row, which holds the entries up to the row's furthest position.
status cuda_backend::pack_batch(const forward_batch& b, int& n_rows) {
    const int n = static_cast<int>(b.size());
    const int B = o_.max_batch;
    std::int32_t* h = batch_host_.as<std::int32_t>();
    std::vector<const std::int32_t*> row_ptr;
    std::vector<int> row_len;
    for (int t = 0; t < n; ++t) {
        h[t] = b.tokens[t];
        h[B + t] = b.positions[t];
        const std::int32_t* table = b.block_tables[t];
        if (!table) return make_error(fmt::format("token {} has no block table", t));
        int r = 0;
        while (r < static_cast<int>(row_ptr.size()) && row_ptr[r] != table) ++r;
        if (r == static_cast<int>(row_ptr.size())) {
            row_ptr.push_back(table);
            row_len.push_back(0);
        }
        row_len[r] = std::max(row_len[r], b.positions[t] / geo_.block_size + 1);
        h[2 * B + t] = r;
    }
    for (std::size_t i = 0; i < b.logit_rows.size(); ++i) h[3 * B + i] = b.logit_rows[i];
    for (std::size_t r = 0; r < row_ptr.size(); ++r) {
        std::int32_t* dst = h + 4 * B + r * table_stride_;
        for (int j = 0; j < row_len[r]; ++j) {
            const std::int32_t id = row_ptr[r][j];
            if (id < 0 || id >= n_blocks_)
                return make_error(fmt::format("block table entry {} is {}, outside the pool of {} blocks", j, id, n_blocks_));
            dst[j] = id;
        }
    }
    n_rows = static_cast<int>(row_ptr.size());
    return {};
}

status cuda_backend::layer(int il, int n, bool decode) {
    if (c_.parallel_blocks) return parallel_layer(il, n, decode);
    const dev_layer& l = w_.layers[static_cast<std::size_t>(il)];
    const int E = c_.n_embd;
    cudaStream_t s = stream_;

    // Attention block, or LFM2's short convolution in its place: xb = its output.
    if (auto st = pre_norm(l.attn_norm, l.attn_norm_b, n, s); !st) return st;
    mark("attn_norm");
    if (auto st = c_.is_conv(il) ? short_conv_block(il, n, s) : attention_block(il, n, decode, s); !st) return st;
    if (l.post_attn_norm) {   // gemma2, gemma3
        if (auto st = launch_rms_norm(xb_, nullptr, l.post_attn_norm, xb_, n, E, c_.rms_eps, s); !st) return st;
        mark("post_attention_norm");
    }
    if (auto st = add_residual(n, s); !st) return st;

    // Feed-forward block (SwiGLU; gemma3: GeGLU with tanh GELU; arcee: relu(up)^2, no gate).
    if (auto st = pre_norm(l.ffn_norm, l.ffn_norm_b, n, s); !st) return st;
    mark("ffn_norm");
    if (auto st = dense_ffn(l, n, s); !st) return st;
    if (l.post_ffw_norm) {   // gemma2, gemma3
        if (auto st = launch_rms_norm(xb_, nullptr, l.post_ffw_norm, xb_, n, E, c_.rms_eps, s); !st) return st;
        mark("post_ffw_norm");
    }
    return add_residual(n, s);
}

// Cohere's and GPT-NeoX's layer: attention and the feed-forward block both
// read x, normed once (Cohere) or each by its own norm (GPT-NeoX); x becomes (ffn + x) + attention, in llama.cpp's order of adds.
// xn_ keeps the normed rows while attention overwrites xb_; the pointers
// trade places for the feed-forward block and back, so every layer (and a
// captured graph) sees them as the step began.
status cuda_backend::parallel_layer(int il, int n, bool decode) {
    const dev_layer& l = w_.layers[static_cast<std::size_t>(il)];
    const std::int64_t len = static_cast<std::int64_t>(n) * c_.n_embd;
    cudaStream_t s = stream_;
    if (auto st = pre_norm(l.attn_norm, l.attn_norm_b, n, s); !st) return st;
    mark("attn_norm");
    CUDA_CHECK(cudaMemcpyAsync(xn_, xb_, static_cast<std::size_t>(len) * sizeof(float), cudaMemcpyDeviceToDevice, s));
    if (auto st = attention_block(il, n, decode, s); !st) return st;
    std::swap(xb_, xn_);
    status ffn = c_.shared_block_norm ? status{} : pre_norm(l.ffn_norm, l.ffn_norm_b, n, s);   // GPT-NeoX: its own norm
    if (ffn) ffn = dense_ffn(l, n, s);
    std::swap(xb_, xn_);   // xb_: attention's output, xn_: the feed-forward block's
    if (!ffn) return ffn;
    // The sums in the model's order (model_config::parallel_order).
    float* first = c_.parallel_order == parallel_adds::attention_x_ffn ? xb_ : xn_;
    float* second = first == xb_ ? xn_ : xb_;
    if (c_.parallel_order == parallel_adds::branches_x) {   // Phi-2: (attention + ffn) + x
        if (auto st = launch_add(xb_, xn_, len, s); !st) return st;
        if (auto st = launch_add(x_, xb_, len, s); !st) return st;
    } else {
        if (auto st = launch_add(x_, first, len, s); !st) return st;
        if (auto st = launch_add(x_, second, len, s); !st) return st;
    }
    mark("residual adds");
    return {};
}

// xb = the feed-forward block's output (down's product) for the n rows of xb.
status cuda_backend::dense_ffn(const dev_layer& l, int n, cudaStream_t s) {
    if (c_.ffn_act == ffn_activation::gelu) {   // GPT-2: gelu(x up + b), no gate
        if (auto st = matmul(l.w_up, xb_, n, hb_, mm_, s); !st) return st;
        mark("up matmul");
        if (l.up_b)
            if (auto st = launch_add_bias(hb_, l.up_b, n, c_.n_ff, s); !st) return st;
        if (auto st = launch_gelu(hb_, static_cast<std::int64_t>(n) * c_.n_ff, s); !st) return st;
        mark("gelu");
    } else if (c_.ffn_act == ffn_activation::relu_sqr) {
        if (auto st = matmul(l.w_up, xb_, n, hb_, mm_, s); !st) return st;
        mark("up matmul");
        if (l.up_b)   // Nemotron's, where its file has one
            if (auto st = launch_add_bias(hb_, l.up_b, n, c_.n_ff, s); !st) return st;
        if (auto st = launch_relu_sqr(hb_, static_cast<std::int64_t>(n) * c_.n_ff, s); !st) return st;
        mark("relu_sqr");
    } else {
        const dev_matrix* gu[2] = {&l.w_gate, &l.w_up};
        float* gu_out[2] = {hb_, hb2_};
        if (auto st = matmul_group(gu, gu_out, 2, xb_, n, mm_, s); !st) return st;
        mark("gate/up matmul");
        if (c_.ffn_act == ffn_activation::gelu_tanh) {
            if (auto st = launch_gelu_tanh_mul(hb_, hb2_, hb_, static_cast<std::int64_t>(n) * c_.n_ff, s); !st) return st;
            mark("gelu_tanh_mul");
        } else {
            if (auto st = launch_silu_mul(hb_, hb2_, hb_, static_cast<std::int64_t>(n) * c_.n_ff, s); !st) return st;
            mark("silu_mul");
        }
    }
    if (auto st = matmul(l.w_down, hb_, n, xb_, mm_, s); !st) return st;
    mark("down matmul");
    if (l.down_b)   // GPT-2
        if (auto st = launch_add_bias(xb_, l.down_b, n, c_.n_embd, s); !st) return st;
    return {};
}

// xb = attention's output (wo's product) for n tokens; K and V go in the pool.
status cuda_backend::attention_block(int il, int n, bool decode, cudaStream_t s) {
    const dev_layer& l = w_.layers[static_cast<std::size_t>(il)];
    const int NQ = c_.n_q(), NKV = c_.n_kv(), HD = c_.head_dim;
    const dev_matrix* qkv[3] = {&l.wq, &l.wk, &l.wv};
    float* qkv_out[3] = {q_, k_, v_};
    if (auto st = matmul_group(qkv, qkv_out, 3, xb_, n, mm_, s); !st) return st;
    mark("q/k/v matmul");
    if (l.bq) {
        if (auto st = launch_add_bias(q_, l.bq, n, NQ, s); !st) return st;
        if (auto st = launch_add_bias(k_, l.bk, n, NKV, s); !st) return st;
        if (auto st = launch_add_bias(v_, l.bv, n, NKV, s); !st) return st;
        mark("q/k/v bias");
    }
    // Per head, or (olmo2) over the whole Q and K rows; before RoPE, or (Hunyuan's dense models) after it.
    const auto qk_norms = [&]() -> status {
        if (!l.q_norm) return {};
        const bool whole = c_.qk_norm_whole;
        if (auto st = launch_rms_norm(q_, nullptr, l.q_norm, q_, whole ? n : n * c_.n_head, whole ? NQ : HD,
                                      c_.rms_eps, s); !st)
            return st;
        if (auto st = launch_rms_norm(k_, nullptr, l.k_norm, k_, whole ? n : n * c_.n_head_kv, whole ? NKV : HD,
                                      c_.rms_eps, s); !st)
            return st;
        mark("q/k norm");
        return {};
    };
    if (!c_.qk_norm_after_rope)
        if (auto st = qk_norms(); !st) return st;
    if (c_.rotates(il)) {   // smollm3's NoPE layers skip it
        rope_params rp;
        rp.q = q_;
        rp.k = k_;
        rp.positions = d_positions();
        rp.n_tokens = n;
        rp.n_head = c_.n_head;
        rp.n_head_kv = c_.n_head_kv;
        rp.head_dim = HD;
        rp.n_rot = c_.n_rot;
        rp.freq_base = c_.rope_base(il);     // gemma3: local layers have their own base
        rp.freq_scale = c_.rope_scale(il);
        rp.freq_factors = w_.rope_freqs;     // null unless the file has factors for this context
        rp.attn_factor = c_.scaled_rope(il) ? c_.rope_attn_factor : 1.0f;   // OLMo 3's windowed layers: plain
        if (c_.yarn() && c_.scaled_rope(il)) {   // YaRN's ramp, placed by this layer's base
            const std::array<float, 2> dims = c_.yarn_corr_dims(rp.freq_base);
            rp.ext_factor = c_.yarn_ext_factor;
            rp.corr_low = dims[0];
            rp.corr_high = dims[1];
        }
        rp.neox = c_.rope_neox;
        if (auto st = launch_rope(rp, s); !st) return st;
        mark("rope");
    }
    if (c_.qk_norm_after_rope)
        if (auto st = qk_norms(); !st) return st;
    if (c_.attn_temp_scale != 0.0f) {   // Ministral 3: attention past the original context a little sharper
        if (auto st = launch_attn_temperature(q_, d_positions(), n, NQ, c_.attn_temp_scale, c_.attn_temp_floor, s); !st)
            return st;
        mark("query temperature");
    }

    paged_kv_view kv;
    kv.dtype = geo_.dtype;
    kv.k = k_layer_[static_cast<std::size_t>(il)];
    kv.v = v_layer_[static_cast<std::size_t>(il)];
    kv.row_bytes = row_bytes_[static_cast<std::size_t>(il)];
    kv.block_size = geo_.block_size;
    kv.n_kv_heads = c_.n_head_kv;
    kv.head_dim = HD;
    kv.tables = d_tables();
    kv.table_stride = table_stride_;
    kv.tok_row = d_tok_row();
    kv.positions = d_positions();
    if (auto st = launch_kv_store(kv, k_, v_, n, s); !st) return st;
    mark("kv_store");

    // Sliding-window layers (gemma3) keep their K/V under the global block
    // table like every layer, and the window masks what they read. The
    // engine's local block tables are not used: this pool has every layer's
    // rows in each global block, and a sequence holds its global blocks for
    // every position, so nothing the local group releases is lost here.
    attention_params ap;
    ap.q = q_;
    ap.out = att_;
    ap.n_tokens = n;
    ap.n_head = c_.n_head;
    ap.window = c_.layer_window.empty() ? 0 : c_.layer_window[static_cast<std::size_t>(il)];
    ap.scale = c_.score_scale();
    ap.softcap = c_.attn_logit_softcap;
    ap.kv = kv;
    if (decode) {
        // Split-K over the context; each token's split length follows its own
        // key count on the device, so a replayed graph fits every step.
        ap.n_splits = decode_attention_splits(dev_.sm_count, c_.n_head_kv, n, o_.max_ctx);
        ap.part_acc = part_acc_;
        ap.part_ml = part_ml_;
    }
    if (auto st = launch_attention(ap, s); !st) return st;
    mark(choose_attention_kernel(n, c_.n_head, c_.n_head_kv, HD) == attention_kernel::flash ? "attention (flash)"
                                                                                            : "attention (split-K)");

    if (auto st = matmul(l.wo, att_, n, xb_, mm_, s); !st) return st;
    mark("wo matmul");
    if (l.bo) {   // GPT-2
        if (auto st = launch_add_bias(xb_, l.bo, n, c_.n_embd, s); !st) return st;
        mark("attn_output bias");
    }
    return {};
}

// xb = out_proj(C * conv(B*X)) with B, C, X = in_proj(xb), for n tokens (short_conv.h).
status cuda_backend::short_conv_block(int il, int n, cudaStream_t s) {
    const dev_layer& l = w_.layers[static_cast<std::size_t>(il)];
    if (auto st = matmul(l.conv_in, xb_, n, conv_bcx_, mm_, s); !st) return st;
    mark("conv in_proj matmul");
    short_conv_params p;
    p.bcx = conv_bcx_;
    p.out = conv_y_;
    p.kernel = l.conv_kernel;
    p.n_tokens = n;
    p.n_embd = c_.n_embd;
    p.taps = c_.shortconv_l_cache;
    p.rows.dtype = kv_dtype::f32;
    p.rows.k = k_layer_[static_cast<std::size_t>(il)];
    p.rows.v = v_layer_[static_cast<std::size_t>(il)];
    p.rows.row_bytes = row_bytes_[static_cast<std::size_t>(il)];
    p.rows.block_size = geo_.block_size;
    p.rows.tables = d_tables();
    p.rows.table_stride = table_stride_;
    p.rows.tok_row = d_tok_row();
    p.rows.positions = d_positions();
    if (auto st = launch_short_conv(p, s); !st) return st;
    mark("short conv");
    if (auto st = matmul(l.conv_out, conv_y_, n, xb_, mm_, s); !st) return st;
    mark("conv out_proj matmul");
    return {};
}

// xb = the block's input for n tokens: x normed by `weight`, or x itself
// where the architecture has no norm before its blocks (olmo2: null weight).
status cuda_backend::pre_norm(const float* weight, const float* bias, int n, cudaStream_t s) {
    const std::int64_t len = static_cast<std::int64_t>(n) * c_.n_embd;
    if (!weight) {
        CUDA_CHECK(cudaMemcpyAsync(xb_, x_, static_cast<std::size_t>(len) * sizeof(float), cudaMemcpyDeviceToDevice, s));
        return {};
    }
    return norm_rows(x_, nullptr, weight, bias, xb_, n, s);
}

// RMS norms, or Cohere's LayerNorms, of n_rows rows of n_embd (launch_rms_norm's rows).
status cuda_backend::norm_rows(const float* x, const std::int32_t* rows, const float* weight, const float* bias, float* y,
                               int n_rows, cudaStream_t s) {
    if (c_.layer_norm) return launch_layer_norm(x, rows, weight, bias, y, n_rows, c_.n_embd, c_.rms_eps, s);
    return launch_rms_norm(x, rows, weight, y, n_rows, c_.n_embd, c_.rms_eps, s);
}

// x += xb for n tokens, xb first times the residual scale (granite).
status cuda_backend::add_residual(int n, cudaStream_t s) {
    const std::int64_t len = static_cast<std::int64_t>(n) * c_.n_embd;
    if (c_.residual_scale != 1.0f) {
        if (auto st = launch_scale(xb_, c_.residual_scale, len, s); !st) return st;
        mark("residual scale");
    }
    const status st = launch_add(x_, xb_, len, s);
    mark("residual add");
    return st;
}

// Everything one forward pass puts on the stream: inputs in, layers, logits out
// to logits_dst (host). Graph-capturable when n <= mv_max_tokens.
status cuda_backend::enqueue_step(int n, int n_logits, int n_rows, float* logits_dst) {
    const bool decode = n <= mv_max_tokens;
    if (timer_) timer_->begin(decode ? "decode" : "prefill", stream_);
    CUDA_CHECK(cudaMemcpyAsync(batch_dev_.get(), batch_host_.as<std::int32_t>(),
                               batch_copy_ints(n_rows) * sizeof(std::int32_t), cudaMemcpyHostToDevice, stream_));
    mark("batch inputs copy");
    if (auto st = launch_get_rows(w_.tok_embd, d_tokens(), n, x_, stream_); !st) return st;
    mark("embedding rows");
    if (c_.learned_positions) {   // GPT-2: plus each position's row (check_forward_batch bounds them by the table)
        if (auto st = launch_get_rows(w_.pos_embd, d_positions(), n, xb_, stream_); !st) return st;
        if (auto st = launch_add(x_, xb_, static_cast<std::int64_t>(n) * c_.n_embd, stream_); !st) return st;
        mark("position rows");
    }
    if (c_.embd_scale != 1.0f) {   // gemma2, gemma3: sqrt(n_embd)
        if (auto st = launch_scale(x_, c_.embd_scale, static_cast<std::int64_t>(n) * c_.n_embd, stream_); !st) return st;
        mark("embedding scale");
    }
    for (int il = 0; il < c_.n_layer; ++il)
        if (auto st = layer(il, n, decode); !st) return make_error(fmt::format("layer {}: {}", il, st.message()));
    if (n_logits == 0) return {};
    if (auto st = norm_rows(x_, d_logit_rows(), w_.output_norm, w_.output_norm_b, xb_, n_logits, stream_); !st) return st;
    mark("output_norm");
    if (auto st = matmul(w_.output, xb_, n_logits, logits_, mm_, stream_); !st) return st;
    mark("output matmul");
    if (w_.output_b) {   // Phi-2
        if (auto st = launch_add_bias(logits_, w_.output_b, n_logits, c_.n_vocab, stream_); !st) return st;
        mark("output bias");
    }
    if (c_.logit_scale != 1.0f) {   // granite: times 1 / logit_scale, as llama.cpp scales them
        if (auto st = launch_scale(logits_, 1.0f / c_.logit_scale, static_cast<std::int64_t>(n_logits) * c_.n_vocab,
                                   stream_); !st)
            return st;
        mark("logit scale");
    }
    if (c_.logit_mul != 1.0f) {   // Cohere: times logit_scale
        if (auto st = launch_scale(logits_, c_.logit_mul, static_cast<std::int64_t>(n_logits) * c_.n_vocab, stream_); !st)
            return st;
        mark("logit scale");
    }
    if (c_.final_logit_softcap > 0) {
        if (auto st = launch_soft_cap(logits_, c_.final_logit_softcap, static_cast<std::int64_t>(n_logits) * c_.n_vocab,
                                      stream_); !st)
            return st;
        mark("logit soft-cap");
    }
    CUDA_CHECK(cudaMemcpyAsync(logits_dst, logits_, static_cast<std::size_t>(n_logits) * c_.n_vocab * sizeof(float),
                               cudaMemcpyDeviceToHost, stream_));
    mark("logits copy");
    return {};
}

// A decode step as a graph: captured on first use of a (tokens, logits)
// shape, replayed after. Every varying input is read from device memory the
// graph's first copy fills, so replays see the new step's tokens.
status cuda_backend::run_decode_graph(int n, int n_logits) {
    const auto key = std::make_pair(n, n_logits);
    auto it = graphs_.find(key);
    if (it == graphs_.end()) {
        CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
        const status st = enqueue_step(n, n_logits, n, logits_host_.as<float>());
        cudaGraph_t graph = nullptr;
        const cudaError_t e = cudaStreamEndCapture(stream_, &graph);
        if (!st || e != cudaSuccess) {
            if (graph) cudaGraphDestroy(graph);
            cudaGetLastError();
            if (!st) return st;
            return cuda_error(e, "cudaStreamEndCapture", __FILE__, __LINE__);
        }
        cudaGraphExec_t exec = nullptr;
        const cudaError_t ie = cudaGraphInstantiate(&exec, graph, 0);
        cudaGraphDestroy(graph);
        if (ie != cudaSuccess) return cuda_error(ie, "cudaGraphInstantiate", __FILE__, __LINE__);
        it = graphs_.emplace(key, exec).first;
    }
    CUDA_CHECK(cudaGraphLaunch(it->second, stream_));
    return {};
}

status cuda_backend::forward(const forward_batch& b, float* logits, forward_counts* counts) {
    const int n = static_cast<int>(b.size());
    if (auto st = check_forward_batch(b, c_.n_vocab, o_.max_batch, c_.position_limit(o_.max_ctx)); !st) return st;
    if (n == 0) return {};
    if (kv_.get() == nullptr) return make_error("KV storage not initialised");
    const int n_logits = static_cast<int>(b.logit_rows.size());
    int n_rows = 0;
    if (auto st = pack_batch(b, n_rows); !st) return st;

    const bool decode = n <= mv_max_tokens;
    if (decode) {
        // The graph copies a fixed shape: n table rows (unused ones are never read).
        status st = graphs_enabled_ ? run_decode_graph(n, n_logits) : enqueue_step(n, n_logits, n, logits_host_.as<float>());
        if (!st && graphs_enabled_) {
            // A capture that failed does not doom the step: run it directly, and stop capturing.
            graphs_enabled_ = false;
            drop_graphs();
            st = enqueue_step(n, n_logits, n, logits_host_.as<float>());
        }
        if (!st) return st;
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        std::memcpy(logits, logits_host_.as<float>(), static_cast<std::size_t>(n_logits) * c_.n_vocab * sizeof(float));
    } else {
        if (auto st = enqueue_step(n, n_logits, n_rows, logits); !st) return st;
        CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    if (timer_) timer_->end();
    if (counts) *counts = m_.count_forward(b, geo_.row_bytes());
    return {};
}

}  // namespace

result<std::unique_ptr<backend>> make_cuda_backend(const model& m, const backend_options& o) {
    auto dev = cuda_open_device();
    if (!dev) return dev.err();   // no GPU: that first, whatever the model
    if (m.config().moe())         // the CPU takes it (choose_backend)
        return make_error(fmt::format("{} experts per layer: the CUDA backend does not run a mixture of experts yet",
                                      m.config().n_expert));
    auto b = std::make_unique<cuda_backend>(m, o);
    if (auto st = b->init(*dev); !st) return st.err();
    return std::unique_ptr<backend>(std::move(b));
}

}  // namespace kvlens
