// SPDX-License-Identifier: Apache-2.0
// Where tests find the project root, the shared test data and the default model.
#pragma once

#include <filesystem>
#include <string>

namespace kvlens::test {

inline std::filesystem::path source_root() { return KVLENS_SOURCE_ROOT; }
inline std::filesystem::path shared_dir() { return source_root().parent_path() / "shared"; }
inline std::filesystem::path default_model() { return KVLENS_DEFAULT_MODEL; }
inline bool have_default_model() { return std::filesystem::exists(default_model()); }

}  // namespace kvlens::test
