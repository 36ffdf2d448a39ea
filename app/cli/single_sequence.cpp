// SPDX-License-Identifier: Apache-2.0
// A single sequence on a backend's KV pool.
#include "app/cli/single_sequence.h"

#include <numeric>

#include "engine/kv/kv_geometry.h"

kvlens::kv_geometry single_sequence::geometry(const kvlens::model_info& info, kvlens::kv_dtype dtype) {
    return kvlens::make_kv_geometry(info, dtype, 16);
}

std::int32_t single_sequence::blocks_for(const kvlens::kv_geometry& g, int max_ctx) {
    return static_cast<std::int32_t>(g.blocks_for_tokens(max_ctx));
}

single_sequence single_sequence::on_initialized_pool(kvlens::backend& be, std::int32_t n_blocks) {
    single_sequence seq;
    seq.be_ = &be;
    seq.table_.resize(static_cast<std::size_t>(n_blocks));
    std::iota(seq.table_.begin(), seq.table_.end(), 0);
    return seq;
}

kvlens::result<single_sequence> single_sequence::attach(kvlens::backend& be, const kvlens::model_info& info,
                                                        int max_ctx, kvlens::kv_dtype dtype) {
    const kvlens::kv_geometry g = geometry(info, dtype);
    const std::int32_t n_blocks = blocks_for(g, max_ctx);
    if (auto s = be.init_kv(g, n_blocks); !s) return s.err();
    return on_initialized_pool(be, n_blocks);
}

kvlens::status single_sequence::feed(std::span<const std::int32_t> ids, int pos, float* logits,
                                     kvlens::forward_counts* counts, std::span<const std::int32_t> rows) {
    batch_.clear();
    for (std::size_t i = 0; i < ids.size(); ++i) {
        batch_.tokens.push_back(ids[i]);
        batch_.positions.push_back(pos + static_cast<int>(i));
        batch_.block_tables.push_back(table_.data());
    }
    if (rows.empty()) batch_.logit_rows.push_back(static_cast<std::int32_t>(ids.size()) - 1);
    else batch_.logit_rows.assign(rows.begin(), rows.end());
    return be_->forward(batch_, logits, counts);
}
