// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli bench --attention`: the CPU attention kernel alone, as a decode
// step meets it (one query token after d tokens in the cache) or, with -p N,
// as a prefill block does (N query tokens after d, each seeing the cache and
// the block up to itself), every layer of
// the model's geometry in turn (heads, KV heads, head size, sliding windows),
// so the cache comes from memory as in a real step. The cache holds random
// K/V values (the kernel's speed does not depend on them). Reports per layer
// the time, the time per (key, KV head) pair and thread (wall and process
// CPU time: on a shared machine, with --threads 1, the CPU figure leaves out
// the time other jobs took), and the K/V bytes read per second; for a
// prefill block the attention FLOP/s (4 * head_dim per visible key and query
// head: the scores and the value sum, as model::count_forward counts them).
#include "app/cli/bench_attention.h"
#include "app/cli/process_cpu_time.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/backend/cpu/attention.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/kv/kv_storage.h"
#include "engine/model/model.h"

namespace kvlens::cli {

int run_attention_bench(const attention_bench_args& a) {
    const auto fail = [](const std::string& m) {
        fmt::print(stderr, "kvlens-cli bench --attention: {}\n", m);
        return 1;
    };
    auto loaded = model::load(a.model);
    if (!loaded) return fail(loaded.message());
    const model_config& c = (*loaded)->config();
    const int depth = a.depth > 0 ? a.depth : 4096;
    // At most the model's training context (or 1 Mi tokens when the file does not say).
    const int max_depth = c.n_ctx_train > 0 ? c.n_ctx_train - 1 : (1 << 20);
    if (depth > max_depth)
        return fail(fmt::format("-d {} is more than this model's context allows ({} tokens)", depth, max_depth + 1));
    const int n_query = std::max(1, a.prompt);
    if (static_cast<std::int64_t>(depth) + n_query > static_cast<std::int64_t>(max_depth) + 1)
        return fail(fmt::format("-d {} -p {} is more than this model's context allows ({} tokens)", depth, n_query,
                                max_depth + 1));
    const int total = depth + n_query;   // the cache holds the query tokens' own K/V too

    kv_geometry geo;
    geo.n_layer = c.n_layer;
    geo.n_kv_heads = c.n_head_kv;
    geo.head_dim = c.head_dim;
    geo.dtype = a.dtype;
    geo.block_size = 16;
    const auto n_blocks = static_cast<std::int32_t>(geo.blocks_for_tokens(total));
    auto created = kv_storage::create(geo, n_blocks);
    if (!created) return fail(created.message());
    kv_storage kv = std::move(*created);

    // Blocks in a shuffled order, as a pool that has served other requests hands them out.
    std::vector<std::int32_t> table(static_cast<std::size_t>(n_blocks));
    std::iota(table.begin(), table.end(), 0);
    std::mt19937 rng(7);
    std::shuffle(table.begin(), table.end(), rng);
    std::normal_distribution<float> normal(0.0f, 0.5f);
    const int row = c.n_kv();
    // Written in chunks of tokens, so the f32 staging stays small whatever the depth.
    constexpr int chunk = 1024;
    std::vector<float> k(static_cast<std::size_t>(chunk) * static_cast<std::size_t>(row)), v(k.size());
    std::vector<std::int32_t> positions(static_cast<std::size_t>(chunk));
    std::vector<const std::int32_t*> tables(static_cast<std::size_t>(chunk), table.data());
    for (int il = 0; il < c.n_layer; ++il)
        for (int t0 = 0; t0 < total; t0 += chunk) {
            const int n = std::min(chunk, total - t0);
            for (float& x : k) x = normal(rng);
            for (float& x : v) x = normal(rng);
            std::iota(positions.begin(), positions.end(), t0);
            store_kv(kv, a.dtype, il, k.data(), v.data(), n, row, tables.data(), positions.data());
        }

    std::vector<float> q(static_cast<std::size_t>(n_query) * static_cast<std::size_t>(c.n_q())), out(q.size());
    for (float& x : q) x = normal(rng);
    std::vector<std::int32_t> query_pos(static_cast<std::size_t>(n_query));
    std::iota(query_pos.begin(), query_pos.end(), depth);
    std::vector<const std::int32_t*> query_tables(static_cast<std::size_t>(n_query), table.data());
    thread_pool pool(a.threads);
    attention_scratch scratch;
    scratch.reserve(pool.size(), c.n_head / c.n_head_kv, total, c.head_dim);
    attention_args args;
    args.q = q.data();
    args.out = out.data();
    args.n_tokens = n_query;
    args.n_head = c.n_head;
    args.n_head_kv = c.n_head_kv;
    args.head_dim = c.head_dim;
    args.scale = c.attn_scale > 0 ? c.attn_scale : 1.0f / std::sqrt(static_cast<float>(c.head_dim));
    args.dtype = a.dtype;
    args.kv = &kv;
    args.block_tables = query_tables.data();
    args.positions = query_pos.data();

    const auto window_of = [&c](int il) {   // 0: full attention
        return il < static_cast<int>(c.layer_window.size()) ? c.layer_window[static_cast<std::size_t>(il)] : 0;
    };
    // Keys each query token sees per layer (a sliding-window layer at most its
    // window), summed: pairs of (key, KV head) over all layers and tokens.
    std::int64_t pairs = 0;
    for (int il = 0; il < c.n_layer; ++il) {
        if (c.is_conv(il)) continue;   // LFM2's convolution layers do not attend
        const int w = window_of(il);
        for (int t = 0; t < n_query; ++t) {
            const int seen = depth + t + 1;
            pairs += static_cast<std::int64_t>(w > 0 ? std::min(w, seen) : seen) * c.n_head_kv;
        }
    }
    // Scores and value sum: 2 * head_dim multiply-adds per (key, query head).
    const double flop = 4.0 * c.head_dim * static_cast<double>(pairs) * (c.n_head / c.n_head_kv);
    const double bytes_per_pair = 2.0 * static_cast<double>(kv.row_bytes()) / c.n_head_kv;   // K and V of one head

    using clock = std::chrono::steady_clock;
    std::vector<double> step_s, step_cpu_s;   // wall and CPU seconds of one pass over every layer
    for (int rep = -1; rep < a.reps; ++rep) {   // rep -1 warms up
        const auto t0 = clock::now();
        const double c0 = process_cpu_seconds();
        for (int il = 0; il < c.n_layer; ++il) {
            if (c.is_conv(il)) continue;
            args.layer = il;
            args.window = window_of(il);
            attention(args, pool, scratch);
        }
        if (rep < 0) continue;
        step_s.push_back(std::chrono::duration<double>(clock::now() - t0).count());
        step_cpu_s.push_back(process_cpu_seconds() - c0);
    }
    const double best = *std::min_element(step_s.begin(), step_s.end());
    const double mean = std::accumulate(step_s.begin(), step_s.end(), 0.0) / static_cast<double>(step_s.size());
    const double ns_pair_thread = best * 1e9 * pool.size() / static_cast<double>(pairs);
    const double best_cpu = *std::min_element(step_cpu_s.begin(), step_cpu_s.end());
    const double cpu_ns_pair = best_cpu * 1e9 / static_cast<double>(pairs);
    const double kv_bytes_s = static_cast<double>(pairs) * bytes_per_pair / best;
    const double flop_s = flop / best;
    const char* mode = a.prompt > 0 ? "prefill" : "decode";
    if (a.json) {
        nlohmann::json j = {{"attention",
                             {{"mode", mode}, {"depth", depth}, {"tokens", n_query}, {"kv_dtype", a.dtype == kv_dtype::f16 ? "f16" : "q8_0"},
                              {"threads", pool.size()}, {"kernels", cpu_kernel_level()}, {"n_layer", c.n_layer},
                              {"n_head", c.n_head}, {"n_head_kv", c.n_head_kv}, {"head_dim", c.head_dim},
                              {"reps", a.reps}, {"step_s_best", best}, {"step_s_mean", mean},
                              {"key_head_pairs", pairs}, {"ns_per_pair_thread", ns_pair_thread},
                              {"step_cpu_s_best", best_cpu}, {"cpu_ns_per_pair", cpu_ns_pair},
                              {"kv_bytes_s", kv_bytes_s}, {"flop", flop}, {"flop_s", flop_s}, {"checksum", static_cast<double>(out.front() + out.back())}}}};
        fmt::print("{}\n", j.dump(2));
        return 0;
    }
    fmt::print("attention alone, {} of {} token{} at d{}, {} KV, {} threads, {} kernels\n", mode, n_query,
               n_query == 1 ? "" : "s", depth, a.dtype == kv_dtype::f16 ? "f16" : "q8_0", pool.size(),
               cpu_kernel_level());
    fmt::print("geometry       {} layers, {} query heads, {} KV heads, head_dim {}\n", c.n_layer, c.n_head, c.n_head_kv,
               c.head_dim);
    fmt::print("per step       best {:.3f} ms, mean {:.3f} ms ({} reps; all layers)\n", best * 1e3, mean * 1e3, a.reps);
    fmt::print("per pair       {:.1f} ns per (key, KV head) and thread; {:.1f} CPU-ns (best step: {:.3f} CPU-s)\n",
               ns_pair_thread, cpu_ns_pair, best_cpu);
    if (a.prompt > 0)
        fmt::print("arithmetic     {:.1f} GFLOP/s (scores and value sum, {:.3g} GFLOP per step)\n", flop_s / 1e9, flop / 1e9);
    else
        fmt::print("K/V read       {:.2f} GB/s\n", kv_bytes_s / 1e9);
    return 0;
}

}  // namespace kvlens::cli
