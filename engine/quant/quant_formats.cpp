// SPDX-License-Identifier: Apache-2.0
// The table of reference converters by type, and row sizes.
#include "engine/quant/quant_formats.h"

namespace kvlens {

std::int64_t row_bytes(ggml_type t, std::int64_t n) {
    const type_traits& tr = traits_of(t);
    return n / tr.block_size * tr.type_size;
}

namespace quant {

to_float_fn reference_to_float(ggml_type t) {
    switch (t) {
    case ggml_type::f32: return f32_to_float;
    case ggml_type::f16: return f16_to_float;
    case ggml_type::bf16: return bf16_to_float;
    case ggml_type::q8_0: return q8_0_to_float;
    case ggml_type::q4_0: return q4_0_to_float;
    case ggml_type::q4_1: return q4_1_to_float;
    case ggml_type::q5_0: return q5_0_to_float;
    case ggml_type::q5_1: return q5_1_to_float;
    case ggml_type::q2_K: return q2_K_to_float;
    case ggml_type::q3_K: return q3_K_to_float;
    case ggml_type::q4_K: return q4_K_to_float;
    case ggml_type::q5_K: return q5_K_to_float;
    case ggml_type::q6_K: return q6_K_to_float;
    case ggml_type::iq4_nl: return iq4_nl_to_float;
    case ggml_type::iq4_xs: return iq4_xs_to_float;
    case ggml_type::iq2_xxs: return iq2_xxs_to_float;
    case ggml_type::iq2_xs: return iq2_xs_to_float;
    case ggml_type::iq2_s: return iq2_s_to_float;
    case ggml_type::iq3_xxs: return iq3_xxs_to_float;
    case ggml_type::iq3_s: return iq3_s_to_float;
    case ggml_type::iq1_s: return iq1_s_to_float;
    case ggml_type::iq1_m: return iq1_m_to_float;
    case ggml_type::tq1_0: return tq1_0_to_float;
    case ggml_type::tq2_0: return tq2_0_to_float;
    case ggml_type::mxfp4: return mxfp4_to_float;
    default: return nullptr;
    }
}

from_float_fn reference_from_float(ggml_type t) {
    switch (t) {
    case ggml_type::f32: return f32_from_float;
    case ggml_type::f16: return f16_from_float;
    case ggml_type::bf16: return bf16_from_float;
    case ggml_type::q8_0: return q8_0_from_float;
    case ggml_type::q8_1: return q8_1_from_float;
    case ggml_type::q8_K: return q8_K_from_float;
    case ggml_type::q4_0: return q4_0_from_float;
    case ggml_type::q4_1: return q4_1_from_float;
    case ggml_type::q5_0: return q5_0_from_float;
    case ggml_type::q5_1: return q5_1_from_float;
    default: return nullptr;
    }
}

}  // namespace quant
}  // namespace kvlens
