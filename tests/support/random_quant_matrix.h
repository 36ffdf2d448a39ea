// SPDX-License-Identifier: Apache-2.0
// Random quantized matrices for the suites that check a regrouped weight
// layout (tests/cpu/test_rows8.cpp, test_rows16.cpp) against the file's row
// order: activations and weights of magnitudes 10^U(-3, 1) per 32-element
// block, a matrix quantized row by row in the file's layout, and the error
// measure both suites bound.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "engine/backend/cpu/kernels.h"
#include "engine/model/weight_view.h"

namespace kvlens::test {

// n floats of magnitudes 10^U(-3, 1) per 32-element block (activations and weights).
inline std::vector<float> random_block_floats(std::mt19937& rng, std::int64_t n) {
    std::vector<float> x(static_cast<std::size_t>(n));
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_real_distribution<float> expo(-3.0f, 1.0f);
    for (std::int64_t b = 0; b < n / 32; ++b) {
        const float scale = std::pow(10.0f, expo(rng));
        for (int j = 0; j < 32; ++j) x[static_cast<std::size_t>(b * 32 + j)] = normal(rng) * scale;
    }
    return x;
}

// A matrix of n_out rows of n_in random weights quantized to t: its bytes and a view of them.
struct quant_matrix {
    std::vector<std::uint8_t> bytes;
    weight_view view;
};

// file's matrix regrouped by repack (repack_rows8 or repack_rows16) into
// layout: the same bytes count (or row_bytes per row: rows16's q4_K), a view
// on the regrouped copy.
inline quant_matrix regrouped(const quant_matrix& file, void (*repack)(const weight_view&, std::uint8_t*),
                              weight_layout layout, std::int64_t row_bytes = 0) {
    quant_matrix m;
    m.bytes.resize(row_bytes > 0 ? static_cast<std::size_t>(row_bytes * file.view.n_out) : file.bytes.size());
    repack(file.view, m.bytes.data());
    m.view = file.view;
    if (row_bytes > 0) m.view.row_bytes = row_bytes;
    m.view.layout = layout;
    m.view.data = m.bytes.data();
    return m;
}


inline quant_matrix random_quant_matrix(std::mt19937& rng, ggml_type t, std::int64_t n_out, std::int64_t n_in) {
    quant_matrix m;
    m.view.type = t;
    m.view.n_in = n_in;
    m.view.n_out = n_out;
    m.view.row_bytes = row_bytes(t, n_in);
    m.bytes.resize(static_cast<std::size_t>(m.view.row_bytes * n_out));
    const auto x = random_block_floats(rng, n_in * n_out);
    for (std::int64_t r = 0; r < n_out; ++r)
        from_float_for(t)(x.data() + r * n_in, m.bytes.data() + r * m.view.row_bytes, n_in);
    m.view.data = m.bytes.data();
    return m;
}

// The largest |a - b| / sum |w x| over the outputs of y = x w^T (n_tokens rows
// of x); infinity where either output is not finite.
inline double worst_relative_error(const quant_matrix& file, const std::vector<float>& x, std::int64_t n_tokens,
                                   const std::vector<float>& a, const std::vector<float>& b) {
    const weight_view& w = file.view;
    std::vector<float> wf(static_cast<std::size_t>(w.n_in));
    double worst = 0;
    for (std::int64_t r = 0; r < w.n_out; ++r) {
        to_float_for(w.type)(w.data + r * w.row_bytes, wf.data(), w.n_in);
        for (std::int64_t t = 0; t < n_tokens; ++t) {
            double scale = 0;
            for (std::int64_t i = 0; i < w.n_in; ++i) scale += std::fabs(static_cast<double>(wf[i]) * x[t * w.n_in + i]);
            const std::size_t at = static_cast<std::size_t>(t * w.n_out + r);
            if (!std::isfinite(a[at]) || !std::isfinite(b[at])) return INFINITY;
            worst = std::max(worst, std::fabs(static_cast<double>(a[at]) - b[at]) / scale);
        }
    }
    return worst;
}

}  // namespace kvlens::test
