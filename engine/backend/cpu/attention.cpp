// SPDX-License-Identifier: Apache-2.0
// CPU attention over the paged KV cache. Numerics follow the reference engine:
// a query head is converted to the K storage format (f16, or q8_0 blocks for a
// q8_0 cache) and dotted with each stored key; softmax in f32; probabilities
// rounded to f16 before they weight the values. With an f16 cache and a SIMD
// kernel level, each (token, KV head) item runs as one SIMD routine
// (ops_simd.h); otherwise through the kernel table's dot product and row converter.
#include "engine/backend/cpu/attention.h"

#include <algorithm>
#include <functional>
#include <cmath>

#include "engine/common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/ops.h"
#include "engine/backend/cpu/ops_simd.h"
#include "engine/kv/kv_codec.h"

namespace kvlens {

namespace {

ggml_type storage_type(kv_dtype d) { return d == kv_dtype::f16 ? ggml_type::f16 : ggml_type::q8_0; }

// Bytes from the start of a K/V row to kv head h's first element.
std::int64_t head_offset(kv_dtype d, int h, int head_dim) {
    return d == kv_dtype::f16 ? static_cast<std::int64_t>(h) * head_dim * 2
                              : static_cast<std::int64_t>(h) * head_dim / 32 * 34;
}

}  // namespace

void attention_scratch::reserve(int n_threads, int group, int n_ctx, int head_dim) {
    scores.resize(static_cast<std::size_t>(n_threads));
    q_conv.resize(static_cast<std::size_t>(n_threads));
    v_row.resize(static_cast<std::size_t>(n_threads));
    for (int i = 0; i < n_threads; ++i) {
        scores[i].resize(static_cast<std::size_t>(group) * n_ctx);
        // The K-format query heads, or for the SIMD path the f32 query heads rounded to f16 values.
        q_conv[i].resize(static_cast<std::size_t>(head_dim) * 4 * group);
        v_row[i].resize(static_cast<std::size_t>(head_dim));
    }
}

void store_kv(kv_storage& kv, kv_dtype dtype, int layer, const float* k, const float* v, int n_tokens,
              int row_elems, const std::int32_t* const* block_tables, const std::int32_t* positions) {
    const int bs = kv.block_size();
    for (int t = 0; t < n_tokens; ++t) {
        const int pos = positions[t];
        const std::int32_t block = block_tables[t][pos / bs];
        const int slot = pos % bs;
        store_row(dtype, k + static_cast<std::int64_t>(t) * row_elems, kv.k_row(layer, block, slot), row_elems);
        store_row(dtype, v + static_cast<std::int64_t>(t) * row_elems, kv.v_row(layer, block, slot), row_elems);
    }
}

void attention(const attention_args& a, thread_pool& pool, attention_scratch& s) {
    const int group = a.n_head / a.n_head_kv;
    const ggml_type kt = storage_type(a.dtype);
    const weight_kernels* kk = kernels_for(kt);
    const from_float_fn q_to_k = from_float_for(kk->vec_dot_type);
    const std::int64_t q_head_bytes = row_bytes(kk->vec_dot_type, a.head_dim);
    const int bs = a.kv->block_size();
    const std::int64_t q_stride = static_cast<std::int64_t>(a.n_head) * a.head_dim;

    // One work item per (token, kv head): the group's query heads share each key.
    const std::int64_t n_items = static_cast<std::int64_t>(a.n_tokens) * a.n_head_kv;
    const attn_item_f16_fn simd_item = a.dtype == kv_dtype::f16 && a.head_dim % 64 == 0 &&
                                                   a.head_dim <= k_attn_max_head_dim && group <= k_attn_max_group
                                           ? attn_item_f16_kernel()
                                           : nullptr;
    if (simd_item) {
        const auto job = [&](int ith, int nth) {
            attn_item_f16 it;
            it.group = group;
            it.head_dim = a.head_dim;
            it.k_layer = a.kv->k_layer(a.layer);
            it.v_layer = a.kv->v_layer(a.layer);
            it.row_bytes = a.kv->row_bytes();
            it.block_size = bs;
            it.scale = a.scale;
            it.scores = s.scores[static_cast<std::size_t>(ith)].data();
            it.q16 = reinterpret_cast<float*>(s.q_conv[static_cast<std::size_t>(ith)].data());
            for (std::int64_t item = ith; item < n_items; item += nth) {
                const int t = static_cast<int>(item / a.n_head_kv);
                const int kvh = static_cast<int>(item % a.n_head_kv);
                const int pos = a.positions[t];
                it.first = a.window > 0 ? std::max(0, pos - a.window + 1) : 0;
                it.n_keys = pos - it.first + 1;
                it.table = a.block_tables[t];
                it.head_offset = head_offset(a.dtype, kvh, a.head_dim);
                const std::int64_t q0 = t * q_stride + static_cast<std::int64_t>(kvh * group) * a.head_dim;
                it.q = a.q + q0;
                it.out = a.out + q0;
                simd_item(it);
            }
        };
        pool.run(std::cref(job));
        return;
    }
    const to_float_fn v_to_float = to_float_for(kt);
    const auto job = [&](int ith, int nth) {
        float* scores = s.scores[static_cast<std::size_t>(ith)].data();
        std::uint8_t* qc = s.q_conv[static_cast<std::size_t>(ith)].data();
        float* vbuf = s.v_row[static_cast<std::size_t>(ith)].data();
        for (std::int64_t item = ith; item < n_items; item += nth) {
            const int t = static_cast<int>(item / a.n_head_kv);
            const int kvh = static_cast<int>(item % a.n_head_kv);
            const int pos = a.positions[t];
            const int first = a.window > 0 ? std::max(0, pos - a.window + 1) : 0;
            const int n_keys = pos - first + 1;
            const std::int32_t* table = a.block_tables[t];
            const std::int64_t koff = head_offset(a.dtype, kvh, a.head_dim);

            // The query in the K storage format (the q8_0 cache meets the f32 query instead).
            for (int g = 0; g < group && a.dtype != kv_dtype::q8_0; ++g) {
                const float* qh = a.q + t * q_stride + static_cast<std::int64_t>(kvh * group + g) * a.head_dim;
                q_to_k(qh, qc + g * q_head_bytes, a.head_dim);
            }
            // Scores: (group, n_keys), scaled.
            for (int j = 0; j < n_keys; ++j) {
                const int p = first + j;
                const std::uint8_t* krow = a.kv->k_row(a.layer, table[p / bs], p % bs) + koff;
                if (a.dtype == kv_dtype::q8_0) {
                    // q8_0 cache: the key is dequantized and met by the f32 query, so
                    // the only rounding is the cache's own (quantizing the query too
                    // would add a second 8-bit error to every score).
                    v_to_float(krow, vbuf, a.head_dim);
                    for (int g = 0; g < group; ++g) {
                        const float* qh = a.q + t * q_stride + static_cast<std::int64_t>(kvh * group + g) * a.head_dim;
                        float acc = 0;
                        for (int d = 0; d < a.head_dim; ++d) acc += qh[d] * vbuf[d];
                        scores[g * n_keys + j] = acc * a.scale;
                    }
                    continue;
                }
                for (int g = 0; g < group; ++g)
                    scores[g * n_keys + j] = kk->vec_dot(a.head_dim, krow, qc + g * q_head_bytes) * a.scale;
            }
            for (int g = 0; g < group; ++g) {
                float* sg = scores + g * n_keys;
                softmax(sg, n_keys);
                for (int j = 0; j < n_keys; ++j) sg[j] = round_to_fp16(sg[j]);
            }
            // Outputs: each query head's weighted sum of the values.
            for (int g = 0; g < group; ++g) {
                float* o = a.out + t * q_stride + static_cast<std::int64_t>(kvh * group + g) * a.head_dim;
                std::fill(o, o + a.head_dim, 0.0f);
            }
            for (int j = 0; j < n_keys; ++j) {
                const int p = first + j;
                const std::uint8_t* vrow = a.kv->v_row(a.layer, table[p / bs], p % bs) + koff;
                v_to_float(vrow, vbuf, a.head_dim);
                for (int g = 0; g < group; ++g) {
                    float* o = a.out + t * q_stride + static_cast<std::int64_t>(kvh * group + g) * a.head_dim;
                    const float w = scores[g * n_keys + j];
                    for (int d = 0; d < a.head_dim; ++d) o[d] += w * vbuf[d];
                }
            }
        }
    };
    pool.run(std::cref(job));
}

}  // namespace kvlens
