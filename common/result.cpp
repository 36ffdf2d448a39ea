// SPDX-License-Identifier: Apache-2.0
// result.h is header-only; this unit anchors the engine library.
#include "common/result.h"
