// SPDX-License-Identifier: Apache-2.0
// The machine ceilings: the probes give positive rates that a faster probe
// could not fake (the work is counted by hand here), the cache text round-trips
// and a damaged one is refused with the key named.
#include <gtest/gtest.h>

#include "engine/metrics/machine_ceilings.h"

using namespace kvlens;

namespace {

// One thread, two reps, a small read probe.
ceiling_probe_options oneThread(int probe_mib, std::int64_t peak_iterations)
{
    ceiling_probe_options o;
    o.threads = 1;
    o.probe_mib = probe_mib;
    o.reps = 2;
    o.peak_iterations = peak_iterations;
    return o;
}

}  // namespace

TEST(MachineCeilings, theProbesMeasurePositiveRatesOnEveryThread)
{
    auto c = measure_machine_ceilings(oneThread(32, 200'000));
    ASSERT_TRUE(c) << c.err().message;
    EXPECT_TRUE(c->valid());
    EXPECT_EQ(c->threads, 1);
    EXPECT_EQ(c->probe_bytes, 32ll << 20);
    EXPECT_FALSE(c->isa.empty());
    // Physical sanity, not speed: a core moves less than 1 TB/s and does less
    // than 10 TFLOP/s; and more than 100 MB/s and 100 MFLOP/s even under load.
    EXPECT_GT(c->read_bytes_s, 1e8);
    EXPECT_LT(c->read_bytes_s, 1e12);
    EXPECT_GT(c->f32_flop_s, 1e8);
    EXPECT_LT(c->f32_flop_s, 1e13);
    EXPECT_GT(c->int8_op_s, 1e8);
}

// The integer probe keeps each run's result in an int32 sink; at the default
// 4M iterations three runs (warm-up and two reps) sum past 2^31, which must
// wrap, not be undefined behaviour (the sanitizer suite fails on the latter).
TEST(MachineCeilings, theIntegerProbesResultsMaySumPastInt32)
{
    auto c = measure_machine_ceilings(oneThread(8, 4'000'000));
    ASSERT_TRUE(c) << c.err().message;
    EXPECT_GT(c->int8_op_s, 1e8);
}

TEST(MachineCeilings, outOfRangeOptionsAreAnErrorNotAnAbort)
{
    ceiling_probe_options o;
    o.probe_mib = 0;
    auto c = measure_machine_ceilings(o);
    ASSERT_FALSE(c);
    EXPECT_NE(c.err().message.find("MiB"), std::string::npos);
}

TEST(MachineCeilings, theCacheTextRoundTripsAndADamagedOneNamesTheKey)
{
    machine_ceilings c;
    c.read_bytes_s = 12.5e9;
    c.f32_flop_s = 1.5e11;
    c.int8_op_s = 6.0e11;
    c.threads = 2;
    c.isa = "avx2+fma";
    c.probe_bytes = 256ll << 20;
    auto back = machine_ceilings_from_text(to_text(c));
    ASSERT_TRUE(back) << back.err().message;
    EXPECT_DOUBLE_EQ(back->read_bytes_s, 12.5e9);
    EXPECT_DOUBLE_EQ(back->f32_flop_s, 1.5e11);
    EXPECT_DOUBLE_EQ(back->int8_op_s, 6.0e11);
    EXPECT_EQ(back->threads, 2);
    EXPECT_EQ(back->isa, "avx2+fma");
    EXPECT_EQ(back->probe_bytes, 256ll << 20);
    EXPECT_DOUBLE_EQ(back->ridge_f32(), 12.0);

    auto bad = machine_ceilings_from_text("read_bytes_s=x f32_flop_s=1 int8_op_s=1 threads=1 probe_bytes=1");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.err().message.find("read_bytes_s"), std::string::npos);
    EXPECT_FALSE(machine_ceilings_from_text("garbage"));
}

TEST(MachineCeilings, theExpectedReadTimeIsBytesOverBandwidth)
{
    machine_ceilings c;
    c.read_bytes_s = 10e9;
    // 100 MB at 10 GB/s: 10 ms.
    EXPECT_DOUBLE_EQ(expected_read_ms(100e6, c), 10.0);
    EXPECT_DOUBLE_EQ(expected_read_ms(100e6, machine_ceilings{}), 0.0);
}
