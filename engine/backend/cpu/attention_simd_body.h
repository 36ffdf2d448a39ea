// SPDX-License-Identifier: Apache-2.0
// The body of attention_simd.cpp's tile-streaming attention job, written once
// against a vector type V (width, loads, f16 and int8 conversions, exp).
// attention_simd.cpp includes this file twice, inside a namespace per
// instruction set and under that set's target pragma. No include guard on purpose.

constexpr int KT = k_flash_tile_keys;

// Prefetches the cache lines of [p, p + n) into L2, two per step (the
// second may be the line just past the range: a prefetch never faults, and
// in a cache block that line is the next row's). Always inlined, like
// tile_walk::prefetch_next: GCC 12 at -O2 finds a function whose only effect
// is prefetching "const" and deletes the calls (every prefetch of this file
// vanished when they sat in a function of their own).
[[gnu::always_inline]] inline void prefetch_bytes(const std::uint8_t* p, std::int64_t n) {
    const auto begin = reinterpret_cast<std::uintptr_t>(p) & ~static_cast<std::uintptr_t>(63);
    const auto end = reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(n);
    for (std::uintptr_t at = begin; at < end; at += 128) {
        _mm_prefetch(reinterpret_cast<const char*>(at), _MM_HINT_T1);
        _mm_prefetch(reinterpret_cast<const char*>(at + 64), _MM_HINT_T1);
    }
}

// A job's key range walked in tiles of KT keys: enter(j0) gives the tile's
// key count and its rows' byte offsets (offs_now), and finds the next
// tile's; prefetch_next(k0, k1) prefetches that tile's K/V bytes of the job's heads
// (whole rows when the job has every head) for its keys k0..k1-1, since the
// block table hides them from the hardware prefetcher. The callers spread
// those calls over the tile's work: prefetching a whole tile (24 KiB at
// SmolLM2's geometry) at once holds the core on full miss buffers while the
// work waits behind it (decode at d4096, Zen 5: 26-28 against 16 ns per
// (key, KV head) with shuffled blocks, 18-19 against 13-15 with contiguous).
// visible() says whether any of the job's tokens sees a key of the tile.
struct tile_walk {
    const flash_job& a;
    std::int64_t offs_now[KT];    // this tile's rows' byte offsets in a layer array (row index * row_bytes);
                                  // past the tile's keys the last key's, so 4-key steps read real rows (masked later)
    std::int64_t offs_next[KT];   // the next tile's
    int nk_next = 0;              // the next tile's keys (0: none; past key_end: up to prefetch_end, only prefetched)
    // What prefetch_next reads: the job's heads in row 0 of the K and V arrays, and their bytes.
    const std::uint8_t* const k_heads = a.k_layer + a.head_offset;
    const std::uint8_t* const v_heads = a.v_layer + a.head_offset;
    const std::int64_t job_bytes = a.n_heads * a.head_bytes;

    explicit tile_walk(const flash_job& job) : a(job) { find_offsets(a.key_begin); }
    int enter(int j0) {
        const int nk = std::min(KT, a.key_end - j0);
        std::copy(offs_next, offs_next + nk, offs_now);
        for (int kk = nk; kk < KT; ++kk) offs_now[kk] = offs_now[nk - 1];
        find_offsets(j0 + KT);
        return nk;
    }
    // offs_next of the tile starting at key p0, walking the block table
    // (one division per tile, not two per key).
    void find_offsets(int p0) {
        nk_next = std::max(0, std::min(KT, std::max(a.key_end, a.prefetch_end) - p0));
        if (nk_next == 0) return;
        // Keys before key_held (masked for every row) read key_held's row.
        const int skip = std::min(nk_next, std::max(0, a.key_held - p0));
        if (skip > 0) {
            const std::int64_t held = (static_cast<std::int64_t>(a.table[a.key_held / a.block_size]) * a.block_size +
                                       a.key_held % a.block_size) * a.row_bytes;
            std::fill(offs_next, offs_next + skip, held);
        }
        int block = (p0 + skip) / a.block_size, slot = (p0 + skip) % a.block_size;
        for (int kk = skip; kk < nk_next; ++kk) {
            offs_next[kk] = (static_cast<std::int64_t>(a.table[block]) * a.block_size + slot) * a.row_bytes;
            if (++slot == a.block_size) {
                slot = 0;
                ++block;
            }
        }
    }
    [[gnu::always_inline]] void prefetch_next(int k0, int k1) const {
        for (int kk = k0; kk < std::min(k1, nk_next); ++kk) {
            prefetch_bytes(k_heads + offs_next[kk], job_bytes);
            prefetch_bytes(v_heads + offs_next[kk], job_bytes);
        }
    }
    bool visible(int j0, int nk) const {
        bool any = false;
        for (int t = 0; t < a.n_tok; ++t) any |= a.first[t] <= j0 + nk - 1 && a.last[t] >= j0;
        return any;
    }
};

// The f16 scale d of the q8_0 block at blk (kv_codec.h's layout: d, then 32
// int8), by F16C: exact like fp16_to_fp32, one instruction.
inline float q8_block_scale(const std::uint8_t* blk) {
    std::uint16_t dh;
    std::memcpy(&dh, blk, 2);
    return _cvtsh_ss(dh);
}

// nk keys of one layer array (K or V) at one KV head decoded into buf (KT, D)
// f32; rows nk..KT-1 zeroed. head: the head's bytes in row 0 of the array;
// offs: (nk) the keys' rows' byte offsets (tile_walk::offs_now).
template <kv_dtype DT>
void decode_tile(const flash_job& a, const std::uint8_t* head, const std::int64_t* offs, int nk, float* buf) {
    const int D = a.head_dim;
    for (int kk = 0; kk < nk; ++kk) {
        const std::uint8_t* src = head + offs[kk];
        float* dst = buf + kk * D;
        if constexpr (DT == kv_dtype::f16) {
            const auto* h = reinterpret_cast<const std::uint16_t*>(src);
            for (int d = 0; d < D; d += V::width) V::store(dst + d, V::load_h(h + d));
        } else {
            for (int b = 0; b < D / 32; ++b) {   // q8_0 blocks: f16 scale, then 32 int8
                const std::uint8_t* blk = src + b * q8_0_block_bytes;
                const V::reg scale = V::set1(q8_block_scale(blk));
                const auto* qs = reinterpret_cast<const std::int8_t*>(blk + 2);
                for (int i = 0; i < 32; i += V::width) V::store(dst + b * 32 + i, V::mul(V::load_q8(qs + i), scale));
            }
        }
    }
    for (int kk = nk; kk < KT; ++kk)
        for (int d = 0; d < D; d += V::width) V::store(buf + kk * D + d, V::zero());
}

// Scaled scores of one query row against the tile's keys lo..hi (tile
// indices), into s (KT): -inf outside lo..hi. V::width keys at a time: each
// key's D-long product accumulates in its own register, and one transposing
// sum reduces them together.
inline void tile_scores(const float* qr, const float* kbuf, int D, int lo, int hi, float scale, float* s) {
    constexpr int W = V::width;
    const V::reg vscale = V::set1(scale);
    for (int h = 0; h < KT; h += W) {
        if (h > hi || h + W <= lo) {
            for (int kk = 0; kk < W; ++kk) s[h + kk] = -INFINITY;
            continue;
        }
        V::reg acc[W];
        for (int kk = 0; kk < W; ++kk) acc[kk] = V::zero();
        for (int d0 = 0; d0 < D; d0 += 4 * W) {   // 4 registers of the query row stay loaded
            const V::reg q0 = V::load(qr + d0), q1 = V::load(qr + d0 + W);
            const V::reg q2 = V::load(qr + d0 + 2 * W), q3 = V::load(qr + d0 + 3 * W);
            for (int kk = 0; kk < W; ++kk) {
                const float* kr = kbuf + (h + kk) * D + d0;
                acc[kk] = V::fmadd(V::load(kr), q0, acc[kk]);
                acc[kk] = V::fmadd(V::load(kr + W), q1, acc[kk]);
                acc[kk] = V::fmadd(V::load(kr + 2 * W), q2, acc[kk]);
                acc[kk] = V::fmadd(V::load(kr + 3 * W), q3, acc[kk]);
            }
        }
        V::store(s + h, V::mul(V::sum_each(acc), vscale));
    }
    for (int kk = 0; kk < lo; ++kk) s[kk] = -INFINITY;
    for (int kk = hi + 1; kk < KT; ++kk) s[kk] = -INFINITY;
}

// A q8_0 cache's query rows as the integer scores meet them (query_i16.h):
// per row query_row_bytes(D) bytes, the D int16 values, then D / 32 f32 scales.
inline std::int64_t query_row_bytes(int D) { return 2LL * D + 4LL * (D / k_query_block); }
inline void quantize_query_row(const float* x, int D, std::uint8_t* row) {
    quantize_query_i16(x, D, reinterpret_cast<std::int16_t*>(row), reinterpret_cast<float*>(row + 2LL * D));
}

// nk keys of a q8_0 K array at one head as int8 values kq (KT, D) and f32
// block scales kd (KT, D / 32), for the dims-in-lanes scores.
inline void decode_key_tile_q8(const flash_job& a, const std::uint8_t* head, const std::int64_t* offs, int nk,
                               std::int8_t* kq, float* kd) {
    const int D = a.head_dim, NBk = D / k_query_block;
    for (int kk = 0; kk < nk; ++kk) {
        const std::uint8_t* src = head + offs[kk];
        for (int b = 0; b < NBk; ++b) {
            kd[kk * NBk + b] = q8_block_scale(src + b * q8_0_block_bytes);
            std::memcpy(kq + kk * D + b * 32, src + b * q8_0_block_bytes + 2, 32);
        }
    }
}

// tile_scores for a q8_0 cache: one quantized query row (query_row_bytes
// layout) against the tile's keys lo..hi, each score summed in integers
// per block and the blocks combined in order (query_i16.h).
inline void tile_scores_q8(const std::uint8_t* qrow, const std::int8_t* kq, const float* kd, int D, int lo, int hi,
                           float scale, float* s) {
    const int NBk = D / k_query_block;
    const auto* qs = reinterpret_cast<const std::int16_t*>(qrow);
    const auto* dq = reinterpret_cast<const float*>(qrow + 2LL * D);
    for (int kk = 0; kk < KT; ++kk) {
        if (kk < lo || kk > hi) {
            s[kk] = -INFINITY;
            continue;
        }
        float acc = 0.0f;
        for (int b = 0; b < NBk; ++b)
            acc = query_score_step(dq[b], kd[kk * NBk + b], query_block_isum(qs + b * 32, kq + kk * D + b * 32), acc);
        s[kk] = acc * scale;
    }
}

// Decode's integer scores straight from a q8_0 cache, for 4 keys (kr: each
// key's head in its row): NR quantized query rows (query_row_bytes apart
// from qrows) into s (NR, KT) at columns 0..3, scaled. The block sums come from V::key_isums4 (each key's block loaded
// once for all rows), then per block in order fma(dq * dk, isum, acc), the
// 4 keys in the lanes.
template <int NR>
inline void scores_direct4_q8(const std::uint8_t* qrows, const std::uint8_t* const kr[4], int D, float scale, float* s) {
    const int NBk = D / k_query_block;
    const std::int64_t qrb = query_row_bytes(D);
    const std::int16_t* q[NR];
    const float* dq[NR];
    for (int r = 0; r < NR; ++r) {
        q[r] = reinterpret_cast<const std::int16_t*>(qrows + r * qrb);
        dq[r] = reinterpret_cast<const float*>(qrows + r * qrb + 2LL * D);
    }
    __m128 acc[NR];
    for (int r = 0; r < NR; ++r) acc[r] = _mm_setzero_ps();
    for (int b = 0; b < NBk; ++b) {
        __m128i isum[NR];
        V::template key_isums4<NR>(kr, b, q, isum);
        std::uint16_t dh[4];
        for (int j = 0; j < 4; ++j) std::memcpy(&dh[j], kr[j] + b * q8_0_block_bytes, 2);
        const __m128 dk = _mm_cvtph_ps(_mm_setr_epi16(static_cast<short>(dh[0]), static_cast<short>(dh[1]),
                                                      static_cast<short>(dh[2]), static_cast<short>(dh[3]), 0, 0, 0, 0));
        for (int r = 0; r < NR; ++r)
            acc[r] = _mm_fmadd_ps(_mm_mul_ps(_mm_set1_ps(dq[r][b]), dk), _mm_cvtepi32_ps(isum[r]), acc[r]);
    }
    const __m128 vscale = _mm_set1_ps(scale);
    for (int r = 0; r < NR; ++r) _mm_storeu_ps(s + r * KT, _mm_mul_ps(acc[r], vscale));
}

// Decode's scores read straight from an f16 cache, for 4 keys (kr: each
// key's head in its row): rows r < NR (query rows of one KV head, each D
// floats at q + r * D) into s (NR, KT) at columns 0..3, scaled. Each key's row is converted once for all NR rows (NR * 4
// accumulators in registers) and no f32 tile is stored (a decode tile's keys
// serve only its group's few rows). 32 elements of each key per step. (A
// q8_0 cache's decode scores are integers: scores_direct4_q8.)
template <int NR>
inline void scores_direct4(const float* q, const std::uint8_t* const kr[4], int D, float scale, float* s) {
    constexpr int W = V::width, NK = 4, C = 32 / W;
    V::reg acc[NR][NK];
    for (int r = 0; r < NR; ++r)
        for (int j = 0; j < NK; ++j) acc[r][j] = V::zero();
    for (int d = 0; d < D; d += 32) {
        for (int j = 0; j < NK; ++j) {
            const auto* h = reinterpret_cast<const std::uint16_t*>(kr[j]) + d;
            V::reg kv[C];
            for (int c = 0; c < C; ++c) kv[c] = V::load_h(h + c * W);
            for (int c = 0; c < C; ++c)
                for (int r = 0; r < NR; ++r) acc[r][j] = V::fmadd(kv[c], V::load(q + r * D + d + c * W), acc[r][j]);
        }
    }
    const __m128 vscale = _mm_set1_ps(scale);
    for (int r = 0; r < NR; ++r) _mm_storeu_ps(s + r * KT, _mm_mul_ps(V::sum_each4(acc[r]), vscale));
}

// Paces decode's prefetch of the next tile: each of `steps` calls of step()
// prefetches its share of the next tile's keys (K and V rows of the job's
// heads), so the misses spread evenly over the tile's work (Zen 2 at d4096,
// one thread: 42-44 ns per (key, KV head) against 60-66 with 4 keys' 48
// lines at once, whose misses filled the core's buffers, and 59-62 with no
// prefetch at all).
struct prefetch_pacer {
    const tile_walk& walk;
    int steps;
    int credit = 0, next_key = 0;
    [[gnu::always_inline]] void step() {
        int end = next_key;
        for (credit += walk.nk_next; credit >= steps; credit -= steps) ++end;
        walk.prefetch_next(next_key, end);
        next_key = end;
    }
};

// One head's scores for NR query rows against the tile's nk keys, 4 keys per
// step (scores_direct4_q8 or scores_direct4): qrows the rows as the scores
// meet them (q8_0: quantized, query_row_bytes apart; f16: D floats apart),
// head the head's bytes in row 0 of the K array, s (NR, KT).
template <kv_dtype DT, int NR>
inline void scores_direct_sweep(const std::uint8_t* qrows, const std::uint8_t* head, const std::int64_t* offs, int D,
                                int nk, float scale, float* s, prefetch_pacer& pace) {
    for (int k0 = 0; k0 < nk; k0 += 4) {
        pace.step();
        const std::uint8_t* const kr[4] = {head + offs[k0], head + offs[k0 + 1], head + offs[k0 + 2], head + offs[k0 + 3]};
        if constexpr (DT == kv_dtype::q8_0) scores_direct4_q8<NR>(qrows, kr, D, scale, s + k0);
        else scores_direct4<NR>(reinterpret_cast<const float*>(qrows), kr, D, scale, s + k0);
    }
}

// A decode tile's scores for every KV head of the job (H heads of R rows,
// head h's query rows at q + h * R * D, its scores at s + h * R * KT): per
// head, up to 3 rows at a time against all the tile's keys (the tile's rows
// stay in L1 between heads); then keys outside lo..hi (one token: every row
// sees the same keys) and past nk masked. offs: the tile's rows' byte
// offsets (walk.offs_now).
template <kv_dtype DT>
inline void tile_scores_direct(const float* q, const std::uint8_t* k_first_head, std::int64_t head_bytes,
                               const std::int64_t* offs, int D, int nk, int lo, int hi, float scale, float* s, int H,
                               int R, const tile_walk& walk) {
    const std::int64_t qrb = DT == kv_dtype::q8_0 ? query_row_bytes(D) : 4LL * D;   // bytes between query rows
    const int sweeps = R == 4 ? 2 : R / 3 + (R % 3 + 1) / 2;   // row groups per head, as the loop below makes them
    prefetch_pacer pace{walk, H * sweeps * ((nk + 3) / 4)};
    for (int h = 0; h < H; ++h) {
        const std::uint8_t* head = k_first_head + h * head_bytes;
        const auto* qh = reinterpret_cast<const std::uint8_t*>(q) + static_cast<std::int64_t>(h) * R * qrb;
        float* sh = s + h * R * KT;
        int r = 0;
        for (; r + 3 <= R && R != 4; r += 3) scores_direct_sweep<DT, 3>(qh + r * qrb, head, offs, D, nk, scale, sh + r * KT, pace);
        for (; r + 2 <= R; r += 2) scores_direct_sweep<DT, 2>(qh + r * qrb, head, offs, D, nk, scale, sh + r * KT, pace);
        if (r < R) scores_direct_sweep<DT, 1>(qh + r * qrb, head, offs, D, nk, scale, sh + r * KT, pace);
    }
    hi = std::min(hi, nk - 1);
    for (int r = 0; r < H * R; ++r) {
        for (int kk = 0; kk < lo; ++kk) s[r * KT + kk] = -INFINITY;
        for (int kk = hi + 1; kk < KT; ++kk) s[r * KT + kk] = -INFINITY;
    }
}

// Gemma 2's score cap, s[0..n) = cap * tanh(s / cap), a register at a time:
// tanh(y) = 1 - 2 / (exp(2y) + 1), whose exp clamps (so large |y| give +-1).
// Against tanhf (the scalar reference's) it differs by about 1e-7 of cap:
// nothing beside the probabilities' f16 rounding. A Gemma 2 2B-sized file
// (synth-model gemma2-2b, Q4_0), pp256 @ d1024, 2 threads, alternated: 46.7
// and 47.1 tok/s with scalar tanhf, 51.6 and 51.9 with this, 50.8 and 51.6
// with no cap at all.
inline void soft_cap_scores(float* s, int n, float cap) {
    constexpr int W = V::width;
    const V::reg two_over_cap = V::set1(2.0f / cap), vcap = V::set1(cap), one = V::set1(1.0f), two = V::set1(2.0f);
    const auto capped = [&](V::reg x) {
        const V::reg e = V::exp(V::mul(x, two_over_cap));
        return V::mul(vcap, V::sub(one, V::div(two, V::add(e, one))));
    };
    int i = 0;
    for (; i + W <= n; i += W) V::store(s + i, capped(V::load(s + i)));
    if (i < n) {   // the tail through a register's worth of scratch
        alignas(64) float t[W] = {};
        std::copy(s + i, s + n, t);
        V::store(t, capped(V::load(t)));
        std::copy(t, t + (n - i), s + i);
    }
}

// Online softmax step of n rows (KT apart from s) that see the same keys
// lo..hi: each row's s becomes exp(s - m_new) rounded to f16 (0 outside
// lo..hi), its l and m are updated, and corr gets the factor exp(m_old -
// m_new) that rescales the row's output accumulated so far. Phase by phase
// across the rows (every row's max, then every row's exps, then every
// row's sum), so that the rows' chains of max, exp and sum overlap: a
// decode tile's 9 rows (SmolLM2) alone on Zen 2, 2.62 against 2.99 ns per
// (key, KV head) row by row.
inline void online_softmax_rows(float* s, int n, int lo, int hi, float* m, float* l, float* corr) {
    constexpr int W = V::width, max_rows = 16;
    for (int r0 = 0; r0 < n; r0 += max_rows) {
        const int nr = std::min(max_rows, n - r0);
        float* sr = s + r0 * KT;
        float m_new[max_rows];
        for (int r = 0; r < nr; ++r) {
            V::reg mv = V::load(sr + r * KT);
            for (int h = W; h < KT; h += W) mv = V::max(mv, V::load(sr + r * KT + h));
            m_new[r] = std::max(m[r0 + r], V::reduce_max(mv));
        }
        for (int r = 0; r < nr; ++r) {   // rounded to f16, as the reference rounds the probabilities
            const V::reg vm = V::set1(m_new[r]);
            for (int h = 0; h < KT; h += W) V::store(sr + r * KT + h, V::round_h(V::exp(V::sub(V::load(sr + r * KT + h), vm))));
        }
        for (int r = 0; r < nr; ++r) {
            float* row = sr + r * KT;
            // exp clamps its argument, so the masked keys come out tiny, not zero.
            for (int kk = 0; kk < lo; ++kk) row[kk] = 0;
            for (int kk = hi + 1; kk < KT; ++kk) row[kk] = 0;
            V::reg sum = V::load(row);
            for (int h = W; h < KT; h += W) sum = V::add(sum, V::load(row + h));
            // exp(0) is exactly 1 (the polynomial's constant term times 2^0), so an unchanged max skips it.
            const float mo = m[r0 + r];
            const float c = mo == -INFINITY ? 0.0f : mo == m_new[r] ? 1.0f : V::first(V::exp(V::set1(mo - m_new[r])));
            l[r0 + r] = l[r0 + r] * c + V::reduce_add(sum);
            m[r0 + r] = m_new[r];
            corr[r0 + r] = c;
        }
    }
}

// online_softmax_rows for one row (its own lo..hi); returns its corr.
inline float online_softmax(float* s, int lo, int hi, float& m, float& l) {
    float corr;
    online_softmax_rows(s, 1, lo, hi, &m, &l, &corr);
    return corr;
}

// o (rows r0.. r0+NR-1) = o * corr + p . vbuf over the tile's nk keys, 4
// registers of each row at a time, the value rows shared by the NR rows.
template <int NR>
inline void accumulate_values(float* o, const float* p, const float* corr, const float* vbuf, int D, int nk) {
    constexpr int W = V::width;
    for (int d0 = 0; d0 < D; d0 += 4 * W) {
        V::reg x[NR][4];
        for (int i = 0; i < NR; ++i) {
            const V::reg c = V::set1(corr[i]);
            for (int c4 = 0; c4 < 4; ++c4) x[i][c4] = V::mul(V::load(o + i * D + d0 + c4 * W), c);
        }
        for (int kk = 0; kk < nk; ++kk) {
            const float* vr = vbuf + kk * D + d0;
            const V::reg v0 = V::load(vr), v1 = V::load(vr + W), v2 = V::load(vr + 2 * W), v3 = V::load(vr + 3 * W);
            for (int i = 0; i < NR; ++i) {
                const V::reg w = V::set1(p[i * KT + kk]);
                x[i][0] = V::fmadd(w, v0, x[i][0]);
                x[i][1] = V::fmadd(w, v1, x[i][1]);
                x[i][2] = V::fmadd(w, v2, x[i][2]);
                x[i][3] = V::fmadd(w, v3, x[i][3]);
            }
        }
        for (int i = 0; i < NR; ++i)
            for (int c4 = 0; c4 < 4; ++c4) V::store(o + i * D + d0 + c4 * W, x[i][c4]);
    }
}

// The weights of a q8_0 value sum, each probability times its key's block
// scale: wq (D / 32, NR, KT), wq[(b * NR + i) * KT + kk] = p[i * KT + kk] *
// (the scale of block b of key kk's value row), for kk < nk rounded up to a
// register (beyond nk, zero scales). p * d is an f16 value times an f16
// scale, exact in f32, so the products with the int8 values are those of p
// with the decoded values.
template <int NR>
inline void q8_value_weights(const float* p, const std::uint8_t* head, const std::int64_t* offs, int D, int nk,
                             float* wq) {
    constexpr int W = V::width;
    alignas(64) std::uint16_t dh[KT];   // the tile's scales of one block, f16
    for (int b = 0; b < D / 32; ++b) {
        const std::uint8_t* scales = head + b * q8_0_block_bytes;
        int kk = 0;
        for (; kk + 4 <= nk; kk += 4)   // unrolled: the loop's own instructions were half its cost
            for (int j = 0; j < 4; ++j) std::memcpy(&dh[kk + j], scales + offs[kk + j], 2);
        for (; kk < nk; ++kk) std::memcpy(&dh[kk], scales + offs[kk], 2);
        for (; kk < KT; ++kk) dh[kk] = 0;
        for (kk = 0; kk < nk; kk += W) {
            const V::reg d = V::load_h(dh + kk);
            for (int i = 0; i < NR; ++i) V::store(wq + (b * NR + i) * KT + kk, V::mul(V::load(p + i * KT + kk), d));
        }
    }
}

// accumulate_values_direct's loop, C registers of each row per pass over
// the keys. Per key the NR rows' weights are broadcast first, then each value
// register is converted (or widened) once and used by the NR rows at once, so
// only NR * C accumulators, NR weights and one value are live. A q8_0 cache's
// weights come from q8_value_weights (wq), its block scales folded in.
template <kv_dtype DT, int NR, int C>
inline void accumulate_values_direct_chunks(float* o, const float* p, const float* corr, const std::uint8_t* head,
                                            const std::int64_t* offs, int D, int nk, const float* wq) {
    constexpr int W = V::width;
    for (int d0 = 0; d0 < D; d0 += C * W) {
        V::reg x[NR][C];
        for (int i = 0; i < NR; ++i) {
            const V::reg c = V::set1(corr[i]);
            for (int j = 0; j < C; ++j) x[i][j] = V::mul(V::load(o + i * D + d0 + j * W), c);
        }
        #pragma GCC unroll 2   // two keys per turn: the loop's own instructions were a quarter of it
        for (int kk = 0; kk < nk; ++kk) {
            const std::uint8_t* row = head + offs[kk];
            V::reg w[NR];
            if constexpr (DT == kv_dtype::f16) {
                for (int i = 0; i < NR; ++i) w[i] = V::set1(p[i * KT + kk]);
                const auto* h = reinterpret_cast<const std::uint16_t*>(row) + d0;
                for (int j = 0; j < C; ++j) {
                    const V::reg v = V::load_h(h + j * W);
                    for (int i = 0; i < NR; ++i) x[i][j] = V::fmadd(w[i], v, x[i][j]);
                }
            } else {
                for (int j = 0; j < C; ++j) {
                    const int at = d0 + j * W;
                    if (j == 0 || at % 32 == 0)   // a q8_0 block's first register of this pass
                        for (int i = 0; i < NR; ++i) w[i] = V::set1(wq[((at / 32) * NR + i) * KT + kk]);
                    const V::reg v = V::load_q8(reinterpret_cast<const std::int8_t*>(row + (at / 32) * q8_0_block_bytes + 2) + at % 32);
                    for (int i = 0; i < NR; ++i) x[i][j] = V::fmadd(w[i], v, x[i][j]);
                }
            }
        }
        for (int i = 0; i < NR; ++i)
            for (int j = 0; j < C; ++j) V::store(o + i * D + d0 + j * W, x[i][j]);
    }
}

// Decode's value sum read straight from the cache (f16 or q8_0): o (rows
// r0..r0+NR-1) = o * corr + p . V over the tile's nk keys at one head, each
// value converted once for all NR rows and never stored (a decode tile's
// values serve only its group's few rows, so a decoded f32 tile would cost a
// store and a load per value for 1 to 8 uses). C registers of each row at a
// time: as many as the registers hold (NR * C accumulators, NR weights and a
// value), so a 64-dim head goes in one pass on AVX-512 and in two for 3 rows
// on AVX2 (four passes of 2 registers each, with the values first, had 5
// cycles of FMA latency per key and pass on Zen 2). Every output sums its
// keys in order whatever C.
template <int NR>
constexpr int values_direct_registers() {
    constexpr int most = (V::registers - 1 - NR) / NR;
    return most >= 8 ? 8 : most >= 4 ? 4 : most >= 2 ? 2 : 1;
}

template <kv_dtype DT, int NR>
inline void accumulate_values_direct(float* o, const float* p, const float* corr, const std::uint8_t* head,
                                     const std::int64_t* offs, int D, int nk, float* wq) {
    if constexpr (DT == kv_dtype::q8_0) q8_value_weights<NR>(p, head, offs, D, nk, wq);
    // The kernel takes head sizes of multiples of 4 W; C = 8 needs 8 W.
    constexpr int C = values_direct_registers<NR>();
    if constexpr (C == 8) {
        if (D % (8 * V::width) != 0) {
            accumulate_values_direct_chunks<DT, NR, 4>(o, p, corr, head, offs, D, nk, wq);
            return;
        }
    }
    accumulate_values_direct_chunks<DT, NR, C>(o, p, corr, head, offs, D, nk, wq);
}

// All R rows of one head through accumulate_values_direct, up to 4 at a
// time. wq: scratch of 4 * D floats (a q8_0 cache's weights).
template <kv_dtype DT>
inline void accumulate_values_direct_rows(float* o, const float* p, const float* corr, const std::uint8_t* head,
                                          const std::int64_t* offs, int D, int nk, int R, float* wq) {
    int r = 0;
    for (; r + 4 <= R && R != 6; r += 4)   // 6 rows go as 3 + 3
        accumulate_values_direct<DT, 4>(o + r * D, p + r * KT, corr + r, head, offs, D, nk, wq);
    for (; r + 3 <= R; r += 3)
        accumulate_values_direct<DT, 3>(o + r * D, p + r * KT, corr + r, head, offs, D, nk, wq);
    if (R - r == 2) accumulate_values_direct<DT, 2>(o + r * D, p + r * KT, corr + r, head, offs, D, nk, wq);
    if (R - r == 1) accumulate_values_direct<DT, 1>(o + r * D, p + r * KT, corr + r, head, offs, D, nk, wq);
}

#include "engine/backend/cpu/attention_lanes_body.h"

// The whole job: decode of an f16 cache straight from the cache, a prefill
// block that fills whole registers rows-in-lanes (flash_lanes_run), any other
// dims-in-lanes over decoded tiles.
template <kv_dtype DT>
void flash_job_run(const flash_job& a) {
    const int D = a.head_dim, G = a.group, R = a.n_tok * a.group, RT = a.n_heads * R;
    float* qbuf = a.work;                 // (RT, D) the query rows as the scores meet them
    float* kbuf = qbuf + RT * D;          // (KT, D) one head's keys of the tile, f32
    float* vbuf = kbuf + KT * D;          // (KT, D) the same head's values, f32
    float* pbuf = vbuf + KT * D;          // (RT, KT) the scores, then probabilities (prefill: one head's R rows)
    float* corr = pbuf + RT * KT;         // (RT) each row's rescale factor for this tile
    // Decode (a step): keys and values read straight from the cache (f16
    // or q8_0), the scores of every head 4 keys at a time (whole rows in
    // address order), no f32 tile stored. At d4096, one thread, SmolLM2's
    // geometry, Zen 5: f16 88-93 ns per (key, KV head) from memory against
    // 98-102 with a decoded K tile (Xeon); q8_0 12-16 ns against 20-21 with
    // direct scores and a decoded V tile, 21-26 with both tiles decoded (the
    // direct q8_0 value sum lost on the Xeon, 0.95-1.08 against 0.93-0.94 ms
    // per layer, and wins on Zen 5). Prefill: decoded K and V tiles that the
    // block's many rows share.
    const bool direct = a.step;
    // A prefill block whose rows fill whole registers: the rows-in-lanes job.
    if (!direct && !lanes_disabled() && flash_lanes_any<DT>(a)) return;

    for (int hr = 0; hr < RT; ++hr) {
        const int h = hr / R, r = hr % R;
        const float* src = a.q + (r / G) * a.q_stride + static_cast<std::int64_t>(h * G + r % G) * D;
        if constexpr (DT == kv_dtype::q8_0) {
            quantize_query_row(src, D, reinterpret_cast<std::uint8_t*>(qbuf) + hr * query_row_bytes(D));
        } else {
            for (int d = 0; d < D; d += V::width) V::store(qbuf + hr * D + d, V::round_h(V::load(src + d)));
        }
        a.m[hr] = -INFINITY;
        a.l[hr] = 0;
        for (int d = 0; d < D; d += V::width) V::store(a.o + hr * D + d, V::zero());
    }

    tile_walk walk(a);
    const std::int64_t* offs_now = walk.offs_now;
    for (int j0 = a.key_begin; j0 < a.key_end; j0 += KT) {
        const int nk = walk.enter(j0);
        if (!walk.visible(j0, nk)) {   // a tile outside every row's window
            walk.prefetch_next(0, KT);
            continue;
        }
        if (direct) {   // one token: every row sees the same keys lo..hi of the tile
            const int lo = std::max(a.first[0], j0) - j0, hi = std::min(a.last[0], j0 + nk - 1) - j0;
            tile_scores_direct<DT>(qbuf, a.k_layer + a.head_offset, a.head_bytes, walk.offs_now, D, nk, lo, hi, a.scale,
                                   pbuf, a.n_heads, R, walk);
            if (a.softcap > 0)
                for (int r = 0; r < RT; ++r) soft_cap_scores(pbuf + r * KT + lo, hi - lo + 1, a.softcap);
            online_softmax_rows(pbuf, RT, lo, hi, a.m, a.l, corr);
            for (int h = 0; h < a.n_heads; ++h)
                accumulate_values_direct_rows<DT>(a.o + static_cast<std::int64_t>(h) * R * D, pbuf + h * R * KT, corr + h * R,
                                              a.v_layer + a.head_offset + h * a.head_bytes, walk.offs_now, D, nk, R, kbuf);
            continue;
        }
        for (int h = 0; h < a.n_heads; ++h) {
            walk.prefetch_next(h * KT / a.n_heads, (h + 1) * KT / a.n_heads);   // the next tile's rows, a share per head
            const std::int64_t off = a.head_offset + h * a.head_bytes;
            float* o = a.o + static_cast<std::int64_t>(h) * R * D;
            float* m = a.m + h * R;
            float* l = a.l + h * R;
            const float* qh = qbuf + static_cast<std::int64_t>(h) * R * D;
            const std::uint8_t* qh8 = reinterpret_cast<const std::uint8_t*>(qbuf) + static_cast<std::int64_t>(h) * R * query_row_bytes(D);
            auto* kq = reinterpret_cast<std::int8_t*>(kbuf);   // q8_0: int8 keys (KT, D), then their scales
            float* kd = kbuf + KT * D / 4;
            if constexpr (DT == kv_dtype::q8_0) decode_key_tile_q8(a, a.k_layer + off, offs_now, nk, kq, kd);
            else decode_tile<DT>(a, a.k_layer + off, offs_now, nk, kbuf);
            decode_tile<DT>(a, a.v_layer + off, offs_now, nk, vbuf);
            for (int r = 0; r < R; ++r) {
                const int t = r / G;
                const int lo = std::max(a.first[t], j0) - j0;       // the tile's keys this row sees: lo..hi
                const int hi = std::min(a.last[t], j0 + nk - 1) - j0;
                float* s = pbuf + r * KT;
                if (lo > hi) {   // this row sees none of the tile
                    for (int kk = 0; kk < KT; ++kk) s[kk] = 0;
                    corr[r] = 1.0f;
                    continue;
                }
                if constexpr (DT == kv_dtype::q8_0) tile_scores_q8(qh8 + r * query_row_bytes(D), kq, kd, D, lo, hi, a.scale, s);
                else tile_scores(qh + r * D, kbuf, D, lo, hi, a.scale, s);
                if (a.softcap > 0) soft_cap_scores(s + lo, hi - lo + 1, a.softcap);
                corr[r] = online_softmax(s, lo, hi, m[r], l[r]);
            }
            int r = 0;
            for (; r + 2 <= R; r += 2) accumulate_values<2>(o + r * D, pbuf + r * KT, corr + r, vbuf, D, nk);
            if (r < R) accumulate_values<1>(o + r * D, pbuf + r * KT, corr + r, vbuf, D, nk);
        }
    }
}

void flash_job_any(const flash_job& a) {
    if (a.dtype == kv_dtype::f16) flash_job_run<kv_dtype::f16>(a);
    else flash_job_run<kv_dtype::q8_0>(a);
}
