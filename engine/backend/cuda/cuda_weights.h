// SPDX-License-Identifier: Apache-2.0
// The model's weights on the device, uploaded once at load and kept in their
// stored (quantized) types; norms and biases as f32. One allocation holds
// everything; a tied output matrix shares the embedding's bytes.
#pragma once

#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "engine/backend/cuda/cuda_types.h"
#include "engine/backend/cuda/device_buffer.h"
#include "common/result.h"

namespace kvlens {

class model;

struct dev_layer {
    const float* attn_norm = nullptr;            // (n_embd)
    const float* attn_norm_b = nullptr;          // (n_embd) or null (GPT-2's LayerNorm bias)
    const float* bo = nullptr;                   // (n_embd) or null: attn_output.bias (GPT-2)
    dev_matrix wq, wk, wv, wo;                   // (n_q, n_embd), (n_kv, n_embd) x2, (n_embd, n_q)
    const float* bq = nullptr;                   // (n_q) or null
    const float* bk = nullptr;                   // (n_kv) or null
    const float* bv = nullptr;                   // (n_kv) or null
    const float* q_norm = nullptr;               // (head_dim) or null
    const float* k_norm = nullptr;               // (head_dim) or null
    const float* ffn_norm = nullptr;             // (n_embd)
    const float* ffn_norm_b = nullptr;           // (n_embd) or null (GPT-2)
    const float* post_attn_norm = nullptr;       // (n_embd) or null (gemma3)
    const float* post_ffw_norm = nullptr;        // (n_embd) or null (gemma3)
    dev_matrix w_gate, w_up, w_down;             // (n_ff, n_embd) x2, (n_embd, n_ff)
    const float* up_b = nullptr;                 // (n_ff) or null (GPT-2)
    const float* down_b = nullptr;               // (n_embd) or null (GPT-2)
    // LFM2's short-convolution layer, in place of wq, wk, wv, wo:
    dev_matrix conv_in, conv_out;                // (3 n_embd, n_embd), (n_embd, n_embd)
    const float* conv_kernel = nullptr;          // (n_embd, taps) or null
};

struct dev_weights {
    dev_matrix tok_embd;                         // (n_vocab, n_embd)
    const float* output_norm = nullptr;          // (n_embd)
    const float* output_norm_b = nullptr;        // (n_embd) or null (GPT-2)
    const float* output_b = nullptr;             // (n_vocab) or null (Phi-2's logits' bias)
    dev_matrix pos_embd;                         // (n_ctx_train, n_embd) GPT-2's learned positions; n_out 0 without
    const float* rope_freqs = nullptr;           // (n_rot / 2) or null (model::rope_factors_for the context)
    dev_matrix output;                           // (n_vocab, n_embd); the embedding's bytes when tied
    std::vector<dev_layer> layers;
    device_buffer storage;                       // every byte above
    std::int64_t largest_matrix_elems = 0;       // n_in * n_out of the largest layer matrix
    std::int64_t widest_input = 0;               // largest n_in of any matrix
};

// Checks every matrix's type and shape against the CUDA kernels, allocates
// once (an out-of-memory error names the bytes needed and free) and copies.
result<dev_weights> upload_weights(const model& m, int max_ctx, cudaStream_t s);

}  // namespace kvlens
