// SPDX-License-Identifier: Apache-2.0
// Events and figures as JSON (the --metrics-json lines of docs/design.md: one
// object per event with "event" and "request" keys, then the event's fields).
#pragma once

#include <string>

#include "engine/metrics/events.h"

namespace kvlens {

// One line of JSON, no trailing newline.
std::string event_to_json_line(const event& e);
std::string figures_to_json(const request_figures& f);

}  // namespace kvlens
