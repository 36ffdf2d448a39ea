// SPDX-License-Identifier: Apache-2.0
// The rows8 weight layout (engine/backend/cpu/rows8.h): which matrices it
// takes, that regrouping keeps every byte (q5's fifth bits transposed), and that matmul over a regrouped
// q4_0 / q4_1 / q5_0 / q5_1 / q8_0 / iq4_nl / q2_K .. q6_K / iq4_xs matrix equals matmul over the file's rows
// (up to float summation order) for every token count and thread count, one matrix or
// three at once, with each token's numbers the same alone or batched, and
// that full-scale quants sum exactly (no int16 overflow in the kernels), with
// AVX-VNNI's vpdpbusd and with maddubs alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul.h"
#include "engine/backend/cpu/rows8.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/quant/quant_blocks.h"
#include "tests/support/kernel_level_test.h"
#include "tests/support/prefill_repack_check.h"
#include "tests/support/random_k_quant_matrix.h"
#include "tests/support/random_quant_matrix.h"

using namespace kvlens;

namespace {

constexpr ggml_type k_types[] = {ggml_type::q4_0, ggml_type::q4_1, ggml_type::q5_0, ggml_type::q5_1, ggml_type::q8_0};
constexpr ggml_type k_k_quants[] = {ggml_type::q2_K, ggml_type::q3_K, ggml_type::q4_K, ggml_type::q5_K, ggml_type::q6_K,
                                    ggml_type::iq4_xs};

// |rows8 - file rows| <= k_rel * sum_i |w_i x_i|, as in test_cpu_kernels.
constexpr double k_rel = 1e-5;

using test::quant_matrix;
using test::random_block_floats;
using test::random_matrix;
using test::random_quant_matrix;
using test::worst_relative_error;

// The file's bytes with each q5 block's fifth bits as rows8 stores them
// (rows8_fifth_bit_planes); other types' bytes as they are.
std::vector<std::uint8_t> with_fifth_bit_planes(const quant_matrix& file, ggml_type t)
{
    std::vector<std::uint8_t> bytes = file.bytes;
    if (t != ggml_type::q5_0 && t != ggml_type::q5_1) return bytes;
    const std::size_t block = t == ggml_type::q5_0 ? sizeof(block_q5_0) : sizeof(block_q5_1);
    const std::size_t qh_at = t == ggml_type::q5_0 ? offsetof(block_q5_0, qh) : offsetof(block_q5_1, qh);
    for (std::size_t at = 0; at + block <= bytes.size(); at += block) {
        const std::uint32_t planes = rows8_fifth_bit_planes(bytes.data() + at + qh_at);
        std::memcpy(bytes.data() + at + qh_at, &planes, 4);
    }
    return bytes;
}

// The same matrix regrouped.
quant_matrix regrouped(const quant_matrix& file)
{
    return test::regrouped(file, repack_rows8, weight_layout::rows8, rows8_row_bytes(file.view));
}

class Rows8 : public test::kernel_level_test {
protected:
    void SetUp() override
    {
        if (!set_cpu_kernel_level("avx2")) GTEST_SKIP() << "this CPU has no AVX2 kernels";
    }
    void TearDown() override
    {
        set_avx_vnni_allowed(true);
        test::kernel_level_test::TearDown();
    }
};

// Runs check with the AVX-VNNI kernels (where the CPU has them) and with the maddubs ones.
template <class Check>
void with_each_multiply(Check check)
{
    for (const bool vnni : {true, false}) {
        set_avx_vnni_allowed(vnni);
        if (vnni && !avx_vnni_usable()) continue;
        SCOPED_TRACE(vnni ? "AVX-VNNI" : "maddubs");
        check();
    }
    set_avx_vnni_allowed(true);
}

// file regrouped, against every activation 127 (quantized to 127 or -127,
// exactly), with each multiply and each token count: every output is want.
void expect_every_output(const quant_matrix& file, double want, std::initializer_list<int> token_counts)
{
    const quant_matrix r8 = regrouped(file);
    const std::int64_t n_in = file.view.n_in, n_out = file.view.n_out;
    thread_pool pool(1);
    matmul_scratch scratch;
    with_each_multiply([&] {
        for (int n_tokens : token_counts) {
            const std::vector<float> x(static_cast<std::size_t>(n_tokens * n_in), 127.0f);
            std::vector<float> y(static_cast<std::size_t>(n_tokens * n_out), NAN);
            matmul(r8.view, x.data(), n_tokens, y.data(), pool, scratch);
            for (std::size_t i = 0; i < y.size(); ++i)
                EXPECT_EQ(y[i], static_cast<float>(want)) << "tokens " << n_tokens << ", output " << i;
        }
    });
}

}  // namespace

TEST_F(Rows8, takesMatricesOf32ElementBlocksInWholeGroupsOnly)
{
    weight_view w;
    w.n_in = 64;
    w.n_out = 16;
    for (ggml_type t : k_types) {
        w.type = t;
        EXPECT_TRUE(rows8_applies(w)) << type_name(t);
    }
    for (ggml_type t : k_k_quants) {
        w.type = t;
        EXPECT_FALSE(rows8_applies(w)) << type_name(t) << " needs whole super-blocks of 256";
        w.n_in = 512;
        EXPECT_TRUE(rows8_applies(w)) << type_name(t);
        w.n_in = 64;
    }
    w.n_in = 512;
    w.type = ggml_type::q4_K;
    EXPECT_EQ(rows8_row_bytes(w), 2 * 148) << "q4_K: 148 bytes per super-block row against the file's 144";
    w.type = ggml_type::q5_K;
    EXPECT_EQ(rows8_row_bytes(w), 2 * 180) << "q5_K: 180 against 176";
    w.type = ggml_type::q6_K;
    EXPECT_EQ(rows8_row_bytes(w), 2 * 210) << "q6_K: the file's 210";
    w.type = ggml_type::iq4_xs;
    EXPECT_EQ(rows8_row_bytes(w), 2 * 138) << "iq4_xs: 138 against 136";
    w.type = ggml_type::q3_K;
    EXPECT_EQ(rows8_row_bytes(w), 2 * 114) << "q3_K: 114 against 110";
    w.type = ggml_type::q2_K;
    EXPECT_EQ(rows8_row_bytes(w), 2 * 84) << "q2_K: the file's 84";
    w.n_in = 64;
    w.type = ggml_type::iq4_nl;
    EXPECT_TRUE(rows8_applies(w)) << "iq4_nl: blocks of 32";
    w.type = ggml_type::q4_1;
    w.n_out = 12;
    EXPECT_FALSE(rows8_applies(w)) << "12 rows are not whole groups of 8";
    w.n_out = 16;
    w.layout = weight_layout::rows8;
    EXPECT_FALSE(rows8_applies(w)) << "a regrouped matrix is not regrouped again";
    w.layout = weight_layout::rows;
    ASSERT_TRUE(set_cpu_kernel_level("scalar"));
    EXPECT_FALSE(rows8_applies(w)) << "only the AVX2 level has the kernels";
}

TEST_F(Rows8, regroupingKeepsEveryByte)
{
    std::mt19937 rng(7);
    for (ggml_type t : k_types) {
        const quant_matrix file = random_quant_matrix(rng, t, 24, 96);
        const quant_matrix r8 = regrouped(file);
        std::vector<std::uint8_t> a = with_fifth_bit_planes(file, t), b = r8.bytes;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        EXPECT_EQ(a, b) << type_name(t) << ": the same bytes, only reordered";
        EXPECT_NE(file.bytes, r8.bytes) << type_name(t);
    }
}

TEST_F(Rows8, fifthBitPlanesPutElementFourJPlusKAtBitJOfByteK)
{
    for (int e = 0; e < 32; ++e) {
        std::uint8_t qh[4] = {0, 0, 0, 0};
        qh[e / 8] = static_cast<std::uint8_t>(1u << (e % 8));   // only element e's fifth bit
        const int j = e / 4, k = e % 4;
        EXPECT_EQ(rows8_fifth_bit_planes(qh), 1u << (8 * k + j)) << "element " << e;
    }
    const std::uint8_t all[4] = {0xFF, 0xFF, 0xFF, 0xFF};
    EXPECT_EQ(rows8_fifth_bit_planes(all), 0xFFFFFFFFu);
}

TEST_F(Rows8, matmulEqualsTheFileLayoutForEveryTokenCount)
{
    std::vector<ggml_type> types(std::begin(k_types), std::end(k_types));
    types.push_back(ggml_type::iq4_nl);
    types.insert(types.end(), std::begin(k_k_quants), std::end(k_k_quants));
    for (ggml_type t : types)
        for (int threads : {1, 2})
            for (int n_tokens : {1, 2, 3, 4, 5, 11, 17, 64}) {
                SCOPED_TRACE(std::string(type_name(t)) + " threads=" + std::to_string(threads) +
                             " tokens=" + std::to_string(n_tokens));
                std::mt19937 rng(100 + n_tokens + 7 * threads + static_cast<int>(t));
                const std::int64_t n_in = test::has_super_blocks(t) ? 768 : 576;
                const quant_matrix file = random_matrix(rng, t, 40, n_in);
                const quant_matrix r8 = regrouped(file);
                ASSERT_EQ(r8.bytes.size(), static_cast<std::size_t>(40 * rows8_row_bytes(file.view)));
                const auto x = random_block_floats(rng, n_tokens * n_in);
                thread_pool pool(threads);
                matmul_scratch scratch;
                std::vector<float> want(static_cast<std::size_t>(n_tokens) * 40, NAN), got(want.size(), NAN);
                // The file's rows through their own kernels (decode's class: prefill's would regroup them).
                matmul(file.view, x.data(), n_tokens, want.data(), pool, scratch, 1);
                matmul(r8.view, x.data(), n_tokens, got.data(), pool, scratch);
                const double worst = worst_relative_error(file, x, n_tokens, want, got);
                if (worst > k_rel) std::fprintf(stderr, "worst relative error %g\n", worst);
                ASSERT_TRUE(worst <= k_rel);
            }
}

// A token alone reads its quantized activation row, a batch an expansion of
// the rows (rows8.h, a_rows): the same products, so the same numbers.
TEST_F(Rows8, aTokensNumbersDoNotDependOnItsNeighbours)
{
    for (ggml_type type : {ggml_type::q4_0, ggml_type::q4_1, ggml_type::q5_0, ggml_type::q5_1, ggml_type::q8_0,
                           ggml_type::iq4_nl, ggml_type::q2_K, ggml_type::q3_K, ggml_type::q4_K, ggml_type::q5_K,
                           ggml_type::q6_K, ggml_type::iq4_xs}) {
        SCOPED_TRACE(type_name(type));
        std::mt19937 rng(5);
        const quant_matrix r8 = regrouped(random_matrix(rng, type, 64, 1536));
        const int n_tokens = 37;   // more than one chunk of 1536-wide activations (20 tokens)
        const auto x = random_block_floats(rng, n_tokens * 1536);
        thread_pool pool(2);
        matmul_scratch scratch;
        std::vector<float> batch(static_cast<std::size_t>(n_tokens) * 64), alone(64);
        matmul(r8.view, x.data(), n_tokens, batch.data(), pool, scratch);
        for (int t = 0; t < n_tokens; ++t) {
            matmul(r8.view, x.data() + t * 1536, 1, alone.data(), pool, scratch);
            for (int r = 0; r < 64; ++r)
                ASSERT_EQ(alone[static_cast<std::size_t>(r)], batch[static_cast<std::size_t>(t * 64 + r)])
                    << "token " << t << ", row " << r;
        }
    }
}

TEST_F(Rows8, threeMatricesAtOnceEqualEachAlone)
{
    std::mt19937 rng(11);
    const quant_matrix q = regrouped(random_quant_matrix(rng, ggml_type::q4_1, 72, 576));
    const quant_matrix k = regrouped(random_quant_matrix(rng, ggml_type::q4_1, 24, 576));
    const quant_matrix v = regrouped(random_quant_matrix(rng, ggml_type::q4_1, 24, 576));
    const int n_tokens = 6;
    const auto x = random_block_floats(rng, n_tokens * 576);
    thread_pool pool(2);
    matmul_scratch scratch;
    const weight_view ws[3] = {q.view, k.view, v.view};
    std::vector<float> yq(n_tokens * 72), yk(n_tokens * 24), yv(n_tokens * 24);
    float* const ys[3] = {yq.data(), yk.data(), yv.data()};
    matmul_group(ws, ys, 3, x.data(), n_tokens, pool, scratch);
    for (int m = 0; m < 3; ++m) {
        std::vector<float> alone(static_cast<std::size_t>(n_tokens * ws[m].n_out));
        matmul(ws[m], x.data(), n_tokens, alone.data(), pool, scratch);
        for (std::size_t i = 0; i < alone.size(); ++i) ASSERT_EQ(alone[i], ys[m][i]) << "matrix " << m << ", output " << i;
    }
}

TEST_F(Rows8, fullScaleQ8QuantsSumExactly)
{
    // Every weight quant -128 (the one whose |w| needs all 8 bits) with d = 1,
    // every activation 127 (quantized to 127 with d = 1): each output is
    // exactly -128 * 127 per element, which a saturated or wrapped pair sum misses.
    constexpr int n_in = 256, n_out = 16;
    quant_matrix file;
    file.view.type = ggml_type::q8_0;
    file.view.n_in = n_in;
    file.view.n_out = n_out;
    file.view.row_bytes = row_bytes(ggml_type::q8_0, n_in);
    file.bytes.assign(static_cast<std::size_t>(file.view.row_bytes * n_out), 0x80);
    for (std::int64_t blk = 0; blk < n_out * n_in / 32; ++blk) {
        file.bytes[static_cast<std::size_t>(blk * 34)] = 0x00;       // d = 1.0 as f16 (0x3C00), little-endian
        file.bytes[static_cast<std::size_t>(blk * 34 + 1)] = 0x3C;
    }
    file.view.data = file.bytes.data();
    expect_every_output(file, -128.0 * 127.0 * n_in, {1});
}

// Every K-quant at its largest value (iq4_xs: its level -127) against
// activations of full scale: the kernels add products in int16 only as far
// as they cannot overflow (q4_K 8 maddubs, q5_K 4, q6_K 2, iq4_xs 1 between
// widenings), so each output is exact.
TEST_F(Rows8, fullScaleKQuantsSumExactly)
{
    constexpr int n_in = 256, n_out = 8;
    // Activations of 127: q8_K's d = -1, every quant -127.
    for (ggml_type t : k_k_quants) {
        SCOPED_TRACE(type_name(t));
        quant_matrix file;
        file.view.type = t;
        file.view.n_in = n_in;
        file.view.n_out = n_out;
        file.view.row_bytes = row_bytes(t, n_in);
        file.bytes.assign(static_cast<std::size_t>(file.view.row_bytes * n_out), 0);
        double want = 0;
        for (int r = 0; r < n_out; ++r) {
            std::uint8_t* blk = file.bytes.data() + r * file.view.row_bytes;
            if (t == ggml_type::q3_K) {   // every quant 3 (stored 7), every scale 63 - 32 = 31, d = 1
                auto* b = reinterpret_cast<block_q3_K*>(blk);
                b->d = 0x3C00;
                std::memset(b->hmask, 0xFF, sizeof(b->hmask));
                std::memset(b->qs, 0xFF, sizeof(b->qs));
                std::memset(b->scales, 0xFF, sizeof(b->scales));
                want = 31.0 * 3 * 127 * n_in;
            } else if (t == ggml_type::q2_K) {   // every quant 3, scales 15, minimums 0, d = 1
                auto* b = reinterpret_cast<block_q2_K*>(blk);
                b->d = 0x3C00;
                b->dmin = 0;
                std::memset(b->qs, 0xFF, sizeof(b->qs));
                std::memset(b->scales, 0x0F, sizeof(b->scales));
                want = 15.0 * 3 * 127 * n_in;
            } else if (t == ggml_type::iq4_xs) {   // every index 0 (level -127), every scale 63 - 32 = 31, d = 1
                auto* b = reinterpret_cast<block_iq4_xs*>(blk);
                b->d = 0x3C00;
                b->scales_h = 0xFFFF;
                std::memset(b->scales_l, 0xFF, sizeof(b->scales_l));
                std::memset(b->qs, 0, sizeof(b->qs));
                want = 31.0 * -127 * 127 * n_in;
            } else if (t == ggml_type::q6_K) {   // every quant 63 (value 31), every scale 1, d = 1
                auto* b = reinterpret_cast<block_q6_K*>(blk);
                std::memset(b->ql, 0xFF, sizeof(b->ql));
                std::memset(b->qh, 0xFF, sizeof(b->qh));
                std::memset(b->scales, 1, sizeof(b->scales));
                b->d = 0x3C00;
                want = 31.0 * 127 * n_in;
            } else {   // every quant 15 (q5_K: 31), scales 63, minimums 0, d = 1
                auto* b = reinterpret_cast<block_q4_K*>(blk);   // q5_K's fields before qh lie the same
                b->d = 0x3C00;
                b->dmin = 0;
                const std::uint8_t scales[12] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0xF, 0xF, 0xF, 0xF};   // sc 63, m 0
                std::memcpy(b->scales, scales, 12);
                if (t == ggml_type::q4_K) {
                    std::memset(b->qs, 0xFF, sizeof(b->qs));
                    want = 63.0 * 15 * 127 * n_in;
                } else {
                    auto* b5 = reinterpret_cast<block_q5_K*>(blk);
                    std::memset(b5->qh, 0xFF, sizeof(b5->qh));
                    std::memset(b5->qs, 0xFF, sizeof(b5->qs));
                    want = 63.0 * 31 * 127 * n_in;
                }
            }
        }
        file.view.data = file.bytes.data();
        expect_every_output(file, want, {1, 4});
    }
}

// iq4_nl's level -127 (index 0) against activations of 127: each maddubs
// pair reaches 2 x 127 x 127 and is widened at once, so the sum is exact.
TEST_F(Rows8, fullScaleIq4NlLevelsSumExactly)
{
    constexpr int n_in = 256, n_out = 8;
    quant_matrix file;
    file.view.type = ggml_type::iq4_nl;
    file.view.n_in = n_in;
    file.view.n_out = n_out;
    file.view.row_bytes = row_bytes(ggml_type::iq4_nl, n_in);
    file.bytes.assign(static_cast<std::size_t>(file.view.row_bytes * n_out), 0x00);   // every index 0
    for (std::int64_t blk = 0; blk < n_out * n_in / 32; ++blk)
        file.bytes[static_cast<std::size_t>(blk * 18 + 1)] = 0x3C;   // d = 1.0 as f16 (0x3C00), little-endian
    file.view.data = file.bytes.data();
    expect_every_output(file, -127.0 * 127.0 * n_in, {1, 4});
}

// The AVX-VNNI kernels (vpdpbusd: 4 products straight into int32) and the
// maddubs ones (products added in int16 as far as they cannot overflow, then
// widened) sum the same integers and scale them alike: every type gives the
// same bits either way, one token or a batch.
TEST_F(Rows8, avxVnniKernelsGiveTheMaddubsKernelsBits)
{
    set_avx_vnni_allowed(true);
    if (!avx_vnni_usable()) GTEST_SKIP() << "this CPU has no AVX-VNNI (or KVLENS_NO_AVX_VNNI is set)";
    std::vector<ggml_type> types(std::begin(k_types), std::end(k_types));
    types.push_back(ggml_type::iq4_nl);
    types.insert(types.end(), std::begin(k_k_quants), std::end(k_k_quants));
    for (ggml_type t : types)
        for (int n_tokens : {1, 3, 4, 9}) {
            SCOPED_TRACE(std::string(type_name(t)) + " tokens=" + std::to_string(n_tokens));
            std::mt19937 rng(300 + n_tokens + static_cast<int>(t));
            const std::int64_t n_in = test::has_super_blocks(t) ? 768 : 576;
            const quant_matrix r8 = regrouped(random_matrix(rng, t, 40, n_in));
            const auto x = random_block_floats(rng, n_tokens * n_in);
            thread_pool pool(2);
            matmul_scratch scratch;
            std::vector<float> vnni(static_cast<std::size_t>(n_tokens) * 40, NAN), maddubs(vnni.size(), NAN);
            matmul(r8.view, x.data(), n_tokens, vnni.data(), pool, scratch);
            set_avx_vnni_allowed(false);
            ASSERT_FALSE(avx_vnni_usable());
            matmul(r8.view, x.data(), n_tokens, maddubs.data(), pool, scratch);
            set_avx_vnni_allowed(true);
            ASSERT_EQ(0, std::memcmp(vnni.data(), maddubs.data(), vnni.size() * sizeof(float)));
        }
}

// A matrix the CPU backend leaves in the file's rows (a model too large to
// copy) is regrouped as prefill goes (matmul_rows8's repack): the same
// numbers as its regrouped copy, bit for bit (prefill_repack_check.h).
TEST_F(Rows8, prefillOverTheFilesRowsEqualsTheRegroupedCopyBitForBit)
{
    test::expect_prefill_repack_equals_copy(regrouped);
}
