// SPDX-License-Identifier: Apache-2.0
// The KV cache's two user-facing choices (docs/design.md, "KV cache"): how memory is
// set aside (mode) and how one element is stored (dtype). engine.h includes
// this header; the KV module needs nothing else from the runtime.
#pragma once

#include <string>

namespace kvlens {

// paged: blocks are taken as tokens arrive (the staircase).
// static_reserve: prompt + max_new_tokens blocks are taken when a request starts (the flat line).
// off: no reuse between steps; every step recomputes the whole sequence (teaching mode).
enum class kv_mode { paged, static_reserve, off };

// f16: IEEE half, 2 bytes per element.
// q8_0: GGUF's Q8_0, 34 bytes per 32 elements (f16 scale + 32 int8).
// f32: 4 bytes per element; not a user's choice (parse_kv_dtype refuses it):
// the rows of short-convolution layers' state (LFM2), which llama.cpp keeps in f32.
enum class kv_dtype { f16, q8_0, f32 };

const char* to_string(kv_mode m);      // "paged", "static", "off"
const char* to_string(kv_dtype d);     // "f16", "q8_0", "f32"
bool parse_kv_mode(const std::string& s, kv_mode& out);    // "paged", "static" (or "static_reserve"), "off"
bool parse_kv_dtype(const std::string& s, kv_dtype& out);  // "f16", "q8_0"

}  // namespace kvlens
