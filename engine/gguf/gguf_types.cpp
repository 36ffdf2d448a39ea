// SPDX-License-Identifier: Apache-2.0
// Block layouts of the GGUF tensor types (facts of the format).
#include "engine/gguf/gguf_types.h"

#include <array>

namespace kvlens {

namespace {

struct entry {
    std::uint32_t id;
    type_traits t;
};

constexpr std::array<entry, 32> k_types = {{
    {0, {"F32", 1, 4}},      {1, {"F16", 1, 2}},      {2, {"Q4_0", 32, 18}},
    {3, {"Q4_1", 32, 20}},   {6, {"Q5_0", 32, 22}},   {7, {"Q5_1", 32, 24}},
    {8, {"Q8_0", 32, 34}},   {9, {"Q8_1", 32, 36}},   {10, {"Q2_K", 256, 84}},
    {11, {"Q3_K", 256, 110}}, {12, {"Q4_K", 256, 144}}, {13, {"Q5_K", 256, 176}},
    {14, {"Q6_K", 256, 210}}, {15, {"Q8_K", 256, 292}}, {16, {"IQ2_XXS", 256, 66}},
    {17, {"IQ2_XS", 256, 74}}, {18, {"IQ3_XXS", 256, 98}}, {19, {"IQ1_S", 256, 50}},
    {20, {"IQ4_NL", 32, 18}}, {21, {"IQ3_S", 256, 110}}, {22, {"IQ2_S", 256, 82}},
    {23, {"IQ4_XS", 256, 136}}, {24, {"I8", 1, 1}},
    {25, {"I16", 1, 2}},     {26, {"I32", 1, 4}},     {27, {"I64", 1, 8}},
    {28, {"F64", 1, 8}},     {29, {"IQ1_M", 256, 56}}, {30, {"BF16", 1, 2}},
    {34, {"TQ1_0", 256, 54}}, {35, {"TQ2_0", 256, 66}}, {39, {"MXFP4", 32, 17}},
}};

constexpr type_traits k_unknown = {"unknown", 1, 0};

}  // namespace

bool type_known(std::uint32_t type_id) {
    for (const auto& e : k_types)
        if (e.id == type_id) return true;
    return false;
}

const type_traits& traits_of(ggml_type t) {
    for (const auto& e : k_types)
        if (e.id == static_cast<std::uint32_t>(t)) return e.t;
    return k_unknown;
}

std::size_t type_alignment(ggml_type t) {
    switch (t) {
    case ggml_type::i8: case ggml_type::mxfp4: return 1;   // mxfp4: a byte scale, 17-byte blocks
    case ggml_type::f32: case ggml_type::i32: case ggml_type::q8_K: return 4;
    case ggml_type::f64: case ggml_type::i64: return 8;
    default: return 2;  // f16, bf16, i16, and the blocks whose scales are f16
    }
}

}  // namespace kvlens
