// SPDX-License-Identifier: Apache-2.0
// kvlens-pdf-helper: opens one PDF with poppler and answers on stdout in the
// format of pdf/helper_protocol.h. Run by pdf/reader_process.cpp and
// pdf/page_render.cpp with a time limit; not meant to be run by people.
//
//   kvlens-pdf-helper extract FILE [--first N] [--last M] [--password-stdin]
//   kvlens-pdf-helper render  FILE [--first N] [--last M] --dpi D [--password-stdin]
//
// The password, when any, comes on stdin (never on the command line, where
// other users could read it). Exit status 0 whenever an answer was written
// (a failure answer included), 2 on a usage error.
//
// Test-only: KVLENS_PDF_HELPER_TEST_FAULT=crash|hang|garbage|exit|alloc makes
// the helper die on SIGSEGV, sleep forever, print non-JSON, exit 3 without an
// answer, or allocate until its memory cap (as a text bomb makes poppler do),
// so the tests can prove the caller survives each.
#include "common/sanitizer_build.h"
#include "pdf/helper_protocol.h"
#include "pdf/poppler_reader.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <vector>
#include <new>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace {

using namespace kvlens::pdf;

struct arguments {
    std::string command;
    std::string file;
    page_range pages;
    double dpi = 96;
    bool password_stdin = false;
};

bool parse_args(int argc, char** argv, arguments& a) {
    if (argc < 3) return false;
    a.command = argv[1];
    a.file = argv[2];
    if (a.command != "extract" && a.command != "render") return false;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--password-stdin") {
            a.password_stdin = true;
        } else if (arg == "--first" && has_value) {
            a.pages.first = std::atoi(argv[++i]);
        } else if (arg == "--last" && has_value) {
            a.pages.last = std::atoi(argv[++i]);
        } else if (arg == "--dpi" && has_value) {
            a.dpi = std::strtod(argv[++i], nullptr);
        } else {
            return false;
        }
    }
    return a.pages.first >= 1 && a.pages.last >= 0;
}

void test_fault() {
    const char* fault = std::getenv("KVLENS_PDF_HELPER_TEST_FAULT");
    if (!fault) return;
    const std::string f = fault;
    if (f == "crash") {
        std::signal(SIGSEGV, SIG_DFL);  // die by the signal even where a sanitizer catches it
        std::raise(SIGSEGV);
    }
    if (f == "hang")
        for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    if (f == "garbage") {
        std::fputs("this is not JSON {{{", stdout);
        std::exit(0);
    }
    if (f == "alloc") {
        std::vector<std::unique_ptr<char[]>> held;
        for (;;) {
            held.emplace_back(new char[std::size_t(32) << 20]);
            std::memset(held.back().get(), 1, std::size_t(32) << 20);
        }
    }
    if (f == "exit") {
        std::fputs("kvlens-pdf-helper: failing on purpose (test)\n", stderr);
        std::exit(3);
    }
}

void write_all(const void* data, std::size_t size) {
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(STDOUT_FILENO, p, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            std::exit(1);  // the caller went away
        }
        p += n;
        size -= static_cast<std::size_t>(n);
    }
}

void write_line(const std::string& s) {
    write_all(s.data(), s.size());
    write_all("\n", 1);
}

int run(const arguments& a) {
    std::string password;
    if (a.password_stdin) {
        password.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        while (!password.empty() && (password.back() == '\n' || password.back() == '\r')) password.pop_back();
    }
    failure_kind kind = failure_kind::none;
    auto file = poppler_file::open(a.file, password, &kind);
    test_fault();
    if (!file) {
        write_line(encode_failure(kind, file.message()));
        return 0;
    }
    if (a.command == "extract") {
        auto doc = (*file)->read_text(a.pages, &kind);
        write_line(doc ? encode_extract_answer(*doc) : encode_failure(kind, doc.message()));
        return 0;
    }
    const int n = (*file)->page_count();
    if (a.pages.first > n) {
        write_line(encode_failure(failure_kind::bad_range, "page " + std::to_string(a.pages.first) +
                                                               " is outside the document (it has " +
                                                               std::to_string(n) + " pages)"));
        return 0;
    }
    const int last = (a.pages.last == 0 || a.pages.last > n) ? n : a.pages.last;
    for (int p = a.pages.first; p <= last; ++p) {
        auto img = (*file)->render(p, a.dpi, &kind);
        if (!img) {
            write_line(encode_failure(kind, img.message()));
            return 0;
        }
        write_line(encode_render_header(*img));
        write_all(img->pixels.data(), img->pixels.size());
    }
    return 0;
}

}  // namespace

// The helper's address-space cap. Reading the text of real reports stays far
// below it (a 1,000-page report: under 300 MiB, most of it poppler's
// libraries); a text bomb (a small file whose streams inflate to gigabytes)
// meets it in seconds and is answered "too large" instead of growing the
// helper until the time limit.
constexpr rlim_t k_address_space_mib = 1024;

// The answer when memory runs out, made up front: when it is needed, nothing
// more can be allocated.
std::string g_too_large;

[[noreturn]] void answer_too_large() {
    const char* p = g_too_large.data();
    std::size_t left = g_too_large.size();
    while (left > 0) {
        const ssize_t n = ::write(STDOUT_FILENO, p, left);
        if (n <= 0) break;
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    std::_Exit(0);
}

// Guards of our own, besides the caller's time limit: die with the caller, and
// cap the address space so a PDF that makes poppler allocate without end fails
// here with an answer instead of swapping the machine.
static void limit_self() {
#ifdef __linux__
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() == 1) std::exit(1);  // the caller is already gone
#endif
    g_too_large = encode_failure(failure_kind::damaged,
                                 "the PDF is too large to read: its text needs more than " +
                                     std::to_string(k_address_space_mib) + " MiB of memory") + "\n";
    std::set_new_handler([] { answer_too_large(); });
    // An AddressSanitizer build (scripts/sanitize-tests, the fuzz targets) cannot
    // run under the cap: its shadow map alone reserves terabytes. That build
    // checks memory errors; the release build checks the cap.
    if (kvlens::built_with_address_sanitizer) return;
    constexpr rlim_t address_space = k_address_space_mib << 20;  // bytes
    rlimit r{};
    if (::getrlimit(RLIMIT_AS, &r) == 0 && (r.rlim_max == RLIM_INFINITY || r.rlim_max > address_space)) {
        r.rlim_cur = address_space;
        ::setrlimit(RLIMIT_AS, &r);
    }
}

int main(int argc, char** argv) {
    limit_self();
    arguments a;
    if (!parse_args(argc, argv, a)) {
        std::fputs("usage: kvlens-pdf-helper extract|render FILE [--first N] [--last M] [--dpi D] [--password-stdin]\n"
                   "(run by kvlens and kvlens-cli; not meant to be run by hand)\n",
                   stderr);
        return 2;
    }
    try {
        return run(a);
    } catch (const std::bad_alloc&) {
        answer_too_large();
    } catch (const std::length_error&) {
        answer_too_large();
    }
}
