// SPDX-License-Identifier: Apache-2.0
// Prefill's attention job with the query rows in the vector lanes, part of
// attention_simd_body.h (included there, inside the instruction set's
// namespace, after decode_tile; no include guard on purpose).
//
// A prefill job holds R rows (the block's tokens times the group's query
// heads) of one KV head. Here the rows lie across the lanes of NB = R / W
// registers and the dimensions (or the keys) run down memory:
//   qT (D, R)  the queries, transposed once per job;
//   sT (KT, R) a tile's scores, key by key: each key's value of a dimension
//              broadcast, times qT's row of that dimension: no horizontal
//              sums (dims-in-lanes needs a transposing sum per 8 keys);
//   the online softmax's max, sum and rescale factor per row are lane-wise
//   over the tile's keys (no reductions across lanes), the mask of a
//   diagonal or window-edge tile a compare per key;
//   oT (D, R)  the output, each value row's dimension broadcast times sT's
//              row of that key; transposed back to (R, D) once at the end.
// A q8_0 cache's scores are integer sums instead (lanes_q8_scores): the
// rows' int16 query words in the lanes, each key's word broadcast; on
// AVX-512 its value sum too (lanes_q8_values_step: each row's weights
// rounded to int16 per tile, each key pair's int8 values broadcast).
// Rows that do not fill the last register are padded with copies of the
// last token's rows (their results are written past the job's rows, into
// room the caller keeps: flash_prefill_rows, and never read), so every
// prefill block takes this path whatever its row count.
// The decoded K and V tiles (KT, D) are read by broadcasts; everything the
// inner loops touch per tile (qT, sT, the tiles, oT: about 30 KiB at R = 24,
// D = 64; about 76 KiB at AVX-512's R = 96) stays in L1 and L2. Each lane's
// arithmetic is its own row's alone (each score summed over the dimensions
// in order, each output over the keys in order), so how a prompt is cut into
// blocks changes no result. (The dims-in-lanes path, which decode and jobs
// of several KV heads take, sums a score's dimensions in 8 lanes and then
// across them: other roundings for f16 scores.)

// Row registers flash_lanes_any has a kernel for (flash_block_rows' limit per instruction set).
constexpr int k_lanes_max_blocks = V::registers >= 32 ? 6 : 4;
constexpr int k_lanes_max_rows = k_lanes_max_blocks * V::width;

// KVLENS_NO_ROW_LANES=1 sends every job down the dims-in-lanes path (to compare them).
inline bool lanes_disabled() {
    static const bool disabled = std::getenv("KVLENS_NO_ROW_LANES") != nullptr;
    return disabled;
}

// Whether a job takes this path: one KV head, rows filling 1 to
// k_lanes_max_blocks registers (the last one padded), key positions exact in
// f32 (the mask compares them as floats).
inline bool lanes_apply(const flash_job& a) {
    const int R = a.n_tok * a.group;
    return a.n_heads == 1 && R > 0 && flash_prefill_rows(R, V::width) <= k_lanes_max_rows && a.key_end < (1 << 24);
}

// Keys per step of the scores and dimensions per step of the value sum, for
// NB row registers: the KB * NB accumulators, NB operands and a broadcast
// fit the registers (16 on AVX2, 32 on AVX-512; a divisor of every head
// size the kernel takes). AVX2 at NB = 3 (24 rows): 2, 3 or 5 keys per step
// and 2 dimensions were no faster than 4 and 4 (pp512 @ d4096, alternated,
// on a noisy Zen 1 host).
template <int NB>
constexpr int lanes_step() {
    if constexpr (V::registers >= 32) return NB <= 3 ? 8 : 4;   // 8 * 3 + 3 + 1 = 28, 4 * 6 + 6 + 1 = 31 of 32
    else return NB <= 3 ? 4 : 2;
}

// sT rows k0..k0+KB-1 = scale * (K rows k0.. of the tile) . qT.
template <int NB, int KB>
inline void lanes_scores_step(const float* qT, const float* kbuf, int D, int R, int k0, float scale, float* sT) {
    constexpr int W = V::width;
    V::reg acc[KB][NB];
    for (int j = 0; j < KB; ++j)
        for (int b = 0; b < NB; ++b) acc[j][b] = V::zero();
    for (int d = 0; d < D; ++d) {
        V::reg q[NB];
        for (int b = 0; b < NB; ++b) q[b] = V::load(qT + d * R + b * W);
        for (int j = 0; j < KB; ++j) {
            const V::reg k = V::set1(kbuf[(k0 + j) * D + d]);
            for (int b = 0; b < NB; ++b) acc[j][b] = V::fmadd(k, q[b], acc[j][b]);
        }
    }
    const V::reg vscale = V::set1(scale);
    for (int j = 0; j < KB; ++j)
        for (int b = 0; b < NB; ++b) V::store(sT + (k0 + j) * R + b * W, V::mul(acc[j][b], vscale));
}

// The tile's scores sT (nk, R), unmasked.
template <int NB>
inline void lanes_scores(const float* qT, const float* kbuf, int D, int R, int nk, float scale, float* sT) {
    constexpr int KB = lanes_step<NB>();
    int k = 0;
    for (; k + KB <= nk; k += KB) lanes_scores_step<NB, KB>(qT, kbuf, D, R, k, scale, sT);
    for (; k < nk; ++k) lanes_scores_step<NB, 1>(qT, kbuf, D, R, k, scale, sT);
}

// A q8_0 cache's scores in integers (query_i16.h), rows in the lanes: sT
// rows k0..k0+KB-1 for the tile's keys against the job's quantized rows.
// qW (D / 2, R) the rows' words (2 int16 each), dqT (D / 32, R) their block
// scales; kW (KT, D / 2) the keys' words, kd (KT, D / 32) their scales. Per
// block: the KB * NB int32 sums over its 16 words, then fma(dq * dk, isum,
// score so far) into sT, scaled after the last block.
template <int NB, int KB>
inline void lanes_q8_scores_step(const std::int32_t* qW, const float* dqT, const std::int32_t* kW, const float* kd,
                                 int D, int R, int k0, float scale, float* sT) {
    constexpr int W = V::width, WB = k_query_block / V::q_word_elems;   // words per block
    const int NBk = D / k_query_block, DW = D / V::q_word_elems;
    const V::reg vscale = V::set1(scale);
    for (int b = 0; b < NBk; ++b) {
        V::ireg acc[KB][NB];
        for (int j = 0; j < KB; ++j)
            for (int nb = 0; nb < NB; ++nb) acc[j][nb] = V::iset1(0);
        for (int w = b * WB; w < (b + 1) * WB; ++w) {
            V::ireg q[NB];
            for (int nb = 0; nb < NB; ++nb) q[nb] = V::iload(qW + w * R + nb * W);
            for (int j = 0; j < KB; ++j) {
                const V::ireg k = V::iset1(kW[(k0 + j) * DW + w]);
                for (int nb = 0; nb < NB; ++nb) acc[j][nb] = V::idot(acc[j][nb], k, q[nb]);
            }
        }
        for (int j = 0; j < KB; ++j) {
            const V::reg dk = V::set1(kd[(k0 + j) * NBk + b]);
            for (int nb = 0; nb < NB; ++nb) {
                float* out = sT + (k0 + j) * R + nb * W;
                const V::reg before = b == 0 ? V::zero() : V::load(out);
                V::reg x = V::fmadd(V::mul(V::load(dqT + b * R + nb * W), dk), V::cvt_i(acc[j][nb]), before);
                if (b == NBk - 1) x = V::mul(x, vscale);
                V::store(out, x);
            }
        }
    }
}

template <int NB>
inline void lanes_q8_scores(const std::int32_t* qW, const float* dqT, const std::int32_t* kW, const float* kd, int D,
                            int R, int nk, float scale, float* sT) {
    constexpr int KB = lanes_step<NB>();
    int k = 0;
    for (; k + KB <= nk; k += KB) lanes_q8_scores_step<NB, KB>(qW, dqT, kW, kd, D, R, k, scale, sT);
    for (; k < nk; ++k) lanes_q8_scores_step<NB, 1>(qW, dqT, kW, kd, D, R, k, scale, sT);
}

// nk keys of a q8_0 K array at one head as words kW (KT, D / 2) and scales kd (KT, D / 32).
inline void decode_key_words(const flash_job& a, const std::uint8_t* head, const std::int64_t* offs, int nk,
                             std::int32_t* kW, float* kd) {
    const int D = a.head_dim, NBk = D / k_query_block, DW = D / V::q_word_elems;
    constexpr int WB = k_query_block / V::q_word_elems;
    for (int kk = 0; kk < nk; ++kk) {
        const std::uint8_t* src = head + offs[kk];
        for (int b = 0; b < NBk; ++b) {
            kd[kk * NBk + b] = q8_block_scale(src + b * q8_0_block_bytes);
            V::key_words(reinterpret_cast<const std::int8_t*>(src + b * q8_0_block_bytes + 2), kW + kk * DW + b * WB);
        }
    }
}

// The job's rows quantized (query_i16.h) into lanes_q8_scores' layout: qW
// (D / 2, R), dqT (D / 32, R); tmp: room for one row's query_row_bytes(D).
inline void lanes_q8_queries(const flash_job& a, int R, std::int32_t* qW, float* dqT, std::uint8_t* tmp) {
    const int D = a.head_dim, G = a.group, NBk = D / k_query_block, DW = D / V::q_word_elems;
    for (int r = 0; r < R; ++r) {
        const int t = std::min(r / G, a.n_tok - 1);   // padded rows: the last token's
        quantize_query_row(a.q + t * a.q_stride + static_cast<std::int64_t>(r % G) * D, D, tmp);
        for (int w = 0; w < DW; ++w) std::memcpy(&qW[w * R + r], tmp + 4 * w, 4);   // 2 int16 as they lie
        const auto* dq = reinterpret_cast<const float*>(tmp + 2LL * D);
        for (int b = 0; b < NBk; ++b) dqT[b * R + r] = dq[b];
    }
}

// lanes_softmax's arguments for one tile (what they are: below).
struct lanes_softmax_step {
    float* sT;
    int R, nk;
    bool full;
    float key0;
    const float* first;
    const float* last;
    float *m, *l, *corr;
};

// Online softmax step over the tile's nk keys, lane-wise: sT becomes the
// probabilities exp(s - running max), rounded to f16 values as the other
// path rounds them (not with NBK > 0, below), and 0 where a row does not
// see the key (only checked on a tile some row does not see whole: `full`
// false; key0: the tile's first key position; first, last (R): each row's
// visible keys as floats); m, l (R) updated; corr (R) the factors that
// rescale the output so far.
// NBK > 0 (a q8_0 cache's integer value sum): also each row's largest
// weight p * (value block scale) of the tile per block of 32 dimensions,
// into largest (NBK, R), from the value scales vs (KT, NBK) (non-negative,
// as the cache's quantizer writes them: max |x| / 127), while the
// probabilities are in registers (lanes_q8_value_weights takes them). Those
// probabilities stay f32: their weights are rounded to int16 units next, so
// an f16 rounding first would only round them twice (and the conversion
// pair cost 5 % of the AVX-512 q8_0 prefill job on Zen 5); the f16 rounding
// is there for the paths whose f32 value sums mirror an f16 product.
template <int NB, int NBK = 0>
inline void lanes_softmax(const lanes_softmax_step& t, const float* vs = nullptr, float* largest = nullptr) {
    constexpr int W = V::width;
    float* sT = t.sT;
    const int R = t.R, nk = t.nk;
    const bool full = t.full;
    const float key0 = t.key0;
    const float *first = t.first, *last = t.last;
    float *m = t.m, *l = t.l, *corr = t.corr;
    const V::reg minus_inf = V::set1(-INFINITY);
    for (int b = 0; b < NB; ++b) {
        float* s = sT + b * W;
        const V::reg m_old = V::load(m + b * W);
        V::reg m_new = m_old;
        if (full) {
            for (int k = 0; k < nk; ++k) m_new = V::max(m_new, V::load(s + k * R));
        } else {
            const V::reg f = V::load(first + b * W), la = V::load(last + b * W);
            for (int k = 0; k < nk; ++k) {
                const V::reg key = V::set1(key0 + static_cast<float>(k));
                const V::reg x = V::select(V::both(V::less_equal(f, key), V::less_equal(key, la)), V::load(s + k * R), minus_inf);
                V::store(s + k * R, x);
                m_new = V::max(m_new, x);
            }
        }
        // A row that has seen no key yet keeps m = -inf; it subtracts 0
        // instead (its masked keys come out 0 below, its old sum and output are 0).
        const V::reg shift = V::select(V::equal(m_new, minus_inf), V::zero(), m_new);
        const V::reg c = V::exp(V::sub(m_old, shift));   // exp clamps: -inf gives a tiny factor of zeros
        V::reg sum = V::zero();
        V::reg big[NBK > 0 ? NBK : 1];
        for (int j = 0; j < NBK; ++j) big[j] = V::zero();
        for (int k = 0; k < nk; ++k) {
            const V::reg x = V::load(s + k * R);
            V::reg p = V::exp(V::sub(x, shift));
            if constexpr (NBK == 0) p = V::round_h(p);
            if (!full) p = V::select(V::equal(x, minus_inf), V::zero(), p);
            V::store(s + k * R, p);
            sum = V::add(sum, p);
            for (int j = 0; j < NBK; ++j) big[j] = V::max(big[j], V::mul(p, V::set1(vs[k * NBK + j])));
        }
        for (int j = 0; j < NBK; ++j) V::store(largest + j * R + b * W, big[j]);
        V::store(l + b * W, V::add(V::mul(V::load(l + b * W), c), sum));
        V::store(m + b * W, m_new);
        V::store(corr + b * W, c);
    }
}

// oT rows d0..d0+DB-1 = oT * corr + (V's dims d0.. over the tile's nk keys) . sT.
template <int NB, int DB>
inline void lanes_values_step(float* oT, const float* pT, const float* corr, const float* vbuf, int D, int R, int nk, int d0) {
    constexpr int W = V::width;
    V::reg acc[DB][NB];
    for (int b = 0; b < NB; ++b) {
        const V::reg c = V::load(corr + b * W);
        for (int i = 0; i < DB; ++i) acc[i][b] = V::mul(V::load(oT + (d0 + i) * R + b * W), c);
    }
    for (int k = 0; k < nk; ++k) {
        V::reg p[NB];
        for (int b = 0; b < NB; ++b) p[b] = V::load(pT + k * R + b * W);
        for (int i = 0; i < DB; ++i) {
            const V::reg v = V::set1(vbuf[k * D + d0 + i]);
            for (int b = 0; b < NB; ++b) acc[i][b] = V::fmadd(v, p[b], acc[i][b]);
        }
    }
    for (int i = 0; i < DB; ++i)
        for (int b = 0; b < NB; ++b) V::store(oT + (d0 + i) * R + b * W, acc[i][b]);
}

// A q8_0 cache's value sum in integers where the vectors are AVX-512's (32
// registers, vpdpwssd: two int16 products per lane). Per tile and block of
// 32 dimensions, each row's weights w = p * (the key's block scale) are
// rounded to int16 in units of the row's largest w in the tile and block
// over 32767, two keys to a word; each dimension's values of a key pair,
// int8 widened, make the broadcast word; the tile's int32 sums are exact,
// and o = o * corr + unit * sum. A weight is off by at most half a unit,
// 1.5e-5 of the row's largest in the tile, where the other paths' f16
// rounding of the probabilities is 2.4e-4 of each (here the probabilities
// stay f32: lanes_softmax); test_attention holds it to the scalar
// reference's f32 sum as it holds the other paths. Per tile at 96 rows this
// is 6144 dpwssd against 12288 FMAs, plus the weights' rounding and a
// conversion per output. (An f16 cache keeps f32 value sums: its values are
// no integers.)
constexpr bool k_lanes_int_values = V::registers >= 32;

// nk keys of a q8_0 V array at one head as key-pair words vW (KT / 2, D)
// (word d of pair kp: value d of keys 2kp and 2kp + 1, the second 0 past nk)
// and their block scales vs (KT, D / 32) (0 past nk). VV is V: a template, so
// that only the instruction sets that take this path compile it.
template <class VV>
inline void decode_value_pairs(const flash_job& a, const std::uint8_t* head, const std::int64_t* offs, int nk,
                               std::int32_t* vW, float* vs) {
    const int D = a.head_dim, NBk = D / k_query_block;
    for (int kp = 0; 2 * kp < nk; ++kp) {
        const std::uint8_t* r0 = head + offs[2 * kp];
        const std::uint8_t* r1 = 2 * kp + 1 < nk ? head + offs[2 * kp + 1] : nullptr;
        for (int b = 0; b < NBk; ++b) {
            const std::uint8_t* b0 = r0 + b * q8_0_block_bytes;
            const std::uint8_t* b1 = r1 ? r1 + b * q8_0_block_bytes : nullptr;
            vs[2 * kp * NBk + b] = q8_block_scale(b0);
            vs[(2 * kp + 1) * NBk + b] = b1 ? q8_block_scale(b1) : 0.0f;
            VV::pair_words(reinterpret_cast<const std::int8_t*>(b0 + 2),
                           b1 ? reinterpret_cast<const std::int8_t*>(b1 + 2) : nullptr, vW + kp * D + b * 32);
        }
    }
}

// The tile's integer weights: wW (D / 32, KT / 2, R) words, word (b, kp, r)
// = row r's rounded weights of keys 2kp and 2kp + 1 in block b; ws (D / 32,
// R) each row's unit: its largest weight in the tile and block (lanes_softmax
// found them: largest (D / 32, R)) over 32767, so none rounds past 32767. A
// key a row does not see has p = 0, so its unit and words depend on its
// visible keys alone and a prompt's chunks change no result (test_forward).
// pT (KT, R) the probabilities, vs (KT, D / 32) the value scales
// (decode_value_pairs).
template <class VV, int NB, int NBK>
inline void lanes_q8_value_weights(const float* pT, const float* vs, const float* largest, int R, int nk,
                                   std::int32_t* wW, float* ws) {
    constexpr int W = VV::width;
    const int KP = (nk + 1) / 2;
    const typename VV::reg zero = VV::zero();
    for (int nb = 0; nb < NB; ++nb) {
        typename VV::reg inv[NBK];
        for (int b = 0; b < NBK; ++b) {
            const typename VV::reg big = VV::load(largest + b * R + nb * W);
            // A row with no weight in the tile (all masked) keeps unit 0, words 0.
            inv[b] = VV::select(VV::equal(big, zero), zero, VV::div(VV::set1(32767.0f), big));
            VV::store(ws + b * R + nb * W, VV::mul(big, VV::set1(1.0f / 32767.0f)));
        }
        for (int kp = 0; kp < KP; ++kp) {
            const int k1 = std::min(2 * kp + 1, nk - 1);   // past nk: its scale is 0
            const typename VV::reg p0 = VV::load(pT + 2 * kp * R + nb * W), p1 = VV::load(pT + k1 * R + nb * W);
            for (int b = 0; b < NBK; ++b) {
                const typename VV::reg w0 = VV::mul(VV::mul(p0, VV::set1(vs[2 * kp * NBK + b])), inv[b]);
                const typename VV::reg w1 = VV::mul(VV::mul(p1, VV::set1(vs[(2 * kp + 1) * NBK + b])), inv[b]);
                VV::istore(wW + (b * KP + kp) * R + nb * W, VV::pack_pairs(VV::round_i(w0), VV::round_i(w1)));
            }
        }
    }
}

// oT rows d0..d0+DB-1 (within one block of 32) = oT * corr + unit * the
// tile's integer sums over its KP key pairs.
template <class VV, int NB, int DB>
inline void lanes_q8_values_step(float* oT, const std::int32_t* wW, const float* ws, const float* corr,
                                 const std::int32_t* vW, int D, int R, int KP, int d0) {
    constexpr int W = VV::width;
    const int b = d0 / k_query_block;
    typename VV::ireg acc[DB][NB];
    for (int i = 0; i < DB; ++i)
        for (int nb = 0; nb < NB; ++nb) acc[i][nb] = VV::iset1(0);
    for (int kp = 0; kp < KP; ++kp) {
        typename VV::ireg w[NB];
        for (int nb = 0; nb < NB; ++nb) w[nb] = VV::iload(wW + (b * KP + kp) * R + nb * W);
        for (int i = 0; i < DB; ++i) {
            const typename VV::ireg v = VV::iset1(vW[kp * D + d0 + i]);
            for (int nb = 0; nb < NB; ++nb) acc[i][nb] = VV::idot(acc[i][nb], v, w[nb]);
        }
    }
    for (int nb = 0; nb < NB; ++nb) {
        const typename VV::reg c = VV::load(corr + nb * W), unit = VV::load(ws + b * R + nb * W);
        for (int i = 0; i < DB; ++i) {
            float* out = oT + (d0 + i) * R + nb * W;
            VV::store(out, VV::fmadd(VV::cvt_i(acc[i][nb]), unit, VV::mul(VV::load(out), c)));
        }
    }
}

// The integer value sum's softmax and weights for NBK blocks of 32 dimensions.
template <int NB, int NBK>
inline void lanes_q8_softmax_weights(const lanes_softmax_step& t, const float* vs, float* largest, std::int32_t* wW,
                                     float* ws) {
    lanes_softmax<NB, NBK>(t, vs, largest);
    lanes_q8_value_weights<V, NB, NBK>(t.sT, vs, largest, t.R, t.nk, wW, ws);
}

// The same for the head's NBK blocks of 32 dimensions (2, 4, 6 or 8) at run time.
template <int NB>
inline void lanes_q8_softmax_weights_any(const lanes_softmax_step& t, int NBK, const float* vs, float* largest,
                                         std::int32_t* wW, float* ws) {
    switch (NBK) {
        case 2: lanes_q8_softmax_weights<NB, 2>(t, vs, largest, wW, ws); break;
        case 4: lanes_q8_softmax_weights<NB, 4>(t, vs, largest, wW, ws); break;
        case 6: lanes_q8_softmax_weights<NB, 6>(t, vs, largest, wW, ws); break;
        default: lanes_q8_softmax_weights<NB, 8>(t, vs, largest, wW, ws); break;
    }
}

// The whole job (lanes_apply(a)), NB = R / W; results as flash_job says: o (R, D), m, l (R).
template <kv_dtype DT, int NB>
void flash_lanes_run(const flash_job& a) {
    constexpr int W = V::width, DB = lanes_step<NB>();
    const int D = a.head_dim, G = a.group, R = NB * W;
    float* qT = a.work;             // (D, R) the queries; (R, D) the output at the end
    float* kbuf = qT + R * D;       // (KT, D) the tile's keys, f32
    float* vbuf = kbuf + KT * D;    // (KT, D) the tile's values, f32
    float* sT = vbuf + KT * D;      // (KT, R) the tile's scores, then probabilities
    float* corr = sT + R * KT;      // (R) each row's rescale factor for this tile
    // q8_0 with integer value sums (head sizes of 2, 4, 6 or 8 blocks of 32;
    // others sum in f32): the weights' words (D / 32, KT / 2, R), units and
    // largest weights (D / 32, R) each.
    constexpr bool int_capable = DT == kv_dtype::q8_0 && k_lanes_int_values;
    const bool int_values = int_capable && D % 64 == 0 && D <= 256;
    auto* wW = reinterpret_cast<std::int32_t*>(corr + R);
    float* ws = reinterpret_cast<float*>(wW + (D / k_query_block) * (KT / 2) * R);
    float* largest = ws + (D / k_query_block) * R;
    float* oT = a.o;                // (D, R) the output during the job
    alignas(64) float first[k_lanes_max_rows], last[k_lanes_max_rows];
    int max_first = 0, min_last = a.key_end;
    for (int t = 0; t < a.n_tok; ++t) {
        max_first = std::max(max_first, a.first[t]);
        min_last = std::min(min_last, a.last[t]);
    }
    // q8_0: the quantized rows in qT's space (words, scales, one row's room), the keys'
    // words and scales in kbuf's.
    auto* qW = reinterpret_cast<std::int32_t*>(qT);
    auto* dqT = reinterpret_cast<float*>(qW + R * D / V::q_word_elems);
    auto* kW = reinterpret_cast<std::int32_t*>(kbuf);
    float* kd = reinterpret_cast<float*>(kW + KT * D / V::q_word_elems);
    for (int r = 0; r < R; ++r) {
        const int t = std::min(r / G, a.n_tok - 1);   // padded rows: the last token's
        first[r] = static_cast<float>(a.first[t]);
        last[r] = static_cast<float>(a.last[t]);
        a.m[r] = -INFINITY;
        a.l[r] = 0;
        if constexpr (DT == kv_dtype::f16) {
            const float* src = a.q + t * a.q_stride + static_cast<std::int64_t>(r % G) * D;
            for (int d0 = 0; d0 < D; d0 += W) {
                alignas(64) float x[W];
                V::store(x, V::round_h(V::load(src + d0)));
                for (int i = 0; i < W; ++i) qT[(d0 + i) * R + r] = x[i];
            }
        }
    }
    if constexpr (DT == kv_dtype::q8_0) lanes_q8_queries(a, R, qW, dqT, reinterpret_cast<std::uint8_t*>(dqT + R * D / k_query_block));
    for (int i = 0; i < R * D; i += W) V::store(oT + i, V::zero());

    tile_walk walk(a);
    const std::int64_t* offs_now = walk.offs_now;
    for (int j0 = a.key_begin; j0 < a.key_end; j0 += KT) {
        const int nk = walk.enter(j0);
        if (!walk.visible(j0, nk)) {   // a tile outside every row's window
            walk.prefetch_next(0, KT);
            continue;
        }
        const bool full = max_first <= j0 && min_last >= j0 + nk - 1;   // every row sees every key of the tile
        if constexpr (DT == kv_dtype::q8_0) decode_key_words(a, a.k_layer + a.head_offset, offs_now, nk, kW, kd);
        else decode_tile<DT>(a, a.k_layer + a.head_offset, offs_now, nk, kbuf);
        // The f32 value sum's tile decoded with the keys; the integer value
        // sum's (key-pair words) below, with its weights.
        if (!int_values) decode_tile<DT>(a, a.v_layer + a.head_offset, offs_now, nk, vbuf);
        if constexpr (DT == kv_dtype::q8_0) lanes_q8_scores<NB>(qW, dqT, kW, kd, D, R, nk, a.scale, sT);
        else lanes_scores<NB>(qT, kbuf, D, R, nk, a.scale, sT);
        if (a.softcap > 0) soft_cap_scores(sT, nk * R, a.softcap);   // masked rows too: lanes_softmax drops them
        const lanes_softmax_step step{sT, R, nk, full, static_cast<float>(j0), first, last, a.m, a.l, corr};
        // The value sum in D / DB steps, the next tile's rows prefetched a
        // share with each (2 keys, 8 lines, per step at SmolLM2's geometry on
        // AVX2; two halves of 64 lines each between the phases filled Zen 2's
        // miss buffers).
        const auto value_sum = [&](auto&& value_step) {
            const int n_steps = D / DB;
            for (int i = 0; i < n_steps; ++i) {
                walk.prefetch_next(KT * i / n_steps, KT * (i + 1) / n_steps);
                value_step(i * DB);
            }
        };
        if constexpr (int_capable) {
            if (int_values) {   // the value tile as key-pair words and their scales, in vbuf's space
                auto* vW = reinterpret_cast<std::int32_t*>(vbuf);
                float* vs = reinterpret_cast<float*>(vW + (KT / 2) * D);
                decode_value_pairs<V>(a, a.v_layer + a.head_offset, offs_now, nk, vW, vs);
                lanes_q8_softmax_weights_any<NB>(step, D / k_query_block, vs, largest, wW, ws);
                const int KP = (nk + 1) / 2;   // key pairs
                value_sum([&](int d0) { lanes_q8_values_step<V, NB, DB>(oT, wW, ws, corr, vW, D, R, KP, d0); });
                continue;
            }
        }
        lanes_softmax<NB>(step);
        value_sum([&](int d0) { lanes_values_step<NB, DB>(oT, sT, corr, vbuf, D, R, nk, d0); });
    }
    // oT (D, R) to o (R, D), through qT's space.
    for (int d = 0; d < D; ++d)
        for (int r = 0; r < R; ++r) qT[r * D + d] = oT[d * R + r];
    std::copy(qT, qT + R * D, a.o);
}

// The job through flash_lanes_run for its register count; false when it does not apply.
template <kv_dtype DT>
bool flash_lanes_any(const flash_job& a) {
    if (!lanes_apply(a)) return false;
    switch (flash_prefill_rows(a.n_tok * a.group, V::width) / V::width) {
        case 1: flash_lanes_run<DT, 1>(a); return true;
        case 2: flash_lanes_run<DT, 2>(a); return true;
        case 3: flash_lanes_run<DT, 3>(a); return true;
        case 4: flash_lanes_run<DT, 4>(a); return true;
        default:
            if constexpr (k_lanes_max_blocks == 6) {
                if (flash_prefill_rows(a.n_tok * a.group, V::width) == 5 * V::width) flash_lanes_run<DT, 5>(a);
                else flash_lanes_run<DT, 6>(a);
                return true;
            }
            return false;   // not reached: lanes_apply caps the rows at k_lanes_max_rows
    }
}
