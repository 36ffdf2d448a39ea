// SPDX-License-Identifier: Apache-2.0
// The KV row codecs: half conversion (exact and correctly rounded), f16 and
// q8_0 rows round-tripped on random data within their error bounds.
#include <QtTest/QtTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/fp16.h"
#include "engine/kv/kv_codec.h"

using namespace kvlens;

class TestKvCodec : public QObject {
    Q_OBJECT

private slots:
    void halfKnownValues_data();
    void halfKnownValues();
    void halfRoundTripsEveryPattern();
    void halfRoundsToNearest();
    void rowBytes_data();
    void rowBytes();
    void f16RowRoundTrip_data();
    void f16RowRoundTrip();
    void f16RowSpecialValues();
    void q8RowRoundTrip_data();
    void q8RowRoundTrip();
    void q8ExactValuesAreLossless();
    void q8ZeroBlock();
    void invalidLengthIsRejected();
};

void TestKvCodec::halfKnownValues_data()
{
    QTest::addColumn<float>("value");
    QTest::addColumn<uint>("bits");
    QTest::newRow("one") << 1.0f << 0x3c00u;
    QTest::newRow("minus two") << -2.0f << 0xc000u;
    QTest::newRow("zero") << 0.0f << 0x0000u;
    QTest::newRow("minus zero") << -0.0f << 0x8000u;
    QTest::newRow("0.1") << 0.1f << 0x2e66u;
    QTest::newRow("max half") << 65504.0f << 0x7bffu;
    QTest::newRow("just under overflow") << 65519.0f << 0x7bffu;
    QTest::newRow("overflow tie to inf") << 65520.0f << 0x7c00u;
    QTest::newRow("inf") << std::numeric_limits<float>::infinity() << 0x7c00u;
    QTest::newRow("-inf") << -std::numeric_limits<float>::infinity() << 0xfc00u;
    QTest::newRow("smallest normal") << std::ldexp(1.0f, -14) << 0x0400u;
    QTest::newRow("smallest subnormal") << std::ldexp(1.0f, -24) << 0x0001u;
    QTest::newRow("half of smallest subnormal: tie to 0") << std::ldexp(1.0f, -25) << 0x0000u;
    QTest::newRow("1.5 x 2^-25 rounds up") << std::ldexp(1.5f, -25) << 0x0001u;
    QTest::newRow("1.5 x 2^-24 ties to even 2") << std::ldexp(1.5f, -24) << 0x0002u;
    QTest::newRow("1 + 2^-11 ties to even 1") << 1.0f + std::ldexp(1.0f, -11) << 0x3c00u;
    QTest::newRow("1 + 3x2^-11 ties to even up") << 1.0f + 3 * std::ldexp(1.0f, -11) << 0x3c02u;
}

void TestKvCodec::halfKnownValues()
{
    QFETCH(float, value);
    QFETCH(uint, bits);
    QCOMPARE(uint(fp32_to_fp16(value)), bits);
}

void TestKvCodec::halfRoundTripsEveryPattern()
{
    int n_nan = 0;
    for (std::uint32_t h = 0; h <= 0xffffu; ++h) {
        const float f = fp16_to_fp32(static_cast<std::uint16_t>(h));
        const bool is_nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
        if (is_nan) {
            QVERIFY(std::isnan(f));
            QVERIFY(std::isnan(fp16_to_fp32(fp32_to_fp16(f))));
            ++n_nan;
            continue;
        }
        if (fp32_to_fp16(f) != h)
            QFAIL(qPrintable(QStringLiteral("half 0x%1 -> %2 -> 0x%3").arg(h, 4, 16, QLatin1Char('0'))
                                 .arg(double(f)).arg(fp32_to_fp16(f), 4, 16, QLatin1Char('0'))));
    }
    QCOMPARE(n_nan, 2 * 1023);
    QCOMPARE(fp16_to_fp32(0x3555), 0.333251953125f);
    QCOMPARE(fp16_to_fp32(0x0001), std::ldexp(1.0f, -24));
}

// Every float lies between two adjacent halves; the conversion must pick the
// nearer one (ties: the even one). Checked on random bit patterns over the
// half range and, where the compiler has _Float16, against its conversion.
void TestKvCodec::halfRoundsToNearest()
{
    std::mt19937 rng(1234);
    std::uniform_int_distribution<std::uint32_t> bits(0, 0x477fffffu);  // |f| < 65536
    for (int i = 0; i < 200000; ++i) {
        const std::uint32_t b = bits(rng) | (i & 1 ? 0x80000000u : 0u);
        const float f = std::bit_cast<float>(b);
        const std::uint16_t h = fp32_to_fp16(f);
        const double got = fp16_to_fp32(h);
        if (std::isinf(got)) {
            QVERIFY(std::fabs(f) >= 65520.0f);
            continue;
        }
        // Neighbours of the chosen half, in magnitude.
        const std::uint16_t mag = h & 0x7fffu;
        const double up = fp16_to_fp32(static_cast<std::uint16_t>((h & 0x8000u) | (mag + 1)));
        const double err = std::fabs(double(f) - got);
        QVERIFY(err <= std::fabs(double(f) - up) || std::isinf(up));
        if (mag > 0) {
            const double down = fp16_to_fp32(static_cast<std::uint16_t>((h & 0x8000u) | (mag - 1)));
            QVERIFY(err <= std::fabs(double(f) - down));
        }
#if defined(__FLT16_MAX__)
        const _Float16 ref = static_cast<_Float16>(f);
        std::uint16_t ref_bits;
        std::memcpy(&ref_bits, &ref, 2);
        if ((h & 0x7fffu) != 0 || (ref_bits & 0x7fffu) != 0)
            QCOMPARE(uint(h), uint(ref_bits));
#endif
    }
}

void TestKvCodec::rowBytes_data()
{
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("n");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("f16 192") << int(kv_dtype::f16) << 192 << qint64(384);
    QTest::newRow("f16 odd") << int(kv_dtype::f16) << 7 << qint64(14);
    QTest::newRow("q8_0 192") << int(kv_dtype::q8_0) << 192 << qint64(204);
    QTest::newRow("q8_0 1024") << int(kv_dtype::q8_0) << 1024 << qint64(1088);
}

void TestKvCodec::rowBytes()
{
    QFETCH(int, dtype);
    QFETCH(int, n);
    QFETCH(qint64, bytes);
    QVERIFY(row_elems_valid(kv_dtype(dtype), n));
    QCOMPARE(row_bytes(kv_dtype(dtype), n), bytes);
}

static std::vector<float> random_row(int n, float scale, unsigned seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.0f, scale);
    std::vector<float> x(static_cast<std::size_t>(n));
    for (float& v : x)
        v = dist(rng);
    return x;
}

void TestKvCodec::f16RowRoundTrip_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<float>("scale");
    QTest::newRow("192 x 1") << 192 << 1.0f;
    QTest::newRow("1000 x 0.01") << 1000 << 0.01f;
    QTest::newRow("37 x 300") << 37 << 300.0f;     // not a multiple of 8: the scalar tail
    QTest::newRow("64 x 1e-5 (subnormals)") << 64 << 1e-5f;
}

void TestKvCodec::f16RowRoundTrip()
{
    QFETCH(int, n);
    QFETCH(float, scale);
    const std::vector<float> x = random_row(n, scale, 7);
    std::vector<std::uint8_t> stored(static_cast<std::size_t>(row_bytes(kv_dtype::f16, n)));
    std::vector<float> y(static_cast<std::size_t>(n), -1.0f);
    QVERIFY(store_row(kv_dtype::f16, x.data(), stored.data(), n));
    QVERIFY(load_row(kv_dtype::f16, stored.data(), y.data(), n));
    const double subnormal_step = std::ldexp(1.0, -24);
    double max_rel = 0;
    for (int i = 0; i < n; ++i) {
        // Round to nearest: half an ulp, 2^-11 relative for normals, 2^-25 absolute below.
        const double bound = std::max(std::fabs(double(x[i])) * std::ldexp(1.0, -11), subnormal_step / 2);
        const double err = std::fabs(double(x[i]) - double(y[i]));
        QVERIFY2(err <= bound, qPrintable(QStringLiteral("element %1: %2 -> %3").arg(i).arg(double(x[i])).arg(double(y[i]))));
        // The stored bits are exactly the portable conversion's.
        std::uint16_t h;
        std::memcpy(&h, stored.data() + 2 * i, 2);
        QCOMPARE(uint(h), uint(fp32_to_fp16(x[i])));
        if (std::fabs(x[i]) > 1e-3f)
            max_rel = std::max(max_rel, err / std::fabs(double(x[i])));
    }
    QVERIFY(max_rel <= std::ldexp(1.0, -11));
}

// The row path (vectorised where the CPU allows) stores exactly the bits of
// the scalar conversion, edge cases included.
void TestKvCodec::f16RowSpecialValues()
{
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> x = {1.0f, -0.0f, 65504.0f, 65519.0f, 65520.0f, 1e9f, -inf, inf,
                                  std::ldexp(1.0f, -25), std::ldexp(1.5f, -25), std::ldexp(1.5f, -24),
                                  std::ldexp(1.0f, -14), 1.0f + std::ldexp(1.0f, -11), 0.1f, -3.14159f,
                                  std::numeric_limits<float>::quiet_NaN(), 2.5f, -1e-30f};
    const int n = static_cast<int>(x.size());
    std::vector<std::uint8_t> stored(static_cast<std::size_t>(2 * n));
    std::vector<float> y(x.size());
    QVERIFY(store_row(kv_dtype::f16, x.data(), stored.data(), n));
    QVERIFY(load_row(kv_dtype::f16, stored.data(), y.data(), n));
    for (int i = 0; i < n; ++i) {
        std::uint16_t h;
        std::memcpy(&h, stored.data() + 2 * i, 2);
        if (std::isnan(x[static_cast<std::size_t>(i)])) {
            QVERIFY(std::isnan(y[static_cast<std::size_t>(i)]));
            continue;
        }
        QCOMPARE(uint(h), uint(fp32_to_fp16(x[static_cast<std::size_t>(i)])));
        QCOMPARE(y[static_cast<std::size_t>(i)], fp16_to_fp32(h));
    }
    QCOMPARE(y[4], inf);            // 65520 overflows
    QCOMPARE(y[9], std::ldexp(1.0f, -24));
}

void TestKvCodec::q8RowRoundTrip_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<float>("scale");
    QTest::newRow("192 x 1") << 192 << 1.0f;
    QTest::newRow("1024 x 0.05") << 1024 << 0.05f;
    QTest::newRow("32 x 40") << 32 << 40.0f;
}

void TestKvCodec::q8RowRoundTrip()
{
    QFETCH(int, n);
    QFETCH(float, scale);
    const std::vector<float> x = random_row(n, scale, 11);
    std::vector<std::uint8_t> stored(static_cast<std::size_t>(row_bytes(kv_dtype::q8_0, n)));
    std::vector<float> y(static_cast<std::size_t>(n), -1.0f);
    QVERIFY(store_row(kv_dtype::q8_0, x.data(), stored.data(), n));
    QVERIFY(load_row(kv_dtype::q8_0, stored.data(), y.data(), n));
    for (int b = 0; b < n / 32; ++b) {
        std::uint16_t d16;
        std::memcpy(&d16, stored.data() + 34 * b, 2);
        const float d = fp16_to_fp32(d16);
        float amax = 0;
        for (int j = 0; j < 32; ++j)
            amax = std::max(amax, std::fabs(x[static_cast<std::size_t>(32 * b + j)]));
        // d is max|x| / 127, as an f16.
        QCOMPARE(uint(d16), uint(fp32_to_fp16(amax / 127.0f)));
        QVERIFY(d > 0);
        bool some_quant_large = false;
        for (int j = 0; j < 32; ++j) {
            const std::size_t i = static_cast<std::size_t>(32 * b + j);
            const auto q = static_cast<std::int8_t>(stored[static_cast<std::size_t>(34 * b + 2 + j)]);
            QVERIFY(q >= -127 && q <= 127);
            some_quant_large = some_quant_large || std::abs(q) >= 126;
            QCOMPARE(y[i], d * float(q));
            const double err = std::fabs(double(x[i]) - double(y[i]));
            QVERIFY2(err <= 0.5 * d * (1 + 1e-6),
                     qPrintable(QStringLiteral("element %1: %2 -> %3, d %4").arg(i).arg(double(x[i])).arg(double(y[i])).arg(double(d))));
        }
        QVERIFY(some_quant_large);   // the largest element uses the full int8 range
    }
}

void TestKvCodec::q8ExactValuesAreLossless()
{
    // d = 63.5 / 127 = 0.5 exactly: every multiple of 0.5 up to 63.5 is a quant.
    std::vector<float> x(32);
    for (int j = 0; j < 32; ++j)
        x[static_cast<std::size_t>(j)] = 0.5f * float((j * 37) % 255 - 127) * (j == 5 ? 0 : 1);
    x[0] = 63.5f;
    std::vector<std::uint8_t> stored(34);
    std::vector<float> y(32);
    QVERIFY(store_row(kv_dtype::q8_0, x.data(), stored.data(), 32));
    QVERIFY(load_row(kv_dtype::q8_0, stored.data(), y.data(), 32));
    QCOMPARE(uint(stored[0] | (stored[1] << 8)), uint(fp32_to_fp16(0.5f)));
    for (int j = 0; j < 32; ++j)
        QCOMPARE(y[static_cast<std::size_t>(j)], x[static_cast<std::size_t>(j)]);
}

void TestKvCodec::q8ZeroBlock()
{
    std::vector<float> x(64, 0.0f);
    x[40] = -63.5f;  // second block: d = 0.5 exactly, q = -127
    std::vector<std::uint8_t> stored(68, 0xab);
    std::vector<float> y(64, 1.0f);
    QVERIFY(store_row(kv_dtype::q8_0, x.data(), stored.data(), 64));
    QVERIFY(load_row(kv_dtype::q8_0, stored.data(), y.data(), 64));
    for (int j = 0; j < 34; ++j)
        QCOMPARE(int(stored[static_cast<std::size_t>(j)]), 0);
    for (int j = 0; j < 64; ++j)
        QCOMPARE(y[static_cast<std::size_t>(j)], x[static_cast<std::size_t>(j)]);
}

void TestKvCodec::invalidLengthIsRejected()
{
    std::vector<float> x(100, 1.0f);
    std::vector<std::uint8_t> stored(400, 0xab);
    QVERIFY(!row_elems_valid(kv_dtype::q8_0, 100));
    QVERIFY(!store_row(kv_dtype::q8_0, x.data(), stored.data(), 100));
    QVERIFY(!load_row(kv_dtype::q8_0, stored.data(), x.data(), 100));
    QVERIFY(!store_row(kv_dtype::f16, x.data(), stored.data(), 0));
    QCOMPARE(int(stored[0]), 0xab);   // nothing written
    QCOMPARE(x[0], 1.0f);
}

QTEST_APPLESS_MAIN(TestKvCodec)
#include "test_kv_codec.moc"
