// SPDX-License-Identifier: Apache-2.0
// The block layouts are formats, not a backend: they live in engine/quant/.
// This header stays so that existing includes keep building.
#pragma once

#include "engine/quant/quant_blocks.h"
