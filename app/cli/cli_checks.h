// SPDX-License-Identifier: Apache-2.0
// Checks for kvlens-cli's arguments that CLI11 does not make: numbers must be
// finite and in range (NaN passes CLI11's own range checks), messages give
// limits as short numbers, and a thread count is capped at what the machine
// can run, with a line on stderr saying so.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace kvlens::cli {

// A finite number in [lo, hi] (open at lo when lo_open: "greater than 0").
CLI::Validator finite_in(double lo, double hi, bool lo_open = false);

// The most threads a thread option may ask for: 4 per hardware thread, at
// most 1024. More is never faster and, far above it, thread creation fails.
int max_threads();
// Caps a thread count at max_threads(), saying so on stderr; negative is an error.
CLI::Validator thread_cap();

// The longest context kvlens-cli asks the engine for: 1,048,576 tokens.
inline constexpr int k_max_ctx = 1 << 20;

}  // namespace kvlens::cli
