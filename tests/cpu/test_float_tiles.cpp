// SPDX-License-Identifier: Apache-2.0
// Matrix products of f16 and bf16 weights (the AVX-512 and AVX2 float
// tiles, and bf16's vdpbf16ps tiles in prefill's class where the CPU has
// AVX512_BF16; matmul_simd.h), at each of those levels this CPU has: every
// output equals the kernel table's vec_dot of its row and token (the
// activations rounded to the weights' type either way) up to float summation
// order, for every token count and thread count, in decode's kernel class
// and prefill's, and bit for bit in decode's; within a class a token's
// numbers do not depend on the tokens beside it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul.h"
#include "engine/backend/cpu/thread_pool.h"
#include "tests/support/kernel_level_test.h"
#include "tests/support/random_quant_matrix.h"

using namespace kvlens;

namespace {

constexpr double k_rel = 1e-5;   // |tile - vec_dot| <= k_rel * sum |w x|, as test_rows8's bound

using test::quant_matrix;
using test::random_block_floats;
using test::random_quant_matrix;

// y[t][r] by the kernel table's vec_dot, pair by pair.
std::vector<float> pairwise(const quant_matrix& w, const std::vector<float>& x, int n_tokens)
{
    const weight_kernels* k = kernels_for(w.view.type);
    const std::int64_t n = w.view.n_in;
    std::vector<std::uint8_t> a(static_cast<std::size_t>(row_bytes(k->vec_dot_type, n)));
    std::vector<float> y(static_cast<std::size_t>(n_tokens * w.view.n_out));
    for (int t = 0; t < n_tokens; ++t) {
        from_float_for(k->vec_dot_type)(x.data() + t * n, a.data(), n);
        for (std::int64_t r = 0; r < w.view.n_out; ++r)
            y[static_cast<std::size_t>(t * w.view.n_out + r)] = k->vec_dot(n, w.view.data + r * w.view.row_bytes, a.data());
    }
    return y;
}

class FloatTiles : public test::kernel_level_test {
protected:
    // The levels with float tiles that this CPU has.
    static std::vector<std::string> levels()
    {
        std::vector<std::string> out;
        for (const char* l : {"avx2", "avx512"})
            if (set_cpu_kernel_level(l)) out.emplace_back(l);
        return out;
    }
    void SetUp() override
    {
        if (levels().empty()) GTEST_SKIP() << "the float tiles are AVX2's and AVX-512's";
    }
};

}  // namespace

TEST_F(FloatTiles, everyOutputEqualsVecDotInBothKernelClasses)
{
    for (const std::string& level : levels())
    for (ggml_type t : {ggml_type::f16, ggml_type::bf16})
        for (int threads : {1, 2})
            for (int n_tokens : {1, 2, 3, 4, 5, 11, 64})
                for (std::int64_t kernel_tokens : {std::int64_t{1}, std::int64_t{64}}) {   // decode's class, prefill's
                    ASSERT_TRUE(set_cpu_kernel_level(level.c_str()));
                    SCOPED_TRACE(level + " " + type_name(t) + " threads=" + std::to_string(threads) + " tokens=" +
                                 std::to_string(n_tokens) + " kernel_tokens=" + std::to_string(kernel_tokens));
                    std::mt19937 rng(40 + n_tokens + 3 * threads + static_cast<int>(t));
                    const quant_matrix w = random_quant_matrix(rng, t, 38, 640);   // 38: a last tile of 2 rows
                    const auto x = random_block_floats(rng, n_tokens * 640);
                    thread_pool pool(threads);
                    matmul_scratch scratch;
                    std::vector<float> got(static_cast<std::size_t>(n_tokens) * 38, NAN);
                    matmul(w.view, x.data(), n_tokens, got.data(), pool, scratch, kernel_tokens);
                    const double worst = test::worst_relative_error(w, x, n_tokens, pairwise(w, x, n_tokens), got);
                    if (worst > k_rel) std::fprintf(stderr, "worst relative error %g\n", worst);
                    ASSERT_TRUE(worst <= k_rel);
                    if (kernel_tokens == 1)   // decode's class: each pair summed as vec_dot sums it
                        ASSERT_EQ(0, std::memcmp(got.data(), pairwise(w, x, n_tokens).data(), got.size() * sizeof(float)));
                }
}

TEST_F(FloatTiles, aTokensNumbersDoNotDependOnItsNeighboursWithinAClass)
{
    for (const std::string& level : levels())
    for (ggml_type t : {ggml_type::f16, ggml_type::bf16}) {
        ASSERT_TRUE(set_cpu_kernel_level(level.c_str()));
        SCOPED_TRACE(level + " " + type_name(t));
        std::mt19937 rng(9);
        const quant_matrix w = random_quant_matrix(rng, t, 40, 1024);
        const int n_tokens = 300;   // more than one chunk of f32 activation rows (128 tokens of 1024)
        const auto x = random_block_floats(rng, n_tokens * 1024);
        thread_pool pool(2);
        matmul_scratch scratch;
        for (std::int64_t kernel_tokens : {std::int64_t{4}, std::int64_t{n_tokens}}) {
            std::vector<float> batch(static_cast<std::size_t>(n_tokens) * 40), alone(40);
            matmul(w.view, x.data(), n_tokens, batch.data(), pool, scratch, kernel_tokens);
            for (int tok = 0; tok < n_tokens; tok += 37) {
                matmul(w.view, x.data() + tok * 1024, 1, alone.data(), pool, scratch, kernel_tokens);
                ASSERT_EQ(0, std::memcmp(alone.data(), batch.data() + tok * 40, 40 * sizeof(float)))
                    << "token " << tok << ", kernel_tokens " << kernel_tokens;
            }
        }
    }
}
