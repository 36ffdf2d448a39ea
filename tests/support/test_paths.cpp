// SPDX-License-Identifier: Apache-2.0
// (test_paths.h is header-only; this keeps the support library non-empty.)
#include "tests/support/test_paths.h"
