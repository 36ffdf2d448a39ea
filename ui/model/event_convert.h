// SPDX-License-Identifier: Apache-2.0
// The one place where the engine's event structs (engine/metrics/events.h)
// become the window's Qt value types. Header-only use of the engine: no link
// dependency on its implementation.
#pragma once

#include "engine/metrics/events.h"
#include "ui/model/run_types.h"

namespace kvlens::ui {

RunEvent toRunEvent(const kvlens::event& e, int runId);
RunFigures toRunFigures(const kvlens::request_figures& f);

}  // namespace kvlens::ui
