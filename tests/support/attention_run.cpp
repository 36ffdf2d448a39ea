// SPDX-License-Identifier: Apache-2.0
// The CPU attention suites' shared runner (see attention_run.h).
#include "tests/support/attention_run.h"

#include <algorithm>
#include <cmath>

#include "engine/backend/cpu/attention.h"
#include "engine/backend/cpu/thread_pool.h"

namespace kvlens::test {

std::vector<std::string> simd_levels() {
    std::vector<std::string> out;
    const std::string best = cpu_kernel_level();
    for (const char* l : {"avx2", "avx512"})
        if (set_cpu_kernel_level(l)) out.push_back(l);
    set_cpu_kernel_level(best.c_str());
    return out;
}

std::vector<float> run_attention(const attention_batch& b, const char* level, int threads) {
    if (!set_cpu_kernel_level(level)) return {};
    std::vector<float> out(b.q.size(), NAN);
    thread_pool pool(threads);
    attention_scratch scratch;
    scratch.reserve(pool.size(), b.n_head / b.n_head_kv, b.max_range, b.head_dim);
    attention_args a;
    a.q = b.q.data();
    a.out = out.data();
    a.n_tokens = static_cast<int>(b.positions.size());
    a.n_head = b.n_head;
    a.n_head_kv = b.n_head_kv;
    a.head_dim = b.head_dim;
    a.layer = b.layer;
    a.window = b.window;
    a.scale = b.scale;
    a.softcap = b.softcap;
    a.sinks = b.sinks.empty() ? nullptr : b.sinks.data();
    a.dtype = b.dtype;
    a.kv = b.kv;
    a.block_tables = b.block_tables.data();
    a.positions = b.positions.data();
    attention(a, pool, scratch);
    return out;
}

double attention_error(const std::vector<float>& got, const std::vector<float>& ref, const std::vector<float>& v) {
    float vmax = 0;
    for (float x : v) vmax = std::max(vmax, std::fabs(x));
    double worst = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        if (!std::isfinite(got[i])) return INFINITY;   // an output not written
        worst = std::max(worst, std::fabs(static_cast<double>(got[i]) - ref[i]) / vmax);
    }
    return worst;
}

}  // namespace kvlens::test
