// SPDX-License-Identifier: Apache-2.0
// The per-type checks of a model file: which tensor types a weight matrix may
// have (the CPU backend multiplies every one of them: tests/quant checks the
// two lists are equal) and which an embedding or a norm vector may have (any
// type with a reference dequantizer, engine/quant).
#pragma once

#include <span>

#include "engine/gguf/gguf_types.h"

namespace kvlens {

// The matrix types the model accepts, in ggml id order.
std::span<const ggml_type> accepted_matrix_types();
bool matrix_type_accepted(ggml_type t);
// True when rows of this type can be converted to f32 (embedding rows, norms).
bool vector_type_accepted(ggml_type t);

}  // namespace kvlens
