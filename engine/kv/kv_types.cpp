// SPDX-License-Identifier: Apache-2.0
// Names of the KV modes and dtypes, as the CLI, settings and metrics spell them.
#include "engine/kv/kv_types.h"

namespace kvlens {

const char* to_string(kv_mode m)
{
    switch (m) {
    case kv_mode::paged: return "paged";
    case kv_mode::static_reserve: return "static";
    case kv_mode::off: return "off";
    }
    return "?";
}

const char* to_string(kv_dtype d)
{
    switch (d) {
    case kv_dtype::f16: return "f16";
    case kv_dtype::q8_0: return "q8_0";
    case kv_dtype::f32: return "f32";
    }
    return "?";
}

bool parse_kv_mode(const std::string& s, kv_mode& out)
{
    if (s == "paged") { out = kv_mode::paged; return true; }
    if (s == "static" || s == "static_reserve") { out = kv_mode::static_reserve; return true; }
    if (s == "off") { out = kv_mode::off; return true; }
    return false;
}

bool parse_kv_dtype(const std::string& s, kv_dtype& out)
{
    if (s == "f16") { out = kv_dtype::f16; return true; }
    if (s == "q8_0") { out = kv_dtype::q8_0; return true; }
    return false;
}

}  // namespace kvlens
