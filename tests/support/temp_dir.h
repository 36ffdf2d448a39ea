// SPDX-License-Identifier: Apache-2.0
// A fresh directory under the system temp directory, removed with everything
// in it when the object goes (what the Qt suites used QTemporaryDir for).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace kvlens::test {

struct temp_dir {
    std::filesystem::path path;

    temp_dir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "kvlens-test-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory in " + pattern);
        path = pattern;
    }
    ~temp_dir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
};

}  // namespace kvlens::test
