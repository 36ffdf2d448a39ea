// SPDX-License-Identifier: Apache-2.0
// AMX-INT8 prefill products (Sapphire Rapids and later): one tile instruction
// multiplies 16 weight rows by 16 tokens over one 32-element block, giving the
// block's exact int32 dot products, which AVX-512 then scales by the weight
// and activation block scales and accumulates in f32 -- the same arithmetic
// as the vec_dot kernels, block by block.
//
// Layouts (per matmul, in the caller's scratch):
//   acts:  (n_groups, nb, 8, 16) int32: token group g's block b as the AMX "B"
//          operand: row k holds dword k (bytes 4k..4k+3) of each of 16 tokens
//   ad, as, asum: (n_groups, nb, 16) f32 / f32 / int32: per token of the group,
//          block scale d, block sum s (q8_1), sum of the quants (offset types)
// Per thread: 16 weight rows unpacked to bytes (16, n_in) u8 (the "A" operand,
// weights made unsigned as in quant_simd.h), their scales and minimums
// (nb, 16) f32, and two 16 x 16 int32 result tiles.
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "common/fp16.h"
#include "engine/backend/cpu/matmul_simd.h"
#include "engine/quant/quant_blocks.h"

namespace kvlens {

namespace {

constexpr int k_arch_req_xcomp_perm = 0x1023;  // arch_prctl: ask for an extended state component
constexpr int k_xfeature_xtiledata = 18;       // the AMX tile data component

constexpr std::int64_t align64(std::int64_t n) { return (n + 63) & ~std::int64_t{63}; }

struct amx_layout {
    std::int64_t nb, n_groups, acts, ad, as, asum, per_thread, threads, total;
    std::int64_t t_w, t_wd, t_wm, t_c;   // offsets inside a thread's area
};

amx_layout amx_layout_for(std::int64_t n_in, std::int64_t n_tokens, int n_threads) {
    amx_layout l;
    l.nb = n_in / 32;
    l.n_groups = (n_tokens + 15) / 16;
    l.acts = 0;
    l.ad = align64(l.n_groups * l.nb * 512);
    l.as = l.ad + align64(l.n_groups * l.nb * 64);
    l.asum = l.as + align64(l.n_groups * l.nb * 64);
    l.threads = l.asum + align64(l.n_groups * l.nb * 64);
    l.t_w = 0;
    l.t_wd = align64(16 * n_in);
    l.t_wm = l.t_wd + align64(l.nb * 64);
    l.t_c = l.t_wm + align64(l.nb * 64);
    l.per_thread = l.t_c + 2 * 1024;
    l.total = l.threads + n_threads * l.per_thread + 64;   // + 64: room to align the base
    return l;
}

struct tile_config {
    std::uint8_t palette = 1;
    std::uint8_t start_row = 0;
    std::uint8_t reserved[14] = {};
    std::uint16_t colsb[16] = {};   // bytes per row of each tile
    std::uint8_t rows[16] = {};
};

// Tiles: 0..3 results (16 x 16 int32, two blocks in flight per pair of
// tiles); 4, 5 weights (16 rows x 32 bytes); 6, 7 activations (8 rows x 64
// bytes: 16 tokens x 4 bytes).
const tile_config& config() {
    static const tile_config c = [] {
        tile_config t;
        for (int i : {0, 1, 2, 3}) { t.rows[i] = 16; t.colsb[i] = 64; }
        for (int i : {4, 5}) { t.rows[i] = 16; t.colsb[i] = 32; }
        for (int i : {6, 7}) { t.rows[i] = 8; t.colsb[i] = 64; }
        return t;
    }();
    return c;
}

inline void compiler_barrier() { asm volatile("" ::: "memory"); }

}  // namespace

bool amx_usable() {
    static const bool ok = [] {
        if (const char* off = std::getenv("KVLENS_NO_AMX"); off && *off && std::strcmp(off, "0") != 0) return false;
#if defined(__clang__) && __clang_major__ < 15
        return false;  // clang 14 (the fuzz build) cannot ask for AMX: the AVX-512 path serves
#else
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("amx-tile") || !__builtin_cpu_supports("amx-int8") ||
            !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
            !__builtin_cpu_supports("avx512vl") || !__builtin_cpu_supports("avx512dq"))
            return false;
        return syscall(SYS_arch_prctl, k_arch_req_xcomp_perm, k_xfeature_xtiledata) == 0;
#endif
    }();
    return ok;
}

std::int64_t amx_scratch_bytes(std::int64_t n_in, std::int64_t n_tokens, int n_threads) {
    return amx_layout_for(n_in, n_tokens, n_threads).total;
}

#pragma GCC push_options
#pragma GCC target("amx-tile,amx-int8,avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace {

inline __m256i nibbles_to_bytes(const std::uint8_t* qs) {
    const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    return _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(q, 4), q), _mm256_set1_epi8(0x0F));
}

// Weight rows r0 .. r0 + nr - 1 as unsigned bytes (16, n_in), rows past nr zero;
// their scales and minimums as (nb, 16) f32.
void unpack_weights(const amx_job& j, std::int64_t r0, int nr, std::uint8_t* wb, float* wd, float* wm) {
    const std::int64_t nb = j.n_in / 32;
    for (int r = 0; r < 16; ++r) {
        std::uint8_t* out = wb + r * j.n_in;
        if (r >= nr) {
            std::memset(out, 0, static_cast<std::size_t>(j.n_in));
            for (std::int64_t b = 0; b < nb; ++b) wd[b * 16 + r] = wm[b * 16 + r] = 0;
            continue;
        }
        const std::uint8_t* row = j.w + (r0 + r) * j.w_stride;
        for (std::int64_t b = 0; b < nb; ++b) {
            __m256i q;
            if (j.type == ggml_type::q4_1) {
                const auto& blk = reinterpret_cast<const block_q4_1*>(row)[b];
                q = nibbles_to_bytes(blk.qs);
                wd[b * 16 + r] = _cvtsh_ss(blk.d);
                wm[b * 16 + r] = _cvtsh_ss(blk.m);
            } else if (j.type == ggml_type::q4_0) {
                const auto& blk = reinterpret_cast<const block_q4_0*>(row)[b];
                q = nibbles_to_bytes(blk.qs);
                wd[b * 16 + r] = _cvtsh_ss(blk.d);
            } else {
                const auto& blk = reinterpret_cast<const block_q8_0*>(row)[b];
                q = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk.qs)), _mm256_set1_epi8(-128));
                wd[b * 16 + r] = _cvtsh_ss(blk.d);
            }
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + b * 32), q);
        }
    }
}

// Scale one block's 16 x 16 int32 tile and add it to acc (16 rows, lanes = tokens).
inline void accumulate(const std::int32_t* c, const float* wd, const float* wm, __m512 ad, __m512 as, __m512 corr,
                       bool has_min, bool has_offset, __m512 acc[16]) {
    for (int r = 0; r < 16; ++r) {
        __m512 v = _mm512_cvtepi32_ps(_mm512_load_si512(c + 16 * r));
        if (has_offset) v = _mm512_sub_ps(v, corr);
        acc[r] = _mm512_fmadd_ps(v, _mm512_mul_ps(_mm512_set1_ps(wd[r]), ad), acc[r]);
        if (has_min) acc[r] = _mm512_fmadd_ps(_mm512_set1_ps(wm[r]), as, acc[r]);
    }
}

}  // namespace

void amx_prepare(const amx_job& j, std::int64_t g0, std::int64_t g1) {
    const amx_layout L = amx_layout_for(j.n_in, j.n_tokens, 1);
    std::uint8_t* base = j.scratch;
    auto* acts = reinterpret_cast<std::uint32_t*>(base + L.acts);
    auto* ad = reinterpret_cast<float*>(base + L.ad);
    auto* as = reinterpret_cast<float*>(base + L.as);
    auto* asum = reinterpret_cast<std::int32_t*>(base + L.asum);
    const bool q81 = j.act_type == ggml_type::q8_1;
    // Padding tokens of the last group: zero quants and scales.
    const std::size_t groups = static_cast<std::size_t>(g1 - g0);
    std::memset(base + L.acts + g0 * L.nb * 512, 0, groups * L.nb * 512);
    std::memset(ad + g0 * L.nb * 16, 0, groups * L.nb * 64);
    std::memset(as + g0 * L.nb * 16, 0, groups * L.nb * 64);
    std::memset(asum + g0 * L.nb * 16, 0, groups * L.nb * 64);
    for (std::int64_t t = g0 * 16; t < std::min(j.n_tokens, g1 * 16); ++t) {
        const std::int64_t g = t / 16, lane = t % 16;
        const std::uint8_t* row = j.act + t * j.act_row;
        for (std::int64_t b = 0; b < L.nb; ++b) {
            const std::int8_t* qs;
            std::uint16_t d, s = 0;
            if (q81) {
                const auto& blk = reinterpret_cast<const block_q8_1*>(row)[b];
                qs = blk.qs; d = blk.d; s = blk.s;
            } else {
                const auto& blk = reinterpret_cast<const block_q8_0*>(row)[b];
                qs = blk.qs; d = blk.d;
            }
            std::uint32_t* dst = acts + ((g * L.nb + b) * 8) * 16 + lane;
            int sum = 0;
            for (int k = 0; k < 8; ++k) {
                std::uint32_t w;
                std::memcpy(&w, qs + 4 * k, 4);
                dst[k * 16] = w;
            }
            for (int i = 0; i < 32; ++i) sum += qs[i];
            const std::int64_t at = (g * L.nb + b) * 16 + lane;
            ad[at] = _cvtsh_ss(d);
            as[at] = q81 ? _cvtsh_ss(s) : 0.0f;
            asum[at] = sum;
        }
    }
}

void amx_rows(const amx_job& j, int ith, std::int64_t tile0, std::int64_t tile1) {
    const amx_layout L = amx_layout_for(j.n_in, j.n_tokens, 1);
    std::uint8_t* base = j.scratch;
    const auto* acts = base + L.acts;
    const auto* ad = reinterpret_cast<const float*>(base + L.ad);
    const auto* as = reinterpret_cast<const float*>(base + L.as);
    const auto* asum = reinterpret_cast<const std::int32_t*>(base + L.asum);
    std::uint8_t* mine = base + L.threads + ith * L.per_thread;
    std::uint8_t* wb = mine + L.t_w;
    float* wd = reinterpret_cast<float*>(mine + L.t_wd);
    float* wm = reinterpret_cast<float*>(mine + L.t_wm);
    auto* c0 = reinterpret_cast<std::int32_t*>(mine + L.t_c);
    auto* c1 = c0 + 256;
    const bool has_min = j.type == ggml_type::q4_1;
    const int offset = j.type == ggml_type::q4_0 ? 8 : j.type == ggml_type::q8_0 ? 128 : 0;
    const __m512 voff = _mm512_set1_ps(static_cast<float>(offset));
    const std::int64_t nb = L.nb;

    compiler_barrier();
    _tile_loadconfig(&config());
    for (std::int64_t tile = tile0; tile < tile1; ++tile) {
        const std::int64_t r0 = tile * 16;
        const int nr = static_cast<int>(std::min<std::int64_t>(16, j.n_out - r0));
        unpack_weights(j, r0, nr, wb, wd, wm);
        compiler_barrier();
        for (std::int64_t g = 0; g < L.n_groups; ++g) {
            __m512 acc[16];
            for (auto& a : acc) a = _mm512_setzero_ps();
            const std::uint8_t* ag = acts + g * nb * 512;
            const std::int64_t sg = g * nb * 16;
            // Blocks in pairs, software-pipelined: while the vector units scale
            // one pair's results, the tile unit multiplies the next pair.
            auto drain = [&](std::int64_t b0) {
                for (int h = 0; h < 2; ++h) {
                    const std::int64_t s = sg + (b0 + h) * 16;
                    const __m512 corr = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_loadu_si512(asum + s)), voff);
                    accumulate(h ? c1 : c0, wd + (b0 + h) * 16, wm + (b0 + h) * 16, _mm512_loadu_ps(ad + s),
                               _mm512_loadu_ps(as + s), corr, has_min, offset != 0, acc);
                }
            };
#define KVLENS_AMX_ISSUE(C0, C1, b0)                       \
    _tile_zero(C0);                                        \
    _tile_zero(C1);                                        \
    _tile_loadd(4, wb + (b0) * 32, j.n_in);                \
    _tile_loadd(6, ag + (b0) * 512, 64);                   \
    _tile_loadd(5, wb + ((b0) + 1) * 32, j.n_in);          \
    _tile_loadd(7, ag + ((b0) + 1) * 512, 64);             \
    _tile_dpbusd(C0, 4, 6);                                \
    _tile_dpbusd(C1, 5, 7)
#define KVLENS_AMX_STORE(C0, C1) \
    _tile_stored(C0, c0, 64);    \
    _tile_stored(C1, c1, 64)
            const std::int64_t n_pairs = nb / 2;
            if (n_pairs > 0) { KVLENS_AMX_ISSUE(0, 1, 0); }
            for (std::int64_t p = 0; p < n_pairs; p += 2) {
                // Pair p is in tiles 0, 1; pair p + 1 goes to tiles 2, 3.
                if (p + 1 < n_pairs) { KVLENS_AMX_ISSUE(2, 3, 2 * (p + 1)); }
                KVLENS_AMX_STORE(0, 1);
                drain(2 * p);
                if (p + 1 >= n_pairs) break;
                if (p + 2 < n_pairs) { KVLENS_AMX_ISSUE(0, 1, 2 * (p + 2)); }
                KVLENS_AMX_STORE(2, 3);
                drain(2 * (p + 1));
            }
#undef KVLENS_AMX_ISSUE
#undef KVLENS_AMX_STORE
            if (nb % 2 != 0) {
                const std::int64_t b = nb - 1;
                _tile_zero(0);
                _tile_loadd(4, wb + b * 32, j.n_in);
                _tile_loadd(6, ag + b * 512, 64);
                _tile_dpbusd(0, 4, 6);
                _tile_stored(0, c0, 64);
                const std::int64_t s = sg + b * 16;
                const __m512 corr = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_loadu_si512(asum + s)), voff);
                accumulate(c0, wd + b * 16, wm + b * 16, _mm512_loadu_ps(ad + s), _mm512_loadu_ps(as + s), corr,
                           has_min, offset != 0, acc);
            }
            // acc[r] lane t is y[g * 16 + t][r0 + r]: transpose through L1, one store per token.
            alignas(64) float out[16][16];
            for (int r = 0; r < 16; ++r) _mm512_store_ps(out[r], acc[r]);
            const __m512i column = _mm512_setr_epi32(0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240);
            const __mmask16 rows = static_cast<__mmask16>((1u << nr) - 1);
            const int nt = static_cast<int>(std::min<std::int64_t>(16, j.n_tokens - g * 16));
            for (int t = 0; t < nt; ++t)
                _mm512_mask_storeu_ps(j.y + (g * 16 + t) * j.ldy + r0, rows, _mm512_i32gather_ps(column, &out[0][t], 4));
        }
    }
    _tile_release();
}

#pragma GCC diagnostic pop
#pragma GCC pop_options

}  // namespace kvlens
