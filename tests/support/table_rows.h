// SPDX-License-Identifier: Apache-2.0
// Table-driven GoogleTest cases, as the Qt Test suites' _data() rows were:
// every row runs; a failed check stops only its own row (the check is a
// function of the row, so ASSERT_* returns from it), and the failure names
// the row by its `tag`.
//   kvlens::test::for_each_row(rows(), [](const row& r) { ASSERT_EQ(f(r.input), r.expected); });
#pragma once

#include <gtest/gtest.h>

namespace kvlens::test {

template <class Rows, class Check>
void for_each_row(const Rows& rows, Check check) {
    for (const auto& row : rows) {
        SCOPED_TRACE(row.tag);
        check(row);
    }
}

}  // namespace kvlens::test
