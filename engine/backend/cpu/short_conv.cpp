// SPDX-License-Identifier: Apache-2.0
// LFM2's short convolution (short_conv.h), on the stored rows in place. The work is n_embd * (taps + 2)
// multiply-adds per token, against 4 n_embd^2 in the layer's two products, so
// it runs on the calling thread in plain loops the compiler vectorizes.
#include "engine/backend/cpu/short_conv.h"

#include <algorithm>
#include <cstring>

namespace kvlens {

namespace {

// The two halves (K slot, V slot) of the stored B*X row of the token at pos (>= 0) through its table.
struct state_row {
    float* first;
    float* second;
};
state_row row_at(const short_conv_args& a, const std::int32_t* table, int pos) {
    const int bs = a.state->block_size();
    const std::int32_t block = table[pos / bs];
    return {reinterpret_cast<float*>(a.state->k_row(a.layer, block, pos % bs)),
            reinterpret_cast<float*>(a.state->v_row(a.layer, block, pos % bs))};
}

}  // namespace

void short_conv(const short_conv_args& a) {
    const int E = a.n_embd, H = a.n_embd / 2;
    for (int t = 0; t < a.n_tokens; ++t) {
        const float* b = a.bcx + static_cast<std::size_t>(t) * 3 * E;
        const float* x = b + 2 * E;
        const state_row row = row_at(a, a.block_tables[t], a.positions[t]);
        for (int i = 0; i < H; ++i) row.first[i] = b[i] * x[i];
        for (int i = H; i < E; ++i) row.second[i - H] = b[i] * x[i];
    }
    for (int t = 0; t < a.n_tokens; ++t) {
        float* y = a.out + static_cast<std::size_t>(t) * E;
        std::fill(y, y + E, 0.0f);
        const int pos = a.positions[t];
        // Tap j multiplies the row of position pos - (taps - 1) + j; the last tap the token's own.
        for (int j = std::max(0, a.taps - 1 - pos); j < a.taps; ++j) {
            const state_row row = row_at(a, a.block_tables[t], pos - (a.taps - 1) + j);
            const float* w = a.kernel + j;
            for (int i = 0; i < H; ++i) y[i] += row.first[i] * w[static_cast<std::size_t>(i) * a.taps];
            for (int i = H; i < E; ++i) y[i] += row.second[i - H] * w[static_cast<std::size_t>(i) * a.taps];
        }
        const float* c = a.bcx + static_cast<std::size_t>(t) * 3 * E + E;
        for (int i = 0; i < E; ++i) y[i] *= c[i];
    }
}

}  // namespace kvlens
