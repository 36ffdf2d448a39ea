// SPDX-License-Identifier: Apache-2.0
// Which layers slide a window, as llama.cpp reads ARCH.attention.sliding_window_pattern
// (llama_hparams::set_swa_pattern and load_swa_pattern): one bool per layer
// (true: windowed), or a period P: layer il is windowed when il % P < P - 1
// (P - 1 windowed layers, then a full one; a period of 1 windows none; 0,
// which llama.cpp reads as "every layer", is refused as no period). Absent,
// the architecture's default period: Gemma 3's 6, OLMo 3's and EXAONE 4.0
// 32B's 4.
#include <fmt/format.h>

#include "engine/model/model_config.h"

namespace kvlens {

result<std::vector<bool>> window_layer_flags(const gguf_file& f, const std::string& key, int n_layer, int default_period) {
    std::vector<bool> windowed(static_cast<std::size_t>(n_layer), false);
    int period = default_period;
    if (const gguf_value* v = f.find(key)) {
        if (const auto* arr = v->as_array()) {
            if (static_cast<int>(arr->size()) != n_layer)
                return make_error(fmt::format("{} has {} entries for {} layers", key, arr->size(), n_layer));
            if (!arr->is_integer()) return make_error(fmt::format("{} must hold bools (one per layer)", key));
            for (int il = 0; il < n_layer; ++il) {
                const std::int64_t flag = arr->int_at(static_cast<std::size_t>(il));
                if (flag < 0 || flag > 1) return make_error(fmt::format("{} must hold bools (one per layer)", key));
                windowed[static_cast<std::size_t>(il)] = flag != 0;
            }
            return windowed;
        }
        if (!v->is_integer() || v->as_int() < 1 || v->as_int() > n_layer)
            return make_error(fmt::format("{} = {} is not a period of 1..{} layers", key,
                                          v->is_integer() ? v->as_int() : -1, n_layer));
        period = static_cast<int>(v->as_int());
    }
    for (int il = 0; il < n_layer; ++il) windowed[static_cast<std::size_t>(il)] = il % period < period - 1;
    return windowed;
}

status read_window_tokens(const gguf_file& f, const std::string& key, int fallback, int least, int& out) {
    const gguf_value* v = f.find(key);
    if (!v) {
        out = fallback;
        return {};
    }
    if (!v->is_integer() || v->as_int() < least || v->as_int() > (1 << 24))
        return make_error(fmt::format("{} = {} is not a window in tokens", key, v->is_integer() ? v->as_int() : -1));
    out = static_cast<int>(v->as_int());
    return {};
}

status read_sliding_windows(const gguf_file& f, model_config& c, int window, int default_period) {
    auto windowed = window_layer_flags(f, c.arch_name + ".attention.sliding_window_pattern", c.n_layer, default_period);
    if (!windowed) return windowed.err();
    for (int il = 0; il < c.n_layer; ++il)
        c.layer_window[static_cast<std::size_t>(il)] = (*windowed)[static_cast<std::size_t>(il)] ? window : 0;
    return {};
}

}  // namespace kvlens
