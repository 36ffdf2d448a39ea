// SPDX-License-Identifier: Apache-2.0
// The AVX2 kernels of the rows8 layout (rows8.h): one group of 8 q4_0 / q4_1 /
// q5_0 / q5_1 / q8_0 / iq4_nl rows against up to 4 tokens. Per group block, the 8 rows' quants are unpacked
// once (4 loads, low and high nibbles); per token, eight byte multiplies
// against the broadcast activation quants give one int32 block sum per row
// (lane r = row r), and one multiply-add per (token, block) scales all 8
// rows; q5 adds the fifth bits to the unpacked quants; q8_0 and iq4_nl
// multiply |w| against the activation with w's sign (rows8_signed).
// Written once for both ways of multiplying bytes: maddubs, adding in int16
// as far as no sum can overflow, then one madd widening to int32 (k_vnni
// false: every AVX2 CPU; q5 widens every 4 maddubs, q8_0 and iq4_nl each),
// or AVX-VNNI's vpdpbusd, which adds each 4 products straight into the
// int32 lanes (k_vnni true: Intel's cores since Alder Lake, AMD's since Zen
// 5). kernels_rows8_avx2.cpp and kernels_rows8_avxvnni.cpp include this file
// inside a namespace of their own that defines k_vnni, under their target
// pragmas. No include guard on purpose.

inline __m256i load256(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline __m256 load_f16x8(const std::uint8_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// A sub-block's 8 rows' quants (4 loads at q): [0, 4) the low nibbles
// (elements 4 i .. 4 i + 3 of every row), [4, 8) the high ones (16 + 4 i ..).
inline void unpack_nibbles(const std::uint8_t* q, __m256i wq[8]) {
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    for (int i = 0; i < 4; ++i) {
        const __m256i v = load256(q + 32 * i);
        wq[i] = _mm256_and_si256(v, low4);
        wq[4 + i] = _mm256_and_si256(_mm256_srli_epi16(v, 4), low4);
    }
}

// ORs bit `bit` (q5_K's fifth: 4, q3_K's third: 2) into every element from a
// plane of 8 transposed words (row r's: bit i of byte k is element 4 i + k's):
// register i's bits moved to `bit` of their own byte by one shift within
// 32-bit lanes (at most 5 places: no neighbouring byte's bit lands there),
// then masked.
template <int bit>
inline void or_plane_bits(__m256i wq[8], __m256i plane) {
    const __m256i mask = _mm256_set1_epi8(1 << bit);
    for (int i = 0; i < 8; ++i) {
        const __m256i at = i <= bit ? _mm256_slli_epi32(plane, bit - i) : _mm256_srli_epi32(plane, i - bit);
        wq[i] = _mm256_or_si256(wq[i], _mm256_and_si256(at, mask));
    }
}

// Token t's activation quants 4 k .. 4 k + 3 of block b broadcast to 32
// bytes (word k of the block's expansion), read from the expansion or, for
// a one-token call (a_rows), broadcast from the quantized row as they are
// loaded (one load on Zen 2 either way, and no expansion to write first:
// that took 1.1 % of a decode step's samples, on the caller's thread alone).
template <bool rows>
[[gnu::always_inline]] inline __m256i act_word(const row_group_args& g, int t, std::int64_t b, int k) {
    if constexpr (rows) {
        std::int32_t four;
        std::memcpy(&four, g.a + t * g.a_stride + b * g.a_block + g.a_qs + 4 * k, 4);
        return _mm256_set1_epi32(four);
    } else {
        return load256(g.a + t * g.a_stride + b * k_rows8_act_block_bytes + 32 * k);
    }
}

// Calls kernel(NT, rows) for the call: its token count and whether its
// activation is a quantized row (a_rows, one token) or an expansion.
template <class Kernel>
inline void with_rows8_call(const row_group_args& g, Kernel kernel) {
    if (g.a_rows) kernel(std::integral_constant<int, 1>{}, std::true_type{});
    else with_token_count(g, [&](auto nt) { kernel(nt, std::false_type{}); });
}

// Row r's exact block sum of q * a in int32 lane r: 8 multiplies of the
// unpacked quants (lo: elements 4 j .. 4 j + 3, hi: 16 + 4 j ..) with
// token t's broadcast quants of block b: maddubs added in int16 and widened
// once (q4's nibbles only: 8 x 2 x 15 x 127 < 2^15), or vpdpbusd into int32
// (any quants: q5's too).
template <bool rows>
inline __m256i block_sums(const __m256i lo[4], const __m256i hi[4], const row_group_args& g, int t, std::int64_t b) {
    if constexpr (k_vnni) {   // each 4 products straight into the int32 lanes
        __m256i s = _mm256_setzero_si256();
        for (int j = 0; j < 4; ++j) s = _mm256_dpbusd_avx_epi32(s, lo[j], act_word<rows>(g, t, b, j));
        for (int j = 0; j < 4; ++j) s = _mm256_dpbusd_avx_epi32(s, hi[j], act_word<rows>(g, t, b, 4 + j));
        return s;
    }
    __m256i s = _mm256_maddubs_epi16(lo[0], act_word<rows>(g, t, b, 0));
    for (int j = 1; j < 4; ++j) s = _mm256_add_epi16(s, _mm256_maddubs_epi16(lo[j], act_word<rows>(g, t, b, j)));
    for (int j = 0; j < 4; ++j) s = _mm256_add_epi16(s, _mm256_maddubs_epi16(hi[j], act_word<rows>(g, t, b, 4 + j)));
    return _mm256_madd_epi16(s, _mm256_set1_epi16(1));
}

// Decode streams each group block once: its kernels fetch a block's worth of
// lines (3 for 8 rows of q4 or q5 blocks, 5 for q8_0) 1 KiB ahead. Always
// inlined: GCC deletes calls to a function whose only effect is a prefetch.
template <int lines>
[[gnu::always_inline]] inline void prefetch_ahead(const std::uint8_t* blk) {
    for (int line = 0; line < lines; ++line) _mm_prefetch(reinterpret_cast<const char*>(blk) + 1024 + 64 * line, _MM_HINT_T0);
}

// y[t][r] = sum over blocks of d_r * d_t * (sum q a) (+ m_r * s_t for q4_1;
// q4_0's stored nibble is q + 8, so 8 * sum(a) comes off each block sum).
template <bool has_min, int NT, bool rows>
void rows8_q4(const row_group_args& g) {
    constexpr int scale_bytes = has_min ? 32 : 16;
    constexpr int group_block = 8 * (has_min ? sizeof(block_q4_1) : sizeof(block_q4_0));
    __m256 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm256_setzero_ps();
    const std::uint8_t* blk = g.w;
    for (std::int64_t b = 0; b < g.nb; ++b, blk += group_block) {
        prefetch_ahead<3>(blk);
        const __m256 d8 = load_f16x8(blk);
        __m256i wq[8];   // [0, 4) low nibbles, [4, 8) high
        unpack_nibbles(blk + scale_bytes, wq);
        const __m256i* lo = wq;
        const __m256i* hi = wq + 4;
        for (int t = 0; t < NT; ++t) {
            const std::int64_t at = t * g.a_scalars + b;
            __m256i s = block_sums<rows>(lo, hi, g, t, b);
            if constexpr (!has_min) s = _mm256_sub_epi32(s, _mm256_set1_epi32(8 * g.aq_sum[at]));
            acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), _mm256_mul_ps(d8, _mm256_broadcast_ss(g.ad + at)), acc[t]);
            if constexpr (has_min) acc[t] = _mm256_fmadd_ps(load_f16x8(blk + 16), _mm256_broadcast_ss(g.as + at), acc[t]);
        }
    }
    for (int t = 0; t < NT; ++t) _mm256_storeu_ps(g.y + t * g.ldy, acc[t]);
}

// y[t][r] = sum over blocks of d_r * d_t * (sum w a) for rows of signed
// 8-bit weights w against q8_0 activations: q8_0's quants, or iq4_nl's
// levels k_iq4_values (its blocks are q4_0's bytes, each nibble an index:
// one byte shuffle per register). maddubs takes an unsigned operand, so each
// 32-byte word (4 weights of each of the 8 rows) multiplies as |w| against
// the token's broadcast quants with w's sign; a pair's sum is at most 2 *
// 128 * 127 < 2^15, but two pairs' may not be, so each maddubs is widened at
// once. Word by word, each word made once for all tokens (keeping all 8
// words and their magnitudes for the token loop took every register: they
// spilled and were loaded twice).
template <bool iq4, int NT, bool rows>
void rows8_signed(const row_group_args& g) {
    constexpr int group_block = 8 * (iq4 ? sizeof(block_iq4_nl) : sizeof(block_q8_0));   // 144 / 272 bytes
    const __m256i ones = _mm256_set1_epi16(1), low4 = _mm256_set1_epi8(0x0F);
    const __m256i table = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(k_iq4_values)));
    __m256 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm256_setzero_ps();
    const std::uint8_t* blk = g.w;
    for (std::int64_t b = 0; b < g.nb; ++b, blk += group_block) {
        prefetch_ahead<iq4 ? 3 : 5>(blk);
        const __m256 d8 = load_f16x8(blk);
        __m256i s[NT];
        for (int t = 0; t < NT; ++t) s[t] = _mm256_setzero_si256();
        for (int j = 0; j < 8; ++j) {
            __m256i w;
            if constexpr (iq4) {   // j < 4: low nibbles of load j (elements 4 j ..), else high of load j - 4
                const __m256i v = load256(blk + 16 + 32 * (j % 4));
                w = _mm256_shuffle_epi8(table, _mm256_and_si256(j < 4 ? v : _mm256_srli_epi16(v, 4), low4));
            } else {
                w = load256(blk + 16 + 32 * j);
            }
            const __m256i wabs = _mm256_abs_epi8(w);
            for (int t = 0; t < NT; ++t) {
                const __m256i signed_a = _mm256_sign_epi8(act_word<rows>(g, t, b, j), w);
                if constexpr (k_vnni) {
                    s[t] = _mm256_dpbusd_avx_epi32(s[t], wabs, signed_a);
                } else {
                    const __m256i p = _mm256_maddubs_epi16(wabs, signed_a);
                    s[t] = _mm256_add_epi32(s[t], _mm256_madd_epi16(p, ones));
                }
            }
        }
        for (int t = 0; t < NT; ++t)
            acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s[t]), _mm256_mul_ps(d8, _mm256_broadcast_ss(g.ad + t * g.a_scalars + b)), acc[t]);
    }
    for (int t = 0; t < NT; ++t) _mm256_storeu_ps(g.y + t * g.ldy, acc[t]);
}

template <bool iq4>
void rows8_signed_dispatch(const row_group_args& g) {
    with_rows8_call(g, [&](auto nt, auto rows) { rows8_signed<iq4, decltype(nt)::value, decltype(rows)::value>(g); });
}

// y[t][r] = sum over blocks of d_r * d_t * (sum q a) (+ m_r * s_t for q5_1;
// q5_0's stored value is q + 16, so 16 * sum(a) comes off each block sum).
// The 5-bit quants are unpacked once per group block for all tokens; a pair
// of products reaches 2 * 31 * 127, so 4 maddubs add up in int16 (31496 <
// 2^15) before each widening.
template <bool has_min, int NT, bool rows>
void rows8_q5(const row_group_args& g) {
    constexpr rows8_header h = rows8_header_of(has_min ? ggml_type::q5_1 : ggml_type::q5_0);
    constexpr int group_block = 8 * (has_min ? sizeof(block_q5_1) : sizeof(block_q5_0));   // 192 / 176 bytes
    const __m256i ones = _mm256_set1_epi16(1);
    __m256 acc[NT];
    for (int t = 0; t < NT; ++t) acc[t] = _mm256_setzero_ps();
    const std::uint8_t* blk = g.w;
    for (std::int64_t b = 0; b < g.nb; ++b, blk += group_block) {
        prefetch_ahead<3>(blk);
        const __m256 d8 = load_f16x8(blk);
        __m256i wq[8];   // [0, 4) low nibbles, [4, 8) high, each with its fifth bits
        unpack_nibbles(blk + h.qs_at, wq);
        or_plane_bits<4>(wq, load256(blk + h.qh_at));
        const __m256i* lo = wq;
        const __m256i* hi = wq + 4;
        for (int t = 0; t < NT; ++t) {
            const std::int64_t at = t * g.a_scalars + b;
            __m256i s;
            if constexpr (k_vnni) {
                s = block_sums<rows>(lo, hi, g, t, b);
            } else {
                __m256i slo = _mm256_maddubs_epi16(lo[0], act_word<rows>(g, t, b, 0));
                __m256i shi = _mm256_maddubs_epi16(hi[0], act_word<rows>(g, t, b, 4));
                for (int j = 1; j < 4; ++j) {
                    slo = _mm256_add_epi16(slo, _mm256_maddubs_epi16(lo[j], act_word<rows>(g, t, b, j)));
                    shi = _mm256_add_epi16(shi, _mm256_maddubs_epi16(hi[j], act_word<rows>(g, t, b, 4 + j)));
                }
                s = _mm256_add_epi32(_mm256_madd_epi16(slo, ones), _mm256_madd_epi16(shi, ones));
            }
            if constexpr (!has_min) s = _mm256_sub_epi32(s, _mm256_set1_epi32(16 * g.aq_sum[at]));
            acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), _mm256_mul_ps(d8, _mm256_broadcast_ss(g.ad + at)), acc[t]);
            if constexpr (has_min) acc[t] = _mm256_fmadd_ps(load_f16x8(blk + h.m_at), _mm256_broadcast_ss(g.as + at), acc[t]);
        }
    }
    for (int t = 0; t < NT; ++t) _mm256_storeu_ps(g.y + t * g.ldy, acc[t]);
}

template <bool has_min>
void rows8_q5_dispatch(const row_group_args& g) {
    with_rows8_call(g, [&](auto nt, auto rows) { rows8_q5<has_min, decltype(nt)::value, decltype(rows)::value>(g); });
}

template <bool has_min>
void rows8_dispatch(const row_group_args& g) {
    with_rows8_call(g, [&](auto nt, auto rows) { rows8_q4<has_min, decltype(nt)::value, decltype(rows)::value>(g); });
}

// This file's kernel for weight type t; nullptr for the K-quants and other types.
row_group_fn kernel_for(ggml_type t) {
    if (t == ggml_type::q4_1) return rows8_dispatch<true>;
    if (t == ggml_type::q4_0) return rows8_dispatch<false>;
    if (t == ggml_type::q5_1) return rows8_q5_dispatch<true>;
    if (t == ggml_type::q5_0) return rows8_q5_dispatch<false>;
    if (t == ggml_type::q8_0) return rows8_signed_dispatch<false>;
    if (t == ggml_type::iq4_nl) return rows8_signed_dispatch<true>;
    return nullptr;
}
