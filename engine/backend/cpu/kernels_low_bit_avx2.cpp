// SPDX-License-Identifier: Apache-2.0
// AVX2 dot products of the 1- to 3-bit types (IQ2_XXS .. IQ1_M, TQ1_0, TQ2_0,
// against q8_K) and MXFP4 (against q8_0); the avx512 level uses them too.
//
// Strategy, per sub-block of 32 elements: the codebook entries of its groups
// are looked up in scalar code and put side by side in one register (32
// unsigned magnitudes, element order; AVX2's gather was slower on Zen 5); the
// weights' signs are applied to the activations instead (sign_epi8), so
// maddubs multiplies unsigned magnitudes by signed activations. Its int16 pair sums (|sum| <= 2 * 62 * 127) never
// saturate; madd_epi16 weights them by the sub-block's odd multipliers 2 s + 1
// (one per 16 elements: the low 128-bit lane holds elements 0..15) into int32.
// The integer sums are exact, so every result equals the scalar reference's
// (quants_scalar_low_bit.cpp) as long as the float steps are its own, in its
// order: one product per super-block added to a running sum, kept from
// fusing into an FMA (rounded()). MXFP4, whose blocks of 32 make that order
// cost a horizontal sum per block, sums in f32 lanes instead and equals the
// reference within n 2^-24 sum |w a| (its dots 1.3x as fast). The sub-block loops
// are unrolled (#pragma GCC unroll 8): the multiplier picks become constants
// and neighbouring sub-blocks' lookups overlap (IQ2_S, IQ3_XXS, IQ1: 10-20%).
//
// As in kernels_avx2.cpp only the kernel bodies are compiled for AVX2; the
// table entries at the end are built by plain x86-64 code.
#include <immintrin.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "engine/backend/cpu/kernel_tables.h"
#include "engine/backend/cpu/simd_target.h"
#include "engine/quant/iq_grids.h"
#include "engine/quant/quant_blocks_low_bit.h"

namespace kvlens {
namespace {

// The sign patterns of the 7-bit sign indices (IQ2_XXS, IQ2_XS, IQ3_XXS) as
// 8 bytes each: byte j is -1 (0xFF) where iq_sign_byte negates element j, else +1.
constexpr std::array<std::uint64_t, 128> make_sign_pm1() {
    std::array<std::uint64_t, 128> t{};
    for (unsigned i = 0; i < 128; ++i)
        for (int j = 0; j < 8; ++j)
            t[i] |= static_cast<std::uint64_t>((iq_sign_byte(i) >> j) & 1 ? 0xFF : 0x01) << (8 * j);
    return t;
}
constexpr std::array<std::uint64_t, 128> k_sign_pm1 = make_sign_pm1();

inline std::uint32_t load_u32(const void* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
inline std::uint16_t load_u16(const void* p) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

// x as the float it is: an empty asm the compiler cannot see through, so a
// product is rounded before the add that follows (an FMA would round once,
// the scalar reference rounds twice).
inline float rounded(float x) {
    __asm__("" : "+x"(x));
    return x;
}

}  // namespace
}  // namespace kvlens

KVLENS_SIMD_BEGIN_AVX2

namespace kvlens {
namespace {

// ---- helpers ----------------------------------------------------------------------------

inline __m256i load256(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline float h2f(std::uint16_t h) { return _cvtsh_ss(h); }

inline int hsum_epi32(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(s);
}

// The 16 odd multipliers of a super-block whose 4-bit sub-scales sit in 8
// bytes (IQ2_XS, IQ2_S: low nibble for elements 0..15 of sub-block ib, high
// for 16..31), as bytes 2 s + 1 in half order (byte 2 ib + h), in both lanes.
inline __m256i nibble_multipliers(const std::uint8_t* scales) {
    const __m128i s = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(scales));
    const __m128i lo = _mm_and_si128(s, _mm_set1_epi8(0x0F));
    const __m128i hi = _mm_and_si128(_mm_srli_epi16(s, 4), _mm_set1_epi8(0x0F));
    const __m128i halves = _mm_unpacklo_epi8(lo, hi);
    const __m128i m = _mm_add_epi8(_mm_add_epi8(halves, halves), _mm_set1_epi8(1));
    return _mm256_broadcastsi128_si256(m);
}

// Sub-block ib's two multipliers out of nibble_multipliers as int16 lanes
// (the 0x80 index bytes zero the high byte of each int16).
inline __m256i pick_halves(__m256i multipliers, int ib) {
    const short lo = static_cast<short>(0x8000 | (2 * ib)), hi = static_cast<short>(0x8000 | (2 * ib + 1));
    return _mm256_shuffle_epi8(multipliers, _mm256_set_m128i(_mm_set1_epi16(hi), _mm_set1_epi16(lo)));
}

// 4 sign bytes (bit j of byte k negates element 8 k + j) as 32 bytes of -1 / +1.
inline __m256i signs_pm1(const std::uint8_t* signs) {
    const __m256i which = _mm256_setr_epi64x(0, 0x0101010101010101LL, 0x0202020202020202LL, 0x0303030303030303LL);
    const __m256i spread = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(load_u32(signs))), which);
    const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ULL));
    const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
    return _mm256_or_si256(set, _mm256_set1_epi8(1));
}

// Four 7-bit sign indices (element groups of 8, in order) as 32 bytes of -1 / +1.
inline __m256i sign_indices_pm1(unsigned s0, unsigned s1, unsigned s2, unsigned s3) {
    return _mm256_set_epi64x(static_cast<long long>(k_sign_pm1[s3]), static_cast<long long>(k_sign_pm1[s2]),
                             static_cast<long long>(k_sign_pm1[s1]), static_cast<long long>(k_sign_pm1[s0]));
}

// Four 8-byte codebook entries, elements 0..31 in order.
template <class Grid>
inline __m256i grid4(const Grid& grid, unsigned i0, unsigned i1, unsigned i2, unsigned i3) {
    return _mm256_set_epi64x(static_cast<long long>(grid[i3]), static_cast<long long>(grid[i2]),
                             static_cast<long long>(grid[i1]), static_cast<long long>(grid[i0]));
}

// Eight 4-byte codebook entries (IQ3), elements 0..31 in order.
template <class Grid>
inline __m256i grid8(const Grid& grid, const unsigned i[8]) {
    return _mm256_set_epi32(static_cast<int>(grid[i[7]]), static_cast<int>(grid[i[6]]), static_cast<int>(grid[i[5]]),
                            static_cast<int>(grid[i[4]]), static_cast<int>(grid[i[3]]), static_cast<int>(grid[i[2]]),
                            static_cast<int>(grid[i[1]]), static_cast<int>(grid[i[0]]));
}

// One sub-block's sum_j m(j) grid_j sign_j q_j as 8 int32 lanes: grid
// magnitudes (unsigned bytes), signs -1 / +1, the activations q, and the
// multipliers as madd_epi16 takes them.
inline __m256i signed_grid_dot(__m256i grid, __m256i signs, const std::int8_t* q, __m256i multipliers) {
    const __m256i p = _mm256_maddubs_epi16(grid, _mm256_sign_epi8(load256(q), signs));
    return _mm256_madd_epi16(p, multipliers);
}

// ---- IQ2 and IQ3: codebook magnitudes, signs apart ----------------------------------------
// Per super-block the int32 sum over its sub-blocks, then sum += d_w d_a bsum;
// the unit (1/8, 1/4, 1) multiplies the total, as in the scalar kernel.

float dot_iq2_xxs_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq2_xxs*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const std::uint32_t idx = load_u32(w[b].qs + 4 * ib);       // 4 grid indices, a byte each
            const std::uint32_t sgn = load_u32(w[b].qs + 4 * ib + 2);   // 4 sign indices of 7 bits, s in bits 28..31
            const __m256i grid = grid4(iq2xxs_grid, idx & 0xFF, (idx >> 8) & 0xFF, (idx >> 16) & 0xFF, idx >> 24);
            const __m256i signs = sign_indices_pm1(sgn & 127, (sgn >> 7) & 127, (sgn >> 14) & 127, (sgn >> 21) & 127);
            const __m256i m = _mm256_set1_epi16(static_cast<short>(2 * (sgn >> 28) + 1));
            acc = _mm256_add_epi32(acc, signed_grid_dot(grid, signs, a[b].qs + 32 * ib, m));
        }
        sum += rounded(h2f(w[b].d) * a[b].d * static_cast<float>(hsum_epi32(acc)));
    }
    return 0.125f * sum;
}

float dot_iq2_xs_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq2_xs*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const __m256i multipliers = nibble_multipliers(w[b].scales);
        __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const std::uint16_t* q = w[b].qs + 4 * ib;   // per group: grid index in bits 0..8, sign index in 9..15
            const __m256i grid = grid4(iq2xs_grid, q[0] & 511u, q[1] & 511u, q[2] & 511u, q[3] & 511u);
            const __m256i signs = sign_indices_pm1(q[0] >> 9, q[1] >> 9, q[2] >> 9, q[3] >> 9);
            acc = _mm256_add_epi32(acc, signed_grid_dot(grid, signs, a[b].qs + 32 * ib, pick_halves(multipliers, ib)));
        }
        sum += rounded(h2f(w[b].d) * a[b].d * static_cast<float>(hsum_epi32(acc)));
    }
    return 0.125f * sum;
}

float dot_iq2_s_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq2_s*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const __m256i multipliers = nibble_multipliers(w[b].scales);
        __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const std::uint8_t* qs = w[b].qs + 4 * ib;
            const unsigned qh = w[b].qh[ib];   // bits 2 l, 2 l + 1: bits 8, 9 of group l's index
            const __m256i grid = grid4(iq2s_grid, qs[0] | ((qh << 8) & 0x300), qs[1] | ((qh << 6) & 0x300),
                                       qs[2] | ((qh << 4) & 0x300), qs[3] | ((qh << 2) & 0x300));
            const __m256i signs = signs_pm1(w[b].signs + 4 * ib);
            acc = _mm256_add_epi32(acc, signed_grid_dot(grid, signs, a[b].qs + 32 * ib, pick_halves(multipliers, ib)));
        }
        sum += rounded(h2f(w[b].d) * a[b].d * static_cast<float>(hsum_epi32(acc)));
    }
    return 0.125f * sum;
}

float dot_iq3_xxs_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq3_xxs*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const std::uint8_t* g = w[b].grid + 8 * ib;   // 8 grid indices, 4 elements each
            const unsigned index[8] = {g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]};
            const std::uint32_t sgn = load_u32(w[b].scales_signs + 4 * ib);   // 4 sign indices of 7 bits, s in 28..31
            const __m256i grid = grid8(iq3xxs_grid, index);
            const __m256i signs = sign_indices_pm1(sgn & 127, (sgn >> 7) & 127, (sgn >> 14) & 127, (sgn >> 21) & 127);
            const __m256i m = _mm256_set1_epi16(static_cast<short>(2 * (sgn >> 28) + 1));
            acc = _mm256_add_epi32(acc, signed_grid_dot(grid, signs, a[b].qs + 32 * ib, m));
        }
        sum += rounded(h2f(w[b].d) * a[b].d * static_cast<float>(hsum_epi32(acc)));
    }
    return 0.25f * sum;
}

// The 8 grid indices of an IQ3_S sub-block, qs[k] | bit k of qh << 8, worked
// out in one register (fewer scalar steps than 8 shifts and masks).
inline void iq3_s_indices(const std::uint8_t* qs, unsigned qh, unsigned index[8]) {
    const __m256i low = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(qs)));
    const __m256i bit8 = _mm256_sllv_epi32(_mm256_set1_epi32(static_cast<int>(qh)), _mm256_setr_epi32(8, 7, 6, 5, 4, 3, 2, 1));
    _mm256_store_si256(reinterpret_cast<__m256i*>(index), _mm256_or_si256(low, _mm256_and_si256(bit8, _mm256_set1_epi32(0x100))));
}

float dot_iq3_s_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq3_s*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const std::uint8_t* qs = w[b].qs + 8 * ib;
            const unsigned qh = w[b].qh[ib];   // bit k: bit 8 of group k's index
            alignas(32) unsigned index[8];
            iq3_s_indices(qs, qh, index);
            const __m256i grid = grid8(iq3s_grid, index);
            const __m256i signs = signs_pm1(w[b].signs + 4 * ib);
            const int s = (w[b].scales[ib / 2] >> (4 * (ib % 2))) & 0xF;
            const __m256i m = _mm256_set1_epi16(static_cast<short>(2 * s + 1));
            acc = _mm256_add_epi32(acc, signed_grid_dot(grid, signs, a[b].qs + 32 * ib, m));
        }
        sum += rounded(h2f(w[b].d) * a[b].d * static_cast<float>(hsum_epi32(acc)));
    }
    return sum;
}

// ---- IQ1: signed codebook values -1 / 0 / 1, shifted by +-1/8 --------------------------------
// grid_sum = sum m v q: sign_epi8(q, v) is v q (zero where v is), summed by
// maddubs against ones. shift_sum = sum m shift q: IQ1_S has one shift per
// sub-block, so it is m * shift against the sub-block's two q8_K bsums, one
// madd per super-block; IQ1_M's shift changes every 8 elements and goes into
// the product itself (see below). Then d_w d_a (grid_sum + shift_sum / 8),
// as the scalar. The multipliers and shifts are unpacked once per super-block.

// Lane ib (int16) of v in every int16 lane of both 128-bit lanes (v: the same 8 int16 in both).
inline __m256i broadcast_lane16(__m256i v, int ib) {
    return _mm256_shuffle_epi8(v, _mm256_set1_epi16(static_cast<short>(0x0100 * (2 * ib + 1) + 2 * ib)));
}

float dot_iq1_s_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq1_s*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m256i ones = _mm256_set1_epi8(1);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        // Per sub-block (int16 lane ib of qh): m = 2 s + 1 (bits 12..14) and m * shift (bit 15 set: -m).
        const __m128i qh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w[b].qh));
        const __m128i m = _mm_or_si128(_mm_and_si128(_mm_srli_epi16(qh, 11), _mm_set1_epi16(0xE)), _mm_set1_epi16(1));
        const __m128i negative = _mm_srai_epi16(qh, 15);
        const __m128i m_shift = _mm_sub_epi16(_mm_xor_si128(m, negative), negative);
        // shift_sum: each sub-block's m * shift against its two bsums (lanes 2 ib, 2 ib + 1).
        const __m256i m_shift2 = _mm256_set_m128i(_mm_unpackhi_epi16(m_shift, m_shift), _mm_unpacklo_epi16(m_shift, m_shift));
        const int shift_sum = hsum_epi32(_mm256_madd_epi16(load256(a[b].bsums), m_shift2));
        const __m256i m2 = _mm256_broadcastsi128_si256(m);
        __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const std::uint8_t* qs = w[b].qs + 4 * ib;
            const unsigned h = w[b].qh[ib];   // bits 3 l .. 3 l + 2: high bits of group l's index
            const __m256i grid = grid4(iq1s_grid, qs[0] | ((h << 8) & 0x700), qs[1] | ((h << 5) & 0x700),
                                       qs[2] | ((h << 2) & 0x700), qs[3] | ((h >> 1) & 0x700));
            const __m256i p = _mm256_maddubs_epi16(ones, _mm256_sign_epi8(load256(a[b].qs + 32 * ib), grid));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(p, broadcast_lane16(m2, ib)));
        }
        const float grid_sum = static_cast<float>(hsum_epi32(acc));
        sum += rounded(h2f(w[b].d) * a[b].d * (grid_sum + k_iq1_delta * static_cast<float>(shift_sum)));
    }
    return sum;
}

// The shifts of an IQ1_M super-block's 32 groups as bytes -1 / +1 (group
// g's: bit 3 of qh[g / 2] for even g, bit 7 for odd, set: -1), groups
// 0..15 in shifts[0] and 16..31 in shifts[1], each in both lanes.
inline void iq1_m_group_shifts(const std::uint8_t* qh, __m256i shifts[2]) {
    const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qh));
    const __m128i bit3_up = _mm_slli_epi16(bits, 4);   // bit 3 of each byte to bit 7 (the sign)
    const __m128i one = _mm_set1_epi8(1);
    const __m128i lo = _mm_or_si128(_mm_unpacklo_epi8(bit3_up, bits), one);   // never 0, negative where set
    const __m128i hi = _mm_or_si128(_mm_unpackhi_epi8(bit3_up, bits), one);
    shifts[0] = _mm256_broadcastsi128_si256(_mm_sign_epi8(one, lo));
    shifts[1] = _mm256_broadcastsi128_si256(_mm_sign_epi8(one, hi));
}

// Sub-block ib's 32 shift bytes (group 4 ib + l for elements 8 l ..) out of iq1_m_group_shifts.
inline __m256i pick_shifts(const __m256i shifts[2], int ib) {
    const char g = static_cast<char>(4 * (ib % 4));
    const __m256i index = _mm256_setr_epi8(g, g, g, g, g, g, g, g, g + 1, g + 1, g + 1, g + 1, g + 1, g + 1, g + 1, g + 1,
                                           g + 2, g + 2, g + 2, g + 2, g + 2, g + 2, g + 2, g + 2, g + 3, g + 3, g + 3, g + 3,
                                           g + 3, g + 3, g + 3, g + 3);
    return _mm256_shuffle_epi8(shifts[ib / 4], index);
}

// The 16 multipliers 2 s + 1 of an IQ1_M super-block as bytes in half order
// (j = 2 ib + h), in both lanes, as pick_halves takes them: s is bits
// 3 (j % 4) .. + 2 of scale word j / 4, moved to bits 9..11 by a multiply.
inline __m256i iq1_m_multipliers(const std::uint8_t* scales) {
    const __m128i words = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(scales));
    const __m128i to_bit9 = _mm_setr_epi16(512, 64, 8, 1, 512, 64, 8, 1);
    const __m128i seven = _mm_set1_epi16(7);
    const __m128i lo = _mm_shuffle_epi8(words, _mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3));   // j 0..7
    const __m128i hi = _mm_shuffle_epi8(words, _mm_setr_epi8(4, 5, 4, 5, 4, 5, 4, 5, 6, 7, 6, 7, 6, 7, 6, 7)); // j 8..15
    const __m128i s_lo = _mm_and_si128(_mm_srli_epi16(_mm_mullo_epi16(lo, to_bit9), 9), seven);
    const __m128i s_hi = _mm_and_si128(_mm_srli_epi16(_mm_mullo_epi16(hi, to_bit9), 9), seven);
    const __m128i s = _mm_packus_epi16(s_lo, s_hi);
    return _mm256_broadcastsi128_si256(_mm_add_epi8(_mm_add_epi8(s, s), _mm_set1_epi8(1)));
}

// IQ1_M in one product: 8 v + shift (in -9..9, exact in int8) against q,
// times m, sums to 8 grid_sum + shift_sum; its eighth is grid_sum + shift_sum
// / 8 exactly (|8 grid_sum + shift_sum| < 2^23, so every step is exact in
// f32), the value the scalar kernel's float sum rounds to without error.
float dot_iq1_m_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_iq1_m*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m256i eight = _mm256_set1_epi8(8);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const __m256i multipliers = iq1_m_multipliers(w[b].scales);
        __m256i shifts[2];
        iq1_m_group_shifts(w[b].qh, shifts);
        __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int ib = 0; ib < QK_K / 32; ++ib) {
            const std::uint8_t* qs = w[b].qs + 4 * ib;
            const unsigned qh = load_u16(w[b].qh + 2 * ib);   // nibble l: 3 high index bits of group l, bit 3 its shift
            const __m256i grid = grid4(iq1s_grid, qs[0] | ((qh << 8) & 0x700), qs[1] | ((qh << 4) & 0x700),
                                       qs[2] | (qh & 0x700), qs[3] | ((qh >> 4) & 0x700));
            const __m256i v8 = _mm256_add_epi8(_mm256_sign_epi8(eight, grid), pick_shifts(shifts, ib));
            const __m256i p = _mm256_maddubs_epi16(_mm256_abs_epi8(v8), _mm256_sign_epi8(load256(a[b].qs + 32 * ib), v8));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(p, pick_halves(multipliers, ib)));
        }
        const float total = k_iq1_delta * static_cast<float>(hsum_epi32(acc));
        sum += rounded(h2f(iq1_m_d_bits(w[b])) * a[b].d * total);
    }
    return sum;
}

// ---- ternary: value d (t - 1), t in 0..2 ------------------------------------------------
// sum (t - 1) q = sum t q - sum q: maddubs multiplies the unsigned t (pair
// sums <= 2 * 3 * 127, at most 8 of them added in int16 per super-block), the
// sum of q comes from q8_K's bsums. Then sum += sumi * (d_w d_a).

// sum_t_q (int16 pairs, madd'ed to int32) minus the 16 bsums, as 8 int32 lanes.
inline __m256i minus_q_sum(__m256i t_q16, const std::int16_t* bsums) {
    const __m256i ones16 = _mm256_set1_epi16(1);
    return _mm256_sub_epi32(_mm256_madd_epi16(t_q16, ones16), _mm256_madd_epi16(load256(bsums), ones16));
}

float dot_tq2_0_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_tq2_0*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    const __m256i low2 = _mm256_set1_epi8(3);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        __m256i acc = _mm256_setzero_si256();   // int16 pair sums of t q
        for (int h = 0; h < 2; ++h) {
            const __m256i qs = load256(w[b].qs + 32 * h);   // element 128 h + 32 k + l: bits 2 k .. 2 k + 1 of byte l
            for (int k = 0; k < 4; ++k) {
                const __m256i t = _mm256_and_si256(_mm256_srli_epi16(qs, 2 * k), low2);
                acc = _mm256_add_epi16(acc, _mm256_maddubs_epi16(t, load256(a[b].qs + 128 * h + 32 * k)));
            }
        }
        const int sumi = hsum_epi32(minus_q_sum(acc, a[b].bsums));
        sum += rounded(static_cast<float>(sumi) * (h2f(w[b].d) * a[b].d));
    }
    return sum;
}

// y * 3 mod 256 per byte: the next trit of a TQ1_0 byte moves to the top.
inline __m256i times3(__m256i y) { return _mm256_add_epi8(_mm256_add_epi8(y, y), y); }
inline __m128i times3(__m128i y) { return _mm_add_epi8(_mm_add_epi8(y, y), y); }

// The top trit t = (3 y) >> 8 of bytes y: 3 y >= 256 from y = 86 on, 3 y >=
// 512 from y = 171, so t = (y > 85) + (y > 170), each test as min(y -sat c, 1)
// (unsigned saturating subtract: 0 up to c).
inline __m256i top_trit(__m256i y) {
    const __m256i one = _mm256_set1_epi8(1);
    const __m256i gt85 = _mm256_min_epu8(_mm256_subs_epu8(y, _mm256_set1_epi8(85)), one);
    const __m256i gt170 = _mm256_min_epu8(_mm256_subs_epu8(y, _mm256_set1_epi8(static_cast<char>(170))), one);
    return _mm256_add_epi8(gt85, gt170);
}

// The 4 qh bytes of a TQ1_0 block ready for top_trit in element order 240 +
// 4 k + b: 32-bit word k is the 4 bytes times 3^k (mod 256 each).
inline __m128i tq1_qh_powers(const std::uint8_t* qh) {
    const __m128i y0 = _mm_set1_epi32(static_cast<int>(load_u32(qh)));
    const __m128i y1 = times3(y0), y2 = times3(y1), y3 = times3(y2);
    return _mm_blend_epi32(_mm_blend_epi32(_mm_blend_epi32(y0, y1, 0b0010), y2, 0b0100), y3, 0b1000);
}

float dot_tq1_0_q8_K_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_tq1_0*>(vw);
    auto* a = static_cast<const block_q8_K*>(va);
    float sum = 0;
    for (std::int64_t b = 0; b < n / QK_K; ++b) {
        const std::int8_t* q = a[b].qs;
        __m256i acc = _mm256_setzero_si256();   // int16 pair sums of t q
        // qs[0..32): trit k of byte l is element 32 k + l.
        __m256i y = load256(w[b].qs);
        for (int k = 0; k < 5; ++k, y = times3(y))
            acc = _mm256_add_epi16(acc, _mm256_maddubs_epi16(top_trit(y), load256(q + 32 * k)));
        // qs[32..48): trit k of byte l is element 160 + 16 k + l, so trits k, k + 1 make 32 elements in a row.
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w[b].qs + 32));
        __m256i z = _mm256_set_m128i(times3(x), x);   // trits 0 | 1
        acc = _mm256_add_epi16(acc, _mm256_maddubs_epi16(top_trit(z), load256(q + 160)));
        z = times3(times3(z));                           // trits 2 | 3
        acc = _mm256_add_epi16(acc, _mm256_maddubs_epi16(top_trit(z), load256(q + 192)));
        z = times3(times3(z));                           // trit 4, then the qh trits (elements 240..255)
        z = _mm256_inserti128_si256(z, tq1_qh_powers(w[b].qh), 1);
        acc = _mm256_add_epi16(acc, _mm256_maddubs_epi16(top_trit(z), load256(q + 224)));
        const int sumi = hsum_epi32(minus_q_sum(acc, a[b].bsums));
        sum += rounded(static_cast<float>(sumi) * (h2f(w[b].d) * a[b].d));
    }
    return sum;
}

// ---- MXFP4 against q8_0 ------------------------------------------------------------------
// The nibbles pick doubled E2M1 levels (signed bytes, |level| <= 12) by
// pshufb; maddubs takes |level| against q with the level's sign. Per block of
// 32: 2^(e - 128) * d_a times its integer sums, in f32 lanes (not the
// scalar kernel's order: below).

// A block's products as 8 int32 lanes (their sum is the block's sumi).
inline __m256i mxfp4_block_dot(const block_mxfp4& w, const block_q8_0& a, __m256i levels) {
    const __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w.qs));
    const __m256i nibbles = _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(packed, 4), packed), _mm256_set1_epi8(0x0F));
    const __m256i v = _mm256_shuffle_epi8(levels, nibbles);   // elements 0..15: low nibbles, 16..31: high
    const __m256i p = _mm256_maddubs_epi16(_mm256_abs_epi8(v), _mm256_sign_epi8(load256(a.qs), v));
    return _mm256_madd_epi16(p, _mm256_set1_epi16(1));
}

inline float mxfp4_scale(const block_mxfp4& w, const block_q8_0& a) { return e8m0_half_to_float(w.e) * h2f(a.d); }

float dot_mxfp4_q8_0_avx2(std::int64_t n, const void* vw, const void* va) {
    auto* w = static_cast<const block_mxfp4*>(vw);
    auto* a = static_cast<const block_q8_0*>(va);
    const __m256i levels = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(k_mxfp4_doubled)));
    const std::int64_t nb = n / QK_MXFP4;
    // Each block's 8 lanes of integer sums, scaled, into two f32 accumulators
    // (as llama.cpp's AVX2 kernel sums them): 1.3x the speed of adding the
    // blocks' products one by one in the scalar kernel's order, within
    // n 2^-24 sum |w a| of it.
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    std::int64_t b = 0;
    for (; b + 2 <= nb; b += 2) {
        acc0 = _mm256_fmadd_ps(_mm256_set1_ps(mxfp4_scale(w[b], a[b])),
                               _mm256_cvtepi32_ps(mxfp4_block_dot(w[b], a[b], levels)), acc0);
        acc1 = _mm256_fmadd_ps(_mm256_set1_ps(mxfp4_scale(w[b + 1], a[b + 1])),
                               _mm256_cvtepi32_ps(mxfp4_block_dot(w[b + 1], a[b + 1], levels)), acc1);
    }
    if (b < nb)
        acc0 = _mm256_fmadd_ps(_mm256_set1_ps(mxfp4_scale(w[b], a[b])),
                               _mm256_cvtepi32_ps(mxfp4_block_dot(w[b], a[b], levels)), acc0);
    const __m256 acc = _mm256_add_ps(acc0, acc1);
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

}  // namespace
}  // namespace kvlens

KVLENS_SIMD_END_AVX2

namespace kvlens {

void add_low_bit_avx2_kernels(simd_overrides& o) {
    o.vec_dot.push_back({ggml_type::iq2_xxs, dot_iq2_xxs_q8_K_avx2});
    o.vec_dot.push_back({ggml_type::iq2_xs, dot_iq2_xs_q8_K_avx2});
    o.vec_dot.push_back({ggml_type::iq2_s, dot_iq2_s_q8_K_avx2});
    o.vec_dot.push_back({ggml_type::iq3_xxs, dot_iq3_xxs_q8_K_avx2});
    o.vec_dot.push_back({ggml_type::iq3_s, dot_iq3_s_q8_K_avx2});
    o.vec_dot.push_back({ggml_type::iq1_s, dot_iq1_s_q8_K_avx2});
    o.vec_dot.push_back({ggml_type::iq1_m, dot_iq1_m_q8_K_avx2});
    o.vec_dot.push_back({ggml_type::tq1_0, dot_tq1_0_q8_K_avx2});
    o.vec_dot.push_back({ggml_type::tq2_0, dot_tq2_0_q8_K_avx2});
    o.vec_dot.push_back({ggml_type::mxfp4, dot_mxfp4_q8_0_avx2});
}

}  // namespace kvlens
