// SPDX-License-Identifier: Apache-2.0
// Matrix-product dispatch (matvec or dequantize + cuBLAS) and the cuBLAS call.
#include "engine/backend/cuda/matmul.h"

#include <algorithm>

#include <fmt/format.h>

#include "engine/backend/cuda/convert.h"
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/dequant.h"
#include "engine/backend/cuda/matvec.h"

namespace kvlens {

status gemm_f16(cublasHandle_t h, const std::uint16_t* w, std::int64_t n_out, const std::uint16_t* x, int n,
                std::int64_t k, float* y, std::int64_t ldy) {
    // Column-major view: W (k, n_out), X (k, n), Y (n_out, n) with leading dimension ldy.
    const float alpha = 1.0f, beta = 0.0f;
    CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(n_out), n, static_cast<int>(k), &alpha, w,
                              CUDA_R_16F, static_cast<int>(k), x, CUDA_R_16F, static_cast<int>(k), &beta, y, CUDA_R_32F,
                              static_cast<int>(ldy), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return {};
}

namespace {

status matmul_gemm(const dev_matrix& w, int n, float* y, const matmul_workspace& wk, cudaStream_t s) {
    if (w.type == ggml_type::f16)   // already in the GEMM's format
        return gemm_f16(wk.cublas, reinterpret_cast<const std::uint16_t*>(w.data), w.n_out, wk.x_f16, n, w.n_in, y,
                        w.n_out);
    // Dequantize as many rows as the scratch holds (the whole matrix for a layer's
    // weights; slices for a large output matrix), then multiply them.
    const std::int64_t rows_per_slice = std::min<std::int64_t>(w.n_out, wk.w_f16_elems / w.n_in);
    if (rows_per_slice < 1) return make_error("matmul: weight scratch smaller than one row");
    for (std::int64_t r0 = 0; r0 < w.n_out; r0 += rows_per_slice) {
        const std::int64_t rows = std::min(rows_per_slice, w.n_out - r0);
        if (auto st = launch_dequant_f16(w, r0, rows, wk.w_f16, s); !st) return st;
        if (auto st = gemm_f16(wk.cublas, wk.w_f16, rows, wk.x_f16, n, w.n_in, y + r0, w.n_out); !st) return st;
    }
    return {};
}

}  // namespace

status matmul_group(const dev_matrix* const* ws, float* const* ys, int count, const float* x, int n,
                    const matmul_workspace& wk, cudaStream_t s) {
    if (count == 0 || n == 0) return {};
    const std::int64_t n_in = ws[0]->n_in;
    for (int i = 0; i < count; ++i)
        if (ws[i]->n_in != n_in) return make_error("matmul_group: matrices of different input widths");

    if (n <= mv_max_tokens) {
        bool need_q8 = false;
        for (int i = 0; i < count; ++i) need_q8 = need_q8 || matvec_takes_q8_1(ws[i]->type);
        if (need_q8)
            if (auto st = launch_quantize_q8_1(x, n_in, n, wk.xq, s); !st) return st;
        for (int i = 0; i < count; ++i)
            if (auto st = launch_matvec(*ws[i], x, wk.xq, n, ys[i], s); !st) return st;
        return {};
    }
    // Activations for q4_0 / q4_1 / q8_0 weights go through the same 8-bit
    // blocks as in decode and on the CPU; other types take x as it is.
    int converted = -1;   // format now in x_f16: 1 = 8-bit blocks, 0 = plain, -1 = none
    for (int i = 0; i < count; ++i) {
        const int want = matvec_takes_q8_1(ws[i]->type) ? 1 : 0;
        if (want != converted) {
            const status st = want ? launch_f32_to_f16_q8(x, n_in, n, wk.x_f16, s) : launch_f32_to_f16(x, n_in * n, wk.x_f16, s);
            if (!st) return st;
            converted = want;
        }
        if (auto st = matmul_gemm(*ws[i], n, ys[i], wk, s); !st)
            return make_error(fmt::format("{} ({} x {} {} weights, {} tokens)", st.message(), ws[i]->n_out, ws[i]->n_in,
                                          type_name(ws[i]->type), n));
    }
    return {};
}

}  // namespace kvlens
