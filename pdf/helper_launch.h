// SPDX-License-Identifier: Apache-2.0
// Starting kvlens-pdf-helper, in one place: finding the executable, the
// command line (subcommand, absolute file, its arguments, the password on
// stdin), the time limit, the output cap and cancellation, and the outcomes
// every caller reports the same way (helper missing, cancelled, stopped at the
// deadline). Text extraction (reader_process) and page rendering
// (page_render) both start the helper through launch_helper().
#pragma once

#include "common/result.h"
#include "pdf/document.h"
#include "pdf/subprocess.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace kvlens::pdf {

// The environment variable that names the helper executable (tests, installs).
inline constexpr const char* helper_env_var = "KVLENS_PDF_HELPER";
inline constexpr const char* helper_name = "kvlens-pdf-helper";

// Finds the helper: `explicit_path` when given, else $KVLENS_PDF_HELPER, else
// next to the calling executable, else ../pdf_helper/ (the build tree) or
// ../libexec/kvlens/ (an install) relative to it.
result<std::filesystem::path> find_helper(const std::filesystem::path& explicit_path = {});

struct helper_launch {
    std::string subcommand;                     // "extract" or "render"
    std::filesystem::path file;                 // absolute path of the PDF
    std::vector<std::string> args;              // after the file: "--first", "3", ...
    std::string password;                       // empty: none; else sent on stdin (never on the command line)
    std::chrono::milliseconds timeout{30'000};  // for the whole helper run
    std::size_t max_stdout_bytes = 0;           // the answer's cap, bytes
    const std::atomic<bool>* cancel = nullptr;
    std::filesystem::path helper_path;          // empty: find_helper()
    std::string doing;                          // "reading" or "rendering", for the messages
};

// Runs the helper. An error (with `failure` set) when it cannot be found or
// started, was cancelled or passed its deadline; otherwise the outcome, whose
// exit, signal and output the caller judges by its own protocol.
result<process_outcome> launch_helper(const helper_launch& launch, failure_kind* failure);

}  // namespace kvlens::pdf
