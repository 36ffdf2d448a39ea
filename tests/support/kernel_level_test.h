// SPDX-License-Identifier: Apache-2.0
// A GoogleTest fixture for the suites that switch the CPU kernel level
// (tests/cpu): the level the CPU chose is read once and put back after every
// test, as the Qt Test suites' initTestCase() / cleanup() did.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "engine/backend/cpu/kernels.h"

namespace kvlens::test {

// Puts the best kernel level back after each test (a test that changes it
// and fails half-way must not leave the next one on another level).
class kernel_level_test : public ::testing::Test {
protected:
    static void SetUpTestSuite() { best_level() = cpu_kernel_level(); }
    void TearDown() override { ASSERT_TRUE(set_cpu_kernel_level(best_level().c_str())); }
    static std::string& best_level() {
        static std::string level;
        return level;
    }
};

}  // namespace kvlens::test
