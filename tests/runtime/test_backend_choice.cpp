// SPDX-License-Identifier: Apache-2.0
// Choosing the backend: a CUDA backend that cannot run is never an error but
// the CPU with a sentence saying why (the sizes that did not fit), an unknown
// name is an error, and the memory figures the window's chart reads match the
// engine's own byte counts.
#include <gtest/gtest.h>

#include "engine/backend/backend.h"
#include "engine/runtime/engine.h"
#include "tests/support/text_checks.h"
#include "tests/support/tiny_model.h"

#include <cstdint>
#include <memory>
#include <string>

using namespace kvlens;
using kvlens::test::contains;

namespace {

constexpr std::int64_t GiB = 1024LL * 1024 * 1024;

result<std::unique_ptr<engine>> make(const std::string& backend) {
    engine_options o;
    o.model_path = test::tiny_model_path();
    o.backend = backend;
    o.n_ctx = 256;
    return engine::create(o);
}

}  // namespace

TEST(BackendChoice, aMisfitNamesTheWeightsTheKvPoolAndTheFreeMemory)
{
    const auto why = device_misfit(21 * GiB / 10, GiB, GiB / 2, 16 * GiB);
    ASSERT_TRUE(why.has_value());
    ASSERT_EQ(*why, std::string("2.1 GiB of weights + 1.0 GiB KV pool do not fit in 0.5 GiB free of 16.0 GiB"));
}

TEST(BackendChoice, weightsAndPoolThatFitExactlyAreNoMisfit)
{
    ASSERT_TRUE(!device_misfit(3 * GiB, GiB, 4 * GiB, 16 * GiB).has_value());
    ASSERT_TRUE(device_misfit(3 * GiB, GiB + 1, 4 * GiB, 16 * GiB).has_value());
}

TEST(BackendChoice, sizesBelowATenthOfAGibAreInMib)
{
    ASSERT_EQ((*device_misfit(3 << 19, 2 << 20, 1 << 20, 16 * GiB)), std::string("1.5 MiB of weights + 2.0 MiB KV pool do not fit in 1.0 MiB free of 16.0 GiB"));
}

TEST(BackendChoice, askingForCudaWhereItCannotRunGivesTheCpuAndTheReason)
{
    auto e = make("cuda");
    ASSERT_TRUE(static_cast<bool>(e)) << (e ? "" : e.message());
    if ((*e)->device_memory().on_device) GTEST_SKIP() << "a CUDA device runs here: nothing to fall back from";
    const std::string why = (*e)->backend_fallback();
    ASSERT_TRUE(why.starts_with(std::string("cuda: "))) << why;
    ASSERT_TRUE(why.ends_with(std::string("; using the CPU"))) << why;
    const std::string desc = (*e)->backend_description();
    ASSERT_TRUE(desc.starts_with(std::string("cpu")) && contains(desc, why)) << desc;
}

TEST(BackendChoice, theCpuAskedForHasNoFallback)
{
    auto e = make("cpu");
    ASSERT_TRUE(static_cast<bool>(e));
    ASSERT_EQ((*e)->backend_fallback(), std::string());
}

TEST(BackendChoice, anUnknownBackendIsAnErrorThatNamesIt)
{
    auto e = make("tpu");
    ASSERT_TRUE(!static_cast<bool>(e));
    ASSERT_TRUE(contains(e.message(), std::string("'tpu'"))) << e.message().c_str();
}

TEST(BackendChoice, theCpuMemoryFiguresAreTheEnginesByteCountsInHostMemory)
{
    auto e = make("cpu");
    ASSERT_TRUE(static_cast<bool>(e));
    const memory_figures f = (*e)->device_memory();
    ASSERT_TRUE(!f.on_device);
    ASSERT_EQ(f.device, std::string("host memory"));
    ASSERT_TRUE(f.weight_bytes > 0 && f.kv_bytes > 0);
    ASSERT_EQ(f.weight_bytes, (*e)->weight_bytes());
    ASSERT_EQ(f.kv_bytes, (*e)->kv_pool_bytes());
    ASSERT_EQ(f.scratch_bytes, (*e)->scratch_bytes());
    ASSERT_EQ(f.free_bytes, std::int64_t{0});
    ASSERT_EQ(f.total_bytes, std::int64_t{0});
}
