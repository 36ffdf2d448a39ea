// SPDX-License-Identifier: Apache-2.0
// The kernel table and its run-time selection by CPU features. The SIMD tables
// (kernels_avx2.cpp, kernels_avx512.cpp) override entries of the scalar table
// where they have a faster kernel; anything they leave out stays scalar.
#include "engine/backend/cpu/kernels.h"

#include <cpuid.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "engine/backend/cpu/kernel_tables.h"
#include "engine/backend/cpu/quants_scalar.h"

namespace kvlens {

namespace {

using namespace scalar_impl;
using namespace quant;

constexpr std::size_t k_types = 40;  // ggml_type ids go up to mxfp4 = 39

struct kernel_table {
    std::array<weight_kernels, k_types> weights{};
    std::array<from_float_fn, k_types> from_float{};
    std::array<to_float_fn, k_types> to_float{};
};

std::size_t idx(ggml_type t) { return static_cast<std::size_t>(t); }

kernel_table make_scalar_table() {
    kernel_table k;
    // The row converters are the formats' reference ones (engine/quant).
    for (std::size_t t = 0; t < k_types; ++t) {
        k.from_float[t] = quant::reference_from_float(static_cast<ggml_type>(t));
        k.to_float[t] = quant::reference_to_float(static_cast<ggml_type>(t));
    }

    k.weights[idx(ggml_type::f32)] = {ggml_type::f32, f32_to_float, dot_f32};
    k.weights[idx(ggml_type::f16)] = {ggml_type::f16, f16_to_float, dot_f16};
    k.weights[idx(ggml_type::bf16)] = {ggml_type::bf16, bf16_to_float, dot_bf16};
    k.weights[idx(ggml_type::q4_0)] = {ggml_type::q8_0, q4_0_to_float, dot_q4_0_q8_0};
    k.weights[idx(ggml_type::q4_1)] = {ggml_type::q8_1, q4_1_to_float, dot_q4_1_q8_1};
    k.weights[idx(ggml_type::q5_0)] = {ggml_type::q8_0, q5_0_to_float, dot_q5_0_q8_0};
    k.weights[idx(ggml_type::q5_1)] = {ggml_type::q8_1, q5_1_to_float, dot_q5_1_q8_1};
    k.weights[idx(ggml_type::q8_0)] = {ggml_type::q8_0, q8_0_to_float, dot_q8_0_q8_0};
    k.weights[idx(ggml_type::q4_K)] = {ggml_type::q8_K, q4_K_to_float, dot_q4_K_q8_K};
    k.weights[idx(ggml_type::q5_K)] = {ggml_type::q8_K, q5_K_to_float, dot_q5_K_q8_K};
    k.weights[idx(ggml_type::q6_K)] = {ggml_type::q8_K, q6_K_to_float, dot_q6_K_q8_K};
    k.weights[idx(ggml_type::q2_K)] = {ggml_type::q8_K, q2_K_to_float, dot_q2_K_q8_K};
    k.weights[idx(ggml_type::q3_K)] = {ggml_type::q8_K, q3_K_to_float, dot_q3_K_q8_K};
    k.weights[idx(ggml_type::iq4_nl)] = {ggml_type::q8_0, iq4_nl_to_float, dot_iq4_nl_q8_0};
    k.weights[idx(ggml_type::iq4_xs)] = {ggml_type::q8_K, iq4_xs_to_float, dot_iq4_xs_q8_K};
    k.weights[idx(ggml_type::iq2_xxs)] = {ggml_type::q8_K, iq2_xxs_to_float, dot_iq2_xxs_q8_K};
    k.weights[idx(ggml_type::iq2_xs)] = {ggml_type::q8_K, iq2_xs_to_float, dot_iq2_xs_q8_K};
    k.weights[idx(ggml_type::iq2_s)] = {ggml_type::q8_K, iq2_s_to_float, dot_iq2_s_q8_K};
    k.weights[idx(ggml_type::iq3_xxs)] = {ggml_type::q8_K, iq3_xxs_to_float, dot_iq3_xxs_q8_K};
    k.weights[idx(ggml_type::iq3_s)] = {ggml_type::q8_K, iq3_s_to_float, dot_iq3_s_q8_K};
    k.weights[idx(ggml_type::iq1_s)] = {ggml_type::q8_K, iq1_s_to_float, dot_iq1_s_q8_K};
    k.weights[idx(ggml_type::iq1_m)] = {ggml_type::q8_K, iq1_m_to_float, dot_iq1_m_q8_K};
    k.weights[idx(ggml_type::tq1_0)] = {ggml_type::q8_K, tq1_0_to_float, dot_tq1_0_q8_K};
    k.weights[idx(ggml_type::tq2_0)] = {ggml_type::q8_K, tq2_0_to_float, dot_tq2_0_q8_K};
    k.weights[idx(ggml_type::mxfp4)] = {ggml_type::q8_0, mxfp4_to_float, dot_mxfp4_q8_0};
    return k;
}

// Copies the non-null entries of a SIMD override list onto a table.
void apply(kernel_table& k, const simd_overrides& o) {
    for (const auto& e : o.from_float) k.from_float[idx(e.type)] = e.fn;
    for (const auto& e : o.to_float) k.to_float[idx(e.type)] = e.fn;
    for (const auto& e : o.vec_dot) k.weights[idx(e.type)].vec_dot = e.fn;
}

const kernel_table& scalar_table() {
    static const kernel_table t = make_scalar_table();
    return t;
}

kernel_table make_table(const char* level) {
    kernel_table k = make_scalar_table();
    if (std::strcmp(level, "avx2") == 0 || std::strcmp(level, "avx512") == 0) apply(k, avx2_overrides());
    if (std::strcmp(level, "avx512") == 0) apply(k, avx512_overrides());
    return k;
}

const char* best_level() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && have_avx512_kernels())
        return "avx512";
#if defined(__clang__) && __clang_major__ < 15
    // clang 14 (the fuzz build) knows no "f16c" here; every AVX2 + FMA CPU has it.
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "avx2";
#else
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
        return "avx2";
#endif
    return "scalar";
}

// The level named by KVLENS_KERNELS ("avx2" or "scalar": what a machine
// without AVX-512 or AVX2 runs, to measure or check it here) where this CPU
// has it; otherwise the best.
const char* starting_level() {
    static const char* const levels[] = {"scalar", "avx2", "avx512"};
    const char* best = best_level();
    const char* want = std::getenv("KVLENS_KERNELS");
    if (!want) return best;
    for (const char* l : levels) {
        if (std::strcmp(l, want) == 0) return l;
        if (std::strcmp(l, best) == 0) break;   // higher than this CPU's best: ignored
    }
    return best;
}

struct active_table {
    const char* level = starting_level();
    kernel_table table = make_table(level);
};

active_table& active() {
    static active_table a;
    return a;
}

}  // namespace

const weight_kernels* kernels_for(ggml_type t) {
    if (idx(t) >= k_types) return nullptr;
    const weight_kernels& k = active().table.weights[idx(t)];
    return k.vec_dot ? &k : nullptr;
}
from_float_fn from_float_for(ggml_type t) {
    return idx(t) < k_types ? active().table.from_float[idx(t)] : nullptr;
}
to_float_fn to_float_for(ggml_type t) {
    return idx(t) < k_types ? active().table.to_float[idx(t)] : nullptr;
}

const char* cpu_kernel_level() { return active().level; }

namespace {

std::atomic<bool>& avx_vnni_allowed() {
    static std::atomic<bool> allowed{std::getenv("KVLENS_NO_AVX_VNNI") == nullptr};
    return allowed;
}

}  // namespace

bool cpuid_7_1_eax_bit(int bit) {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx)) return false;
    return (eax & (1u << bit)) != 0;
}

bool avx_vnni_usable() {
    static const bool has = cpuid_7_1_eax_bit(4);   // AVX-VNNI: the VEX-encoded vpdpbusd
    return has && avx_vnni_allowed().load(std::memory_order_relaxed);
}

void set_avx_vnni_allowed(bool allowed) { avx_vnni_allowed().store(allowed && std::getenv("KVLENS_NO_AVX_VNNI") == nullptr); }

bool set_cpu_kernel_level(const char* level) {
    static const char* const levels[] = {"scalar", "avx2", "avx512"};
    const char* best = best_level();
    int want = -1, have = 0;
    for (int i = 0; i < 3; ++i) {
        if (std::strcmp(levels[i], level) == 0) want = i;
        if (std::strcmp(levels[i], best) == 0) have = i;
    }
    if (want < 0 || want > have) return false;
    active().level = levels[want];
    active().table = make_table(levels[want]);
    return true;
}

namespace scalar {
const weight_kernels* kernels_for(ggml_type t) {
    if (idx(t) >= k_types) return nullptr;
    const weight_kernels& k = scalar_table().weights[idx(t)];
    return k.vec_dot ? &k : nullptr;
}
from_float_fn from_float_for(ggml_type t) {
    return idx(t) < k_types ? scalar_table().from_float[idx(t)] : nullptr;
}
}  // namespace scalar

}  // namespace kvlens
