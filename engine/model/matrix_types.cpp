// SPDX-License-Identifier: Apache-2.0
// The list of matrix types the model accepts. A type joins it when the CPU
// backend can multiply it (a dot kernel in backend/cpu/kernels.cpp), since the
// CPU is the backend every machine has; tests/quant fails if the lists differ.
#include "engine/model/matrix_types.h"

#include <algorithm>
#include <array>

#include "engine/quant/quant_formats.h"

namespace kvlens {

namespace {

constexpr std::array k_matrix_types = {
    ggml_type::f32,     ggml_type::f16,    ggml_type::q4_0,    ggml_type::q4_1,  ggml_type::q5_0,
    ggml_type::q5_1,    ggml_type::q8_0,   ggml_type::q2_K,    ggml_type::q3_K,  ggml_type::q4_K,
    ggml_type::q5_K,    ggml_type::q6_K,   ggml_type::iq2_xxs, ggml_type::iq2_xs, ggml_type::iq3_xxs,
    ggml_type::iq1_s,   ggml_type::iq4_nl, ggml_type::iq3_s,   ggml_type::iq2_s, ggml_type::iq4_xs,
    ggml_type::iq1_m,   ggml_type::bf16,   ggml_type::tq1_0,   ggml_type::tq2_0, ggml_type::mxfp4,
};

}  // namespace

std::span<const ggml_type> accepted_matrix_types() { return k_matrix_types; }

bool matrix_type_accepted(ggml_type t) {
    return std::find(k_matrix_types.begin(), k_matrix_types.end(), t) != k_matrix_types.end();
}

bool vector_type_accepted(ggml_type t) { return quant::reference_to_float(t) != nullptr; }

}  // namespace kvlens
