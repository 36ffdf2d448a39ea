// SPDX-License-Identifier: Apache-2.0
// The f32 FMA ceiling: every thread runs 12 independent chains of fused
// multiply-adds (enough to cover the FMA latency of every x86 core we know
// with two FMA pipes) in the widest vectors the CPU has, 20 million steps a
// repetition; FLOP/s = threads x 12 chains x lanes x 2 x steps / seconds. The
// chains converge (x = 0.999 x + 0.001), so no value overflows or goes
// subnormal. The chains are named variables, not an array, so they live in
// registers at any optimization level.
#include "app/cli/bench_fma_peak.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/backend/cpu/thread_pool.h"

namespace kvlens::cli {
namespace {

constexpr int k_chains = 12;
constexpr std::int64_t k_steps = 20'000'000;   // per repetition and thread

#define KVLENS_FMA_CHAINS(SET1, FMADD, ADD, FIRST)                                                               \
    auto x0 = SET1(seed), x1 = SET1(seed + 1), x2 = SET1(seed + 2), x3 = SET1(seed + 3), x4 = SET1(seed + 4);   \
    auto x5 = SET1(seed + 5), x6 = SET1(seed + 6), x7 = SET1(seed + 7), x8 = SET1(seed + 8), x9 = SET1(seed + 9); \
    auto x10 = SET1(seed + 10), x11 = SET1(seed + 11);                                                          \
    const auto a = SET1(0.999f), b = SET1(0.001f);                                                              \
    for (std::int64_t s = 0; s < steps; ++s) {                                                                  \
        x0 = FMADD(x0, a, b); x1 = FMADD(x1, a, b); x2 = FMADD(x2, a, b); x3 = FMADD(x3, a, b);                  \
        x4 = FMADD(x4, a, b); x5 = FMADD(x5, a, b); x6 = FMADD(x6, a, b); x7 = FMADD(x7, a, b);                  \
        x8 = FMADD(x8, a, b); x9 = FMADD(x9, a, b); x10 = FMADD(x10, a, b); x11 = FMADD(x11, a, b);              \
    }                                                                                                           \
    return FIRST(ADD(ADD(ADD(ADD(x0, x1), ADD(x2, x3)), ADD(ADD(x4, x5), ADD(x6, x7))),                          \
                     ADD(ADD(x8, x9), ADD(x10, x11))));

__attribute__((target("avx2,fma"))) float chains_avx2(std::int64_t steps, float seed) {
    KVLENS_FMA_CHAINS(_mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, _mm256_cvtss_f32)
}

__attribute__((target("avx512f"))) float chains_avx512(std::int64_t steps, float seed) {
    KVLENS_FMA_CHAINS(_mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, _mm512_cvtss_f32)
}

#undef KVLENS_FMA_CHAINS

}  // namespace

int run_fma_peak(const fma_peak_args& a) {
    const bool avx512 = __builtin_cpu_supports("avx512f");
    if (!avx512 && !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) {
        fmt::print(stderr, "kvlens-cli bench: --fma-peak needs AVX2 + FMA or AVX-512, which this CPU does not have\n");
        return 1;
    }
    const int lanes = avx512 ? 16 : 8;
    const char* isa = avx512 ? "avx512" : "avx2";
    thread_pool pool(a.threads);
    std::vector<float> sink(static_cast<std::size_t>(pool.size()));
    const auto job = [&](int ith, int) {
        const float seed = 0.25f + 0.01f * static_cast<float>(ith);
        sink[static_cast<std::size_t>(ith)] = avx512 ? chains_avx512(k_steps, seed) : chains_avx2(k_steps, seed);
    };
    using clock = std::chrono::steady_clock;
    const double flop = static_cast<double>(pool.size()) * k_chains * lanes * 2.0 * static_cast<double>(k_steps);
    std::vector<double> rates;
    for (int rep = -1; rep < a.reps; ++rep) {   // rep -1 warms up (and wakes the clock)
        const auto t0 = clock::now();
        pool.run(std::cref(job));
        const double sec = std::chrono::duration<double>(clock::now() - t0).count();
        if (rep >= 0) rates.push_back(flop / sec);
    }
    const double best = *std::max_element(rates.begin(), rates.end());
    const double mean = std::accumulate(rates.begin(), rates.end(), 0.0) / static_cast<double>(rates.size());
    float check = 0;
    for (float s : sink) check += s;
    if (a.json) {
        const nlohmann::json j = {{"fma_peak", {{"threads", pool.size()}, {"isa", isa}, {"reps", a.reps},
                                                {"flop_s_best", best}, {"flop_s_mean", mean}, {"checksum", check}}}};
        fmt::print("{}\n", j.dump(2));
        return 0;
    }
    fmt::print("f32 FMA peak, {} threads, {}: best {:.1f} GFLOP/s, mean {:.1f} GFLOP/s\n", pool.size(), isa, best / 1e9,
               mean / 1e9);
    return 0;
}

}  // namespace kvlens::cli
