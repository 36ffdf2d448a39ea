// SPDX-License-Identifier: Apache-2.0
// Ordinary least squares on centred sums (numerically kinder than raw sums).
#include "ui/lesson/line_fit.h"

#include <algorithm>
#include <cstddef>

namespace kvlens::ui {

line_fit fit_line(const std::vector<double>& x, const std::vector<double>& y)
{
    line_fit f;
    const std::size_t n = std::min(x.size(), y.size());
    if (n < 2)
        return f;
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < n; ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= double(n);
    my /= double(n);
    double sxx = 0, sxy = 0, syy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx <= 0)
        return f;   // a vertical line: no slope to give
    f.n = int(n);
    f.slope = sxy / sxx;
    f.intercept = my - f.slope * mx;
    double ss_res = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double r = y[i] - f.at(x[i]);
        ss_res += r * r;
    }
    f.r2 = syy > 0 ? 1.0 - ss_res / syy : 1.0;
    return f;
}

}  // namespace kvlens::ui
