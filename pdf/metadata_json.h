// SPDX-License-Identifier: Apache-2.0
// The one JSON form of a PDF's metadata, shared by the helper's protocol and
// `kvlens-cli extract --json`.
#pragma once

#include <nlohmann/json.hpp>

#include "pdf/document.h"

namespace kvlens::pdf {

nlohmann::json metadata_to_json(const metadata& m);

}  // namespace kvlens::pdf
