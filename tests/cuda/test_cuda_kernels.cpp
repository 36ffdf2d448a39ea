// SPDX-License-Identifier: Apache-2.0
// The CUDA kernel lab's test: every device kernel against its CPU reference
// (the CPU backend's own functions) on random inputs, compared by relative
// error: max |gpu - cpu| / max |cpu|. Plain C++ (the GPU machine has no Qt).
// Without a CUDA device it prints "SKIP: no CUDA device (reason)" and exits 0.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "engine/backend/cpu/attention.h"
#include "common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/ops.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/backend/cuda/attention.h"
#include "engine/backend/cuda/convert.h"
#include "engine/backend/cuda/cuda_device.h"
#include "engine/backend/cuda/dequant.h"
#include "engine/backend/cuda/matmul.h"
#include "engine/backend/cuda/matvec.h"
#include "engine/backend/cuda/norm_rope.h"
#include "engine/backend/cuda/paged_kv.h"
#include "engine/kv/kv_codec.h"
#include "engine/kv/kv_storage.h"

namespace {

using namespace kvlens;

int g_failures = 0;
int g_checks = 0;
std::mt19937 g_rng(1234);

// ---- helpers ----------------------------------------------------------------------------

void check(const std::string& name, double rel, double tol) {
    ++g_checks;
    const bool ok = std::isfinite(rel) && rel <= tol;
    if (!ok) ++g_failures;
    std::printf("%-4s %-48s rel %.3e (tolerance %.1e)\n", ok ? "ok" : "FAIL", name.c_str(), rel, tol);
}

void check_status(const std::string& name, const status& s) {
    if (s) return;
    ++g_checks;
    ++g_failures;
    std::printf("FAIL %-48s %s\n", name.c_str(), s.message().c_str());
}

// max |a - b| / max |b|; b is the reference and must not be all zeros.
double rel_error(const std::vector<float>& a, const std::vector<float>& b) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        num = std::max(num, std::fabs(static_cast<double>(a[i]) - b[i]));
        den = std::max(den, std::fabs(static_cast<double>(b[i])));
    }
    if (den == 0) return INFINITY;   // a zero reference proves nothing
    return num / den;
}

std::vector<float> random_floats(std::size_t n, float lo = -1.0f, float hi = 1.0f) {
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) x = u(g_rng);
    return v;
}

// Device copy of a host vector, freed at scope exit.
struct dev_mem {
    void* p = nullptr;
    explicit dev_mem(std::size_t bytes) { cudaMalloc(&p, std::max<std::size_t>(bytes, 1)); }
    template <class T> dev_mem(const std::vector<T>& v) : dev_mem(v.size() * sizeof(T)) {
        cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
    }
    ~dev_mem() { cudaFree(p); }
    dev_mem(const dev_mem&) = delete;
    template <class T> T* as() const { return static_cast<T*>(p); }
    template <class T> std::vector<T> read(std::size_t n) const {
        std::vector<T> v(n);
        cudaDeviceSynchronize();
        cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
        return v;
    }
};

// Random weight bytes of a type: random quants, with every f16 scale set to a
// sane random value (random bits could be inf or nan).
std::vector<std::uint8_t> random_weights(ggml_type t, std::int64_t n_in, std::int64_t n_out) {
    const std::int64_t rb = row_bytes(t, n_in);
    std::vector<std::uint8_t> w(static_cast<std::size_t>(rb * n_out));
    if (t == ggml_type::f32 || t == ggml_type::f16 || t == ggml_type::bf16) {
        const std::vector<float> f = random_floats(static_cast<std::size_t>(n_in * n_out));
        from_float_for(t)(f.data(), w.data(), n_in * n_out);
        return w;
    }
    std::uniform_int_distribution<int> byte(0, 255);
    for (auto& b : w) b = static_cast<std::uint8_t>(byte(g_rng));
    std::uniform_real_distribution<float> scale(0.002f, 0.02f);
    const type_traits& tr = traits_of(t);
    auto put = [](std::uint8_t* p, float v) { const std::uint16_t h = fp32_to_fp16(v); std::memcpy(p, &h, 2); };
    for (std::size_t off = 0; off < w.size(); off += static_cast<std::size_t>(tr.type_size)) {
        std::uint8_t* blk = w.data() + off;
        switch (t) {
        case ggml_type::q4_0: case ggml_type::q8_0: put(blk, scale(g_rng)); break;
        case ggml_type::q4_1: put(blk, scale(g_rng)); put(blk + 2, -8 * scale(g_rng)); break;
        case ggml_type::q4_K: case ggml_type::q5_K: put(blk, scale(g_rng) / 16); put(blk + 2, scale(g_rng) / 16); break;
        case ggml_type::q6_K: put(blk + 208, scale(g_rng) / 16); break;
        case ggml_type::q5_0: case ggml_type::iq4_nl: put(blk, scale(g_rng) / 4); break;
        case ggml_type::q5_1: put(blk, scale(g_rng)); put(blk + 2, -16 * scale(g_rng)); break;
        case ggml_type::q2_K: put(blk + 80, scale(g_rng) / 4); put(blk + 82, scale(g_rng) / 4); break;
        case ggml_type::q3_K: put(blk + 108, scale(g_rng) / 16); break;
        case ggml_type::iq4_xs: put(blk, scale(g_rng) / 64); break;
        default: break;
        }
    }
    return w;
}

std::vector<float> dequant_cpu(ggml_type t, const std::vector<std::uint8_t>& w, std::int64_t n_in, std::int64_t n_out) {
    std::vector<float> f(static_cast<std::size_t>(n_in * n_out));
    const std::int64_t rb = row_bytes(t, n_in);
    for (std::int64_t r = 0; r < n_out; ++r) to_float_for(t)(w.data() + r * rb, f.data() + r * n_in, n_in);
    return f;
}

const ggml_type k_types[] = {ggml_type::f32,  ggml_type::f16,  ggml_type::bf16, ggml_type::q4_0,  ggml_type::q4_1,
                             ggml_type::q8_0, ggml_type::q4_K, ggml_type::q5_K, ggml_type::q6_K,  ggml_type::q5_0,
                             ggml_type::q5_1, ggml_type::q2_K, ggml_type::q3_K, ggml_type::iq4_nl, ggml_type::iq4_xs};

// ---- weights: dequantization, embedding rows, matvec, GEMM ---------------------------------

void test_weights(cublasHandle_t cublas) {
    const std::int64_t n_in = 512, n_out = 96;
    for (ggml_type t : k_types) {
        const std::string tn = type_name(t);
        const auto w = random_weights(t, n_in, n_out);
        const auto ref = dequant_cpu(t, w, n_in, n_out);
        dev_mem dw(w);
        dev_matrix m{t, n_in, n_out, row_bytes(t, n_in), dw.as<std::uint8_t>()};

        // dequant to f16 (rows 8..72 only, to test the row offset)
        dev_mem dh(static_cast<std::size_t>(64 * n_in) * 2);
        check_status("dequant_f16 " + tn, launch_dequant_f16(m, 8, 64, dh.as<std::uint16_t>(), nullptr));
        const auto h = dh.read<std::uint16_t>(static_cast<std::size_t>(64 * n_in));
        std::vector<float> got(h.size()), want(ref.begin() + 8 * n_in, ref.begin() + 72 * n_in);
        for (std::size_t i = 0; i < h.size(); ++i) got[i] = fp16_to_fp32(h[i]);
        check("dequant_f16 " + tn, rel_error(got, want), 1e-3);

        // embedding rows
        const std::vector<std::int32_t> ids = {5, 0, 95, 5, 42};
        dev_mem did(ids);
        dev_mem dr(ids.size() * n_in * 4);
        check_status("get_rows " + tn, launch_get_rows(m, did.as<std::int32_t>(), 5, dr.as<float>(), nullptr));
        std::vector<float> rows_ref;
        for (int id : ids) rows_ref.insert(rows_ref.end(), ref.begin() + id * n_in, ref.begin() + (id + 1) * n_in);
        check("get_rows " + tn, rel_error(dr.read<float>(rows_ref.size()), rows_ref), 1e-6);

        // products: matvec for 1, 3, 8 tokens; dequantize + cuBLAS for 9 and 40
        matmul_workspace wk;
        dev_mem dxq(static_cast<std::size_t>(mv_max_tokens) * n_in / 32 * sizeof(block_q8_1_dev));
        dev_mem dxh(static_cast<std::size_t>(40 * n_in) * 2);
        dev_mem dwh(static_cast<std::size_t>(40 * n_in) * 2);   // smaller than the matrix: slices
        wk.cublas = cublas;
        wk.xq = dxq.as<block_q8_1_dev>();
        wk.x_f16 = dxh.as<std::uint16_t>();
        wk.w_f16 = dwh.as<std::uint16_t>();
        wk.w_f16_elems = 40 * n_in;
        for (int n : {1, 3, 8, 9, 40}) {
            const auto x = random_floats(static_cast<std::size_t>(n * n_in));
            std::vector<float> yref(static_cast<std::size_t>(n * n_out));
            for (int j = 0; j < n; ++j)
                for (std::int64_t r = 0; r < n_out; ++r) {
                    double s = 0;
                    for (std::int64_t i = 0; i < n_in; ++i) s += static_cast<double>(ref[r * n_in + i]) * x[j * n_in + i];
                    yref[j * n_out + r] = static_cast<float>(s);
                }
            dev_mem dx(x), dy(yref.size() * 4);
            const std::string name = fmt::format("{} {} n={}", n <= mv_max_tokens ? "matvec" : "gemm", tn, n);
            check_status(name, matmul(m, dx.as<float>(), n, dy.as<float>(), wk, nullptr));
            // 8-bit activations (q4/q8 matvec) and f16 GEMM inputs round; f32 paths do not.
            const bool exact = n <= mv_max_tokens && !matvec_takes_q8_1(t);
            check(name, rel_error(dy.read<float>(yref.size()), yref), exact ? 1e-4 : 2e-2);
        }
    }
}

// ---- row and element-wise operations -----------------------------------------------------

void test_ops() {
    const int rows = 7, n = 576;
    {
        const auto x = random_floats(rows * n), w = random_floats(n, 0.5f, 1.5f);
        std::vector<float> ref(x.size());
        for (int r = 0; r < rows; ++r) rms_norm(&x[r * n], w.data(), &ref[r * n], n, 1e-5f);
        dev_mem dx(x), dw(w), dy(x.size() * 4);
        check_status("rms_norm", launch_rms_norm(dx.as<float>(), nullptr, dw.as<float>(), dy.as<float>(), rows, n, 1e-5f, nullptr));
        check("rms_norm", rel_error(dy.read<float>(ref.size()), ref), 1e-5);
        // gathered rows (the final norm of the logit rows)
        const std::vector<std::int32_t> pick = {6, 2};
        dev_mem dp(pick), dz(2 * n * 4);
        std::vector<float> ref2(ref.begin() + 6 * n, ref.begin() + 7 * n);
        ref2.insert(ref2.end(), ref.begin() + 2 * n, ref.begin() + 3 * n);
        check_status("rms_norm rows", launch_rms_norm(dx.as<float>(), dp.as<std::int32_t>(), dw.as<float>(), dz.as<float>(), 2, n, 1e-5f, nullptr));
        check("rms_norm gathered rows", rel_error(dz.read<float>(ref2.size()), ref2), 1e-5);
    }
    for (bool neox : {false, true}) {
        const int n_tokens = 5, n_head = 6, n_head_kv = 2, hd = 64;
        auto q = random_floats(n_tokens * n_head * hd), k = random_floats(n_tokens * n_head_kv * hd);
        const std::vector<std::int32_t> pos = {0, 1, 17, 300, 1999};
        dev_mem dq(q), dk(k), dpos(pos);
        for (int t = 0; t < n_tokens; ++t) {
            rope(&q[t * n_head * hd], n_head, hd, hd, pos[t], 10000.0f, 1.0f, neox);
            rope(&k[t * n_head_kv * hd], n_head_kv, hd, hd, pos[t], 10000.0f, 1.0f, neox);
        }
        rope_params p;
        p.q = dq.as<float>();
        p.k = dk.as<float>();
        p.positions = dpos.as<std::int32_t>();
        p.n_tokens = n_tokens;
        p.n_head = n_head;
        p.n_head_kv = n_head_kv;
        p.head_dim = hd;
        p.n_rot = hd;
        p.neox = neox;
        check_status("rope", launch_rope(p, nullptr));
        // The CPU steps theta by repeated products; the device computes each
        // directly: at position ~2000 they part by ~1e-4.
        check(neox ? "rope q (neox)" : "rope q", rel_error(dq.read<float>(q.size()), q), 1e-3);
        check(neox ? "rope k (neox)" : "rope k", rel_error(dk.read<float>(k.size()), k), 1e-3);
    }
    {
        const std::size_t n_el = 10000;
        const auto g = random_floats(n_el, -4, 4), u = random_floats(n_el);
        std::vector<float> ref(n_el);
        silu_mul(g.data(), u.data(), ref.data(), static_cast<std::int64_t>(n_el));
        dev_mem dg(g), du(u), dy(n_el * 4);
        check_status("silu_mul", launch_silu_mul(dg.as<float>(), du.as<float>(), dy.as<float>(), n_el, nullptr));
        check("silu_mul", rel_error(dy.read<float>(n_el), ref), 1e-5);
        // gemma3's GeGLU: gelu_tanh(g) * u in double, the tanh form itself.
        std::vector<float> geglu(n_el);
        for (std::size_t i = 0; i < n_el; ++i) {
            const double x = g[i];
            geglu[i] = static_cast<float>(0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))) * u[i]);
        }
        dev_mem dgy(n_el * 4);
        check_status("gelu_tanh_mul", launch_gelu_tanh_mul(dg.as<float>(), du.as<float>(), dgy.as<float>(), n_el, nullptr));
        check("gelu_tanh_mul", rel_error(dgy.read<float>(n_el), geglu), 1e-5);
        std::vector<float> scaled(n_el), capped(n_el);
        for (std::size_t i = 0; i < n_el; ++i) {
            scaled[i] = g[i] * 16.0f;
            capped[i] = static_cast<float>(3.0 * std::tanh(static_cast<double>(scaled[i]) / 3.0));
        }
        dev_mem ds(g);
        check_status("scale", launch_scale(ds.as<float>(), 16.0f, n_el, nullptr));
        check("scale", rel_error(ds.read<float>(n_el), scaled), 1e-7);
        check_status("soft_cap", launch_soft_cap(ds.as<float>(), 3.0f, n_el, nullptr));
        check("soft_cap", rel_error(ds.read<float>(n_el), capped), 1e-5);
        std::vector<float> sum = g;
        add_inplace(sum.data(), u.data(), static_cast<std::int64_t>(n_el));
        check_status("add", launch_add(dg.as<float>(), du.as<float>(), n_el, nullptr));
        check("add", rel_error(dg.read<float>(n_el), sum), 1e-6);
        const int n_rows = 10, width = 1000;
        const auto b = random_floats(width);
        std::vector<float> biased = u;
        for (int r = 0; r < n_rows; ++r) add_inplace(&biased[r * width], b.data(), width);
        dev_mem db(b);
        check_status("add_bias", launch_add_bias(du.as<float>(), db.as<float>(), n_rows, width, nullptr));
        check("add_bias", rel_error(du.read<float>(n_el), biased), 1e-6);
    }
    {
        const int n = 3, n_in = 256;
        const auto x = random_floats(n * n_in, -3, 3);
        dev_mem dx(x), dq(static_cast<std::size_t>(n * n_in / 32) * sizeof(block_q8_1_dev));
        check_status("quantize_q8_1", launch_quantize_q8_1(dx.as<float>(), n_in, n, dq.as<block_q8_1_dev>(), nullptr));
        const auto blocks = dq.read<block_q8_1_dev>(static_cast<std::size_t>(n * n_in / 32));
        std::vector<float> back(x.size());
        double sum_err = 0, s_err = 0, d_err = 0;
        for (std::size_t b = 0; b < blocks.size(); ++b) {
            int s = 0;
            float amax = 0;
            for (int j = 0; j < 32; ++j) {
                back[b * 32 + j] = blocks[b].d * blocks[b].qs[j];
                s += blocks[b].qs[j];
                amax = std::max(amax, std::fabs(x[b * 32 + j]));
            }
            // The CPU's q8_1 numbers: d and s rounded to f16 from the f32 scale.
            sum_err = std::max(sum_err, std::fabs(static_cast<double>(s) - blocks[b].sum));
            d_err = std::max(d_err, std::fabs(static_cast<double>(round_to_fp16(amax / 127.0f)) - blocks[b].d));
            s_err = std::max(s_err, std::fabs(static_cast<double>(round_to_fp16(amax / 127.0f * static_cast<float>(s))) - blocks[b].s));
        }
        check("quantize_q8_1 values", rel_error(back, x), 1.0 / 200);   // at most d/2 = max|x| / 254
        check("quantize_q8_1 integer sums (absolute)", sum_err, 0.0);
        check("quantize_q8_1 d as the CPU's (absolute)", d_err, 0.0);
        check("quantize_q8_1 s as the CPU's (absolute)", s_err, 0.0);
    }
    {
        // The prefill GEMM's 8-bit activations: the CPU's q8_0 blocks decoded, in f16.
        const int n = 5, n_in = 320;
        const auto x = random_floats(n * n_in, -2, 2);
        std::vector<std::uint8_t> blocks(static_cast<std::size_t>(row_bytes(ggml_type::q8_0, n * n_in)));
        from_float_for(ggml_type::q8_0)(x.data(), blocks.data(), n * n_in);
        std::vector<float> ref(x.size());
        to_float_for(ggml_type::q8_0)(blocks.data(), ref.data(), n * n_in);
        for (float& v : ref) v = round_to_fp16(v);
        dev_mem dx(x), dy(x.size() * 2);
        check_status("f32_to_f16_q8", launch_f32_to_f16_q8(dx.as<float>(), n_in, n, dy.as<std::uint16_t>(), nullptr));
        const auto h = dy.read<std::uint16_t>(x.size());
        std::vector<float> got(h.size());
        for (std::size_t i = 0; i < h.size(); ++i) got[i] = fp16_to_fp32(h[i]);
        check("f32_to_f16_q8 (the CPU's q8_0 values)", rel_error(got, ref), 0.0);
    }
}

// ---- KV store and paged attention ----------------------------------------------------------

// Two sequences in one pool with ragged block tables: A holds 331 tokens in a
// shuffle of 21 blocks, B 40 tokens in 3 others; the device table rows are
// padded to the longest. Random K/V (never zeros), stored by the CPU and
// copied to the device so every kernel meets the CPU's bytes.
struct attention_pool {
    int n_head, n_kv, hd;
    kv_dtype dtype;
    static constexpr int bs = 16, n_blocks = 24, len_a = 331, len_b = 40;
    std::vector<std::int32_t> table_a, table_b, tables_dev;   // tables_dev: (2, n_blocks) rows A, B
    std::optional<kv_storage> host;
    std::unique_ptr<dev_mem> dk, dv, dtab;
    paged_kv_view kv;   // tok_row / positions are the batch's
};

bool make_pool(attention_pool& P, bool test_store) {
    std::vector<std::int32_t> ids(P.n_blocks);
    std::iota(ids.begin(), ids.end(), 0);
    std::shuffle(ids.begin(), ids.end(), g_rng);
    P.table_a.assign(ids.begin(), ids.begin() + 21);
    P.table_b.assign(ids.begin() + 21, ids.end());
    P.tables_dev.assign(2 * P.n_blocks, 0);
    std::copy(P.table_a.begin(), P.table_a.end(), P.tables_dev.begin());
    std::copy(P.table_b.begin(), P.table_b.end(), P.tables_dev.begin() + P.n_blocks);
    kv_geometry g;
    g.n_layer = 1;
    g.n_kv_heads = P.n_kv;
    g.head_dim = P.hd;
    g.dtype = P.dtype;
    g.block_size = P.bs;
    auto host = kv_storage::create(g, P.n_blocks);
    if (!host) { check_status("kv_storage", host.err()); return false; }
    P.host.emplace(std::move(*host));
    const int row = P.n_kv * P.hd;
    const std::size_t layer = static_cast<std::size_t>(P.host->layer_bytes());
    P.dk = std::make_unique<dev_mem>(layer);
    P.dv = std::make_unique<dev_mem>(layer);
    P.dtab = std::make_unique<dev_mem>(P.tables_dev);
    P.kv.dtype = P.dtype;
    P.kv.k = P.dk->as<std::uint8_t>();
    P.kv.v = P.dv->as<std::uint8_t>();
    P.kv.row_bytes = P.host->row_bytes();
    P.kv.block_size = P.bs;
    P.kv.n_kv_heads = P.n_kv;
    P.kv.head_dim = P.hd;
    P.kv.tables = P.dtab->as<std::int32_t>();
    P.kv.table_stride = P.n_blocks;
    const std::string dt = to_string(P.dtype);
    for (int sq = 0; sq < 2; ++sq) {
        const int n = sq == 0 ? P.len_a : P.len_b;
        const auto kh = random_floats(static_cast<std::size_t>(n) * row), vh = random_floats(static_cast<std::size_t>(n) * row);
        std::vector<std::int32_t> pos(n), rows(n, sq);
        std::iota(pos.begin(), pos.end(), 0);
        const std::int32_t* tab = sq == 0 ? P.table_a.data() : P.table_b.data();
        std::vector<const std::int32_t*> tables_h(n, tab);
        store_kv(*P.host, P.dtype, 0, kh.data(), vh.data(), n, row, tables_h.data(), pos.data());
        if (!test_store || sq != 0) continue;
        // The device's store of A: its bytes decode as the CPU's (q8_0 may differ in a rounding tie).
        dev_mem dk(kh), dv(vh), dpos(pos), drow(rows);
        paged_kv_view kv = P.kv;
        kv.positions = dpos.as<std::int32_t>();
        kv.tok_row = drow.as<std::int32_t>();
        check_status("kv_store " + dt, launch_kv_store(kv, dk.as<float>(), dv.as<float>(), n, nullptr));
        const auto kbytes = P.dk->read<std::uint8_t>(layer);
        std::vector<float> got(static_cast<std::size_t>(n) * row), want(got.size());
        for (int q = 0; q < n; ++q) {
            const std::int64_t off = (static_cast<std::int64_t>(tab[q / P.bs]) * P.bs + q % P.bs) * P.host->row_bytes();
            load_row(P.dtype, kbytes.data() + off, &got[static_cast<std::size_t>(q) * row], row);
            load_row(P.dtype, P.host->k_row(0, tab[q / P.bs], q % P.bs), &want[static_cast<std::size_t>(q) * row], row);
        }
        check("kv_store " + dt + " (K rows, decoded)", rel_error(got, want), P.dtype == kv_dtype::f16 ? 0.0 : 1e-2);
    }
    cudaMemcpy(P.dk->p, P.host->k_layer(0), layer, cudaMemcpyHostToDevice);
    cudaMemcpy(P.dv->p, P.host->v_layer(0), layer, cudaMemcpyHostToDevice);
    return true;
}

// A batch: (sequence 0 = A / 1 = B, position) per token.
using attention_batch = std::vector<std::pair<int, int>>;

std::vector<float> cpu_attention(const attention_pool& P, const attention_batch& b, const std::vector<float>& q, int window) {
    const int n = static_cast<int>(b.size());
    std::vector<float> ref(q.size());
    std::vector<const std::int32_t*> tables(n);
    std::vector<std::int32_t> pos(n);
    for (int t = 0; t < n; ++t) {
        tables[t] = b[t].first == 0 ? P.table_a.data() : P.table_b.data();
        pos[t] = b[t].second;
    }
    thread_pool pool(1);
    attention_scratch scratch;
    scratch.reserve(1, P.n_head / P.n_kv, P.n_blocks * P.bs, P.hd);
    attention_args a;
    a.q = q.data();
    a.out = ref.data();
    a.n_tokens = n;
    a.n_head = P.n_head;
    a.n_head_kv = P.n_kv;
    a.head_dim = P.hd;
    a.layer = 0;
    a.window = window;
    a.scale = 1.0f / std::sqrt(static_cast<float>(P.hd));
    a.dtype = P.dtype;
    a.kv = &*P.host;
    a.block_tables = tables.data();
    a.positions = pos.data();
    attention(a, pool, scratch);
    return ref;
}

enum class attention_path { split_k, flash, dispatch };

// One launch of a path over a batch, compared with the CPU. n_splits > 1 with
// split_len 0: the device's adaptive split length.
void check_attention(const attention_pool& P, const std::string& label, const attention_batch& b, int window,
                     attention_path path, int n_splits, int split_len) {
    const int n = static_cast<int>(b.size());
    const auto q = random_floats(static_cast<std::size_t>(n) * P.n_head * P.hd, -2, 2);
    const auto ref = cpu_attention(P, b, q, window);
    std::vector<std::int32_t> pos(n), rows(n);
    for (int t = 0; t < n; ++t) {
        rows[t] = b[t].first;
        pos[t] = b[t].second;
    }
    dev_mem dq(q), dout(q.size() * 4), dpos(pos), drow(rows);
    dev_mem dpa(static_cast<std::size_t>(n) * P.n_head * n_splits * P.hd * 4);
    dev_mem dpm(static_cast<std::size_t>(n) * P.n_head * n_splits * 2 * 4);
    attention_params p;
    p.q = dq.as<float>();
    p.out = dout.as<float>();
    p.n_tokens = n;
    p.n_head = P.n_head;
    p.window = window;
    p.scale = 1.0f / std::sqrt(static_cast<float>(P.hd));
    p.kv = P.kv;
    p.kv.positions = dpos.as<std::int32_t>();
    p.kv.tok_row = drow.as<std::int32_t>();
    p.n_splits = n_splits;
    p.split_len = split_len;
    p.part_acc = dpa.as<float>();
    p.part_ml = dpm.as<float>();
    const char* pn = path == attention_path::split_k ? "split-K" : path == attention_path::flash ? "flash" : "dispatched";
    const std::string name = fmt::format("attention {} {} {} hd {} gqa {} window {} splits {}{}", pn, label,
                                         to_string(P.dtype), P.hd, P.n_head / P.n_kv, window, n_splits,
                                         n_splits > 1 && split_len == 0 ? " (adaptive)" : "");
    const status st = path == attention_path::split_k ? launch_split_k_attention(p, nullptr)
                      : path == attention_path::flash ? launch_flash_attention(p, nullptr)
                                                      : launch_attention(p, nullptr);
    check_status(name, st);
    // Both backends round probabilities to f16, at different points (the CPU
    // after normalizing, the kernels before); flash also meets a q8_0 cache
    // with f16 queries and f16 d*q keys where the CPU keeps f32.
    check(name, rel_error(dout.read<float>(ref.size()), ref), 5e-3);
}

void test_attention(int n_head, int n_kv, int hd, kv_dtype dtype) {
    attention_pool P{n_head, n_kv, hd, dtype};
    if (!make_pool(P, hd == 64)) return;
    // Decode-like: tokens of A at block and window edges and at the end, one of B.
    const attention_batch decode = {{0, 0}, {0, 5}, {0, 63}, {0, 64}, {0, 200}, {0, 330}, {1, 39}};
    // Prefill-like: a chunk of A (291..330), a chunk of B (24..39), one more A
    // token: row blocks of 64 straddle the two sequences.
    attention_batch prefill;
    for (int q = 291; q <= 330; ++q) prefill.push_back({0, q});
    for (int q = 24; q <= 39; ++q) prefill.push_back({1, q});
    prefill.push_back({0, 7});
    for (int window : {0, 100}) {
        check_attention(P, "decode", decode, window, attention_path::split_k, 1, 0);
        check_attention(P, "decode", decode, window, attention_path::split_k, 5, 128);
        check_attention(P, "decode", decode, window, attention_path::split_k, 3, 0);
        check_attention(P, "decode", decode, window, attention_path::flash, 1, 0);
        check_attention(P, "prefill", prefill, window, attention_path::flash, 1, 0);
        check_attention(P, "prefill", prefill, window, attention_path::dispatch, 1, 0);
    }
}

// The dispatcher's choices, and the split counts it gives decode.
void test_attention_dispatch() {
    ++g_checks;
    const bool ok = choose_attention_kernel(1, 32, 8, 128) == attention_kernel::split_k &&
                    choose_attention_kernel(8, 32, 8, 128) == attention_kernel::split_k &&
                    choose_attention_kernel(8, 64, 8, 128) == attention_kernel::split_k &&
                    choose_attention_kernel(16, 32, 8, 128) == attention_kernel::flash &&
                    choose_attention_kernel(32, 4, 4, 64) == attention_kernel::split_k &&
                    choose_attention_kernel(512, 9, 3, 64) == attention_kernel::flash &&
                    choose_attention_kernel(512, 8, 8, 80) == attention_kernel::split_k &&
                    decode_attention_splits(132, 8, 1, 8192) == 33 &&
                    decode_attention_splits(132, 8, 8, 8192) == 5 &&
                    decode_attention_splits(132, 8, 1, 100) == 2 &&
                    decode_attention_splits(4, 32, 8, 8192) == 1;
    if (!ok) ++g_failures;
    std::printf("%-4s %s\n", ok ? "ok" : "FAIL", "attention dispatcher: flash from 16 tokens and 64 query rows, splits fill 2x the SMs");
}

}  // namespace

int main() {
    std::string why;
    const auto dev = cuda_probe_device(why);
    if (!dev) {
        std::printf("SKIP: no CUDA device (%s)\n", why.c_str());
        return 0;
    }
    std::printf("device: %s\n", dev->c_str());
    cublasHandle_t cublas = nullptr;
    if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS) {
        std::printf("FAIL cublasCreate\n");
        return 1;
    }
    test_weights(cublas);
    test_ops();
    test_attention_dispatch();
    for (kv_dtype d : {kv_dtype::f16, kv_dtype::q8_0}) {
        test_attention(8, 2, 64, d);    // GQA group 4
        test_attention(4, 4, 128, d);   // no GQA, a wider head
    }
    cublasDestroy(cublas);
    if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
        std::printf("FAIL device error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    std::printf("%d of %d checks passed\n", g_checks - g_failures, g_checks);
    return g_failures == 0 ? 0 : 1;
}
