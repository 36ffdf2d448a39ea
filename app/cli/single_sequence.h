// SPDX-License-Identifier: Apache-2.0
// One sequence in consecutive KV blocks of a backend, for the tools that drive
// a backend directly, without the scheduler: bench, verify, perplexity.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/backend/backend.h"
#include "common/result.h"
#include "engine/kv/kv_geometry.h"
#include "engine/kv/kv_types.h"
#include "engine/model/model_info.h"

class single_sequence {
public:
    // Gives the backend a KV pool of 16-token blocks for max_ctx tokens (f16 unless told).
    static kvlens::result<single_sequence> attach(kvlens::backend& be, const kvlens::model_info& info, int max_ctx,
                                                  kvlens::kv_dtype dtype = kvlens::kv_dtype::f16);

    // The KV shape attach() uses (16-token blocks) and the blocks for max_ctx
    // tokens, for a backend whose pool is set up elsewhere (choose_backend).
    static kvlens::kv_geometry geometry(const kvlens::model_info& info, kvlens::kv_dtype dtype = kvlens::kv_dtype::f16);
    static std::int32_t blocks_for(const kvlens::kv_geometry& g, int max_ctx);
    // A sequence over blocks 0 .. n_blocks - 1 of a pool the backend already holds.
    static single_sequence on_initialized_pool(kvlens::backend& be, std::int32_t n_blocks);

    // Runs ids at positions [pos, pos + ids.size()) and writes the logits of
    // `rows` (indices into ids; empty: the last one), (rows, n_vocab) f32.
    kvlens::status feed(std::span<const std::int32_t> ids, int pos, float* logits,
                        kvlens::forward_counts* counts = nullptr, std::span<const std::int32_t> rows = {});

private:
    kvlens::backend* be_ = nullptr;
    std::vector<std::int32_t> table_;   // (n_blocks) block ids 0, 1, 2, ...
    kvlens::forward_batch batch_;
};
