// SPDX-License-Identifier: Apache-2.0
// A very small test harness for the plain C++ remote-engine suites (they run
// without Qt): TEST(name_as_a_sentence) registers a case, CHECK records a
// failure with its line and goes on, REQUIRE ends the case. main() runs every
// case (or those whose name contains argv[1]) and exits 1 on any failure.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace kvlens::test {

struct test_case {
    const char* name;
    std::function<void()> body;
};

inline std::vector<test_case>& registry() {
    static std::vector<test_case> cases;
    return cases;
}
inline int& failures() {
    static int n = 0;
    return n;
}
struct registrar {
    registrar(const char* name, std::function<void()> body) { registry().push_back({name, std::move(body)}); }
};
struct require_failed {};

inline void report(const char* file, int line, const std::string& what) {
    ++failures();
    std::fprintf(stderr, "  FAIL %s:%d: %s\n", file, line, what.c_str());
}

inline int run_all(int argc, char** argv) {
    int failed_cases = 0, ran = 0;
    for (const auto& c : registry()) {
        if (argc > 1 && std::string(c.name).find(argv[1]) == std::string::npos) continue;
        ++ran;
        const int before = failures();
        std::fprintf(stderr, "RUN  %s\n", c.name);
        try {
            c.body();
        } catch (const require_failed&) {
        } catch (const std::exception& e) {
            report(__FILE__, __LINE__, std::string("exception: ") + e.what());
        }
        if (failures() != before) ++failed_cases;
        std::fprintf(stderr, "%s %s\n", failures() == before ? "  ok  " : "  FAILED", c.name);
    }
    std::fprintf(stderr, "%d of %d cases passed\n", ran - failed_cases, ran);
    return failed_cases == 0 ? 0 : 1;
}

}  // namespace kvlens::test

#define KVLENS_CAT2(a, b) a##b
#define KVLENS_CAT(a, b) KVLENS_CAT2(a, b)
#define TEST(name)                                                                                   \
    static void name();                                                                              \
    static const ::kvlens::test::registrar KVLENS_CAT(reg_, name){#name, &name};                     \
    static void name()
#define CHECK(cond)                                                                                  \
    do {                                                                                             \
        if (!(cond)) ::kvlens::test::report(__FILE__, __LINE__, #cond);                              \
    } while (0)
#define CHECK_MSG(cond, msg)                                                                         \
    do {                                                                                             \
        if (!(cond)) ::kvlens::test::report(__FILE__, __LINE__, std::string(#cond) + ": " + (msg));  \
    } while (0)
#define REQUIRE(cond)                                                                                \
    do {                                                                                             \
        if (!(cond)) {                                                                               \
            ::kvlens::test::report(__FILE__, __LINE__, #cond);                                       \
            throw ::kvlens::test::require_failed{};                                                  \
        }                                                                                            \
    } while (0)
#define REQUIRE_MSG(cond, msg)                                                                       \
    do {                                                                                             \
        if (!(cond)) {                                                                               \
            ::kvlens::test::report(__FILE__, __LINE__, std::string(#cond) + ": " + (msg));           \
            throw ::kvlens::test::require_failed{};                                                  \
        }                                                                                            \
    } while (0)
