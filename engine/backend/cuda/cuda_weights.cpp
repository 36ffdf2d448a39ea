// SPDX-License-Identifier: Apache-2.0
// Weight upload: plan the layout (256-byte aligned pieces), allocate once,
// copy from the mapped file through a pinned staging buffer.
#include "engine/backend/cuda/cuda_weights.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/dequant.h"
#include "engine/model/model.h"

namespace kvlens {

namespace {

struct piece {
    const void* host = nullptr;
    std::size_t bytes = 0;
    std::size_t offset = 0;
};

// Plans host pieces into one arena; identical host pointers share a piece.
class upload_plan {
public:
    std::size_t add(const void* host, std::size_t bytes) {
        if (auto it = by_host_.find(host); it != by_host_.end()) return pieces_[it->second].offset;
        const std::size_t off = arena_size_;
        arena_size_ += (bytes + device_arena::alignment - 1) / device_arena::alignment * device_arena::alignment;
        by_host_[host] = pieces_.size();
        pieces_.push_back({host, bytes, off});
        return off;
    }
    std::size_t size() const { return arena_size_; }
    const std::vector<piece>& pieces() const { return pieces_; }

private:
    std::vector<piece> pieces_;
    std::map<const void*, std::size_t> by_host_;
    std::size_t arena_size_ = 0;
};

// Copies every piece through a pinned staging buffer (much faster than
// pageable copies of a memory-mapped file), double-buffered on the stream.
status copy_pieces(const upload_plan& plan, std::uint8_t* dev, cudaStream_t s) {
    constexpr std::size_t stage_bytes = 64u << 20;
    auto stage = pinned_buffer::allocate(2 * stage_bytes, "the weight upload staging");
    if (!stage) return stage.err();
    cudaEvent_t done[2];
    CUDA_CHECK(cudaEventCreateWithFlags(&done[0], cudaEventDisableTiming));
    if (const cudaError_t e = cudaEventCreateWithFlags(&done[1], cudaEventDisableTiming); e != cudaSuccess) {
        cudaEventDestroy(done[0]);
        return cuda_error(e, "cudaEventCreateWithFlags", __FILE__, __LINE__);
    }
    status result;
    bool used[2] = {false, false};
    int which = 0;
    for (const piece& p : plan.pieces()) {
        for (std::size_t off = 0; off < p.bytes && result; off += stage_bytes) {
            const std::size_t n = std::min(stage_bytes, p.bytes - off);
            std::uint8_t* buf = stage->as<std::uint8_t>() + which * stage_bytes;
            if (used[which]) {
                if (const cudaError_t e = cudaEventSynchronize(done[which]); e != cudaSuccess) {
                    result = cuda_error(e, "cudaEventSynchronize", __FILE__, __LINE__);
                    break;
                }
            }
            std::memcpy(buf, static_cast<const std::uint8_t*>(p.host) + off, n);
            cudaError_t e = cudaMemcpyAsync(dev + p.offset + off, buf, n, cudaMemcpyHostToDevice, s);
            if (e == cudaSuccess) e = cudaEventRecord(done[which], s);
            if (e != cudaSuccess) result = cuda_error(e, "cudaMemcpyAsync (weights)", __FILE__, __LINE__);
            used[which] = true;
            which ^= 1;
        }
        if (!result) break;
    }
    const cudaError_t se = cudaStreamSynchronize(s);
    cudaEventDestroy(done[0]);
    cudaEventDestroy(done[1]);
    if (!result) return result;
    if (se != cudaSuccess) return cuda_error(se, "cudaStreamSynchronize (weights)", __FILE__, __LINE__);
    return {};
}

}  // namespace

result<dev_weights> upload_weights(const model& m, int max_ctx, cudaStream_t s) {
    const model_weights& w = m.weights();
    upload_plan plan;
    dev_weights d;

    // Pass 1: plan. Offsets stand in for device pointers until the arena exists.
    struct matrix_ref { dev_matrix* out; const weight_view* in; std::size_t offset; };
    struct vector_ref { const float** out; std::size_t offset; };
    std::vector<matrix_ref> mats;
    std::vector<vector_ref> vecs;
    auto matrix = [&](dev_matrix& out, const weight_view& in, const char* name) -> status {
        if (!cuda_weight_supported(in.type, in.n_in))
            return make_error(fmt::format("the CUDA backend has no kernel for {} weights of row length {} ({})",
                                          type_name(in.type), in.n_in, name));
        out.type = in.type;
        out.n_in = in.n_in;
        out.n_out = in.n_out;
        out.row_bytes = in.row_bytes;
        mats.push_back({&out, &in, plan.add(in.data, static_cast<std::size_t>(in.row_bytes * in.n_out))});
        d.widest_input = std::max(d.widest_input, in.n_in);
        return {};
    };
    auto vector = [&](const float*& out, const f32_vector& in) {
        if (in.empty()) return;
        vecs.push_back({&out, plan.add(in.data(), in.size() * sizeof(float))});
    };

    d.layers.resize(w.layers.size());
    if (auto st = matrix(d.tok_embd, w.tok_embd, "token_embd"); !st) return st.err();
    if (auto st = matrix(d.output, w.output, "output"); !st) return st.err();
    vector(d.output_norm, w.output_norm);
    vector(d.output_norm_b, w.output_norm_b);
    vector(d.output_b, w.output_b);
    if (w.pos_embd.n_out > 0)
        if (auto st = matrix(d.pos_embd, w.pos_embd, "position_embd"); !st) return st.err();
    vector(d.rope_freqs, m.rope_factors_for(max_ctx));
    for (std::size_t il = 0; il < w.layers.size(); ++il) {
        const layer_weights& l = w.layers[il];
        dev_layer& o = d.layers[il];
        const std::string where = fmt::format("layer {}", il);
        using pair = std::pair<dev_matrix*, const weight_view*>;
        for (auto [dst, src] : {pair{&o.wq, &l.wq}, pair{&o.wk, &l.wk}, pair{&o.wv, &l.wv}, pair{&o.wo, &l.wo},
                                pair{&o.w_gate, &l.w_gate}, pair{&o.w_up, &l.w_up}, pair{&o.w_down, &l.w_down},
                                pair{&o.conv_in, &l.conv_in}, pair{&o.conv_out, &l.conv_out}}) {
            if (src->n_out == 0) continue;   // arcee has no gate, an LFM2 layer no attention or no convolution
            if (auto st = matrix(*dst, *src, where.c_str()); !st) return st.err();
            d.largest_matrix_elems = std::max(d.largest_matrix_elems, src->n_in * src->n_out);
        }
        vector(o.attn_norm, l.attn_norm);
        vector(o.attn_norm_b, l.attn_norm_b);
        vector(o.ffn_norm, l.ffn_norm);
        vector(o.ffn_norm_b, l.ffn_norm_b);
        vector(o.bo, l.bo);
        vector(o.up_b, l.up_b);
        vector(o.down_b, l.down_b);
        vector(o.bq, l.bq);
        vector(o.bk, l.bk);
        vector(o.bv, l.bv);
        vector(o.q_norm, l.q_norm);
        vector(o.k_norm, l.k_norm);
        vector(o.post_attn_norm, l.post_attn_norm);
        vector(o.post_ffw_norm, l.post_ffw_norm);
        vector(o.conv_kernel, l.conv_kernel);
    }

    // Pass 2: allocate once, resolve pointers, copy.
    auto buf = device_buffer::allocate(plan.size(), "the model weights");
    if (!buf) return buf.err();
    d.storage = std::move(*buf);
    std::uint8_t* base = d.storage.as<std::uint8_t>();
    for (const matrix_ref& r : mats) r.out->data = base + r.offset;
    for (const vector_ref& r : vecs) *r.out = reinterpret_cast<const float*>(base + r.offset);
    if (auto st = copy_pieces(plan, base, s); !st) return st.err();
    return d;
}

}  // namespace kvlens
