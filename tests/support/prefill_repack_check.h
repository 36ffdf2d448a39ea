// SPDX-License-Identifier: Apache-2.0
// What tests/cpu/test_rows16.cpp and test_rows8.cpp both hold of prefill
// over a matrix the CPU backend leaves in the file's rows (a model too
// large to copy): matmul_rows8's repack regroups each group as it goes, so
// its numbers equal the regrouped copy's bit for bit, one matrix or two at
// once (matmul_group), for the q4/q8 and K-quant types.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "engine/backend/cpu/matmul.h"
#include "engine/backend/cpu/matmul_rows8.h"
#include "engine/backend/cpu/thread_pool.h"
#include "tests/support/random_k_quant_matrix.h"
#include "tests/support/random_quant_matrix.h"

namespace kvlens::test {

// regroup: the suite's copy of a file matrix in its layout (rows16 or rows8).
inline void expect_prefill_repack_equals_copy(quant_matrix (*regroup)(const quant_matrix&)) {
    for (ggml_type t : {ggml_type::q4_0, ggml_type::q4_1, ggml_type::q8_0, ggml_type::q4_K, ggml_type::q6_K}) {
        SCOPED_TRACE(type_name(t));
        std::mt19937 rng(23 + static_cast<int>(t));
        const quant_matrix q = random_matrix(rng, t, 48, 1024), k = random_matrix(rng, t, 32, 1024);
        const quant_matrix rq = regroup(q), rk = regroup(k);
        ASSERT_TRUE(prefill_repack_applies(q.view));
        const int n_tokens = 21;
        const auto x = random_block_floats(rng, n_tokens * 1024);
        thread_pool pool(2);
        matmul_scratch scratch;
        std::vector<float> want(static_cast<std::size_t>(n_tokens * 48)), got(want.size());
        matmul(rq.view, x.data(), n_tokens, want.data(), pool, scratch);
        matmul(q.view, x.data(), n_tokens, got.data(), pool, scratch, prefill_kernel_tokens(n_tokens));
        ASSERT_EQ(want, got);
        const weight_view file[2] = {q.view, k.view}, copy[2] = {rq.view, rk.view};
        std::vector<float> wq(want.size()), wk(static_cast<std::size_t>(n_tokens * 32)), gq(wq.size()), gk(wk.size());
        float* const want_ys[2] = {wq.data(), wk.data()};
        float* const got_ys[2] = {gq.data(), gk.data()};
        matmul_group(copy, want_ys, 2, x.data(), n_tokens, pool, scratch);
        matmul_group(file, got_ys, 2, x.data(), n_tokens, pool, scratch, prefill_kernel_tokens(n_tokens));
        ASSERT_EQ(wq, gq);
        ASSERT_EQ(wk, gk);
    }
}

}  // namespace kvlens::test
