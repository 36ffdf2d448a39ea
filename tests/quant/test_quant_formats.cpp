// SPDX-License-Identifier: Apache-2.0
// The tensor formats against llama.cpp's own Python reference: random blocks
// of every quantized type, dequantized by gguf-py (tests/quant/data, written
// by generate_quant_reference.py), must decode to the same floats here, bit
// for bit, through the reference converter and through the CPU backend's
// table at every kernel level this CPU has. Then the CPU backend's matrix
// product of those blocks must equal the f64 product of the dequantized
// weights within the error the activation quantization allows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/model/matrix_types.h"
#include "engine/quant/quant_blocks.h"
#include "engine/quant/quant_formats.h"
#include "tests/support/test_paths.h"

namespace kvlens {
namespace {

struct golden {
    std::vector<std::uint8_t> blocks;   // (n_blocks, type_size) as gguf-py read them
    std::vector<float> values;          // (n_blocks * block_size) gguf-py's dequantization
};

const ggml_type k_golden_types[] = {
    ggml_type::q4_0, ggml_type::q4_1, ggml_type::q5_0, ggml_type::q5_1, ggml_type::q8_0,   ggml_type::q2_K,
    ggml_type::q3_K, ggml_type::q4_K, ggml_type::q5_K, ggml_type::q6_K, ggml_type::iq4_nl, ggml_type::iq4_xs,
    ggml_type::iq2_xxs, ggml_type::iq2_xs, ggml_type::iq2_s, ggml_type::iq3_xxs, ggml_type::iq3_s, ggml_type::iq1_s,
    ggml_type::iq1_m, ggml_type::tq1_0, ggml_type::tq2_0, ggml_type::mxfp4,
};

golden read_golden(ggml_type t) {
    const auto path = test::source_root() / "tests/quant/data" / (std::string(type_name(t)) + ".bin");
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const type_traits& tr = traits_of(t);
    const std::size_t per_block = static_cast<std::size_t>(tr.type_size + tr.block_size * 4);
    golden g;
    if (bytes.empty() || bytes.size() % per_block != 0) return g;
    const std::size_t n_blocks = bytes.size() / per_block;
    g.blocks.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n_blocks * tr.type_size));
    g.values.resize(n_blocks * static_cast<std::size_t>(tr.block_size));
    std::memcpy(g.values.data(), bytes.data() + g.blocks.size(), g.values.size() * sizeof(float));
    return g;
}

// Elements whose bits differ between two decodings.
int mismatches(const std::vector<float>& got, const std::vector<float>& want) {
    int n = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0) ++n;
    return n;
}

class QuantFormats : public ::testing::TestWithParam<ggml_type> {};

TEST_P(QuantFormats, ReferenceDequantizerMatchesGgufPyBitForBit) {
    const ggml_type t = GetParam();
    const golden g = read_golden(t);
    ASSERT_FALSE(g.values.empty()) << "no golden data for " << type_name(t);
    const to_float_fn conv = quant::reference_to_float(t);
    ASSERT_NE(conv, nullptr);
    std::vector<float> got(g.values.size());
    conv(g.blocks.data(), got.data(), static_cast<std::int64_t>(got.size()));
    EXPECT_EQ(mismatches(got, g.values), 0) << type_name(t);
    for (std::size_t i = 0; i < got.size() && i < 4; ++i) EXPECT_EQ(got[i], g.values[i]) << type_name(t) << " element " << i;
}

TEST_P(QuantFormats, CpuBackendDequantizesLikeGgufPyAtEveryKernelLevel) {
    const ggml_type t = GetParam();
    const golden g = read_golden(t);
    ASSERT_FALSE(g.values.empty());
    const std::string best = cpu_kernel_level();
    for (const char* level : {"scalar", "avx2", "avx512"}) {
        if (!set_cpu_kernel_level(level)) continue;
        std::vector<float> got(g.values.size());
        to_float_for(t)(g.blocks.data(), got.data(), static_cast<std::int64_t>(got.size()));
        EXPECT_EQ(mismatches(got, g.values), 0) << type_name(t) << " at " << level;
    }
    set_cpu_kernel_level(best.c_str());
}

// y = x w^T through the CPU backend against the f64 product of the
// dequantized weights. The activations are quantized to the dot kernel's
// format first: q8_0 (f16 scale d = amax/127) errs per element by at most
// d/2 plus 127 d 2^-11 from rounding d to f16; q8_K (f32 scale) by d/2. So
// |y - y64| <= sum_i |w_i| e_i + n_in 2^-24 sum_i |w_i x_i| (f32 accumulation).
// Checked at every kernel level this CPU has (scalar, AVX2, AVX-512).
void check_matmul_against_f64(ggml_type t, const golden& g, const char* level) {
    const weight_kernels* k = kernels_for(t);
    ASSERT_NE(k, nullptr) << type_name(t);
    const std::int64_t n_in = 1024;
    const std::int64_t n_out = static_cast<std::int64_t>(g.values.size()) / n_in;   // 4 rows
    ASSERT_EQ(n_out * n_in, static_cast<std::int64_t>(g.values.size()));
    const weight_view w{t, n_in, n_out, g.blocks.data(), row_bytes(t, n_in)};

    const std::int64_t n_tokens = 3;
    std::mt19937 rng(7);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(static_cast<std::size_t>(n_tokens * n_in));
    for (float& v : x) v = normal(rng);
    std::vector<float> y(static_cast<std::size_t>(n_tokens * n_out));
    thread_pool pool(2);
    matmul_scratch scratch;
    matmul(w, x.data(), n_tokens, y.data(), pool, scratch);

    const bool q8_K = k->vec_dot_type == ggml_type::q8_K;
    const std::int64_t act_block = q8_K ? 256 : 32;
    for (std::int64_t tk = 0; tk < n_tokens; ++tk) {
        const float* xt = x.data() + tk * n_in;
        for (std::int64_t r = 0; r < n_out; ++r) {
            const float* wr = g.values.data() + r * n_in;
            double exact = 0, bound = 0, abs_sum = 0;
            for (std::int64_t b0 = 0; b0 < n_in; b0 += act_block) {
                double amax = 0;
                for (std::int64_t i = b0; i < b0 + act_block; ++i) amax = std::max(amax, std::fabs(double(xt[i])));
                const double d = amax / 127.0;
                const double e = q8_K ? d / 2 : d / 2 + 127.0 * d * std::ldexp(1.0, -11);
                for (std::int64_t i = b0; i < b0 + act_block; ++i) {
                    exact += double(wr[i]) * double(xt[i]);
                    bound += std::fabs(double(wr[i])) * e;
                    abs_sum += std::fabs(double(wr[i]) * double(xt[i]));
                }
            }
            bound += double(n_in) * std::ldexp(1.0, -24) * abs_sum;
            ASSERT_GT(bound, 0.0);
            EXPECT_LE(std::fabs(double(y[tk * n_out + r]) - exact), bound)
                << type_name(t) << " at " << level << ", token " << tk << " row " << r << ": got " << y[tk * n_out + r] << ", f64 " << exact;
        }
    }
}

TEST_P(QuantFormats, CpuMatmulEqualsTheF64ProductOfTheDequantizedWeights) {
    const ggml_type t = GetParam();
    const golden g = read_golden(t);
    ASSERT_FALSE(g.values.empty());
    const std::string best = cpu_kernel_level();
    for (const char* level : {"scalar", "avx2", "avx512"})
        if (set_cpu_kernel_level(level)) check_matmul_against_f64(t, g, level);
    set_cpu_kernel_level(best.c_str());
}

// Every kernel level's dot product of the golden weight rows with one set of
// quantized activations (the scalar quantizer's) against the exact product of
// the same numbers in f64: the weights as gguf-py decodes them, the
// activations as their blocks hold them. The only error left is f32 rounding
// in the kernel's sums and scale products, at most about n_in 2^-24 sum |w a|.
TEST_P(QuantFormats, EveryLevelsDotEqualsTheExactProductOfTheSameQuantizedNumbers) {
    const ggml_type t = GetParam();
    const golden g = read_golden(t);
    ASSERT_FALSE(g.values.empty());
    const std::int64_t n_in = 1024;
    const std::int64_t n_rows = static_cast<std::int64_t>(g.values.size()) / n_in;
    const weight_kernels* ks = scalar::kernels_for(t);
    ASSERT_NE(ks, nullptr);
    if (ks->vec_dot_type == ggml_type::q8_1)
        GTEST_SKIP() << type_name(t) << " folds its minimum in through q8_1's f16-rounded activation sum, so its dot "
                     << "is not a product of the same numbers; the matmul test bounds it";
    std::mt19937 rng(11);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(static_cast<std::size_t>(n_in));
    for (float& v : x) v = normal(rng);
    std::vector<std::uint8_t> act(static_cast<std::size_t>(row_bytes(ks->vec_dot_type, n_in)));
    quant::reference_from_float(ks->vec_dot_type)(x.data(), act.data(), n_in);
    // The activations' values exactly (f16 or f32 scale times an int8).
    std::vector<double> xa(static_cast<std::size_t>(n_in));
    if (ks->vec_dot_type == ggml_type::q8_K) {
        const auto* blocks = reinterpret_cast<const block_q8_K*>(act.data());
        for (std::int64_t i = 0; i < n_in; ++i) xa[i] = double(blocks[i / QK_K].d) * blocks[i / QK_K].qs[i % QK_K];
    } else {
        ASSERT_EQ(ks->vec_dot_type, ggml_type::q8_0);
        std::vector<float> f(static_cast<std::size_t>(n_in));
        quant::reference_to_float(ggml_type::q8_0)(act.data(), f.data(), n_in);   // d * q, exact in f32
        for (std::int64_t i = 0; i < n_in; ++i) xa[i] = f[i];
    }
    const std::string best = cpu_kernel_level();
    for (const char* level : {"scalar", "avx2", "avx512"}) {
        if (!set_cpu_kernel_level(level)) continue;
        const weight_kernels* k = kernels_for(t);
        ASSERT_EQ(k->vec_dot_type, ks->vec_dot_type);
        for (std::int64_t r = 0; r < n_rows; ++r) {
            double exact = 0, abs_sum = 0;
            for (std::int64_t i = 0; i < n_in; ++i) {
                exact += double(g.values[r * n_in + i]) * xa[i];
                abs_sum += std::fabs(double(g.values[r * n_in + i]) * xa[i]);
            }
            const float got = k->vec_dot(n_in, g.blocks.data() + r * row_bytes(t, n_in), act.data());
            EXPECT_LE(std::fabs(double(got) - exact), double(n_in) * std::ldexp(1.0, -24) * abs_sum)
                << type_name(t) << " at " << level << ", row " << r << ": got " << got << ", exact " << exact;
        }
    }
    set_cpu_kernel_level(best.c_str());
}

INSTANTIATE_TEST_SUITE_P(EveryQuantizedType, QuantFormats, ::testing::ValuesIn(k_golden_types),
                         [](const ::testing::TestParamInfo<ggml_type>& i) { return std::string(type_name(i.param)); });

TEST(QuantFormatsCoverage, EveryAcceptedQuantizedMatrixTypeHasGoldenData) {
    for (ggml_type t : accepted_matrix_types()) {
        if (traits_of(t).block_size == 1) continue;   // f32, f16, bf16: not block formats
        EXPECT_FALSE(read_golden(t).values.empty()) << type_name(t);
    }
}

}  // namespace
}  // namespace kvlens
