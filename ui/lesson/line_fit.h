// SPDX-License-Identifier: Apache-2.0
// A least-squares straight line through measured points, for the lesson's
// sweeps (TTFT against prompt tokens, latency against token index). Plain
// C++, no Qt: y ≈ intercept + slope · x, with R² saying how well it fits.
#pragma once

#include <vector>

namespace kvlens::ui {

struct line_fit {
    double slope = 0;       // units of y per unit of x
    double intercept = 0;   // y at x = 0
    double r2 = 0;          // 1 - SS_res / SS_tot; 1 when every y is equal and fitted exactly
    int n = 0;              // points used
    bool valid() const { return n >= 2; }
    double at(double x) const { return intercept + slope * x; }
};

// The ordinary least-squares line. Fewer than two points, or all x equal:
// n < 2 (not valid). Sizes must match; extra values of the longer are ignored.
line_fit fit_line(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace kvlens::ui
