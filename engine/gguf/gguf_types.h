// SPDX-License-Identifier: Apache-2.0
// GGUF tensor element types and their block layouts (sizes in bytes per block
// of block_size elements), as the GGUF format defines them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kvlens {

enum class ggml_type : std::uint32_t {
    f32 = 0, f16 = 1, q4_0 = 2, q4_1 = 3, q5_0 = 6, q5_1 = 7, q8_0 = 8, q8_1 = 9,
    q2_K = 10, q3_K = 11, q4_K = 12, q5_K = 13, q6_K = 14, q8_K = 15,
    iq2_xxs = 16, iq2_xs = 17, iq3_xxs = 18, iq1_s = 19, iq4_nl = 20, iq3_s = 21, iq2_s = 22, iq4_xs = 23,
    i8 = 24, i16 = 25, i32 = 26, i64 = 27, f64 = 28, iq1_m = 29, bf16 = 30, tq1_0 = 34, tq2_0 = 35, mxfp4 = 39,
};

struct type_traits {
    const char* name;       // "Q4_1"
    std::int64_t block_size;  // elements per block
    std::int64_t type_size;   // bytes per block
};

// False for a type id this reader does not know (the tensor is rejected).
bool type_known(std::uint32_t type_id);
const type_traits& traits_of(ggml_type t);
inline const char* type_name(ggml_type t) { return traits_of(t).name; }
// The alignment in bytes a tensor's data needs for the kernels' loads: the
// widest field of its block (f16 scale: 2; f32: 4; f64, i64: 8; i8: 1).
std::size_t type_alignment(ggml_type t);

}  // namespace kvlens
