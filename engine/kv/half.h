// SPDX-License-Identifier: Apache-2.0
// IEEE 754 half <-> float conversion, portable (bit manipulation, round to
// nearest even, subnormals, inf and NaN kept). Used by the KV row codecs and
// by anything else that stores f16 as uint16_t.
#pragma once

#include <bit>
#include <cstdint>

namespace kvlens {

// float -> half bits, rounded to nearest, ties to even; overflow gives +-inf.
inline std::uint16_t f32_to_f16(float f)
{
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t a = x & 0x7fffffffu;  // |f| as bits

    if (a >= 0x7f800000u) {                   // inf or NaN (NaN stays a quiet NaN)
        const std::uint32_t nan = a > 0x7f800000u ? (0x200u | ((a >> 13) & 0x3ffu)) : 0u;
        return static_cast<std::uint16_t>(sign | 0x7c00u | nan);
    }
    if (a >= 0x477ff000u)                     // >= 65520: rounds past the largest half (65504)
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (a >= 0x38800000u) {                   // >= 2^-14: a normal half
        // Re-bias the exponent (127 -> 15) and round the 13 dropped mantissa bits.
        const std::uint32_t rounded = a + 0xfffu + ((a >> 13) & 1u);
        return static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
    }
    if (a <= 0x33000000u)                     // <= 2^-25: rounds to zero (the tie goes to even 0)
        return sign;
    // A half subnormal is m * 2^-24: compute round(|f| * 2^24) from the significand.
    const std::uint32_t e = a >> 23;                        // biased exponent, 102..112
    const std::uint32_t m = (a & 0x7fffffu) | 0x800000u;    // 24-bit significand
    const std::uint32_t shift = 126u - e;                   // 14..24
    std::uint32_t q = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (q & 1u)))
        ++q;                                  // may carry into the smallest normal: still correct bits
    return static_cast<std::uint16_t>(sign | q);
}

// half bits -> float, exact.
inline float f16_to_f32(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t e = (h >> 10) & 0x1fu;
    const std::uint32_t m = h & 0x3ffu;
    if (e == 0) {                             // zero or subnormal: m * 2^-24
        const float v = static_cast<float>(m) * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    if (e == 31)                              // inf or NaN
        return std::bit_cast<float>(sign | 0x7f800000u | (m << 13));
    return std::bit_cast<float>(sign | ((e + 112u) << 23) | (m << 13));
}

}  // namespace kvlens
