// SPDX-License-Identifier: Apache-2.0
// A fresh directory under the system temp directory, removed with everything
// in it when the object goes (what the Qt suites used QTemporaryDir for), and
// files a suite writes once and keeps for all its tests, removed when the
// process exits.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

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

// Returns path, to be removed when the test process exits normally (a
// suite's model file written once for all its tests; a crashed run leaves it).
inline std::filesystem::path removed_at_exit(std::filesystem::path path) {
    struct registry {
        std::mutex lock;
        std::vector<std::filesystem::path> paths;
        ~registry() {
            std::error_code ec;
            for (const auto& p : paths) std::filesystem::remove(p, ec);
        }
    };
    static registry r;
    std::lock_guard<std::mutex> hold(r.lock);
    r.paths.push_back(path);
    return path;
}

}  // namespace kvlens::test
