// SPDX-License-Identifier: Apache-2.0
// The roofline's counts are exact: model::count_forward on the tiny model
// against a count by hand from the model's shape. A prefill chunk of four
// tokens at positions 0..3 with logits for the last one, and one decode step
// at position 4, on the F32 tiny model (a row of n_in weights is 4·n_in bytes).
#include <gtest/gtest.h>

#include "engine/model/forward_batch.h"
#include "engine/model/model.h"
#include "tests/support/tiny_model.h"

using namespace kvlens;

namespace {

struct hand_count {
    double flop = 0;
    double weight_bytes = 0;
    double kv_bytes = 0;
};

// Per token and layer: q (d → h·hd), k and v (d → hk·hd), o (h·hd → d),
// gate and up (d → f), down (f → d); a multiply-add is 2 FLOPs. The output
// matrix (d → V) only for rows whose logits are wanted. Attention: for each
// query token and layer, Q·K over its keys and the weighted sum of V, each
// h·hd multiply-adds per key: 4·h·hd FLOPs per key. Weights: every matrix
// once per pass, 4 bytes per weight. K/V: each key's K and V rows per layer.
hand_count count_by_hand(const model_info& m, const std::vector<int>& positions, int logit_rows,
                         double kv_row_bytes)
{
    const double d = m.n_embd, h = m.n_head, hk = m.n_head_kv, hd = m.head_dim, f = m.n_ff, V = m.n_vocab,
                 L = m.n_layer;
    const double per_layer_weights = d * h * hd + 2 * d * hk * hd + h * hd * d + 3 * d * f;
    double keys = 0;
    for (int pos : positions)
        keys += pos + 1;   // every earlier token and itself (no sliding window in the tiny model)
    hand_count c;
    c.flop = 2 * per_layer_weights * L * double(positions.size()) + 2 * d * V * logit_rows + 4 * h * hd * keys * L;
    c.weight_bytes = 4 * (per_layer_weights * L + d * V);
    c.kv_bytes = 2 * kv_row_bytes * keys * L;
    return c;
}

}  // namespace

TEST(ForwardCounts, aPrefillChunkAndADecodeStepCountWhatAHandCountGives)
{
    const std::string path = kvlens::test::tiny_model_path("F32");
    ASSERT_FALSE(path.empty());
    auto m = model::load(path);
    ASSERT_TRUE(m) << m.err().message;
    const model_info& info = (*m)->info();
    ASSERT_EQ(info.sliding_window, 0);
    const std::int64_t kv_row_bytes = std::int64_t(info.n_head_kv) * info.head_dim * 2;   // f16 K or V row
    const std::int32_t block_table[4] = {0, 1, 2, 3};

    forward_batch prefill;
    const std::int32_t ids[4] = {1, 2, 3, 4};
    prefill.append(ids, 0, block_table, true);
    const forward_counts pc = (*m)->count_forward(prefill, kv_row_bytes);
    const hand_count ph = count_by_hand(info, {0, 1, 2, 3}, 1, double(kv_row_bytes));
    EXPECT_DOUBLE_EQ(pc.flop, ph.flop);
    EXPECT_DOUBLE_EQ(pc.weight_bytes, ph.weight_bytes);
    EXPECT_DOUBLE_EQ(pc.kv_bytes, ph.kv_bytes);

    forward_batch decode;
    const std::int32_t next[1] = {5};
    decode.append(next, 4, block_table, true);
    const forward_counts dc = (*m)->count_forward(decode, kv_row_bytes);
    const hand_count dh = count_by_hand(info, {4}, 1, double(kv_row_bytes));
    EXPECT_DOUBLE_EQ(dc.flop, dh.flop);
    EXPECT_DOUBLE_EQ(dc.weight_bytes, dh.weight_bytes);
    EXPECT_DOUBLE_EQ(dc.kv_bytes, dh.kv_bytes);
    // The decode step's arithmetic intensity is far below the prefill chunk's:
    // the same weights read for one token instead of four.
    EXPECT_LT(dc.flop / (dc.weight_bytes + dc.kv_bytes), pc.flop / (pc.weight_bytes + pc.kv_bytes));
}
