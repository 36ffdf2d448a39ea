// SPDX-License-Identifier: Apache-2.0
// CPU attention over the paged KV cache, two paths:
// - SIMD (AVX2 / AVX-512 levels, f16 and q8_0 caches): attention_simd.h's
//   tile-streaming job. Tokens of one sequence are cut into blocks of about
//   24 query rows (flash_block_rows: whole vector registers); each block and
//   KV head is a job that reads its keys once, in tiles, for all its rows
//   (online softmax, scores and the V sum fused). A decode token (a block
//   of one) is one job for all its KV heads, so its tiles read whole cache
//   rows in address order. When there
//   are too few jobs to keep every thread busy (decode of one long
//   sequence), each job's key range is split into chunks, whose partial
//   results are merged here; each thread takes a contiguous share of the
//   chunks in key order, and a thread done with its share takes from the
//   others' (share_claims).
// - The scalar reference, numerics of the reference engine: a query head is
//   converted to the K storage format (f16 values; for a q8_0 cache int16
//   blocks, summed in integers: query_i16.h) and dotted with each stored key;
//   softmax in f32; probabilities rounded to f16 before they weight the values.
#include "engine/backend/cpu/attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/ops.h"
#include "engine/backend/cpu/attention_simd.h"
#include "engine/backend/cpu/query_i16.h"
#include "engine/backend/cpu/share_claims.h"
#include "engine/kv/kv_codec.h"

namespace kvlens {

namespace {

ggml_type storage_type(kv_dtype d) { return d == kv_dtype::f16 ? ggml_type::f16 : ggml_type::q8_0; }

// Bytes from the start of a K/V row to kv head h's first element.
std::int64_t head_offset(kv_dtype d, int h, int head_dim) {
    return d == kv_dtype::f16 ? static_cast<std::int64_t>(h) * head_dim * 2
                              : static_cast<std::int64_t>(h) * head_dim / 32 * 34;
}

// Query rows per prefill block (flash_block_rows: whole registers of the active kernel).
int block_rows_for(int group, int head_dim) { return flash_block_rows(group, flash_job_width(head_dim)); }

// Splitting: a decode step's key range goes in one chunk per thread (never
// chunks under k_min_decode_chunk_key_heads pairs, below). Each chunk costs
// its setup and a share of the merge, and a thread's first chunk starts
// cold: SmolLM2 tg64 at d4096 q8_0, Zen 2, 2 threads, alternated: 1, 2 and 4
// chunks per thread 135.7, 133.6 and 131.0 tok/s (with share_claims).
// A decode step's job is split from short ranges: chunks of at least 96
// (key, KV head) pairs, one tile of SmolLM2's 3 heads; a lone sequence's
// other thread would otherwise wait through the whole attention job. The
// rule looks at the job alone, not at how many others share the step, so a
// sequence decoded next to others is cut where it is cut alone (the merge
// rounds differently from one pass: test_batch_invariance). tg128 @ d0
// (keys 0-127), Zen 2, 2 threads, alternated against 256: SmolLM2 254.3
// against 246.6 tok/s (10 rounds); Gemma 3 at 32 (a tile of its one KV
// head) 102.0 against 103.9 (5 rounds), so it keeps chunks of 96 keys.
constexpr int k_min_decode_chunk_key_heads = 96;

void attention_simd(const attention_args& a, flash_job_fn kernel, thread_pool& pool, attention_scratch& s);

// In-place softmax of n scores with a sink logit in the denominator:
// p_j = e^(s_j - M) / (sum_j e^(s_j - M) + e^(sink - M)), M the largest of
// the scores and the sink, as ggml's soft_max with sinks computes it.
void softmax_with_sink(float* s, int n, float sink) {
    float m = sink;
    for (int j = 0; j < n; ++j) m = std::max(m, s[j]);
    double sum = std::exp(static_cast<double>(sink - m));
    for (int j = 0; j < n; ++j) {
        s[j] = std::exp(s[j] - m);
        sum += s[j];
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (int j = 0; j < n; ++j) s[j] *= inv;
}

// The query head of row r of an item (see output_offset).
int row_head(const attention_item& it, int r, int G) {
    const int per_head = it.n_tok * G;
    return (it.kv_head + r / per_head) * G + r % G;
}

// The denominator l of a row whose scores' running max is m, with its head's
// sink added (m = -inf: the row saw no key and stays 0).
float with_sink(float l, float m, const float* sinks, int head) {
    if (!sinks || m == -INFINITY) return l;
    return l + std::exp(sinks[head] - m);
}

// Floats from the output's start to row r of an item (r = h * n_tok * G +
// token * G + g: the item's KV head h, query head g of its group).
std::int64_t output_offset(const attention_item& it, int r, int G, int D, std::int64_t q_stride) {
    const int per_head = it.n_tok * G;
    const int h = r / per_head, t = r % per_head / G, g = r % G;
    return (it.t0 + t) * q_stride + static_cast<std::int64_t>((it.kv_head + h) * G + g) * D;
}

}  // namespace

void attention_scratch::reserve(int n_threads, int group, int n_ctx, int head_dim) {
    scores.resize(static_cast<std::size_t>(n_threads));
    q_conv.resize(static_cast<std::size_t>(n_threads));
    v_row.resize(static_cast<std::size_t>(n_threads));
    for (int i = 0; i < n_threads; ++i) {
        scores[i].resize(static_cast<std::size_t>(group) * n_ctx);
        // The K-format query heads, or for the SIMD path the f32 query heads rounded to f16 values.
        q_conv[i].resize(static_cast<std::size_t>(head_dim) * 4 * group);
        v_row[i].resize(static_cast<std::size_t>(head_dim));
    }
    const int rows = flash_prefill_rows(block_rows_for(group, head_dim), flash_job_width(head_dim));
    work.resize(static_cast<std::size_t>(n_threads));
    for (auto& w : work)
        w.resize(static_cast<std::size_t>(flash_work_floats(rows, head_dim) + static_cast<std::int64_t>(rows) * (head_dim + 2)));
}

void store_kv(kv_storage& kv, kv_dtype dtype, int layer, const float* k, const float* v, int n_tokens,
              int row_elems, const std::int32_t* const* block_tables, const std::int32_t* positions) {
    const int bs = kv.block_size();
    for (int t = 0; t < n_tokens; ++t) {
        const int pos = positions[t];
        const std::int32_t block = block_tables[t][pos / bs];
        const int slot = pos % bs;
        store_row(dtype, k + static_cast<std::int64_t>(t) * row_elems, kv.k_row(layer, block, slot), row_elems);
        store_row(dtype, v + static_cast<std::int64_t>(t) * row_elems, kv.v_row(layer, block, slot), row_elems);
    }
}

void attention_reference(const attention_args& a, thread_pool& pool, attention_scratch& s) {
    const int group = a.n_head / a.n_head_kv;
    const ggml_type kt = storage_type(a.dtype);
    const weight_kernels* kk = kernels_for(kt);
    const from_float_fn q_to_k = from_float_for(kk->vec_dot_type);
    const std::int64_t q_head_bytes = row_bytes(kk->vec_dot_type, a.head_dim);
    const int bs = a.kv->block_size();
    const std::int64_t q_stride = static_cast<std::int64_t>(a.n_head) * a.head_dim;
    const int n_blocks = a.head_dim / k_query_block;
    const std::int64_t q8_query_bytes = 2LL * a.head_dim + 4LL * n_blocks;   // int16 values, then an f32 scale per block

    // One work item per (token, kv head): the group's query heads share each key.
    const std::int64_t n_items = static_cast<std::int64_t>(a.n_tokens) * a.n_head_kv;
    const to_float_fn v_to_float = to_float_for(kt);
    const auto job = [&](int ith, int nth) {
        float* scores = s.scores[static_cast<std::size_t>(ith)].data();
        std::uint8_t* qc = s.q_conv[static_cast<std::size_t>(ith)].data();
        float* vbuf = s.v_row[static_cast<std::size_t>(ith)].data();
        for (std::int64_t item = ith; item < n_items; item += nth) {
            const int t = static_cast<int>(item / a.n_head_kv);
            const int kvh = static_cast<int>(item % a.n_head_kv);
            const int pos = a.positions[t];
            const int first = a.window > 0 ? std::max(0, pos - a.window + 1) : 0;
            const int n_keys = pos - first + 1;
            const std::int32_t* table = a.block_tables[t];
            const std::int64_t koff = head_offset(a.dtype, kvh, a.head_dim);

            // The query in the K storage format: f16 values, or for a q8_0 cache
            // int16 blocks with f32 scales (query_i16.h) whose scores are summed
            // in integers.
            for (int g = 0; g < group; ++g) {
                const float* qh = a.q + t * q_stride + static_cast<std::int64_t>(kvh * group + g) * a.head_dim;
                if (a.dtype == kv_dtype::q8_0) {
                    std::uint8_t* qg = qc + g * q8_query_bytes;
                    quantize_query_i16(qh, a.head_dim, reinterpret_cast<std::int16_t*>(qg),
                                       reinterpret_cast<float*>(qg + 2LL * a.head_dim));
                } else {
                    q_to_k(qh, qc + g * q_head_bytes, a.head_dim);
                }
            }
            // Scores: (group, n_keys), scaled.
            for (int j = 0; j < n_keys; ++j) {
                const int p = first + j;
                const std::uint8_t* krow = a.kv->k_row(a.layer, table[p / bs], p % bs) + koff;
                if (a.dtype == kv_dtype::q8_0) {
                    for (int g = 0; g < group; ++g) {
                        const std::uint8_t* qg = qc + g * q8_query_bytes;
                        const auto* qs = reinterpret_cast<const std::int16_t*>(qg);
                        const auto* dq = reinterpret_cast<const float*>(qg + 2LL * a.head_dim);
                        float acc = 0;
                        for (int b = 0; b < n_blocks; ++b) {   // q8_0 blocks: f16 scale, then 32 int8
                            const std::uint8_t* blk = krow + b * 34;
                            std::uint16_t dh;
                            std::memcpy(&dh, blk, 2);
                            const std::int32_t isum = query_block_isum(qs + b * k_query_block, reinterpret_cast<const std::int8_t*>(blk + 2));
                            acc = query_score_step(dq[b], fp16_to_fp32(dh), isum, acc);
                        }
                        scores[g * n_keys + j] = acc * a.scale;
                    }
                    continue;
                }
                for (int g = 0; g < group; ++g)
                    scores[g * n_keys + j] = kk->vec_dot(a.head_dim, krow, qc + g * q_head_bytes) * a.scale;
            }
            for (int g = 0; g < group; ++g) {
                float* sg = scores + g * n_keys;
                if (a.softcap > 0) soft_cap(sg, n_keys, a.softcap);
                if (a.sinks) softmax_with_sink(sg, n_keys, a.sinks[kvh * group + g]);
                else softmax(sg, n_keys);
                for (int j = 0; j < n_keys; ++j) sg[j] = round_to_fp16(sg[j]);
            }
            // Outputs: each query head's weighted sum of the values.
            for (int g = 0; g < group; ++g) {
                float* o = a.out + t * q_stride + static_cast<std::int64_t>(kvh * group + g) * a.head_dim;
                std::fill(o, o + a.head_dim, 0.0f);
            }
            for (int j = 0; j < n_keys; ++j) {
                const int p = first + j;
                const std::uint8_t* vrow = a.kv->v_row(a.layer, table[p / bs], p % bs) + koff;
                v_to_float(vrow, vbuf, a.head_dim);
                for (int g = 0; g < group; ++g) {
                    float* o = a.out + t * q_stride + static_cast<std::int64_t>(kvh * group + g) * a.head_dim;
                    const float w = scores[g * n_keys + j];
                    for (int d = 0; d < a.head_dim; ++d) o[d] += w * vbuf[d];
                }
            }
        }
    };
    pool.run(std::cref(job));
}

void attention(const attention_args& a, thread_pool& pool, attention_scratch& s) {
    if (flash_job_fn kernel = flash_job_kernel(a.head_dim)) {
        attention_simd(a, kernel, pool, s);
        return;
    }
    attention_reference(a, pool, s);
}

namespace {

// The SIMD path (see the top of this file).
void attention_simd(const attention_args& a, flash_job_fn kernel, thread_pool& pool, attention_scratch& s) {
    const int G = a.n_head / a.n_head_kv, D = a.head_dim, n = a.n_tokens;
    const int tok_per_block = block_rows_for(G, D) / G;
    const std::int64_t q_stride = static_cast<std::int64_t>(a.n_head) * D;
    // The most rows of one item: a prefill block of one head (padded to whole
    // registers: flash_prefill_rows), or a decode token's every head.
    const int width = flash_job_width(D);
    const int max_rows = std::max(flash_prefill_rows(block_rows_for(G, D), width), a.n_head_kv * G);
    const std::int64_t state_floats = static_cast<std::int64_t>(max_rows) * (D + 2);   // o, m, l of an item
    const std::int64_t work_floats = flash_work_floats(max_rows, D);
    for (auto& w : s.work)
        if (static_cast<std::int64_t>(w.size()) < work_floats + state_floats) w.resize(static_cast<std::size_t>(work_floats + state_floats));

    // Each token's visible keys: max(0, pos - window + 1) .. pos.
    s.first.resize(static_cast<std::size_t>(n));
    s.last.resize(static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t) {
        const int pos = a.positions[t];
        s.first[static_cast<std::size_t>(t)] = a.window > 0 ? std::max(0, pos - a.window + 1) : 0;
        s.last[static_cast<std::size_t>(t)] = pos;
    }
    // A decode step (attention_args::steps) is one item for all its KV heads,
    // split as a lone decode token's; prompt tokens go in blocks of
    // consecutive tokens of one run, one item per block and KV head, never
    // split, so a prompt row's result does not depend on its chunk or on the
    // rest of the batch (a block of one prompt token takes the prefill path
    // too).
    const auto continues_run = [&](int t) {
        return t > 0 && t < n && a.block_tables[t] == a.block_tables[t - 1] && a.positions[t] == a.positions[t - 1] + 1;
    };
    const auto is_step = [&](int t) {
        if (a.steps != nullptr) return a.steps[t] != 0;
        return !continues_run(t) && !continues_run(t + 1);   // unmarked: a run of one token
    };
    s.items.clear();
    for (int t0 = 0; t0 < n;) {
        int t1 = t0 + 1;
        const bool step = is_step(t0);
        if (!step)
            while (t1 - t0 < tok_per_block && continues_run(t1) && !is_step(t1)) ++t1;
        int lo = s.first[static_cast<std::size_t>(t0)], hi = s.last[static_cast<std::size_t>(t0)];
        for (int t = t0; t < t1; ++t) {
            lo = std::min(lo, s.first[static_cast<std::size_t>(t)]);
            hi = std::max(hi, s.last[static_cast<std::size_t>(t)]);
        }
        if (step) {
            s.items.push_back({t0, 1, 0, a.n_head_kv, lo, hi + 1, -1, lo, true});
        } else {
            // A prefill block's tiles start at a multiple of the tile size, so
            // a row meets its keys in the same tiles whatever block it is in
            // (a sliding window's rows start at different keys); the keys
            // before lo are masked for every row and not read (key_held).
            const int aligned = lo / k_flash_tile_keys * k_flash_tile_keys;
            for (int h = 0; h < a.n_head_kv; ++h) s.items.push_back({t0, t1 - t0, h, 1, aligned, hi + 1, -1, lo, false});
        }
        t0 = t1;
    }
    // A decode step's range is split into one chunk per thread, each a
    // contiguous stretch of the keys, whatever else the call holds (tg64 @
    // d4096 q8_0, alternated: 138.3 against 134.3 tok/s with 2 per thread),
    // so a sequence decoded next to others (or a checked draft) is cut where
    // it is cut alone: the merge rounds differently from one pass.
    const bool any_step = std::any_of(s.items.begin(), s.items.end(), [](const attention_item& it) { return it.step; });
    int n_parts = 0;
    if (any_step && pool.size() > 1) {
        std::vector<attention_item>& split = s.split;
        split.clear();
        for (const attention_item& it : s.items) {
            // A prefill block is never split: its rows then sum their keys in one
            // pass whatever else the call holds (a short last chunk after a
            // prefix-cache hit gives the cold run's numbers).
            if (!it.step) {
                split.push_back(it);
                continue;
            }
            const int keys = it.key_end - it.key_begin;
            const int min_keys = std::max(k_flash_tile_keys, k_min_decode_chunk_key_heads / it.n_heads);
            int chunk = std::max(min_keys, (keys + pool.size() - 1) / pool.size());
            chunk = (chunk + k_flash_tile_keys - 1) / k_flash_tile_keys * k_flash_tile_keys;
            if (chunk >= keys) {
                split.push_back(it);
                continue;
            }
            for (int b = it.key_begin; b < it.key_end; b += chunk) {
                attention_item c = it;
                c.key_begin = b;
                c.key_end = std::min(it.key_end, b + chunk);
                c.part = n_parts++;
                split.push_back(c);
            }
        }
        s.items.swap(split);
    }
    if (static_cast<std::int64_t>(s.parts.size()) < n_parts * state_floats)
        s.parts.resize(static_cast<std::size_t>(n_parts * state_floats));

    const int bs = a.kv->block_size();
    const std::int64_t head_bytes = a.dtype == kv_dtype::f16 ? static_cast<std::int64_t>(D) * 2
                                                             : static_cast<std::int64_t>(D) / 32 * 34;
    const int n_items = static_cast<int>(s.items.size());
    // Split items (chunks of ranges) go in one share per thread; unsplit ones
    // (prefill blocks) in one share that every thread takes from, front first.
    share_claims& shares = s.claims;
    shares.reset(n_items, n_parts > 0 ? pool.size() : 1);
    const auto job = [&](int ith, int) {
        float* work = s.work[static_cast<std::size_t>(ith)].data();
        float* own_state = work + work_floats;
        for (int i = shares.claim(ith); i >= 0; i = shares.claim(ith)) {
            const attention_item& it = s.items[static_cast<std::size_t>(i)];
            const int rows = it.n_heads * it.n_tok * G;
            // A prefill block's state has room for its padded rows (never split: part < 0).
            const int state_rows = it.step ? rows : flash_prefill_rows(rows, width);
            float* state = it.part < 0 ? own_state : s.parts.data() + it.part * state_floats;
            flash_job j;
            j.q = a.q + it.t0 * q_stride + static_cast<std::int64_t>(it.kv_head) * G * D;
            j.q_stride = q_stride;
            j.n_tok = it.n_tok;
            j.step = it.step;
            j.group = G;
            j.n_heads = it.n_heads;
            j.head_dim = D;
            j.first = s.first.data() + it.t0;
            j.last = s.last.data() + it.t0;
            j.key_begin = it.key_begin;
            j.key_end = it.key_end;
            j.key_held = std::max(it.key_begin, it.key_held);
            if (it.part >= 0 && i + 1 < n_items) {   // the next chunk of the same range: its first tile
                const attention_item& after = s.items[static_cast<std::size_t>(i + 1)];
                if (after.part >= 0 && after.t0 == it.t0 && after.kv_head == it.kv_head && after.key_begin == it.key_end)
                    j.prefetch_end = std::min(after.key_end, it.key_end + k_flash_tile_keys);
            }
            j.dtype = a.dtype;
            j.k_layer = a.kv->k_layer(a.layer);
            j.v_layer = a.kv->v_layer(a.layer);
            j.row_bytes = a.kv->row_bytes();
            j.head_offset = it.kv_head * head_bytes;
            j.head_bytes = head_bytes;
            j.block_size = bs;
            j.table = a.block_tables[it.t0];
            j.scale = a.scale;
            j.softcap = a.softcap;
            j.o = state;
            j.m = state + static_cast<std::int64_t>(state_rows) * D;
            j.l = j.m + state_rows;
            j.work = work;
            kernel(j);
            if (it.part >= 0) continue;
            for (int r = 0; r < rows; ++r) {
                float* out = a.out + output_offset(it, r, G, D, q_stride);
                const float l = with_sink(j.l[r], j.m[r], a.sinks, row_head(it, r, G));
                const float inv = l > 0 ? 1.0f / l : 0.0f;
                for (int d = 0; d < D; ++d) out[d] = j.o[r * D + d] * inv;
            }
        }
    };
    pool.run(std::cref(job));
    if (n_parts == 0) return;

    // Merge the chunks of each split job: out = sum_c o_c e^(m_c - M) / sum_c l_c e^(m_c - M).
    for (int i = 0; i < n_items;) {
        const attention_item& head = s.items[static_cast<std::size_t>(i)];
        int i1 = i + 1;
        if (head.part < 0) {
            i = i1;
            continue;
        }
        while (i1 < n_items && s.items[static_cast<std::size_t>(i1)].part >= 0 &&
               s.items[static_cast<std::size_t>(i1)].t0 == head.t0 &&
               s.items[static_cast<std::size_t>(i1)].kv_head == head.kv_head)
            ++i1;
        const int rows = head.n_heads * head.n_tok * G;
        for (int r = 0; r < rows; ++r) {
            float M = -INFINITY;
            for (int c = i; c < i1; ++c) {
                const float* st = s.parts.data() + s.items[static_cast<std::size_t>(c)].part * state_floats;
                M = std::max(M, st[static_cast<std::int64_t>(rows) * D + r]);
            }
            float* out = a.out + output_offset(head, r, G, D, q_stride);
            std::fill(out, out + D, 0.0f);
            double L = 0;
            for (int c = i; c < i1; ++c) {
                const float* st = s.parts.data() + s.items[static_cast<std::size_t>(c)].part * state_floats;
                const float m = st[static_cast<std::int64_t>(rows) * D + r];
                if (m == -INFINITY) continue;   // a chunk outside this row's window
                const float w = std::exp(m - M);
                L += static_cast<double>(w) * st[static_cast<std::int64_t>(rows) * D + rows + r];
                for (int d = 0; d < D; ++d) out[d] += w * st[r * D + d];
            }
            if (a.sinks && M != -INFINITY) L += std::exp(static_cast<double>(a.sinks[row_head(head, r, G)] - M));
            const float inv = L > 0 ? static_cast<float>(1.0 / L) : 0.0f;
            for (int d = 0; d < D; ++d) out[d] *= inv;
        }
        i = i1;
    }
}

}  // namespace

}  // namespace kvlens
