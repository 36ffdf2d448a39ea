// SPDX-License-Identifier: Apache-2.0
// Matrix products: quantize the activation rows once, then split the output
// rows across threads. Where the active kernel level has a tiled kernel for
// the weight type (matmul_simd.h), each thread walks its rows 4 at a time and,
// for those 4 rows, all tokens 4 at a time: a 4x4 register tile of dot
// products per call, each weight block loaded once per 4 tokens (for Q4_K and
// Q6_K, each super-block's quants and scales unpacked once per 4 tokens). Other types
// use the table's vec_dot per (row, token) pair, rows in tiles of 16, but in
// prefill the 1- to 3-bit types' rows are decoded to f16 once per chunk of
// tokens for the f16 tiles (matmul_dequant.cpp). Prefill on a CPU with
// AMX-INT8 goes through 16 x 16 AMX tiles (amx_simd.cpp).
#include "engine/backend/cpu/matmul.h"

#include <algorithm>
#include <functional>
#include <cstring>

#include "common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul_rows8.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/quant/quant_blocks.h"

namespace kvlens {

namespace {

// Tokens below which the caller's thread quantizes alone (a pool job costs more).
constexpr std::int64_t k_serial_quantize_tokens = 4;

std::int64_t align64(std::int64_t n) { return (n + 63) & ~std::int64_t{63}; }

// f32 activation rows a thread's row tiles meet per pass (bytes): half of a 1 MiB L2.
constexpr std::int64_t k_float_chunk_bytes = 512 * 1024;

// Scratch layout of the tiled path, bytes from the start of scratch.act:
//   act:  (n_tokens, act_row) quantized activation rows
//   ad:   (n_tokens, nb) f32 activation block scales
//   as:   (n_tokens, nb) f32 activation block sums (q8_1 only)
//   wsc:  (n_threads, 2, k_tile_rows, nb) f32 weight scales and minimums of a row tile
//   af:   (n_tokens, n_in) f32: f16 / bf16 weights' activation rows (rounded
//         to the weights' type, as vec_dot's are) back in f32 for the tiles
struct tiled_layout {
    std::int64_t nb, act_row, ad, as, wsc, af, total;
};

tiled_layout layout_for(std::int64_t n_in, std::int64_t act_row, std::int64_t n_tokens, int n_threads,
                        bool f32_rows = false) {
    tiled_layout l;
    l.nb = n_in / 32;
    l.act_row = act_row;
    l.ad = align64(n_tokens * act_row);
    l.as = l.ad + align64(n_tokens * l.nb * 4);
    l.wsc = l.as + align64(n_tokens * l.nb * 4);
    l.af = align64(l.wsc + static_cast<std::int64_t>(n_threads) * 2 * k_tile_rows * l.nb * 4);
    l.total = l.af + (f32_rows ? n_tokens * n_in * 4 : 0);
    return l;
}

// The f32 scale (and minimum) of every block of a weight row.
void weight_scales(ggml_type t, const std::uint8_t* row, std::int64_t nb, float* d, float* m) {
    switch (t) {
    case ggml_type::q4_0: {
        auto* b = reinterpret_cast<const block_q4_0*>(row);
        for (std::int64_t i = 0; i < nb; ++i) d[i] = fp16_to_fp32(b[i].d);
        break;
    }
    case ggml_type::q4_1: {
        auto* b = reinterpret_cast<const block_q4_1*>(row);
        for (std::int64_t i = 0; i < nb; ++i) {
            d[i] = fp16_to_fp32(b[i].d);
            m[i] = fp16_to_fp32(b[i].m);
        }
        break;
    }
    case ggml_type::q5_0: {
        auto* b = reinterpret_cast<const block_q5_0*>(row);
        for (std::int64_t i = 0; i < nb; ++i) d[i] = fp16_to_fp32(b[i].d);
        break;
    }
    case ggml_type::q5_1: {
        auto* b = reinterpret_cast<const block_q5_1*>(row);
        for (std::int64_t i = 0; i < nb; ++i) {
            d[i] = fp16_to_fp32(b[i].d);
            m[i] = fp16_to_fp32(b[i].m);
        }
        break;
    }
    default: {   // q8_0
        auto* b = reinterpret_cast<const block_q8_0*>(row);
        for (std::int64_t i = 0; i < nb; ++i) d[i] = fp16_to_fp32(b[i].d);
        break;
    }
    }
}

// Elements per block of a tile's activation rows: super-blocks of 256 for the
// K-quants (q8_K activations), else 32.
std::int64_t tile_block(const weight_kernels& k) { return k.vec_dot_type == ggml_type::q8_K ? QK_K : 32; }

// Tokens from which prefill goes through AMX tiles (16 tokens per tile).
constexpr std::int64_t k_amx_min_tokens = 16;

bool use_amx(const weight_view& w, std::int64_t n_tokens) {
    return n_tokens >= k_amx_min_tokens && w.n_in % 32 == 0 &&
           (w.type == ggml_type::q4_0 || w.type == ggml_type::q4_1 || w.type == ggml_type::q8_0) &&
           std::strcmp(cpu_kernel_level(), "avx512") == 0 && amx_usable();
}

void matmul_amx(const weight_view& w, const float* x, std::int64_t n_tokens, float* y, thread_pool& pool,
                matmul_scratch& scratch, const weight_kernels& k) {
    const ggml_type at = k.vec_dot_type;
    const from_float_fn quantize = from_float_for(at);
    const std::int64_t act_row = row_bytes(at, w.n_in);
    const std::int64_t act_bytes = align64(n_tokens * act_row);
    const std::int64_t need = act_bytes + amx_scratch_bytes(w.n_in, n_tokens, pool.size()) + 64;
    if (scratch.act.size() < static_cast<std::size_t>(need)) scratch.act.resize(static_cast<std::size_t>(need));
    std::uint8_t* act = scratch.act.data();
    const auto addr = reinterpret_cast<std::uintptr_t>(act + act_bytes);

    amx_job j;
    j.type = w.type;
    j.w = w.data;
    j.w_stride = w.row_bytes;
    j.n_in = w.n_in;
    j.n_out = w.n_out;
    j.act_type = at;
    j.act = act;
    j.act_row = act_row;
    j.n_tokens = n_tokens;
    j.y = y;
    j.ldy = w.n_out;
    j.scratch = act + act_bytes + ((64 - addr % 64) % 64);

    // Quantize and repack 16-token groups, the groups split across threads.
    const auto prepare = [&](std::int64_t g0, std::int64_t g1) {
        for (std::int64_t t = g0 * 16; t < std::min(n_tokens, g1 * 16); ++t)
            quantize(x + t * w.n_in, act + t * act_row, w.n_in);
        amx_prepare(j, g0, g1);
    };
    pool.parallel_for((n_tokens + 15) / 16, std::cref(prepare));
    const std::int64_t n_tiles = (w.n_out + 15) / 16;
    // Jobs go to the pool by reference: a std::function copy of a lambda with
    // many captures would allocate, and decode issues hundreds of jobs per token.
    const auto job = [&](int ith, int nth) {
        const std::int64_t per = (n_tiles + nth - 1) / nth;
        const std::int64_t t0 = std::min(n_tiles, per * ith);
        const std::int64_t t1 = std::min(n_tiles, t0 + per);
        if (t0 < t1) amx_rows(j, ith, t0, t1);
    };
    pool.run(std::cref(job));
}

// Several matrices of one type and input width against the same activations
// (Q, K and V; gate and up): the activations are quantized once and the row
// tiles of all the matrices are split across the threads in one job, so a
// decode step pays one synchronisation instead of one per matrix.
void matmul_tiled(const weight_view* ws, float* const* ys, int n_mats, const float* x, std::int64_t n_tokens,
                  std::int64_t kernel_tokens, thread_pool& pool, matmul_scratch& scratch, const weight_kernels& k,
                  tile_fn tile) {
    const weight_view& w0 = ws[0];
    if (use_amx(w0, kernel_tokens)) {
        for (int m = 0; m < n_mats; ++m) matmul_amx(ws[m], x, n_tokens, ys[m], pool, scratch, k);
        return;
    }
    const ggml_type at = k.vec_dot_type;
    const bool k_quant = at == ggml_type::q8_K;   // K-quant tiles read every scale from the blocks
    // bf16 weights in prefill's class on AVX-512 + BF16: bf16 pairs multiplied
    // (vdpbf16ps) against the bf16 activation rows themselves.
    const tile_fn pair_tile = w0.type == ggml_type::bf16 && kernel_tokens > k_tile_tokens &&
                                      std::strcmp(cpu_kernel_level(), "avx512") == 0
                                  ? avx512_bf16_pair_tile()
                                  : nullptr;
    if (pair_tile) tile = pair_tile;
    // Else f16 / bf16 weights: the activations rounded to that type (as vec_dot's), then back in f32 rows.
    const bool float_weights = at == ggml_type::f16 || at == ggml_type::bf16;   // no block scales
    const bool float_rows = float_weights && !pair_tile;
    const from_float_fn quantize = from_float_for(at);
    const to_float_fn widen = float_rows ? to_float_for(at) : nullptr;
    const tiled_layout L = layout_for(w0.n_in, row_bytes(at, w0.n_in), n_tokens, pool.size(), float_rows);
    if (scratch.act.size() < static_cast<std::size_t>(L.total)) scratch.act.resize(static_cast<std::size_t>(L.total));
    std::uint8_t* base = scratch.act.data();
    std::uint8_t* act = float_rows ? base + L.af : base;   // what the tiles read
    const std::int64_t act_row = float_rows ? w0.n_in * 4 : L.act_row;
    float* ad = reinterpret_cast<float*>(base + L.ad);
    float* as = reinterpret_cast<float*>(base + L.as);
    const bool has_sums = at == ggml_type::q8_1;

    auto quantize_rows = [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) {
            quantize(x + t * w0.n_in, base + t * L.act_row, w0.n_in);
            if (float_rows) widen(base + t * L.act_row, reinterpret_cast<float*>(act + t * act_row), w0.n_in);
            else if (!k_quant && !float_weights) act_scales(at, base + t * L.act_row, L.nb, ad + t * L.nb, as + t * L.nb);
        }
    };
    if (n_tokens < k_serial_quantize_tokens) quantize_rows(0, n_tokens);
    else pool.parallel_for(n_tokens, std::cref(quantize_rows));

    // Row tiles of all matrices, numbered one after another.
    std::int64_t tiles_before[4] = {0, 0, 0, 0};   // (n_mats + 1) first tile of each matrix
    for (int m = 0; m < n_mats; ++m) tiles_before[m + 1] = tiles_before[m] + (ws[m].n_out + k_tile_rows - 1) / k_tile_rows;
    const std::int64_t n_row_tiles = tiles_before[n_mats];
    // f32 activation rows (f16 / bf16 weights) go through the row tiles a
    // chunk of tokens at a time, the chunk's rows held in L2; quantized ones
    // (a quarter of the bytes) all at once.
    const std::int64_t chunk =
        float_rows || pair_tile
            ? std::max<std::int64_t>(k_tile_tokens, k_float_chunk_bytes / act_row / k_tile_tokens * k_tile_tokens)
            : n_tokens;
    const auto job = [&](int ith, int nth) {
        const std::int64_t per = (n_row_tiles + nth - 1) / nth;
        const std::int64_t tile0 = std::min(n_row_tiles, per * ith);
        const std::int64_t tile1 = std::min(n_row_tiles, tile0 + per);
        float* wd = reinterpret_cast<float*>(base + L.wsc) + static_cast<std::int64_t>(ith) * 2 * k_tile_rows * L.nb;
        float* wm = wd + k_tile_rows * L.nb;
        // Pre-converted weight scales pay off when a row tile meets several token tiles.
        const bool pre = !k_quant && !float_weights && kernel_tokens > k_tile_tokens;
        tile_args g;
        g.nb = k_quant ? w0.n_in / QK_K : L.nb;
        g.a_stride = act_row;
        g.a_block = has_sums ? sizeof(block_q8_1) : sizeof(block_q8_0);
        g.a_qs = has_sums ? 4 : 2;
        g.rows_alone = float_rows && kernel_tokens <= k_tile_tokens;
        for (std::int64_t c0 = 0; c0 < n_tokens; c0 += chunk) {
            const std::int64_t c1 = std::min(n_tokens, c0 + chunk);
            int m = 0;
            for (std::int64_t tile_i = tile0; tile_i < tile1; ++tile_i) {
                while (tile_i >= tiles_before[m + 1]) ++m;
                const weight_view& w = ws[m];
                g.w_stride = w.row_bytes;
                g.wd = pre ? wd : nullptr;
                g.wm = pre && (w.type == ggml_type::q4_1 || w.type == ggml_type::q5_1) ? wm : nullptr;
                g.ldy = w.n_out;
                const std::int64_t r0 = (tile_i - tiles_before[m]) * k_tile_rows;
                const int nr = static_cast<int>(std::min<std::int64_t>(k_tile_rows, w.n_out - r0));
                if (pre)
                    for (int r = 0; r < nr; ++r)
                        weight_scales(w.type, w.data + (r0 + r) * w.row_bytes, L.nb, wd + r * L.nb, wm + r * L.nb);
                g.w = w.data + r0 * w.row_bytes;
                g.nr = nr;
                for (std::int64_t t0 = c0; t0 < c1; t0 += k_tile_tokens) {
                    g.nt = static_cast<int>(std::min<std::int64_t>(k_tile_tokens, c1 - t0));
                    g.a = act + t0 * act_row;
                    g.ad = ad + t0 * L.nb;
                    g.as = has_sums ? as + t0 * L.nb : nullptr;
                    g.y = ys[m] + t0 * w.n_out + r0;
                    tile(g);
                }
            }
        }
    };
    pool.run(std::cref(job));
}

}  // namespace

// The f32 scale (and sum) of every block of a quantized activation row.
void act_scales(ggml_type t, const std::uint8_t* row, std::int64_t nb, float* d, float* s) {
    if (t == ggml_type::q8_1) {
        auto* b = reinterpret_cast<const block_q8_1*>(row);
        for (std::int64_t i = 0; i < nb; ++i) {
            d[i] = fp16_to_fp32(b[i].d);
            s[i] = fp16_to_fp32(b[i].s);
        }
    } else {
        auto* b = reinterpret_cast<const block_q8_0*>(row);
        for (std::int64_t i = 0; i < nb; ++i) d[i] = fp16_to_fp32(b[i].d);
    }
}

std::int64_t prefill_kernel_tokens(std::int64_t run_length) {
    return std::max<std::int64_t>(run_length, k_tile_tokens + 1);
}

int matmul_kernel_class(std::int64_t kernel_tokens) {
    if (kernel_tokens <= k_tile_tokens) return 0;     // tiles, weight scales converted as they stream
    if (kernel_tokens < k_amx_min_tokens) return 1;   // tiles with pre-converted scales
    return 2;                                         // AMX where usable, else as 1
}

tile_fn tile_kernel_for(ggml_type t) {
    const char* level = cpu_kernel_level();
    if (std::strcmp(level, "avx512") == 0) {
        if (const tile_fn f = avx512_tile_kernel(t)) return f;
        // The avx512 table keeps AVX2's K-quant dots, so AVX2's K-quant tiles
        // (equal to those dots bit for bit) serve it too.
        return t == ggml_type::q4_K || t == ggml_type::q6_K ? avx2_tile_kernel(t) : nullptr;
    }
    if (std::strcmp(level, "avx2") == 0) {
        if (const tile_fn f = avx2_float_tile(t)) return f;
        return avx2_tile_kernel(t);
    }
    return nullptr;
}

std::int64_t matmul_scratch_bytes(const weight_view& w, std::int64_t n_tokens) {
    if (w.layout != weight_layout::rows) return rows8_scratch_bytes(w.n_in, n_tokens);
    const weight_kernels* k = kernels_for(w.type);
    if (!k) return 0;
    const std::int64_t act_row = row_bytes(k->vec_dot_type, w.n_in);
    // The tiled or AMX path's buffers for up to 64 threads, an upper bound either way.
    const bool float_rows = k->vec_dot_type == ggml_type::f16 || k->vec_dot_type == ggml_type::bf16;
    const std::int64_t tiled = std::max(layout_for(w.n_in, act_row, n_tokens, 64, float_rows).total,
                                        align64(n_tokens * act_row) + amx_scratch_bytes(w.n_in, n_tokens, 64) + 64);
    return dequant_prefill_type(w.type) ? std::max(tiled, matmul_dequant_scratch_bytes(w.n_in, n_tokens, 64)) : tiled;
}

void matmul(const weight_view& w, const float* x, std::int64_t n_tokens, float* y,
            thread_pool& pool, matmul_scratch& scratch, std::int64_t kernel_tokens) {
    const weight_kernels* k = kernels_for(w.type);
    if (n_tokens <= 0) return;
    if (kernel_tokens <= 0) kernel_tokens = n_tokens;
    if (w.layout != weight_layout::rows) {   // rows8 or rows16
        matmul_rows8(&w, &y, 1, x, n_tokens, pool, scratch);
        return;
    }
    // A matrix left in the file's layout (a model too large to copy): prefill regroups it as it goes.
    if (matmul_kernel_class(kernel_tokens) >= 1 && prefill_repack_applies(w)) {
        matmul_rows8(&w, &y, 1, x, n_tokens, pool, scratch, true);
        return;
    }
    if (const tile_fn tile = tile_kernel_for(w.type); tile && w.n_in % tile_block(*k) == 0) {
        matmul_tiled(&w, &y, 1, x, n_tokens, kernel_tokens, pool, scratch, *k, tile);
        return;
    }
    if (matmul_kernel_class(kernel_tokens) >= 1 && matmul_dequant(w, x, n_tokens, y, pool, scratch)) return;

    const from_float_fn quantize = from_float_for(k->vec_dot_type);
    const std::int64_t act_row = row_bytes(k->vec_dot_type, w.n_in);
    const std::size_t need = static_cast<std::size_t>(act_row * n_tokens);
    if (scratch.act.size() < need) scratch.act.resize(need);
    std::uint8_t* act = scratch.act.data();

    auto quantize_rows = [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) quantize(x + t * w.n_in, act + t * act_row, w.n_in);
    };
    if (n_tokens < k_serial_quantize_tokens) quantize_rows(0, n_tokens);
    else pool.parallel_for(n_tokens, std::cref(quantize_rows));

    const vec_dot_fn dot = k->vec_dot;
    constexpr std::int64_t tile_rows = 16;
    const auto job = [&](std::int64_t b0, std::int64_t b1) {
        for (std::int64_t tile = b0; tile < b1; ++tile) {
            const std::int64_t r0 = tile * tile_rows;
            const std::int64_t r1 = std::min(w.n_out, r0 + tile_rows);
            for (std::int64_t t = 0; t < n_tokens; ++t) {
                const std::uint8_t* a = act + t * act_row;
                float* yt = y + t * w.n_out;
                for (std::int64_t r = r0; r < r1; ++r) yt[r] = dot(w.n_in, w.data + r * w.row_bytes, a);
            }
        }
    };
    pool.parallel_for((w.n_out + tile_rows - 1) / tile_rows, std::cref(job));
}

void matmul_group(const weight_view* ws, float* const* ys, int n_mats, const float* x, std::int64_t n_tokens,
                  thread_pool& pool, matmul_scratch& scratch, std::int64_t kernel_tokens) {
    if (kernel_tokens <= 0) kernel_tokens = n_tokens;
    bool same = n_mats >= 1 && n_mats <= 3;
    for (int m = 1; same && m < n_mats; ++m)
        same = ws[m].type == ws[0].type && ws[m].n_in == ws[0].n_in && ws[m].layout == ws[0].layout;
    if (same && ws[0].layout != weight_layout::rows && n_tokens > 0) {
        matmul_rows8(ws, ys, n_mats, x, n_tokens, pool, scratch);
        return;
    }
    if (same && n_tokens > 0 && matmul_kernel_class(kernel_tokens) >= 1 && prefill_repack_applies(ws[0])) {
        bool all = true;   // every matrix's rows fill whole groups
        for (int m = 1; m < n_mats; ++m) all = all && prefill_repack_applies(ws[m]);
        if (all) {
            matmul_rows8(ws, ys, n_mats, x, n_tokens, pool, scratch, true);
            return;
        }
    }
    const tile_fn tile = same ? tile_kernel_for(ws[0].type) : nullptr;
    if (tile && ws[0].n_in % tile_block(*kernels_for(ws[0].type)) == 0 && n_tokens > 0) {
        matmul_tiled(ws, ys, n_mats, x, n_tokens, kernel_tokens, pool, scratch, *kernels_for(ws[0].type), tile);
        return;
    }
    for (int m = 0; m < n_mats; ++m) matmul(ws[m], x, n_tokens, ys[m], pool, scratch, kernel_tokens);
}

}  // namespace kvlens
