// SPDX-License-Identifier: Apache-2.0
// A single sequence on a backend's KV pool.
#include "app/cli/single_sequence.h"

#include <numeric>

#include "engine/kv/kv_geometry.h"

kvlens::result<single_sequence> single_sequence::attach(kvlens::backend& be, const kvlens::model_info& info,
                                                        int max_ctx, kvlens::kv_dtype dtype) {
    const kvlens::kv_geometry g = kvlens::make_kv_geometry(info, dtype, 16);
    const auto n_blocks = static_cast<std::int32_t>(g.blocks_for_tokens(max_ctx));
    if (auto s = be.init_kv(g, n_blocks); !s) return s.err();
    single_sequence seq;
    seq.be_ = &be;
    seq.table_.resize(static_cast<std::size_t>(n_blocks));
    std::iota(seq.table_.begin(), seq.table_.end(), 0);
    return seq;
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
