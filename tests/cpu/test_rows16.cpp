// SPDX-License-Identifier: Apache-2.0
// The rows16 weight layout (engine/backend/cpu/rows16.h): which matrices it
// takes, that regrouping keeps every quant (q8_0's stored plus 128), and that
// matmul over a regrouped q4_0 / q4_1 / q5_0 / q8_0 / iq4_nl / q2_K .. q6_K / iq4_xs matrix equals matmul
// over the file's rows (up to float summation order) for every token count
// and thread count, one matrix or three at once, with each token's numbers
// the same alone or batched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/backend/cpu/rows16.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/quant/quant_blocks.h"
#include "tests/support/kernel_level_test.h"
#include "tests/support/prefill_repack_check.h"
#include "tests/support/random_k_quant_matrix.h"
#include "tests/support/random_quant_matrix.h"

using namespace kvlens;

namespace {

// |rows16 - file rows| <= k_rel * sum_i |w_i x_i|, as in test_rows8.
constexpr double k_rel = 1e-5;

constexpr ggml_type k_types[] = {ggml_type::q4_0, ggml_type::q4_1, ggml_type::q5_0, ggml_type::q8_0};

using test::quant_matrix;
using test::random_block_floats;
using test::random_matrix;
using test::random_quant_matrix;
using test::worst_relative_error;

quant_matrix regrouped(const quant_matrix& file)
{
    return test::regrouped(file, repack_rows16, weight_layout::rows16, rows16_row_bytes(file.view));
}

class Rows16 : public test::kernel_level_test {
protected:
    void SetUp() override
    {
        if (!set_cpu_kernel_level("avx512")) GTEST_SKIP() << "this CPU has no AVX-512 kernels";
        if (amx_usable()) GTEST_SKIP() << "with AMX the CPU backend keeps the file's rows (AMX prefill reads them)";
    }
};

}  // namespace

TEST_F(Rows16, takesQ4AndQ8MatricesOfWholeGroupsOnly)
{
    weight_view w;
    w.n_in = 64;
    w.n_out = 32;
    for (ggml_type t : k_types) {
        w.type = t;
        EXPECT_TRUE(rows16_applies(w)) << type_name(t);
    }
    w.type = ggml_type::q4_K;
    EXPECT_FALSE(rows16_applies(w)) << "q4_K needs whole super-blocks of 256";
    w.n_in = 512;
    EXPECT_TRUE(rows16_applies(w));
    EXPECT_EQ(rows16_row_bytes(w), 2 * 148) << "148 bytes per super-block row against the file's 144";
    w.n_in = 64;
    w.type = ggml_type::q6_K;
    EXPECT_FALSE(rows16_applies(w)) << "q6_K needs whole super-blocks of 256";
    w.type = ggml_type::iq4_nl;
    EXPECT_TRUE(rows16_applies(w)) << "iq4_nl: blocks of 32";
    w.type = ggml_type::iq4_xs;
    EXPECT_FALSE(rows16_applies(w)) << "iq4_xs needs whole super-blocks of 256";
    w.n_in = 512;
    EXPECT_TRUE(rows16_applies(w));
    EXPECT_EQ(rows16_row_bytes(w), 2 * 138) << "iq4_xs: 138 bytes per super-block row against the file's 136";
    w.n_in = 64;
    w.type = ggml_type::q3_K;
    EXPECT_FALSE(rows16_applies(w)) << "q3_K needs whole super-blocks of 256";
    w.n_in = 512;
    EXPECT_EQ(rows16_row_bytes(w), 2 * 114) << "q3_K: 114 bytes per super-block row against the file's 110";
    w.type = ggml_type::q2_K;
    EXPECT_EQ(rows16_row_bytes(w), 2 * 84) << "q2_K: the file's 84";
    w.n_in = 64;
    w.type = ggml_type::f16;
    EXPECT_FALSE(rows16_applies(w)) << "f16 keeps the file's rows";
    w.type = ggml_type::q4_1;
    w.n_out = 24;
    EXPECT_FALSE(rows16_applies(w)) << "24 rows are not whole groups of 16";
    w.n_out = 32;
    w.layout = weight_layout::rows16;
    EXPECT_FALSE(rows16_applies(w)) << "a regrouped matrix is not regrouped again";
    w.layout = weight_layout::rows;
    ASSERT_TRUE(set_cpu_kernel_level("avx2"));
    EXPECT_FALSE(rows16_applies(w)) << "only the AVX-512 level has the kernels";
}

TEST_F(Rows16, regroupingKeepsEveryQuant)
{
    std::mt19937 rng(7);
    for (ggml_type t : k_types) {
        if (t == ggml_type::q5_0) continue;   // its fifth bits are stored transposed: the matmul tests hold it
        const quant_matrix file = random_quant_matrix(rng, t, 48, 96);
        const quant_matrix r16 = regrouped(file);
        std::vector<std::uint8_t> a = file.bytes, b = r16.bytes;
        if (t == ggml_type::q8_0) {   // quants stored plus 128: take it back out (the scales are not quants)
            const std::int64_t groups = 48 / 16, nb = 96 / 32;
            for (std::int64_t gb = 0; gb < groups * nb; ++gb)
                for (int i = 32; i < 16 * 34; ++i) b[static_cast<std::size_t>(gb * 16 * 34 + i)] ^= 0x80;
        }
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        EXPECT_EQ(a, b) << type_name(t) << ": the same bytes, only reordered";
        EXPECT_NE(file.bytes, r16.bytes) << type_name(t);
    }
}

TEST_F(Rows16, matmulEqualsTheFileLayoutForEveryTokenCount)
{
    struct shape {
        std::int64_t n_out, n_in;
    };
    // The K-quants' rows are whole super-blocks of 256.
    const std::vector<shape> shapes = {shape{80, 576}, shape{576, 1536}, shape{32, 64}};
    const std::vector<shape> q4_K_shapes = {shape{80, 1024}, shape{576, 1536}, shape{32, 256}};
    for (ggml_type t : {ggml_type::q4_0, ggml_type::q4_1, ggml_type::q5_0, ggml_type::q8_0, ggml_type::iq4_nl, ggml_type::q2_K,
                        ggml_type::q3_K, ggml_type::q4_K, ggml_type::q5_K, ggml_type::q6_K, ggml_type::iq4_xs})
        for (const shape sh : test::has_super_blocks(t) ? q4_K_shapes : shapes)
            for (int threads : {1, 2})
            for (int n_tokens : {1, 2, 3, 4, 5, 11, 17, 64}) {
                SCOPED_TRACE(std::string(type_name(t)) + " " + std::to_string(sh.n_out) + "x" + std::to_string(sh.n_in) +
                             " threads=" + std::to_string(threads) + " tokens=" + std::to_string(n_tokens));
                std::mt19937 rng(100 + n_tokens + 7 * threads + static_cast<int>(t));
                const quant_matrix file = random_matrix(rng, t, sh.n_out, sh.n_in);
                const quant_matrix r16 = regrouped(file);
                ASSERT_EQ(r16.bytes.size(), static_cast<std::size_t>(sh.n_out * rows16_row_bytes(file.view)));
                const auto x = random_block_floats(rng, n_tokens * sh.n_in);
                thread_pool pool(threads);
                matmul_scratch scratch;
                std::vector<float> want(static_cast<std::size_t>(n_tokens * sh.n_out), NAN), got(want.size(), NAN);
                // The file's rows through their own kernels (decode's class: prefill's would regroup them).
                matmul(file.view, x.data(), n_tokens, want.data(), pool, scratch, 1);
                matmul(r16.view, x.data(), n_tokens, got.data(), pool, scratch);
                const double worst = worst_relative_error(file, x, n_tokens, want, got);
                if (worst > k_rel) std::fprintf(stderr, "worst relative error %g\n", worst);
                ASSERT_TRUE(worst <= k_rel);
            }
}

TEST_F(Rows16, aTokensNumbersDoNotDependOnItsNeighbours)
{
    for (ggml_type t : {ggml_type::q4_0, ggml_type::q4_1, ggml_type::q5_0, ggml_type::q8_0, ggml_type::iq4_nl, ggml_type::q2_K,
                        ggml_type::q3_K, ggml_type::q4_K, ggml_type::q5_K, ggml_type::q6_K, ggml_type::iq4_xs}) {
        SCOPED_TRACE(type_name(t));
        std::mt19937 rng(5);
        const quant_matrix r16 = regrouped(random_matrix(rng, t, 64, 1536));
        const int n_tokens = 37;
        const auto x = random_block_floats(rng, n_tokens * 1536);
        thread_pool pool(2);
        matmul_scratch scratch;
        std::vector<float> batch(static_cast<std::size_t>(n_tokens) * 64), alone(64);
        matmul(r16.view, x.data(), n_tokens, batch.data(), pool, scratch);
        for (int tok = 0; tok < n_tokens; ++tok) {
            matmul(r16.view, x.data() + tok * 1536, 1, alone.data(), pool, scratch);
            for (int r = 0; r < 64; ++r)
                ASSERT_EQ(alone[static_cast<std::size_t>(r)], batch[static_cast<std::size_t>(tok * 64 + r)])
                    << "token " << tok << ", row " << r;
        }
    }
}

TEST_F(Rows16, threeMatricesAtOnceEqualEachAlone)
{
    std::mt19937 rng(11);
    const quant_matrix q = regrouped(random_quant_matrix(rng, ggml_type::q4_1, 64, 576));
    const quant_matrix k = regrouped(random_quant_matrix(rng, ggml_type::q4_1, 32, 576));
    const quant_matrix v = regrouped(random_quant_matrix(rng, ggml_type::q4_1, 16, 576));
    const int n_tokens = 6;
    const auto x = random_block_floats(rng, n_tokens * 576);
    thread_pool pool(2);
    matmul_scratch scratch;
    const weight_view ws[3] = {q.view, k.view, v.view};
    std::vector<float> yq(n_tokens * 64), yk(n_tokens * 32), yv(n_tokens * 16);
    float* const ys[3] = {yq.data(), yk.data(), yv.data()};
    matmul_group(ws, ys, 3, x.data(), n_tokens, pool, scratch);
    for (int m = 0; m < 3; ++m) {
        std::vector<float> alone(static_cast<std::size_t>(n_tokens * ws[m].n_out));
        matmul(ws[m], x.data(), n_tokens, alone.data(), pool, scratch);
        for (std::size_t i = 0; i < alone.size(); ++i) ASSERT_EQ(alone[i], ys[m][i]) << "matrix " << m << ", output " << i;
    }
}

// A matrix the CPU backend leaves in the file's rows (a model too large to
// copy) is regrouped as prefill goes (matmul_rows8's repack): the same
// numbers as its regrouped copy, bit for bit (prefill_repack_check.h).
TEST_F(Rows16, prefillOverTheFilesRowsEqualsTheRegroupedCopyBitForBit)
{
    test::expect_prefill_repack_equals_copy(regrouped);
}
