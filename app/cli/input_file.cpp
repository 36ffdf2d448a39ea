// SPDX-License-Identifier: Apache-2.0
// Safe reading of user-named input files (see input_file.h).
#include "app/cli/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/printable.h"

namespace kvlens::cli {
namespace {

const char* kind_of(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

}  // namespace

result<std::string> read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
    if (path.empty()) return make_error(fmt::format("no {} given (the path is empty)", what));
    const std::string shown = quoted(path, 1024);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return make_error(fmt::format("cannot read {} {}: {}", what, shown, std::strerror(errno)));
    if (!S_ISREG(st.st_mode))
        return make_error(fmt::format("{} {} is {}, not a regular file", what, shown, kind_of(st.st_mode)));
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
        return make_error(fmt::format("{} {} is {} bytes, over the limit of {} bytes", what, shown, st.st_size, max_bytes));

    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return make_error(fmt::format("cannot read {} {}: {}", what, shown, std::strerror(errno)));
    struct stat again {};
    if (::fstat(fd, &again) != 0 || !S_ISREG(again.st_mode)) {
        ::close(fd);
        return make_error(fmt::format("{} {} is not a regular file", what, shown));
    }
    std::string out;
    out.resize(max_bytes < static_cast<std::size_t>(again.st_size) ? max_bytes : static_cast<std::size_t>(again.st_size));
    std::size_t have = 0;
    // Read to the end, which may have grown since: never past max_bytes.
    for (;;) {
        if (have == out.size()) {
            if (out.size() >= max_bytes) {
                char probe;
                const ssize_t n = ::read(fd, &probe, 1);
                if (n == 0) break;
                if (n < 0 && errno == EINTR) continue;
                ::close(fd);
                if (n < 0) return make_error(fmt::format("cannot read {} {}: {}", what, shown, std::strerror(errno)));
                return make_error(fmt::format("{} {} is over the limit of {} bytes", what, shown, max_bytes));
            }
            out.resize(std::min(max_bytes, out.size() + 65536));
        }
        const ssize_t n = ::read(fd, out.data() + have, out.size() - have);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            const int e = errno;
            ::close(fd);
            return make_error(fmt::format("cannot read {} {}: {}", what, shown, std::strerror(e)));
        }
        have += static_cast<std::size_t>(n);
    }
    ::close(fd);
    out.resize(have);
    return out;
}

}  // namespace kvlens::cli
