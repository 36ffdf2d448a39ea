// SPDX-License-Identifier: Apache-2.0
// The one place that starts kvlens-pdf-helper (see helper_launch.h).
#include "pdf/helper_launch.h"

#include <cstdlib>
#include <unistd.h>

namespace kvlens::pdf {

namespace {

bool is_executable(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

error fail(failure_kind* out, failure_kind kind, std::string message) {
    if (out) *out = kind;
    return make_error(std::move(message));
}

// "30 s", "2.5 s": a time limit as the messages give it.
std::string seconds(std::chrono::milliseconds ms) {
    const long long s10 = (ms.count() + 50) / 100;
    return s10 % 10 == 0 ? std::to_string(s10 / 10) + " s" : std::to_string(s10 / 10) + "." + std::to_string(s10 % 10) + " s";
}

}  // namespace

result<std::filesystem::path> find_helper(const std::filesystem::path& explicit_path) {
    if (!explicit_path.empty()) {
        if (is_executable(explicit_path)) return explicit_path;
        return make_error("the PDF helper '" + explicit_path.string() + "' is missing or not executable");
    }
    if (const char* env = std::getenv(helper_env_var); env && *env) {
        if (is_executable(env)) return std::filesystem::path(env);
        return make_error(std::string("the PDF helper named by ") + helper_env_var + " ('" + env +
                          "') is missing or not executable");
    }
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path dir = self.parent_path();
        for (const auto& candidate : {dir / helper_name, dir.parent_path() / "pdf_helper" / helper_name,
                                      dir.parent_path() / "libexec" / "kvlens" / helper_name})
            if (is_executable(candidate)) return candidate;
    }
    return make_error(std::string("the PDF helper ") + helper_name + " was not found next to the program; set " +
                      helper_env_var);
}

result<process_outcome> launch_helper(const helper_launch& launch, failure_kind* failure) {
    auto helper = find_helper(launch.helper_path);
    if (!helper) return fail(failure, failure_kind::helper_missing, helper.message());

    process_request request;
    request.executable = *helper;
    request.args = {launch.subcommand, launch.file.string()};
    request.args.insert(request.args.end(), launch.args.begin(), launch.args.end());
    if (!launch.password.empty()) {
        request.args.push_back("--password-stdin");
        request.stdin_data = launch.password;
    }
    request.timeout = launch.timeout;
    request.max_stdout_bytes = launch.max_stdout_bytes;
    request.cancel = launch.cancel;
    auto run = run_process(request);
    if (!run) return fail(failure, failure_kind::helper_missing, run.message());

    const std::string name = launch.file.filename().string();
    if (run->cancelled) return fail(failure, failure_kind::cancelled, launch.doing + " '" + name + "' was cancelled");
    if (run->timed_out)
        return fail(failure, failure_kind::timeout,
                    launch.doing + " '" + name + "' took longer than " + seconds(launch.timeout) +
                        "; the PDF helper was stopped");
    return run;
}

}  // namespace kvlens::pdf
