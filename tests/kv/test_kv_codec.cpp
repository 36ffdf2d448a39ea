// SPDX-License-Identifier: Apache-2.0
// The KV row codecs: half conversion (exact and correctly rounded), f16 and
// q8_0 rows round-tripped on random data within their error bounds.
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/fp16.h"
#include "engine/kv/kv_codec.h"
#include "tests/support/float_compare.h"

using namespace kvlens;
using kvlens::test::qt_fuzzy_equal;

namespace {

// n normally distributed values of standard deviation `scale`.
std::vector<float> random_row(int n, float scale, unsigned seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.0f, scale);
    std::vector<float> x(static_cast<std::size_t>(n));
    for (float& v : x)
        v = dist(rng);
    return x;
}

}  // namespace

struct halfKnownValues_row {
    std::string tag;
    float value;
    unsigned bits;
};

std::vector<halfKnownValues_row> halfKnownValues_rows()
{
    std::vector<halfKnownValues_row> rows;
    rows.push_back({"one", 1.0f, 0x3c00u});
    rows.push_back({"minus two", -2.0f, 0xc000u});
    rows.push_back({"zero", 0.0f, 0x0000u});
    rows.push_back({"minus zero", -0.0f, 0x8000u});
    rows.push_back({"0.1", 0.1f, 0x2e66u});
    rows.push_back({"max half", 65504.0f, 0x7bffu});
    rows.push_back({"just under overflow", 65519.0f, 0x7bffu});
    rows.push_back({"overflow tie to inf", 65520.0f, 0x7c00u});
    rows.push_back({"inf", std::numeric_limits<float>::infinity(), 0x7c00u});
    rows.push_back({"-inf", -std::numeric_limits<float>::infinity(), 0xfc00u});
    rows.push_back({"smallest normal", std::ldexp(1.0f, -14), 0x0400u});
    rows.push_back({"smallest subnormal", std::ldexp(1.0f, -24), 0x0001u});
    rows.push_back({"half of smallest subnormal: tie to 0", std::ldexp(1.0f, -25), 0x0000u});
    rows.push_back({"1.5 x 2^-25 rounds up", std::ldexp(1.5f, -25), 0x0001u});
    rows.push_back({"1.5 x 2^-24 ties to even 2", std::ldexp(1.5f, -24), 0x0002u});
    rows.push_back({"1 + 2^-11 ties to even 1", 1.0f + std::ldexp(1.0f, -11), 0x3c00u});
    rows.push_back({"1 + 3x2^-11 ties to even up", 1.0f + 3 * std::ldexp(1.0f, -11), 0x3c02u});
    return rows;
}

TEST(KvCodec, halfKnownValues)
{
    kvlens::test::for_each_row(halfKnownValues_rows(), [&](const halfKnownValues_row& row) {
        ASSERT_EQ(unsigned(fp32_to_fp16(row.value)), row.bits);
    });
}

TEST(KvCodec, halfRoundTripsEveryPattern)
{
    int n_nan = 0;
    for (std::uint32_t h = 0; h <= 0xffffu; ++h) {
        const float f = fp16_to_fp32(static_cast<std::uint16_t>(h));
        const bool is_nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
        if (is_nan) {
            ASSERT_TRUE(std::isnan(f));
            ASSERT_TRUE(std::isnan(fp16_to_fp32(fp32_to_fp16(f))));
            ++n_nan;
            continue;
        }
        if (fp32_to_fp16(f) != h)
            FAIL() << fmt::format("half 0x{:04x} -> {} -> 0x{:04x}", h, double(f), fp32_to_fp16(f));
    }
    ASSERT_EQ(n_nan, 2 * 1023);
    ASSERT_TRUE(qt_fuzzy_equal(fp16_to_fp32(0x3555), 0.333251953125f)) << fp16_to_fp32(0x3555);
    ASSERT_TRUE(qt_fuzzy_equal(fp16_to_fp32(0x0001), std::ldexp(1.0f, -24))) << fp16_to_fp32(0x0001);
}

// Every float lies between two adjacent halves; the conversion must pick the
// nearer one (ties: the even one). Checked on random bit patterns over the
// half range and, where the compiler has _Float16, against its conversion.
TEST(KvCodec, halfRoundsToNearest)
{
    std::mt19937 rng(1234);
    std::uniform_int_distribution<std::uint32_t> bits(0, 0x477fffffu);  // |f| < 65536
    for (int i = 0; i < 200000; ++i) {
        const std::uint32_t b = bits(rng) | (i & 1 ? 0x80000000u : 0u);
        const float f = std::bit_cast<float>(b);
        const std::uint16_t h = fp32_to_fp16(f);
        const double got = fp16_to_fp32(h);
        if (std::isinf(got)) {
            ASSERT_TRUE(std::fabs(f) >= 65520.0f);
            continue;
        }
        // Neighbours of the chosen half, in magnitude.
        const std::uint16_t mag = h & 0x7fffu;
        const double up = fp16_to_fp32(static_cast<std::uint16_t>((h & 0x8000u) | (mag + 1)));
        const double err = std::fabs(double(f) - got);
        ASSERT_TRUE(err <= std::fabs(double(f) - up) || std::isinf(up));
        if (mag > 0) {
            const double down = fp16_to_fp32(static_cast<std::uint16_t>((h & 0x8000u) | (mag - 1)));
            ASSERT_TRUE(err <= std::fabs(double(f) - down));
        }
#if defined(__FLT16_MAX__)
        const _Float16 ref = static_cast<_Float16>(f);
        std::uint16_t ref_bits;
        std::memcpy(&ref_bits, &ref, 2);
        if ((h & 0x7fffu) != 0 || (ref_bits & 0x7fffu) != 0)
            ASSERT_EQ(unsigned(h), unsigned(ref_bits));
#endif
    }
}

struct rowBytes_row {
    std::string tag;
    int dtype;
    int n;
    std::int64_t bytes;
};

std::vector<rowBytes_row> rowBytes_rows()
{
    std::vector<rowBytes_row> rows;
    rows.push_back({"f16 192", int(kv_dtype::f16), 192, std::int64_t(384)});
    rows.push_back({"f16 odd", int(kv_dtype::f16), 7, std::int64_t(14)});
    rows.push_back({"q8_0 192", int(kv_dtype::q8_0), 192, std::int64_t(204)});
    rows.push_back({"q8_0 1024", int(kv_dtype::q8_0), 1024, std::int64_t(1088)});
    return rows;
}

TEST(KvCodec, rowBytes)
{
    kvlens::test::for_each_row(rowBytes_rows(), [&](const rowBytes_row& row) {
        ASSERT_TRUE(row_elems_valid(kv_dtype(row.dtype), row.n));
        ASSERT_EQ(row_bytes(kv_dtype(row.dtype), row.n), row.bytes);
    });
}

struct f16RowRoundTrip_row {
    std::string tag;
    int n;
    float scale;
};

std::vector<f16RowRoundTrip_row> f16RowRoundTrip_rows()
{
    std::vector<f16RowRoundTrip_row> rows;
    rows.push_back({"192 x 1", 192, 1.0f});
    rows.push_back({"1000 x 0.01", 1000, 0.01f});
    rows.push_back({"37 x 300", 37, 300.0f});     // not a multiple of 8: the scalar tail
    rows.push_back({"64 x 1e-5 (subnormals)", 64, 1e-5f});
    return rows;
}

TEST(KvCodec, f16RowRoundTrip)
{
    kvlens::test::for_each_row(f16RowRoundTrip_rows(), [&](const f16RowRoundTrip_row& row) {
        const std::vector<float> x = random_row(row.n, row.scale, 7);
        std::vector<std::uint8_t> stored(static_cast<std::size_t>(row_bytes(kv_dtype::f16, row.n)));
        std::vector<float> y(static_cast<std::size_t>(row.n), -1.0f);
        ASSERT_TRUE(store_row(kv_dtype::f16, x.data(), stored.data(), row.n));
        ASSERT_TRUE(load_row(kv_dtype::f16, stored.data(), y.data(), row.n));
        const double subnormal_step = std::ldexp(1.0, -24);
        double max_rel = 0;
        for (int i = 0; i < row.n; ++i) {
            // Round to nearest: half an ulp, 2^-11 relative for normals, 2^-25 absolute below.
            const double bound = std::max(std::fabs(double(x[i])) * std::ldexp(1.0, -11), subnormal_step / 2);
            const double err = std::fabs(double(x[i]) - double(y[i]));
            ASSERT_TRUE(err <= bound) << "element " << i << ": " << double(x[i]) << " -> " << double(y[i]);
            // The stored bits are exactly the portable conversion's.
            std::uint16_t h;
            std::memcpy(&h, stored.data() + 2 * i, 2);
            ASSERT_EQ(unsigned(h), unsigned(fp32_to_fp16(x[i])));
            if (std::fabs(x[i]) > 1e-3f)
                max_rel = std::max(max_rel, err / std::fabs(double(x[i])));
        }
        ASSERT_TRUE(max_rel <= std::ldexp(1.0, -11));
    });
}

// The row path (vectorised where the CPU allows) stores exactly the bits of
// the scalar conversion, edge cases included.
TEST(KvCodec, f16RowSpecialValues)
{
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> x = {1.0f, -0.0f, 65504.0f, 65519.0f, 65520.0f, 1e9f, -inf, inf,
                                  std::ldexp(1.0f, -25), std::ldexp(1.5f, -25), std::ldexp(1.5f, -24),
                                  std::ldexp(1.0f, -14), 1.0f + std::ldexp(1.0f, -11), 0.1f, -3.14159f,
                                  std::numeric_limits<float>::quiet_NaN(), 2.5f, -1e-30f};
    const int n = static_cast<int>(x.size());
    std::vector<std::uint8_t> stored(static_cast<std::size_t>(2 * n));
    std::vector<float> y(x.size());
    ASSERT_TRUE(store_row(kv_dtype::f16, x.data(), stored.data(), n));
    ASSERT_TRUE(load_row(kv_dtype::f16, stored.data(), y.data(), n));
    for (int i = 0; i < n; ++i) {
        std::uint16_t h;
        std::memcpy(&h, stored.data() + 2 * i, 2);
        if (std::isnan(x[static_cast<std::size_t>(i)])) {
            ASSERT_TRUE(std::isnan(y[static_cast<std::size_t>(i)]));
            continue;
        }
        ASSERT_EQ(unsigned(h), unsigned(fp32_to_fp16(x[static_cast<std::size_t>(i)])));
        ASSERT_TRUE(qt_fuzzy_equal(y[static_cast<std::size_t>(i)], fp16_to_fp32(h))) << y[static_cast<std::size_t>(i)];
    }
    ASSERT_TRUE(qt_fuzzy_equal(y[4], inf)) << y[4];            // 65520 overflows
    ASSERT_TRUE(qt_fuzzy_equal(y[9], std::ldexp(1.0f, -24))) << y[9];
}

struct q8RowRoundTrip_row {
    std::string tag;
    int n;
    float scale;
};

std::vector<q8RowRoundTrip_row> q8RowRoundTrip_rows()
{
    std::vector<q8RowRoundTrip_row> rows;
    rows.push_back({"192 x 1", 192, 1.0f});
    rows.push_back({"1024 x 0.05", 1024, 0.05f});
    rows.push_back({"32 x 40", 32, 40.0f});
    return rows;
}

TEST(KvCodec, q8RowRoundTrip)
{
    kvlens::test::for_each_row(q8RowRoundTrip_rows(), [&](const q8RowRoundTrip_row& row) {
        const std::vector<float> x = random_row(row.n, row.scale, 11);
        std::vector<std::uint8_t> stored(static_cast<std::size_t>(row_bytes(kv_dtype::q8_0, row.n)));
        std::vector<float> y(static_cast<std::size_t>(row.n), -1.0f);
        ASSERT_TRUE(store_row(kv_dtype::q8_0, x.data(), stored.data(), row.n));
        ASSERT_TRUE(load_row(kv_dtype::q8_0, stored.data(), y.data(), row.n));
        for (int b = 0; b < row.n / 32; ++b) {
            std::uint16_t d16;
            std::memcpy(&d16, stored.data() + 34 * b, 2);
            const float d = fp16_to_fp32(d16);
            float amax = 0;
            for (int j = 0; j < 32; ++j)
                amax = std::max(amax, std::fabs(x[static_cast<std::size_t>(32 * b + j)]));
            // d is max|x| / 127, as an f16.
            ASSERT_EQ(unsigned(d16), unsigned(fp32_to_fp16(amax / 127.0f)));
            ASSERT_TRUE(d > 0);
            bool some_quant_large = false;
            for (int j = 0; j < 32; ++j) {
                const std::size_t i = static_cast<std::size_t>(32 * b + j);
                const auto q = static_cast<std::int8_t>(stored[static_cast<std::size_t>(34 * b + 2 + j)]);
                ASSERT_TRUE(q >= -127 && q <= 127);
                some_quant_large = some_quant_large || std::abs(q) >= 126;
                ASSERT_TRUE(qt_fuzzy_equal(y[i], d * float(q))) << y[i];
                const double err = std::fabs(double(x[i]) - double(y[i]));
                ASSERT_TRUE(err <= 0.5 * d * (1 + 1e-6)) << "element " << i << ": " << double(x[i]) << " -> " << double(y[i]) << ", d " << double(d);
            }
            ASSERT_TRUE(some_quant_large);   // the largest element uses the full int8 range
        }
    });
}

TEST(KvCodec, q8ExactValuesAreLossless)
{
    // d = 63.5 / 127 = 0.5 exactly: every multiple of 0.5 up to 63.5 is a quant.
    std::vector<float> x(32);
    for (int j = 0; j < 32; ++j)
        x[static_cast<std::size_t>(j)] = 0.5f * float((j * 37) % 255 - 127) * (j == 5 ? 0 : 1);
    x[0] = 63.5f;
    std::vector<std::uint8_t> stored(34);
    std::vector<float> y(32);
    ASSERT_TRUE(store_row(kv_dtype::q8_0, x.data(), stored.data(), 32));
    ASSERT_TRUE(load_row(kv_dtype::q8_0, stored.data(), y.data(), 32));
    ASSERT_EQ(unsigned(stored[0] | (stored[1] << 8)), unsigned(fp32_to_fp16(0.5f)));
    for (int j = 0; j < 32; ++j)
        ASSERT_TRUE(qt_fuzzy_equal(y[static_cast<std::size_t>(j)], x[static_cast<std::size_t>(j)])) << y[static_cast<std::size_t>(j)];
}

TEST(KvCodec, q8ZeroBlock)
{
    std::vector<float> x(64, 0.0f);
    x[40] = -63.5f;  // second block: d = 0.5 exactly, q = -127
    std::vector<std::uint8_t> stored(68, 0xab);
    std::vector<float> y(64, 1.0f);
    ASSERT_TRUE(store_row(kv_dtype::q8_0, x.data(), stored.data(), 64));
    ASSERT_TRUE(load_row(kv_dtype::q8_0, stored.data(), y.data(), 64));
    for (int j = 0; j < 34; ++j)
        ASSERT_EQ(int(stored[static_cast<std::size_t>(j)]), 0);
    for (int j = 0; j < 64; ++j)
        ASSERT_TRUE(qt_fuzzy_equal(y[static_cast<std::size_t>(j)], x[static_cast<std::size_t>(j)])) << y[static_cast<std::size_t>(j)];
}

TEST(KvCodec, invalidLengthIsRejected)
{
    std::vector<float> x(100, 1.0f);
    std::vector<std::uint8_t> stored(400, 0xab);
    ASSERT_TRUE(!row_elems_valid(kv_dtype::q8_0, 100));
    ASSERT_TRUE(!store_row(kv_dtype::q8_0, x.data(), stored.data(), 100));
    ASSERT_TRUE(!load_row(kv_dtype::q8_0, stored.data(), x.data(), 100));
    ASSERT_TRUE(!store_row(kv_dtype::f16, x.data(), stored.data(), 0));
    ASSERT_EQ(int(stored[0]), 0xab);   // nothing written
    ASSERT_TRUE(qt_fuzzy_equal(x[0], 1.0f)) << x[0];
}

