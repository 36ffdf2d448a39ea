// SPDX-License-Identifier: Apache-2.0
// The GoogleTest fixture of the suites that hold a model to llama.cpp's golden
// data (tests/model/test_reference_agreement, test_gemma3_reference): the
// model and the golden file are loaded once for the suite; every test skips,
// saying why, when one of them is absent, and fails when the model does not
// load or the golden data was made from another file. `Files` names them:
//   struct files {
//       static std::filesystem::path model();
//       static constexpr int max_batch = 128;
//       static constexpr const char* golden = "gemma3_greedy.json";
//       static constexpr const char* sha256 = "...";   // of the model file
//       static constexpr const char* no_model = "...";  // the skip message
//       static constexpr const char* no_golden = "";    // "": the golden data is required
//   };
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "tests/support/reference_runner.h"

namespace kvlens::test {

template <class Files>
class reference_suite : public ::testing::Test {
protected:
    static inline reference_suite_state suite_;
    static inline reference_runner& r_ = suite_.runner;
    static inline nlohmann::json& golden_ = suite_.golden;

    static void SetUpTestSuite()
    {
        suite_.load(Files::model(), Files::max_batch, Files::golden, Files::no_model, Files::no_golden);
    }
    static void TearDownTestSuite() { suite_.runner = {}; }

    void SetUp() override
    {
        if (!suite_.skip.empty()) GTEST_SKIP() << suite_.skip;
        ASSERT_TRUE(suite_.error.empty()) << suite_.error;
        ASSERT_EQ(golden_["model_sha256"].get<std::string>(), std::string(Files::sha256));
    }
};

}  // namespace kvlens::test
