// SPDX-License-Identifier: Apache-2.0
// Matrix products of rows8 and rows16 matrices (rows8.h, rows16.h): the
// activation rows are quantized (and, for rows8 with more than one token,
// expanded) for the kernel once, then the row groups of every matrix of the call are split across the
// threads in one job. A thread walks the tokens in chunks whose activations
// stay in its L2 cache, and within a chunk each group against the tokens 4
// at a time, so a group's weights are read from memory once per chunk (once
// in decode).
#include "engine/backend/cpu/matmul_rows8.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/backend/cpu/rows16.h"
#include "engine/backend/cpu/rows8.h"
#include "engine/quant/quant_blocks.h"

namespace kvlens {

namespace {

std::int64_t align64(std::int64_t n) { return (n + 63) & ~std::int64_t{63}; }

// Expanded activations per chunk a thread keeps in its L2 cache (bytes).
constexpr std::int64_t k_chunk_bytes = 256 * 1024;
// The same when each group is regrouped per chunk (repack): larger, so that
// fewer chunks pay the regrouping.
constexpr std::int64_t k_repack_chunk_bytes = 1024 * 1024;

// Scratch layout, bytes from the start of scratch.act:
//   q:   (n_tokens, q_row) quantized activation rows (q8_1 or q8_0 blocks)
//   a:   (n_tokens, nb * 256) broadcast activation quants (rows8 only)
//   ad:  (n_tokens, nb) f32 block scales
//   as:  (n_tokens, nb) f32 block sums (q8_1) or int32 quant sums (q8_0)
struct rows8_layout {
    std::int64_t nb, q_row, a, ad, as, total;
};

rows8_layout layout_for(ggml_type act_type, std::int64_t n_in, std::int64_t n_tokens, bool expanded) {
    rows8_layout l;
    l.nb = n_in / 32;
    l.q_row = row_bytes(act_type, n_in);
    l.a = align64(n_tokens * l.q_row);
    l.ad = l.a + (expanded ? align64(n_tokens * l.nb * k_rows8_act_block_bytes) : 0);
    l.as = l.ad + align64(n_tokens * l.nb * 4);
    l.total = l.as + align64(n_tokens * l.nb * 4);
    return l;
}

}  // namespace

namespace {

// A q8_K row's scale for each 32 (its 256-block's) and d * the 32's quant sum (two bsums).
void act_scales_q8_K(const std::uint8_t* q, std::int64_t nb, float* d, float* s) {
    const auto* blocks = reinterpret_cast<const block_q8_K*>(q);
    for (std::int64_t b = 0; b < nb; ++b) {
        const block_q8_K& k = blocks[b / 8];
        const int j = static_cast<int>(b % 8);
        d[b] = k.d;
        s[b] = k.d * static_cast<float>(k.bsums[2 * j] + k.bsums[2 * j + 1]);
    }
}

}  // namespace

void act_quant_sums(const std::uint8_t* q, std::int64_t nb, std::int32_t* sums) {
    const auto* blocks = reinterpret_cast<const block_q8_0*>(q);
    for (std::int64_t b = 0; b < nb; ++b) {
        std::int32_t sum = 0;
        for (int i = 0; i < 32; ++i) sum += blocks[b].qs[i];
        sums[b] = sum;
    }
}

std::int64_t rows8_scratch_bytes(std::int64_t n_in, std::int64_t n_tokens) {
    return layout_for(ggml_type::q8_1, n_in, n_tokens, true).total;   // q8_1 rows and expansion: the larger
}

bool prefill_repack_applies(const weight_view& w) {
    static const bool disabled = std::getenv("KVLENS_NO_PREFILL_REPACK") != nullptr;   // to compare
    return !disabled && (rows16_applies(w) || rows8_applies(w));
}

void matmul_rows8(const weight_view* ws, float* const* ys, int n_mats, const float* x, std::int64_t n_tokens,
                  thread_pool& pool, matmul_scratch& scratch, bool repack) {
    const weight_view& w0 = ws[0];
    // Quants read in place, 16 rows a group.
    const bool r16 = repack ? rows16_applies(w0) : w0.layout == weight_layout::rows16;
    const std::int64_t group = r16 ? k_rows16_group : k_rows8_group;
    const ggml_type at = kernels_for(w0.type)->vec_dot_type;   // q8_1 for q4_1, q8_0 for q4_0 and q8_0
    const bool q8_1 = at == ggml_type::q8_1;
    const bool q8_K = at == ggml_type::q8_K;   // q4_K rows16: ad and as per 32 from the 256-blocks
    const from_float_fn quantize = from_float_for(at);
    const row_group_fn kernel = r16 ? rows16_kernel_for(w0.type) : rows8_kernel_for(w0.type);
    // rows8 kernels read a lone token's quants from its quantized row (a_rows), more tokens' from an
    // expansion; K-quant kernels (either layout) always read the q8_K rows.
    const bool expand = !r16 && !q8_K && n_tokens > 1;
    const rows8_layout L = layout_for(at, w0.n_in, n_tokens, expand);
    // Repacking: a group's rows regrouped, per thread, after the activations.
    const std::int64_t packed_row = repack ? (r16 ? rows16_row_bytes(w0) : rows8_row_bytes(w0)) : 0;
    const std::int64_t group_bytes = align64(group * packed_row);
    const std::int64_t total = L.total + group_bytes * pool.size();
    if (scratch.act.size() < static_cast<std::size_t>(total)) scratch.act.resize(static_cast<std::size_t>(total));
    std::uint8_t* base = scratch.act.data();
    const std::int64_t a_row = expand ? L.nb * k_rows8_act_block_bytes : L.q_row;   // kernel bytes per token
    const std::uint8_t* a_first = expand ? base + L.a : base;
    float* ad = reinterpret_cast<float*>(base + L.ad);
    float* as = reinterpret_cast<float*>(base + L.as);
    auto* aq_sum = reinterpret_cast<std::int32_t*>(base + L.as);

    const auto prepare = [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) {
            std::uint8_t* q = base + t * L.q_row;
            quantize(x + t * w0.n_in, q, w0.n_in);
            if (q8_K) {
                act_scales_q8_K(q, L.nb, ad + t * L.nb, as + t * L.nb);
                continue;
            }
            act_scales(at, q, L.nb, ad + t * L.nb, q8_1 ? as + t * L.nb : nullptr);
            if (!q8_1) act_quant_sums(q, L.nb, aq_sum + t * L.nb);
            if (expand) rows8_expand_activations(at, q, L.nb, base + L.a + t * a_row);
        }
    };
    if (n_tokens < 4) prepare(0, n_tokens);
    else pool.parallel_for(n_tokens, std::cref(prepare));

    // The groups of all matrices, numbered one after another.
    std::int64_t groups_before[4] = {0, 0, 0, 0};
    for (int m = 0; m < n_mats; ++m) groups_before[m + 1] = groups_before[m] + ws[m].n_out / group;
    const std::int64_t n_groups = groups_before[n_mats];
    const std::int64_t chunk_bytes = repack ? k_repack_chunk_bytes : k_chunk_bytes;
    const std::int64_t chunk = std::max<std::int64_t>(k_rows8_tokens, chunk_bytes / a_row / k_rows8_tokens * k_rows8_tokens);
    // Jobs go to the pool by reference (no std::function copy of the captures).
    // Fixed shares: threads claiming smaller pieces from a shared counter
    // decoded 2-7 % slower on 2 cores (Zen 5), alternated.
    const auto job = [&](int ith, int nth) {
        const std::int64_t per = (n_groups + nth - 1) / nth;
        const std::int64_t g0 = std::min(n_groups, per * ith);
        const std::int64_t g1 = std::min(n_groups, g0 + per);
        row_group_args g;
        g.nb = L.nb;
        g.a_stride = a_row;
        g.a_block = q8_1 ? sizeof(block_q8_1) : sizeof(block_q8_0);
        g.a_qs = q8_1 ? 4 : 2;
        g.a_scalars = L.nb;
        g.a_rows = !r16 && !expand;
        std::uint8_t* packed = scratch.act.data() + L.total + ith * group_bytes;
        for (std::int64_t c0 = 0; c0 < n_tokens; c0 += chunk) {
            const std::int64_t c1 = std::min(n_tokens, c0 + chunk);
            int m = 0;
            for (std::int64_t gi = g0; gi < g1; ++gi) {
                while (gi >= groups_before[m + 1]) ++m;
                const weight_view& w = ws[m];
                const std::int64_t r0 = (gi - groups_before[m]) * group;
                g.w = w.data + r0 * w.row_bytes;
                if (repack) {   // this group's rows as the file has them, regrouped
                    weight_view rows = w;
                    rows.data = w.data + r0 * w.row_bytes;
                    rows.n_out = group;
                    if (r16) repack_rows16(rows, packed);
                    else repack_rows8(rows, packed);
                    g.w = packed;
                }
                g.ldy = w.n_out;
                for (std::int64_t t0 = c0; t0 < c1; t0 += k_rows8_tokens) {
                    g.nt = static_cast<int>(std::min<std::int64_t>(k_rows8_tokens, c1 - t0));
                    g.a = a_first + t0 * a_row;
                    g.ad = ad + t0 * L.nb;
                    g.as = q8_1 || q8_K ? as + t0 * L.nb : nullptr;
                    g.aq_sum = q8_1 || q8_K ? nullptr : aq_sum + t0 * L.nb;
                    g.y = ys[m] + t0 * w.n_out + r0;
                    kernel(g);
                }
            }
        }
    };
    pool.run(std::cref(job));
}

}  // namespace kvlens
