// SPDX-License-Identifier: Apache-2.0
// Matrix products: quantize the activation rows once, then split the output
// rows across threads; each thread walks its rows in small tiles and, for each
// weight row, every token, so a weight row is read from memory once per tile.
#include "engine/backend/cpu/matmul.h"

#include <algorithm>

#include "engine/backend/cpu/kernels.h"

namespace kvlens {

std::int64_t matmul_scratch_bytes(const weight_view& w, std::int64_t n_tokens) {
    const weight_kernels* k = kernels_for(w.type);
    if (!k) return 0;
    return n_tokens * row_bytes(k->vec_dot_type, w.n_in);
}

void matmul(const weight_view& w, const float* x, std::int64_t n_tokens, float* y,
            thread_pool& pool, matmul_scratch& scratch) {
    const weight_kernels* k = kernels_for(w.type);
    const from_float_fn quantize = from_float_for(k->vec_dot_type);
    const std::int64_t act_row = row_bytes(k->vec_dot_type, w.n_in);
    const std::size_t need = static_cast<std::size_t>(act_row * n_tokens);
    if (scratch.act.size() < need) scratch.act.resize(need);
    std::uint8_t* act = scratch.act.data();

    pool.parallel_for(n_tokens, [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) quantize(x + t * w.n_in, act + t * act_row, w.n_in);
    });

    const vec_dot_fn dot = k->vec_dot;
    constexpr std::int64_t tile_rows = 16;
    pool.parallel_for((w.n_out + tile_rows - 1) / tile_rows, [&](std::int64_t b0, std::int64_t b1) {
        for (std::int64_t tile = b0; tile < b1; ++tile) {
            const std::int64_t r0 = tile * tile_rows;
            const std::int64_t r1 = std::min(w.n_out, r0 + tile_rows);
            for (std::int64_t t = 0; t < n_tokens; ++t) {
                const std::uint8_t* a = act + t * act_row;
                float* yt = y + t * w.n_out;
                for (std::int64_t r = r0; r < r1; ++r) yt[r] = dot(w.n_in, w.data + r * w.row_bytes, a);
            }
        }
    });
}

}  // namespace kvlens
