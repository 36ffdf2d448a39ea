// SPDX-License-Identifier: Apache-2.0
// The codebooks of the i-quant formats (facts of the format, as llama.cpp's
// ggml-common.h and gguf-py define them): a weight group's index picks one
// entry, whose bytes are the group's values in element order (byte j of the
// integer = element j). Magnitudes for the IQ2 and IQ3 types (their signs are
// stored apart), signed int8 -1, 0, 1 for IQ1_S and IQ1_M.
#pragma once

#include <array>
#include <cstdint>

namespace kvlens {

extern const std::array<std::uint64_t, 256> iq2xxs_grid;   // IQ2_XXS: 8 of {8, 25, 43}
extern const std::array<std::uint64_t, 512> iq2xs_grid;    // IQ2_XS: 8 of {8, 25, 43}
extern const std::array<std::uint64_t, 1024> iq2s_grid;    // IQ2_S: 8 of {8, 25, 43}
extern const std::array<std::uint32_t, 256> iq3xxs_grid;   // IQ3_XXS: 4 of {4, 12, .., 52, 62}
extern const std::array<std::uint32_t, 512> iq3s_grid;     // IQ3_S: 4 of {1, 3, .., 15}
extern const std::array<std::uint64_t, 2048> iq1s_grid;    // IQ1_S, IQ1_M: 8 int8 of {-1, 0, 1}

// The sign byte of a 7-bit sign index (IQ2_XXS, IQ2_XS, IQ3_XXS): its bits
// j = 0..6 negate element j, bit 7 makes the count of negated elements even.
constexpr std::uint8_t iq_sign_byte(unsigned index7) {
    const unsigned i = index7 & 127;
    return static_cast<std::uint8_t>(i | (static_cast<unsigned>(__builtin_popcount(i)) & 1u) << 7);
}

}  // namespace kvlens
