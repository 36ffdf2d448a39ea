// SPDX-License-Identifier: Apache-2.0
// The SIMD CPU kernels against the scalar reference, on random blocks (never
// all zeros; magnitudes from 1e-6 to 1e2, some blocks with a negative extreme),
// at every kernel level this CPU has: activation quantizers bit-identical,
// dot products equal up to float summation order, and matmul with the SIMD
// table (tiled kernels included) equal to matmul with the scalar table, and
// attention over the paged cache equal to the scalar path.
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/backend/cpu/attention.h"
#include "common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul.h"
#include "engine/backend/cpu/ops.h"
#include "engine/quant/quant_blocks.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/kv/kv_geometry.h"
#include "engine/kv/kv_storage.h"
#include "tests/support/attention_run.h"
#include "tests/support/float_compare.h"
#include "tests/support/kernel_level_test.h"

using namespace kvlens;

namespace {

// Relative bound for dot products and matmul outputs: |simd - scalar| <=
// k_rel * sum_i |w_i * a_i| (the sum of the magnitudes of the terms, so
// cancellation in the result cannot make a correct kernel fail).
constexpr double k_rel = 1e-5;

// n random floats in blocks of `block`: each block has its own magnitude
// 10^U(-6, 2); a third of the blocks have their largest-magnitude value negative.
std::vector<float> random_floats(std::mt19937& rng, std::int64_t n, int block) {
    std::vector<float> x(static_cast<std::size_t>(n));
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_real_distribution<float> expo(-6.0f, 2.0f);
    std::uniform_int_distribution<int> pick(0, block - 1);
    for (std::int64_t b = 0; b < n / block; ++b) {
        const float scale = std::pow(10.0f, expo(rng));
        float* xb = x.data() + b * block;
        float amax = 0;
        for (int j = 0; j < block; ++j) {
            xb[j] = normal(rng) * scale;
            if (xb[j] == 0) xb[j] = scale;
            amax = std::max(amax, std::fabs(xb[j]));
        }
        if (b % 3 == 1) xb[pick(rng)] = -1.25f * amax;   // a negative extreme
        if (b % 3 == 2) xb[pick(rng)] = 1.25f * amax;
    }
    return x;
}

std::vector<std::uint8_t> random_bytes(std::mt19937& rng, std::size_t n) {
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<std::uint8_t> v(n);
    for (auto& b : v) b = static_cast<std::uint8_t>(byte(rng));
    return v;
}

// A random f16 in [lo, hi).
std::uint16_t random_half(std::mt19937& rng, float lo, float hi) {
    return fp32_to_fp16(std::uniform_real_distribution<float>(lo, hi)(rng));
}

// Weight rows of type t: quantized from random floats where a quantizer exists,
// random quants with sane f16 scales for the K-quants.
std::vector<std::uint8_t> random_weights(std::mt19937& rng, ggml_type t, std::int64_t n_rows, std::int64_t n) {
    const std::int64_t rb = row_bytes(t, n);
    // A row of a partial block is no weight a GGUF can hold (the reader refuses it).
    if (n % traits_of(t).block_size != 0) throw std::invalid_argument("random_weights: a row of partial blocks");
    std::vector<std::uint8_t> w(static_cast<std::size_t>(rb * n_rows));
    if (t == ggml_type::q4_K || t == ggml_type::q5_K || t == ggml_type::q6_K) {
        w = random_bytes(rng, w.size());
        const std::int64_t nb = n_rows * n / QK_K;
        for (std::int64_t b = 0; b < nb; ++b) {
            if (t == ggml_type::q4_K) {
                auto* blk = reinterpret_cast<block_q4_K*>(w.data()) + b;
                blk->d = random_half(rng, 1e-4f, 1e-2f);
                blk->dmin = random_half(rng, 1e-4f, 1e-2f);
            } else if (t == ggml_type::q5_K) {
                auto* blk = reinterpret_cast<block_q5_K*>(w.data()) + b;
                blk->d = random_half(rng, 1e-4f, 1e-2f);
                blk->dmin = random_half(rng, 1e-4f, 1e-2f);
            } else {
                auto* blk = reinterpret_cast<block_q6_K*>(w.data()) + b;
                blk->d = random_half(rng, 1e-4f, 1e-2f);
            }
        }
        return w;
    }
    if ((t == ggml_type::q5_0 || t == ggml_type::q5_1) && n_rows % 2 == 1) {
        // Odd row counts: random bytes (every bit pattern of qs and qh) with sane
        // f16 scales; even ones below go through the quantizer.
        w = random_bytes(rng, w.size());
        const std::int64_t nb = n_rows * n / 32;
        for (std::int64_t b = 0; b < nb; ++b) {
            if (t == ggml_type::q5_0) {
                reinterpret_cast<block_q5_0*>(w.data())[b].d = random_half(rng, -1e-2f, 1e-2f);
            } else {
                auto* blk = reinterpret_cast<block_q5_1*>(w.data()) + b;
                blk->d = random_half(rng, 1e-4f, 1e-2f);
                blk->m = random_half(rng, -0.2f, 0.1f);
            }
        }
        return w;
    }
    const auto x = random_floats(rng, n * n_rows, 32);
    const from_float_fn q = scalar::from_float_for(t);
    for (std::int64_t r = 0; r < n_rows; ++r) q(x.data() + r * n, w.data() + r * rb, n);
    return w;
}

// The activation row a (in type at) as floats: d * q per element.
std::vector<float> dequant_activations(ggml_type at, const std::uint8_t* a, std::int64_t n) {
    std::vector<float> y(static_cast<std::size_t>(n));
    if (at == ggml_type::q8_1) {
        auto* b = reinterpret_cast<const block_q8_1*>(a);
        for (std::int64_t i = 0; i < n; ++i) y[i] = fp16_to_fp32(b[i / 32].d) * b[i / 32].qs[i % 32];
    } else if (at == ggml_type::q8_K) {
        auto* b = reinterpret_cast<const block_q8_K*>(a);
        for (std::int64_t i = 0; i < n; ++i) y[i] = b[i / QK_K].d * b[i / QK_K].qs[i % QK_K];
    } else {
        to_float_for(at)(a, y.data(), n);
    }
    return y;
}

// sum |w_i * a_i| in double: the scale of a dot product's rounding error.
double abs_dot(const std::vector<float>& w, const std::vector<float>& a) {
    double s = 0;
    for (std::size_t i = 0; i < w.size(); ++i) s += std::fabs(static_cast<double>(w[i]) * a[i]);
    return s;
}

}  // namespace

// Each test runs on the kernel level the CPU chose, put back afterwards;
// the suite skips on a CPU without a SIMD level.
class CpuKernels : public test::kernel_level_test {
protected:
    static void SetUpTestSuite()
    {
        test::kernel_level_test::SetUpTestSuite();
        std::printf("best kernel level on this CPU: %s\n", best_level().c_str());
    }
    static void TearDownTestSuite() { ASSERT_EQ(std::string(cpu_kernel_level()), best_level()); }
    void SetUp() override
    {
        if (test::simd_levels().empty()) GTEST_SKIP() << "this CPU has no SIMD kernel level";
    }
};

struct quantizer_bit_identical_row {
    std::string tag;
    std::string level;
    ggml_type type;
    int n;
};

std::vector<quantizer_bit_identical_row> quantizer_bit_identical_rows()
{
    std::vector<quantizer_bit_identical_row> rows;
    for (const std::string& l : test::simd_levels()) {
        rows.push_back({l + " q8_0", l, ggml_type::q8_0, 32 * 97});
        rows.push_back({l + " q8_1", l, ggml_type::q8_1, 32 * 97});
        rows.push_back({l + " q8_K", l, ggml_type::q8_K, 256 * 13});
        rows.push_back({l + " f16", l, ggml_type::f16, 32 * 97 + 5});
    }
    return rows;
}

TEST_F(CpuKernels, quantizer_bit_identical)
{
    kvlens::test::for_each_row(quantizer_bit_identical_rows(), [&](const quantizer_bit_identical_row& row) {
        ASSERT_TRUE(set_cpu_kernel_level(row.level.c_str()));
        std::mt19937 rng(1234 + row.n);
        const int block = row.type == ggml_type::q8_K ? QK_K : 32;
        const auto x = random_floats(rng, row.n - row.n % block, block);
        std::vector<float> xs(x);
        xs.resize(static_cast<std::size_t>(row.n), 0.37f);  // f16: a tail that is not a multiple of 8
        const std::int64_t bytes = row.type == ggml_type::f16 ? 2 * row.n : row_bytes(row.type, row.n);
        std::vector<std::uint8_t> simd(static_cast<std::size_t>(bytes), 0xAA), ref(static_cast<std::size_t>(bytes), 0x55);
        from_float_for(row.type)(xs.data(), simd.data(), row.n);
        scalar::from_float_for(row.type)(xs.data(), ref.data(), row.n);
        int first_diff = -1;
        for (std::int64_t i = 0; i < bytes && first_diff < 0; ++i)
            if (simd[i] != ref[i]) first_diff = static_cast<int>(i);
        ASSERT_EQ(first_diff, -1);
    });
}

// ggml's layouts: q5_0 is {f16 d, u8 qh[4], u8 qs[16]}, element j < 16 in the
// low nibble of qs[j], element j + 16 in its high nibble, bit 4 of element j
// in bit j of qh read as a little-endian uint32; q5_1 adds f16 m after d.
TEST_F(CpuKernels, q5_blocks_have_ggml_layout)
{
    std::uint8_t raw0[22] = {};
    const std::uint16_t d = fp32_to_fp16(0.5f);
    std::memcpy(raw0, &d, 2);
    const std::uint32_t qh = 0x80000001u | (1u << 17);   // elements 0, 17 and 31 have bit 4
    std::memcpy(raw0 + 2, &qh, 4);
    for (int j = 0; j < 16; ++j) raw0[6 + j] = static_cast<std::uint8_t>((j & 0xF) | ((15 - j) << 4));
    float y[32];
    to_float_for(ggml_type::q5_0)(raw0, y, 32);
    for (int j = 0; j < 32; ++j) {
        const int q = (j < 16 ? j : 15 - (j - 16)) | ((qh >> j) & 1) << 4;
        ASSERT_TRUE(test::qt_fuzzy_equal(y[j], 0.5f * static_cast<float>(q - 16))) << y[j];
    }
    std::uint8_t raw1[24] = {};
    const std::uint16_t m = fp32_to_fp16(-2.0f);
    std::memcpy(raw1, &d, 2);
    std::memcpy(raw1 + 2, &m, 2);
    std::memcpy(raw1 + 4, &qh, 4);
    std::memcpy(raw1 + 8, raw0 + 6, 16);
    to_float_for(ggml_type::q5_1)(raw1, y, 32);
    for (int j = 0; j < 32; ++j) {
        const int q = (j < 16 ? j : 15 - (j - 16)) | ((qh >> j) & 1) << 4;
        ASSERT_TRUE(test::qt_fuzzy_equal(y[j], 0.5f * static_cast<float>(q) - 2.0f)) << y[j];
    }
}

// Quantize then dequantize: every element within half a step of its value;
// for q5_0 a whole step at the end opposite the extreme (ggml's scheme: the
// extreme maps to -16, so +16 steps clamp to 15).
TEST_F(CpuKernels, q5_quantizers_round_trip_within_a_step)
{
    std::mt19937 rng(99);
    const int n = 32 * 40;
    const auto x = random_floats(rng, n, 32);
    for (ggml_type t : {ggml_type::q5_0, ggml_type::q5_1}) {
        std::vector<std::uint8_t> q(static_cast<std::size_t>(row_bytes(t, n)));
        scalar::from_float_for(t)(x.data(), q.data(), n);
        std::vector<float> y(n);
        to_float_for(t)(q.data(), y.data(), n);
        for (int b = 0; b < n / 32; ++b) {
            const std::uint16_t dh = t == ggml_type::q5_0 ? reinterpret_cast<block_q5_0*>(q.data())[b].d
                                                          : reinterpret_cast<block_q5_1*>(q.data())[b].d;
            // Plus the f16 rounding of d (half an ulp, 2^-25 absolute for
            // subnormals) over up to 31 steps, and of m (q5_1).
            const float step = std::fabs(fp16_to_fp32(dh));
            const float d_round = std::max(std::ldexp(1.0f, -25), step * std::ldexp(1.0f, -11));
            float amax = 0;
            for (int j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(x[b * 32 + j]));
            const float bound = (t == ggml_type::q5_0 ? step : 0.5f * step) + 31 * d_round;
            for (int j = 0; j < 32; ++j)
                ASSERT_TRUE(std::fabs(y[b * 32 + j] - x[b * 32 + j]) <= bound + std::ldexp(amax, -11)) << type_name(t) << " block " << b << " element " << j << ": " << x[b * 32 + j] << " -> " << y[b * 32 + j]
                    << ", step " << step;
        }
    }
}

TEST_F(CpuKernels, f16_to_float_exact)
{
    for (const std::string& l : test::simd_levels()) {
        ASSERT_TRUE(set_cpu_kernel_level(l.c_str()));
        std::vector<std::uint16_t> h(65536 + 3);
        for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::uint16_t>(i * 40503u);
        for (std::size_t i = 0; i < h.size(); ++i)
            if ((h[i] & 0x7C00) == 0x7C00) h[i] = 0x3C00;   // no inf / nan
        std::vector<float> y(h.size());
        to_float_for(ggml_type::f16)(h.data(), y.data(), static_cast<std::int64_t>(h.size()));
        int bad = 0;
        for (std::size_t i = 0; i < h.size(); ++i) bad += y[i] != fp16_to_fp32(h[i]);
        ASSERT_EQ(bad, 0);
    }
}

struct dot_matches_scalar_row {
    std::string tag;
    std::string level;
    ggml_type type;
    int n;
};

std::vector<dot_matches_scalar_row> dot_matches_scalar_rows()
{
    std::vector<dot_matches_scalar_row> rows;
    const ggml_type types[] = {ggml_type::f32, ggml_type::f16, ggml_type::bf16, ggml_type::q4_0, ggml_type::q4_1,
                               ggml_type::q5_0, ggml_type::q5_1, ggml_type::q8_0, ggml_type::q4_K, ggml_type::q5_K,
                               ggml_type::q6_K};
    for (const std::string& l : test::simd_levels())
        for (ggml_type t : types) {
            const bool k = t == ggml_type::q4_K || t == ggml_type::q5_K || t == ggml_type::q6_K;
            const bool flt = t == ggml_type::f32 || t == ggml_type::f16 || t == ggml_type::bf16;
            rows.push_back({l + " " + type_name(t) + " n=" + std::to_string(k ? 256 : 64), l, t, (k ? 256 : 64)});
            rows.push_back({l + " " + type_name(t) + " long", l, t, (k ? 256 * 6 : flt ? 1536 + 24 : 32 * 49)});
        }
    return rows;
}

TEST_F(CpuKernels, dot_matches_scalar)
{
    kvlens::test::for_each_row(dot_matches_scalar_rows(), [&](const dot_matches_scalar_row& c) {
        ASSERT_TRUE(set_cpu_kernel_level(c.level.c_str()));
        const weight_kernels* k = kernels_for(c.type);
        const weight_kernels* ks = scalar::kernels_for(c.type);
        ASSERT_TRUE(k && ks);
        ASSERT_EQ(k->vec_dot_type, ks->vec_dot_type);
        std::mt19937 rng(77 + static_cast<int>(c.type) + c.n);
        const int act_block = ks->vec_dot_type == ggml_type::q8_K ? QK_K : 32;
        int worst_row = -1;
        double worst = 0;
        for (int row = 0; row < 20; ++row) {
            const auto w = random_weights(rng, c.type, 1, c.n);
            const auto x = random_floats(rng, c.n, act_block);
            std::vector<std::uint8_t> a(static_cast<std::size_t>(row_bytes(ks->vec_dot_type, c.n)));
            scalar::from_float_for(ks->vec_dot_type)(x.data(), a.data(), c.n);

            const float simd = k->vec_dot(c.n, w.data(), a.data());
            const float ref = ks->vec_dot(c.n, w.data(), a.data());
            std::vector<float> wf(static_cast<std::size_t>(c.n));
            to_float_for(c.type)(w.data(), wf.data(), c.n);
            const double scale = abs_dot(wf, dequant_activations(ks->vec_dot_type, a.data(), c.n));
            ASSERT_TRUE(scale > 0);
            const double err = std::fabs(static_cast<double>(simd) - ref) / scale;
            if (err > worst) { worst = err; worst_row = row; }
        }
        if (worst > k_rel) std::fprintf(stderr, "worst relative error %g at row %d\n", worst, worst_row);
        ASSERT_TRUE(worst <= k_rel);
    });
}

struct matmul_matches_scalar_row {
    std::string tag;
    std::string level;
    ggml_type type;
    int n_out;
    int n_in;
    int n_tokens;
    int threads;
};

std::vector<matmul_matches_scalar_row> matmul_matches_scalar_rows()
{
    std::vector<matmul_matches_scalar_row> rows;
    for (const std::string& l : test::simd_levels())
        for (ggml_type t : {ggml_type::q4_1, ggml_type::q8_0, ggml_type::q4_0, ggml_type::q5_0, ggml_type::q5_1,
                            ggml_type::q4_K, ggml_type::q6_K})
            for (int nt : {1, 3, 4, 13, 37}) {   // 37: AMX tiles where the CPU has them
                // A row holds whole blocks: 576 = 18 blocks of 32; the K-quants'
                // 256-element super-blocks take 768 (three, an odd count).
                const bool super_blocks = t == ggml_type::q4_K || t == ggml_type::q6_K;
                const std::string name = l + " " + type_name(t) + " tokens=" + std::to_string(nt);
                rows.push_back({name, l, t, 37, super_blocks ? 768 : 576, nt, 2});
            }
    for (const std::string& l : test::simd_levels()) {
        rows.push_back({l + " Q4_1 wide 1 thread", l, ggml_type::q4_1, 64, 1536, 6, 1});
        // An odd number of blocks per row (the 512-bit tiles take blocks in
        // pairs), in decode's tiles (1 and 3 tokens) and prefill's.
        for (ggml_type t : {ggml_type::q4_1, ggml_type::q8_0, ggml_type::q4_0, ggml_type::q5_0, ggml_type::q5_1})
            for (int nt : {1, 3, 9, 21})
                rows.push_back({l + " " + type_name(t) + " odd blocks tokens=" + std::to_string(nt), l, t, 10, 32 * 19, nt, 2});
        // Decode's tiles of every height: 38 and 39 rows end in a tile of 2 and of 3.
        for (ggml_type t : {ggml_type::q4_1, ggml_type::q8_0, ggml_type::q4_0, ggml_type::q5_0, ggml_type::q5_1})
            for (int n_out : {38, 39})
                for (int nt : {1, 2})
                    rows.push_back({l + " " + type_name(t) + " rows=" + std::to_string(n_out) + " tokens=" + std::to_string(nt),
                                    l, t, n_out, 576, nt, 1});
    }
    return rows;
}

TEST_F(CpuKernels, matmul_matches_scalar)
{
    kvlens::test::for_each_row(matmul_matches_scalar_rows(), [&](const matmul_matches_scalar_row& row) {
        std::mt19937 rng(2024 + row.n_tokens * 31 + static_cast<int>(row.type));
        const auto wdata = random_weights(rng, row.type, row.n_out, row.n_in);
        weight_view w;
        w.type = row.type;
        w.n_in = row.n_in;
        w.n_out = row.n_out;
        w.data = wdata.data();
        w.row_bytes = row_bytes(row.type, row.n_in);
        const auto x = random_floats(rng, static_cast<std::int64_t>(row.n_tokens) * row.n_in, 32);
        thread_pool pool(row.threads);
        matmul_scratch scratch;

        std::vector<float> ref(static_cast<std::size_t>(row.n_tokens) * row.n_out, NAN), simd(ref.size(), NAN);
        ASSERT_TRUE(set_cpu_kernel_level("scalar"));
        matmul(w, x.data(), row.n_tokens, ref.data(), pool, scratch);
        ASSERT_TRUE(set_cpu_kernel_level(row.level.c_str()));
        matmul(w, x.data(), row.n_tokens, simd.data(), pool, scratch);

        // Bound per output: k_rel * sum |w_i x_i| (x unquantized; quantizing moves it < 1%).
        std::vector<float> wf(static_cast<std::size_t>(row.n_in));
        double worst = 0;
        int worst_at = -1;
        for (int r = 0; r < row.n_out; ++r) {
            to_float_for(row.type)(w.data + r * w.row_bytes, wf.data(), row.n_in);
            for (int t = 0; t < row.n_tokens; ++t) {
                std::vector<float> xt(x.begin() + static_cast<std::ptrdiff_t>(t) * row.n_in,
                                      x.begin() + static_cast<std::ptrdiff_t>(t + 1) * row.n_in);
                const double scale = abs_dot(wf, xt);
                const std::size_t i = static_cast<std::size_t>(t) * row.n_out + r;
                ASSERT_TRUE(std::isfinite(simd[i])) << "an output was not written";
                const double err = std::fabs(static_cast<double>(simd[i]) - ref[i]) / scale;
                if (err > worst) { worst = err; worst_at = static_cast<int>(i); }
            }
        }
        if (worst > k_rel) std::fprintf(stderr, "worst relative error %g at output %d\n", worst, worst_at);
        ASSERT_TRUE(worst <= k_rel);
    });
}

// The K-quant tiles (prefill: 4 rows x 4 tokens, each super-block unpacked
// once per 4 tokens) run each pair's steps of the table's vec_dot in the same
// order, so every output equals that dot exactly, on every level this CPU has.
TEST_F(CpuKernels, kQuantTilesEqualTheTableDotBitForBit)
{
    for (const std::string& l : test::simd_levels())
        for (ggml_type t : {ggml_type::q4_K, ggml_type::q6_K})
            for (int n_tokens : {1, 3, 4, 6, 17}) {
                SCOPED_TRACE(l + " " + type_name(t) + " tokens=" + std::to_string(n_tokens));
                ASSERT_TRUE(set_cpu_kernel_level(l.c_str()));
                std::mt19937 rng(91 + n_tokens + static_cast<int>(t));
                const int n_in = 1024, n_out = 11;
                const auto wdata = random_weights(rng, t, n_out, n_in);
                weight_view w;
                w.type = t;
                w.n_in = n_in;
                w.n_out = n_out;
                w.data = wdata.data();
                w.row_bytes = row_bytes(t, n_in);
                const auto x = random_floats(rng, static_cast<std::int64_t>(n_tokens) * n_in, QK_K);
                thread_pool pool(2);
                matmul_scratch scratch;
                std::vector<float> y(static_cast<std::size_t>(n_tokens) * n_out, NAN);
                matmul(w, x.data(), n_tokens, y.data(), pool, scratch);

                const weight_kernels* k = kernels_for(t);
                std::vector<std::uint8_t> a(static_cast<std::size_t>(row_bytes(k->vec_dot_type, n_in)));
                for (int tok = 0; tok < n_tokens; ++tok) {
                    from_float_for(k->vec_dot_type)(x.data() + static_cast<std::ptrdiff_t>(tok) * n_in, a.data(), n_in);
                    for (int r = 0; r < n_out; ++r)
                        ASSERT_EQ(y[static_cast<std::size_t>(tok) * n_out + r], k->vec_dot(n_in, w.data + r * w.row_bytes, a.data()))
                            << "row " << r << ", token " << tok;
                }
            }
}

TEST_F(CpuKernels, elementwise_ops_match_scalar)
{
    std::mt19937 rng(5);
    const int n = 576 + 7;   // a tail that is not a multiple of the register width
    std::normal_distribution<float> normal(0.0f, 3.0f);
    std::vector<float> x(n), w(n), up(n);
    for (int i = 0; i < n; ++i) { x[i] = normal(rng); w[i] = normal(rng); up[i] = normal(rng); }
    x[3] = -90.0f;   // silu far into both tails
    x[4] = 95.0f;
    std::vector<float> norm_ref(n), silu_ref(n);
    ASSERT_TRUE(set_cpu_kernel_level("scalar"));
    rms_norm(x.data(), w.data(), norm_ref.data(), n, 1e-5f);
    silu_mul(x.data(), up.data(), silu_ref.data(), n);
    for (const std::string& l : test::simd_levels()) {
        ASSERT_TRUE(set_cpu_kernel_level(l.c_str()));
        std::vector<float> norm(n), silu(n);
        rms_norm(x.data(), w.data(), norm.data(), n, 1e-5f);
        silu_mul(x.data(), up.data(), silu.data(), n);
        int norm_bad = 0, silu_bad = 0;
        for (int i = 0; i < n; ++i) {
            norm_bad += std::fabs(norm[i] - norm_ref[i]) > 1e-6f * std::fabs(norm_ref[i]);
            // exp is a polynomial here: a few float ulps.
            silu_bad += std::fabs(silu[i] - silu_ref[i]) > 1e-6f * std::fabs(silu_ref[i]) + 1e-30f;
        }
        ASSERT_EQ(norm_bad, 0);
        ASSERT_EQ(silu_bad, 0);
    }
}

// RoPE turns pair i of each head by pos * scale * base^(-2i / n_rot); the
// angles of one position, worked out once (rope_angles), serve every head and
// every layer of that (base, scale): the backend keeps one table per forward.
TEST_F(CpuKernels, rope_turns_each_pair_by_its_positions_angle)
{
    const int n_heads = 3, head_dim = 64, n_rot = 48;   // the last 16 dimensions of a head stay
    std::mt19937 rng(11);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(static_cast<std::size_t>(n_heads) * head_dim);
    for (float& v : x) v = normal(rng);
    for (bool neox : {false, true}) {
        for (int pos : {0, 1, 37, 4095}) {
            const float base = 10000.0f, scale = 0.5f;
            std::vector<float> y = x, z = x;
            rope(y.data(), n_heads, head_dim, n_rot, pos, base, scale, neox);
            std::vector<float> cs(static_cast<std::size_t>(rope_pairs(n_rot))), sn(cs.size());
            rope_angles(n_rot, pos, base, scale, cs.data(), sn.data());
            rope_rotate(z.data(), n_heads, head_dim, n_rot, cs.data(), sn.data(), neox);
            EXPECT_EQ(y, z) << "the two steps give rope()'s floats";
            for (int h = 0; h < n_heads; ++h) {
                const float* in = x.data() + h * head_dim;
                const float* out = y.data() + h * head_dim;
                for (int i = 0; i < n_rot / 2; ++i) {
                    const double theta = pos * static_cast<double>(scale) * std::pow(static_cast<double>(base), -2.0 * i / n_rot);
                    const int a = neox ? i : 2 * i, b = neox ? i + n_rot / 2 : 2 * i + 1;
                    EXPECT_NEAR(out[a], in[a] * std::cos(theta) - in[b] * std::sin(theta), 2e-4) << pos << " pair " << i;
                    EXPECT_NEAR(out[b], in[a] * std::sin(theta) + in[b] * std::cos(theta), 2e-4) << pos << " pair " << i;
                }
                for (int d = n_rot; d < head_dim; ++d) EXPECT_EQ(out[d], in[d]);
            }
        }
    }
}

// LongRoPE's attention factor multiplies the cosines and sines (ggml_rope_ext's
// attn_factor): the rotated dimensions come out that many times longer, the
// dimensions past n_rot (a partial rotation, Phi-4-mini's) stay as they were.
TEST_F(CpuKernels, rope_attention_factor_scales_the_rotated_dimensions_only)
{
    const int n_heads = 3, head_dim = 64, n_rot = 48;
    const float attn_factor = 1.25f;
    std::mt19937 rng(13);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(static_cast<std::size_t>(n_heads) * head_dim);
    for (float& v : x) v = normal(rng);
    for (bool neox : {false, true}) {
        std::vector<float> plain = x, scaled = x;
        rope(plain.data(), n_heads, head_dim, n_rot, 77, 10000.0f, 1.0f, neox);
        rope(scaled.data(), n_heads, head_dim, n_rot, 77, 10000.0f, 1.0f, neox, nullptr, attn_factor);
        for (int h = 0; h < n_heads; ++h)
            for (int d = 0; d < head_dim; ++d) {
                const std::size_t at = static_cast<std::size_t>(h * head_dim + d);
                if (d < n_rot) EXPECT_NEAR(scaled[at], plain[at] * attn_factor, 1e-5f) << h << " " << d;
                else EXPECT_EQ(scaled[at], x[at]) << h << " " << d;
            }
    }
}

// Llama 3.1's frequency factors (rope_freqs.weight) divide each pair's
// angle: pair i turns by pos * scale * base^(-2i / n_rot) / factor_i, as
// ggml_rope_ext's freq_factors do; a factor of 1 leaves the pair as it was.
TEST_F(CpuKernels, rope_divides_each_pairs_angle_by_its_frequency_factor)
{
    const int n_heads = 2, head_dim = 64, n_rot = 64;
    std::mt19937 rng(12);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(static_cast<std::size_t>(n_heads) * head_dim);
    for (float& v : x) v = normal(rng);
    std::vector<float> factors(n_rot / 2);
    for (int i = 0; i < n_rot / 2; ++i) factors[static_cast<std::size_t>(i)] = i < 8 ? 1.0f : 1.0f + 0.5f * static_cast<float>(i);
    for (bool neox : {false, true}) {
        for (int pos : {1, 300, 8191}) {
            const float base = 500000.0f, scale = 1.0f;
            std::vector<float> plain = x, scaled = x;
            rope(plain.data(), n_heads, head_dim, n_rot, pos, base, scale, neox);
            rope(scaled.data(), n_heads, head_dim, n_rot, pos, base, scale, neox, factors.data());
            for (int h = 0; h < n_heads; ++h) {
                const float* in = x.data() + h * head_dim;
                for (int i = 0; i < n_rot / 2; ++i) {
                    const int a = neox ? i : 2 * i, b = neox ? i + n_rot / 2 : 2 * i + 1;
                    const double theta = pos * std::pow(static_cast<double>(base), -2.0 * i / n_rot) / factors[static_cast<std::size_t>(i)];
                    const float* out = scaled.data() + h * head_dim;
                    EXPECT_NEAR(out[a], in[a] * std::cos(theta) - in[b] * std::sin(theta), 2e-3) << pos << " pair " << i;
                    EXPECT_NEAR(out[b], in[a] * std::sin(theta) + in[b] * std::cos(theta), 2e-3) << pos << " pair " << i;
                    if (i < 8) {   // factor 1: the unscaled rotation, float for float
                        EXPECT_EQ(out[a], plain[static_cast<std::size_t>(h * head_dim + a)]);
                        EXPECT_EQ(out[b], plain[static_cast<std::size_t>(h * head_dim + b)]);
                    }
                }
            }
            EXPECT_NE(plain, scaled);
        }
    }
}

std::vector<test::attention_case> attention_cases()
{
    std::vector<test::attention_case> rows;
    const kv_dtype f16 = kv_dtype::f16, q8 = kv_dtype::q8_0;
    for (const std::string& l : test::simd_levels()) {   // heads of 64, two threads
        rows.push_back({l + " f16", l, f16, 0, 9, 3, 64, 2});
        rows.push_back({l + " f16 window 20", l, f16, 20, 9, 3, 64, 2});
        rows.push_back({l + " f16 group 12", l, f16, 0, 12, 1, 64, 2});
        rows.push_back({l + " f16 no grouping", l, f16, 0, 2, 2, 64, 2});
        rows.push_back({l + " q8_0", l, q8, 0, 9, 3, 64, 2});
    }
    return rows;
}

TEST_F(CpuKernels, attention_matches_scalar)
{
    kvlens::test::for_each_row(attention_cases(), [&](const test::attention_case& c) {
        const int dtype = static_cast<int>(c.dtype), window = c.window, n_head = c.n_head, n_head_kv = c.n_head_kv;
        // 8 blocks of 16 in a shuffled order.
        const int head_dim = c.head_dim, n_pos = 128;
        kv_geometry geo;
        geo.n_layer = 1;
        geo.n_kv_heads = n_head_kv;
        geo.head_dim = head_dim;
        geo.dtype = static_cast<kv_dtype>(dtype);
        geo.block_size = 16;
        auto kv = kv_storage::create(geo, 8);
        ASSERT_TRUE(kv.ok());
        const std::vector<std::int32_t> table = {5, 2, 7, 0, 3, 6, 1, 4};
        std::mt19937 rng(99 + dtype + window);
        const int row = n_head_kv * head_dim;
        // Keys of moderate size so that softmax spreads over many keys (random_floats'
        // wide magnitudes would make it one-hot); values of any size.
        std::normal_distribution<float> key_dist(0.0f, 0.15f);
        std::vector<float> k(static_cast<std::size_t>(n_pos) * row);
        for (float& x : k) x = key_dist(rng);
        const auto v = random_floats(rng, static_cast<std::int64_t>(n_pos) * row, 32);
        std::vector<std::int32_t> all_pos(n_pos);
        std::vector<const std::int32_t*> all_tables(n_pos, table.data());
        for (int p = 0; p < n_pos; ++p) all_pos[p] = p;
        store_kv(*kv, geo.dtype, 0, k.data(), v.data(), n_pos, row, all_tables.data(), all_pos.data());

        const std::vector<std::int32_t> pos = {0, 1, 17, 40, 99, 127};
        const int n_tokens = static_cast<int>(pos.size());
        std::normal_distribution<float> normal(0.0f, 1.0f);
        std::vector<float> q(static_cast<std::size_t>(n_tokens) * n_head * head_dim);
        for (float& x : q) x = normal(rng);
        test::attention_batch b;
        b.kv = &*kv;
        b.dtype = geo.dtype;
        b.n_head = n_head;
        b.n_head_kv = n_head_kv;
        b.head_dim = head_dim;
        b.window = window;
        b.scale = 0.125f;
        b.max_range = n_pos;
        b.q = q;
        b.positions = pos;
        b.block_tables.assign(pos.size(), table.data());
        const std::vector<float> ref = test::run_attention(b, "scalar", c.threads);
        const std::vector<float> simd = test::run_attention(b, c.level.c_str(), c.threads);
        ASSERT_TRUE(!ref.empty() && !simd.empty());
        // Each output is a convex combination of values: compare against the
        // largest |v| (an output not written counts as infinitely wrong). A
        // probability rounded to f16 can land one f16 step (2^-11 relative)
        // apart when its f32 value differs in the last bits.
        const double worst = test::attention_error(simd, ref, v);
        if (worst > 1e-3) std::fprintf(stderr, "worst error %g of max |v|\n", worst);
        ASSERT_TRUE(worst <= 1e-3);
    });
}
