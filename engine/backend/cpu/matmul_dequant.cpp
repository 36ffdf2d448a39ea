// SPDX-License-Identifier: Apache-2.0
// Prefill products of the types whose dot product decodes a codebook, trits
// or FP4 levels on every call (IQ1_S ... IQ3_S, TQ1_0, MXFP4): a dot per (row,
// token), as decode runs them, decodes each row once per token. Here each
// thread decodes a block of its rows once per chunk of tokens, to f16 in a
// buffer of its own (the dequantizer is the reference's, exact in f32; the
// f16 rounding adds at most 2^-11 of each weight; MXFP4's rows go to bf16,
// exactly), and runs the float weights' register tiles over the chunk's
// activation rows: rounded to q8_K (MXFP4: q8_0) as vec_dot (and llama.cpp)
// rounds them, then back in f32 (a test against
// unrounded rows, more precise, moved a router's near tie in check-qwen3moe
// to 10x llama.cpp's own noise). The decode is paid once per row and chunk
// instead of per row and token.
#include <algorithm>
#include <cstdlib>
#include <functional>

#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/quant/quant_blocks.h"
#include "engine/quant/quant_formats.h"

namespace kvlens {

namespace {

// Rows decoded together: 128 KiB of f16 (64 rows of 1024), between 4 and 64
// rows; the activation rows of a chunk, 4 MiB (from L3: every block streams
// them). pp512, LFM2-350M's shape: 16 rows and 512 KiB ran IQ3_S at 321
// tok/s, 32 and 2 MiB at 487, 64 and 4 MiB at 526, 64 and 8 MiB at 497,
// 128 and 8 MiB at 471 (F16 weights: 519).
constexpr std::int64_t k_block_bytes = 128 * 1024;
constexpr std::int64_t k_max_block_rows = 64;
constexpr std::int64_t k_chunk_bytes = 4096 * 1024;

// KVLENS_NO_DEQUANT_PREFILL=1 keeps the dot per pair in prefill (to compare them).
bool dequant_prefill_disabled() {
    static const bool disabled = std::getenv("KVLENS_NO_DEQUANT_PREFILL") != nullptr;
    return disabled;
}

std::int64_t align64(std::int64_t n) { return (n + 63) & ~std::int64_t{63}; }

std::int64_t block_rows(std::int64_t n_in) {
    return std::clamp<std::int64_t>(k_block_bytes / (2 * n_in) / k_tile_rows * k_tile_rows, k_tile_rows, k_max_block_rows);
}

}  // namespace

bool dequant_prefill_type(ggml_type t) {
    switch (t) {
    case ggml_type::iq2_xxs:
    case ggml_type::iq2_xs:
    case ggml_type::iq2_s:
    case ggml_type::iq3_xxs:
    case ggml_type::iq3_s:
    case ggml_type::iq1_s:
    case ggml_type::iq1_m:
    case ggml_type::tq1_0:
    case ggml_type::mxfp4: return true;
    // TQ2_0's dot unpacks 2-bit fields with shifts alone, as cheap as the
    // f16 tiles' conversion: decoding first was no faster with AVX-512 and
    // 0.66x with the AVX2 kernels (pp128, LFM2-350M's shape).
    default: return false;
    }
}

std::int64_t matmul_dequant_scratch_bytes(std::int64_t n_in, std::int64_t n_tokens, int n_threads) {
    const std::int64_t per_thread = align64(n_in * 4) + align64(block_rows(n_in) * n_in * 2);
    // q8_K rows are the larger of the two activation formats (q8_0: MXFP4's).
    return align64(n_tokens * n_in * 4) + align64(n_tokens * row_bytes(ggml_type::q8_K, n_in)) + per_thread * n_threads + 64;
}

bool matmul_dequant(const weight_view& w, const float* x, std::int64_t n_tokens, float* y, thread_pool& pool,
                    matmul_scratch& scratch) {
    if (dequant_prefill_disabled() || !dequant_prefill_type(w.type) || w.n_in % 32 != 0) return false;
    // MXFP4's values (a level of at most 6 times a power of two) are exact in
    // bf16, the others' in f16 within 2^-11; the activations rounded as
    // vec_dot rounds them: q8_0 for MXFP4, q8_K for the others.
    const bool mxfp4 = w.type == ggml_type::mxfp4;
    const ggml_type stored = mxfp4 ? ggml_type::bf16 : ggml_type::f16, act_type = mxfp4 ? ggml_type::q8_0 : ggml_type::q8_K;
    const tile_fn tile = tile_kernel_for(stored);
    const to_float_fn decode = quant::reference_to_float(w.type);
    const from_float_fn to_stored = from_float_for(stored);
    const from_float_fn to_q8 = from_float_for(act_type);
    const to_float_fn widen_q8_0 = quant::reference_to_float(ggml_type::q8_0);
    const std::int64_t act_block = mxfp4 ? 32 : QK_K;
    if (!tile || !decode || !to_stored || !to_q8 || w.n_in % act_block != 0) return false;
    // The activation rows (n_tokens, n_in) f32, each through q8_0 / q8_K (rows (n_tokens) of
    // those blocks beside); per thread: one decoded row in f32, then the block's rows in f16 / bf16.
    const std::int64_t act_bytes = align64(n_tokens * w.n_in * 4), q8_row = row_bytes(act_type, w.n_in);
    const std::int64_t q8_bytes = align64(n_tokens * q8_row);
    const std::int64_t rows_per_block = block_rows(w.n_in);
    const std::int64_t f32_row = align64(w.n_in * 4), f16_rows = align64(rows_per_block * w.n_in * 2);
    const std::int64_t per_thread = f32_row + f16_rows;
    const auto need = static_cast<std::size_t>(matmul_dequant_scratch_bytes(w.n_in, n_tokens, pool.size()));
    if (scratch.act.size() < need) scratch.act.resize(need);
    std::uint8_t* aligned = scratch.act.data() + (64 - reinterpret_cast<std::uintptr_t>(scratch.act.data()) % 64) % 64;
    auto* act = reinterpret_cast<float*>(aligned);
    std::uint8_t* q8 = aligned + act_bytes;
    std::uint8_t* base = q8 + q8_bytes;
    const auto round_rows = [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) {
            to_q8(x + t * w.n_in, q8 + t * q8_row, w.n_in);
            float* a = act + t * w.n_in;
            if (mxfp4) {   // q8_0 back in f32: d * q, exact
                widen_q8_0(q8 + t * q8_row, a, w.n_in);
                continue;
            }
            const auto* b = reinterpret_cast<const block_q8_K*>(q8 + t * q8_row);
            for (std::int64_t i = 0; i < w.n_in / QK_K; ++i)
                for (int j = 0; j < QK_K; ++j) a[i * QK_K + j] = b[i].d * static_cast<float>(b[i].qs[j]);
        }
    };
    pool.parallel_for(n_tokens, std::cref(round_rows));
    const std::int64_t chunk =
        std::max<std::int64_t>(k_tile_tokens, k_chunk_bytes / (w.n_in * 4) / k_tile_tokens * k_tile_tokens);
    const std::int64_t n_blocks = (w.n_out + rows_per_block - 1) / rows_per_block;

    const auto job = [&](int ith, int nth) {
        const std::int64_t per = (n_blocks + nth - 1) / nth;
        const std::int64_t b0 = std::min(n_blocks, per * ith), b1 = std::min(n_blocks, b0 + per);
        auto* row_f32 = reinterpret_cast<float*>(base + ith * per_thread);
        std::uint8_t* rows_f16 = base + ith * per_thread + f32_row;
        tile_args g;
        g.nb = w.n_in / 32;
        g.w_stride = w.n_in * 2;
        g.a_stride = w.n_in * 4;
        g.ldy = w.n_out;
        for (std::int64_t c0 = 0; c0 < n_tokens; c0 += chunk) {
            const std::int64_t c1 = std::min(n_tokens, c0 + chunk);
            for (std::int64_t b = b0; b < b1; ++b) {
                const std::int64_t r0 = b * rows_per_block, nr = std::min(rows_per_block, w.n_out - r0);
                for (std::int64_t r = 0; r < nr; ++r) {
                    decode(w.data + (r0 + r) * w.row_bytes, row_f32, w.n_in);
                    to_stored(row_f32, rows_f16 + r * g.w_stride, w.n_in);
                }
                for (std::int64_t t0 = c0; t0 < c1; t0 += k_tile_tokens) {
                    g.nt = static_cast<int>(std::min<std::int64_t>(k_tile_tokens, c1 - t0));
                    g.a = reinterpret_cast<const std::uint8_t*>(act + t0 * w.n_in);
                    for (std::int64_t s = 0; s < nr; s += k_tile_rows) {
                        g.nr = static_cast<int>(std::min<std::int64_t>(k_tile_rows, nr - s));
                        g.w = rows_f16 + s * g.w_stride;
                        g.y = y + t0 * w.n_out + r0 + s;
                        tile(g);
                    }
                }
            }
        }
    };
    pool.run(std::cref(job));
    return true;
}

}  // namespace kvlens
