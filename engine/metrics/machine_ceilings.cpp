// SPDX-License-Identifier: Apache-2.0
// The ceilings probes. Bandwidth: XOR of 64-bit words in eight independent
// chains (vectorized by the compiler), each thread its own contiguous part.
// Peaks: ten independent accumulators, so the multiply-add latency is hidden
// and the core's throughput shows; AVX2+FMA when the CPU has it (chosen at
// run time; the functions carry their own target attribute), else scalar.
#include "engine/metrics/machine_ceilings.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <new>
#include <sstream>
#include <vector>

#include "engine/backend/cpu/thread_pool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KVLENS_CEILINGS_X86 1
#endif

namespace kvlens {

namespace {

using clock_type = std::chrono::steady_clock;
constexpr int kChains = 10;   // independent accumulators in the peak loops
volatile std::uint64_t g_probe_sink = 0;   // the probes' results end here, so none is dead code

std::uint64_t read_words(const std::uint64_t* p, std::int64_t n)
{
    std::uint64_t acc[8] = {};
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; ++k)
            acc[k] ^= p[i + k];
    for (; i < n; ++i)
        acc[0] ^= p[i];
    std::uint64_t r = 0;
    for (std::uint64_t a : acc)
        r ^= a;
    return r;
}

// Adds an integer probe's result to its sink modulo 2^32: the sums of
// repeated runs overflow int32 (undefined behaviour in a plain +=).
std::int32_t keep(std::int32_t sink, std::int32_t result)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(sink) + static_cast<std::uint32_t>(result));
}

// Returns the float FLOPs done; `sink` keeps the result alive.
double f32_scalar(std::int64_t iters, float* sink)
{
    float acc[kChains];
    for (int k = 0; k < kChains; ++k)
        acc[k] = 1.0f + 0.001f * float(k);
    const float a = 0.999999f, b = 1e-7f;
    for (std::int64_t i = 0; i < iters; ++i)
        for (int k = 0; k < kChains; ++k)
            acc[k] = acc[k] * a + b;
    float s = 0;
    for (float v : acc)
        s += v;
    *sink += s;
    return 2.0 * kChains * double(iters);
}

double int8_scalar(std::int64_t iters, std::int32_t* sink)
{
    std::int32_t acc[kChains] = {};
    volatile std::int8_t va = 3, vb = -2;
    const std::int32_t a = va, b = vb;
    for (std::int64_t i = 0; i < iters; ++i)
        for (int k = 0; k < kChains; ++k)
            acc[k] += (a + k) * b;
    std::int32_t s = 0;
    for (std::int32_t v : acc)
        s += v;
    *sink = keep(*sink, s);
    return 2.0 * kChains * double(iters);
}

#ifdef KVLENS_CEILINGS_X86
__attribute__((target("avx2,fma"))) double f32_avx2(std::int64_t iters, float* sink)
{
    __m256 acc[kChains];
    for (int k = 0; k < kChains; ++k)
        acc[k] = _mm256_set1_ps(1.0f + 0.001f * float(k));
    const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    for (std::int64_t i = 0; i < iters; ++i)
        for (int k = 0; k < kChains; ++k)
            acc[k] = _mm256_fmadd_ps(acc[k], a, b);
    __m256 s = acc[0];
    for (int k = 1; k < kChains; ++k)
        s = _mm256_add_ps(s, acc[k]);
    alignas(32) float out[8];
    _mm256_store_ps(out, s);
    *sink += out[0];
    return 2.0 * 8 * kChains * double(iters);   // 8 lanes, multiply and add
}

// The Q8 kernels' integer step: u8 x s8 pairs summed into int16
// (maddubs, 32 multiplies and 16 adds), then into int32 (madd, 16 and 8) and
// accumulated (8 adds): counted as 32 multiply-adds = 64 ops per step.
__attribute__((target("avx2,fma"))) double int8_avx2(std::int64_t iters, std::int32_t* sink)
{
    __m256i acc[kChains];
    for (int k = 0; k < kChains; ++k)
        acc[k] = _mm256_setzero_si256();
    const __m256i u = _mm256_set1_epi8(3), s8 = _mm256_set1_epi8(-2), ones = _mm256_set1_epi16(1);
    for (std::int64_t i = 0; i < iters; ++i)
        for (int k = 0; k < kChains; ++k)
            acc[k] = _mm256_add_epi32(acc[k], _mm256_madd_epi16(_mm256_maddubs_epi16(u, s8), ones));
    __m256i s = acc[0];
    for (int k = 1; k < kChains; ++k)
        s = _mm256_add_epi32(s, acc[k]);
    *sink = keep(*sink, _mm256_extract_epi32(s, 0));
    return 2.0 * 32 * kChains * double(iters);
}
#endif

bool have_avx2_fma()
{
#ifdef KVLENS_CEILINGS_X86
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

// Best rate over `reps` timed runs of `job` on every thread (after a warm-up).
// job(ith) returns the work it did (bytes or operations).
template <class Job>
double best_rate(thread_pool& pool, int reps, Job job)
{
    std::vector<double> work(std::size_t(pool.size()));
    double best = 0;
    for (int rep = -1; rep < reps; ++rep) {
        const auto t0 = clock_type::now();
        pool.run([&](int ith, int nth) { work[std::size_t(ith)] = job(ith, nth); });
        const double sec = std::chrono::duration<double>(clock_type::now() - t0).count();
        double total = 0;
        for (double w : work)
            total += w;
        if (rep >= 0 && sec > 0)
            best = std::max(best, total / sec);
    }
    return best;
}

}  // namespace

result<machine_ceilings> measure_machine_ceilings(const ceiling_probe_options& o)
{
    if (o.probe_mib < 1 || o.probe_mib > 65536)
        return make_error("the bandwidth probe's buffer must be 1..65536 MiB, not " + std::to_string(o.probe_mib));
    if (o.reps < 1 || o.peak_iterations < 1)
        return make_error("the probes need at least one repetition and one iteration");
    const std::int64_t bytes = o.probe_mib << 20;
    const std::int64_t words = bytes / 8;
    std::vector<std::uint64_t> buf;
    try {
        buf.resize(std::size_t(words));
    } catch (const std::bad_alloc&) {
        return make_error("out of memory allocating " + std::to_string(o.probe_mib) + " MiB for the bandwidth probe");
    }
    for (std::int64_t i = 0; i < words; ++i)
        buf[std::size_t(i)] = std::uint64_t(i) * 0x9E3779B97F4A7C15ull;

    thread_pool pool(o.threads);
    machine_ceilings c;
    c.threads = pool.size();
    c.probe_bytes = bytes;
    std::vector<std::uint64_t> xor_sink(std::size_t(pool.size()));
    c.read_bytes_s = best_rate(pool, o.reps, [&](int ith, int nth) {
        const std::int64_t per = (words + nth - 1) / nth;
        const std::int64_t b = std::min(words, ith * per), e = std::min(words, b + per);
        xor_sink[std::size_t(ith)] ^= read_words(buf.data() + b, e - b);
        return double(e - b) * 8.0;
    });

    const bool simd = have_avx2_fma();
    c.isa = simd ? "avx2+fma" : "scalar";
    std::vector<float> fsink(std::size_t(pool.size()));
    std::vector<std::int32_t> isink(std::size_t(pool.size()));
    c.f32_flop_s = best_rate(pool, o.reps, [&](int ith, int) {
#ifdef KVLENS_CEILINGS_X86
        if (simd)
            return f32_avx2(o.peak_iterations, &fsink[std::size_t(ith)]);
#endif
        return f32_scalar(o.peak_iterations, &fsink[std::size_t(ith)]);
    });
    c.int8_op_s = best_rate(pool, o.reps, [&](int ith, int) {
#ifdef KVLENS_CEILINGS_X86
        if (simd)
            return int8_avx2(o.peak_iterations, &isink[std::size_t(ith)]);
#endif
        return int8_scalar(o.peak_iterations, &isink[std::size_t(ith)]);
    });
    // The sinks are read, so no probe's work can be dropped as dead code.
    std::uint64_t check = 0;
    for (std::uint64_t s : xor_sink)
        check ^= s;
    for (float f : fsink)
        check += f != 0.0f;
    for (std::int32_t v : isink)
        check += std::uint64_t(v != 0);
    g_probe_sink = check;
    return c;
}

std::string to_text(const machine_ceilings& c)
{
    char line[512];
    std::snprintf(line, sizeof line, "read_bytes_s=%.6e f32_flop_s=%.6e int8_op_s=%.6e threads=%d isa=%s probe_bytes=%lld",
                  c.read_bytes_s, c.f32_flop_s, c.int8_op_s, c.threads, c.isa.c_str(), (long long)c.probe_bytes);
    return line;
}

result<machine_ceilings> machine_ceilings_from_text(const std::string& text)
{
    std::map<std::string, std::string> kv;
    std::istringstream in(text);
    std::string pair;
    while (in >> pair) {
        const auto eq = pair.find('=');
        if (eq == std::string::npos || eq == 0)
            return make_error("machine ceilings: \"" + pair + "\" is not key=value");
        kv[pair.substr(0, eq)] = pair.substr(eq + 1);
    }
    machine_ceilings c;
    auto number = [&](const char* key, double& out) -> bool {
        auto it = kv.find(key);
        if (it == kv.end())
            return false;
        char* end = nullptr;
        out = std::strtod(it->second.c_str(), &end);
        return end && *end == '\0' && out >= 0;
    };
    double threads = 0, probe = 0;
    for (auto [key, dst] : {std::pair{"read_bytes_s", &c.read_bytes_s}, std::pair{"f32_flop_s", &c.f32_flop_s},
                            std::pair{"int8_op_s", &c.int8_op_s}, std::pair{"threads", &threads},
                            std::pair{"probe_bytes", &probe}}) {
        if (!number(key, *dst))
            return make_error(std::string("machine ceilings: missing or bad \"") + key + "\"");
    }
    c.threads = int(threads);
    c.probe_bytes = std::int64_t(probe);
    auto isa = kv.find("isa");
    c.isa = isa == kv.end() ? std::string() : isa->second;
    if (!c.valid())
        return make_error("machine ceilings: a ceiling is zero");
    return c;
}

}  // namespace kvlens
