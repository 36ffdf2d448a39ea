// SPDX-License-Identifier: Apache-2.0
// LFM2's short convolution (short_conv.h). The work is n_embd * (taps + 2)
// multiply-adds per token, against 4 n_embd^2 in the layer's two products, so
// it runs on the calling thread in plain loops the compiler vectorizes.
#include "engine/backend/cpu/short_conv.h"

#include <algorithm>
#include <cstring>

namespace kvlens {

namespace {

// The stored B*X row of the token at pos (>= 0) through its table: two halves.
void load_state_row(const short_conv_args& a, const std::int32_t* table, int pos, float* row) {
    const int bs = a.state->block_size();
    const std::int32_t block = table[pos / bs];
    const std::size_t half = static_cast<std::size_t>(a.n_embd / 2) * sizeof(float);
    std::memcpy(row, a.state->k_row(a.layer, block, pos % bs), half);
    std::memcpy(row + a.n_embd / 2, a.state->v_row(a.layer, block, pos % bs), half);
}

}  // namespace

void short_conv(const short_conv_args& a) {
    const int E = a.n_embd;
    const int bs = a.state->block_size();
    const std::size_t half = static_cast<std::size_t>(E / 2) * sizeof(float);
    for (int t = 0; t < a.n_tokens; ++t) {
        const float* b = a.bcx + static_cast<std::size_t>(t) * 3 * E;
        const float* x = b + 2 * E;
        for (int i = 0; i < E; ++i) a.bx[i] = b[i] * x[i];
        const int pos = a.positions[t];
        const std::int32_t block = a.block_tables[t][pos / bs];
        std::memcpy(a.state->k_row(a.layer, block, pos % bs), a.bx, half);
        std::memcpy(a.state->v_row(a.layer, block, pos % bs), a.bx + E / 2, half);
    }
    for (int t = 0; t < a.n_tokens; ++t) {
        float* y = a.out + static_cast<std::size_t>(t) * E;
        std::fill(y, y + E, 0.0f);
        const int pos = a.positions[t];
        // Tap j multiplies the row of position pos - (taps - 1) + j; the last tap the token's own.
        for (int j = std::max(0, a.taps - 1 - pos); j < a.taps; ++j) {
            load_state_row(a, a.block_tables[t], pos - (a.taps - 1) + j, a.bx);
            for (int i = 0; i < E; ++i) y[i] += a.bx[i] * a.kernel[static_cast<std::size_t>(i) * a.taps + j];
        }
        const float* c = a.bcx + static_cast<std::size_t>(t) * 3 * E + E;
        for (int i = 0; i < E; ++i) y[i] *= c[i];
    }
}

}  // namespace kvlens
