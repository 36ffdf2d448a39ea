// SPDX-License-Identifier: Apache-2.0
// Argument checks of kvlens-cli (see cli_checks.h).
#include "app/cli/cli_checks.h"

#include "engine/backend/cpu/thread_pool.h"

#include <charconv>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "common/printable.h"

namespace kvlens::cli {
namespace {

// The whole string as a double; false when it is not one number.
bool parse_double(const std::string& s, double& out) {
    const char* b = s.data();
    const char* e = s.data() + s.size();
    while (b < e && *b == ' ') ++b;
    if (b < e && *b == '+') ++b;
    const auto r = std::from_chars(b, e, out);
    return r.ec == std::errc() && r.ptr == e;
}

}  // namespace

CLI::Validator finite_in(double lo, double hi, bool lo_open) {
    const std::string desc = fmt::format("{}{:g} to {:g}", lo_open ? "above " : "", lo, hi);
    return CLI::Validator(
        [lo, hi, lo_open](std::string& s) -> std::string {
            double v = 0;
            if (!parse_double(s, v)) return fmt::format("{} is not a number", quoted(s, 40));
            if (!std::isfinite(v)) return fmt::format("{} is not a finite number", quoted(s, 40));
            if (v < lo || v > hi || (lo_open && v == lo))
                return fmt::format("{:g} is out of range ({}{:g} to {:g})", v, lo_open ? "above " : "", lo, hi);
            return {};
        },
        desc, "FINITE");
}

int max_threads() { return kvlens::thread_pool::max_threads(); }

CLI::Validator thread_cap() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            double v = 0;
            if (!parse_double(s, v) || !std::isfinite(v) || v != std::floor(v))
                return fmt::format("{} is not a whole number", quoted(s, 40));
            if (v < 0) return fmt::format("{:g} threads: give 0 (one per core) or more", v);
            const int cap = max_threads();
            if (v > cap) {
                fmt::print(stderr, "kvlens-cli: --threads {:g} is more than this machine can use; using {} "
                                   "(4 per hardware thread)\n", v, cap);
                s = std::to_string(cap);
            }
            return {};
        },
        "0 or more, capped", "THREADS");
}

}  // namespace kvlens::cli
