// SPDX-License-Identifier: Apache-2.0
// One sequence in consecutive KV blocks of a backend, for the tools that drive
// a backend directly, without the scheduler: bench, verify, perplexity.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/backend/backend.h"
#include "common/result.h"
#include "engine/kv/kv_types.h"
#include "engine/model/model_info.h"

class single_sequence {
public:
    // Gives the backend a KV pool of 16-token blocks for max_ctx tokens (f16 unless told).
    static kvlens::result<single_sequence> attach(kvlens::backend& be, const kvlens::model_info& info, int max_ctx,
                                                  kvlens::kv_dtype dtype = kvlens::kv_dtype::f16);

    // Runs ids at positions [pos, pos + ids.size()) and writes the logits of
    // `rows` (indices into ids; empty: the last one), (rows, n_vocab) f32.
    kvlens::status feed(std::span<const std::int32_t> ids, int pos, float* logits,
                        kvlens::forward_counts* counts = nullptr, std::span<const std::int32_t> rows = {});

private:
    kvlens::backend* be_ = nullptr;
    std::vector<std::int32_t> table_;   // (n_blocks) block ids 0, 1, 2, ...
    kvlens::forward_batch batch_;
};
