// SPDX-License-Identifier: Apache-2.0
// A tiny random-weight model (2 layers, 64 wide, 512 tokens of vocabulary,
// ChatML template) written once per test run into the temp directory.
#pragma once

#include <string>

namespace kvlens::test {

// Path of the tiny model in `type` ("Q4_1", "Q8_0", "F32"), written on first use.
// Empty on failure (the reason goes to stderr).
std::string tiny_model_path(const std::string& type = "Q4_1");

}  // namespace kvlens::test
