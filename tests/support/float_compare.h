// SPDX-License-Identifier: Apache-2.0
// QCOMPARE's rule for floating-point values, so that the suites converted from
// Qt Test to GoogleTest assert exactly what they asserted before: equal when
// both are the same infinity or both NaN, "fuzzily null" together when the
// expected value is (|x| <= 1e-12 for double, 1e-5 for float), else equal to
// about 12 significant digits for double (5 for float):
//   |actual - expected| * 1e12 <= min(|actual|, |expected|).
//   ASSERT_TRUE(kvlens::test::qt_fuzzy_equal(got, 10000.0)) << got;
#pragma once

#include <algorithm>
#include <cmath>

namespace kvlens::test {

namespace detail {
template <class T>
bool fuzzy_equal(T actual, T expected) {
    constexpr T null_limit = sizeof(T) == sizeof(float) ? T(1e-5) : T(1e-12);
    constexpr T scale = sizeof(T) == sizeof(float) ? T(1e5) : T(1e12);
    if (std::isinf(expected)) return std::isinf(actual) && (expected < 0) == (actual < 0);
    if (std::isnan(expected)) return std::isnan(actual);
    if (std::fabs(expected) <= null_limit) return std::fabs(actual) <= null_limit;
    return std::fabs(actual - expected) * scale <= std::min(std::fabs(actual), std::fabs(expected));
}
}  // namespace detail

inline bool qt_fuzzy_equal(double actual, double expected) { return detail::fuzzy_equal<double>(actual, expected); }
inline bool qt_fuzzy_equal(float actual, float expected) { return detail::fuzzy_equal<float>(actual, expected); }

// qRound: to the nearest integer, halves away from zero.
inline int qt_round(double d) { return d >= 0.0 ? static_cast<int>(d + 0.5) : -static_cast<int>(-d + 0.5); }

}  // namespace kvlens::test
