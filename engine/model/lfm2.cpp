// SPDX-License-Identifier: Apache-2.0
// LFM2's configuration (Liquid AI's hybrid models): which layers are short
// convolutions and which attend, as llama.cpp reads it (llama_model_lfm2::
// load_arch_hparams): lfm2.attention.head_count_kv is one count per layer, 0
// where the layer convolves (a single count: every layer attends), and
// lfm2.shortconv.l_cache is the convolution's taps, the current token's B*X
// row and the l_cache - 1 before it.
#include <fmt/format.h>

#include "engine/model/model_config.h"

namespace kvlens {

namespace {
constexpr int k_max_conv_taps = 64;   // LFM2 has 3; far more would be another kind of model
}  // namespace

status read_lfm2_layers(const gguf_file& f, model_config& c) {
    const std::string key = c.arch_name + ".attention.head_count_kv";
    c.layer_conv.assign(static_cast<std::size_t>(c.n_layer), 0);
    c.n_head_kv = 0;
    const gguf_value* v = f.find(key);
    if (!v) return make_error(fmt::format("missing metadata '{}' (one count per layer, 0 for a convolution layer)", key));
    if (const gguf_array* counts = v->as_array()) {
        if (static_cast<int>(counts->size()) != c.n_layer || !counts->is_integer())
            return make_error(fmt::format("{} must hold {} integers (one per layer), not {} {}", key, c.n_layer,
                                          counts->size(), counts->is_integer() ? "integers" : "other values"));
        for (int il = 0; il < c.n_layer; ++il) {
            const std::int64_t n = counts->int_at(static_cast<std::size_t>(il));
            if (n < 0 || n > c.n_head)
                return make_error(fmt::format("{}[{}] = {} is not a count of 0..{} heads", key, il, n, c.n_head));
            if (n == 0) {
                c.layer_conv[static_cast<std::size_t>(il)] = 1;
                continue;
            }
            // One K/V width for every attention layer (the cache's rows are one size).
            if (c.n_head_kv != 0 && n != c.n_head_kv)
                return make_error(fmt::format("{} differs between attention layers ({} and {}); kvlens needs one count",
                                              key, c.n_head_kv, n));
            c.n_head_kv = static_cast<int>(n);
        }
    } else if (v->is_integer() && v->as_int() >= 1 && v->as_int() <= c.n_head) {
        c.n_head_kv = static_cast<int>(v->as_int());   // no convolution layers
    } else {
        return make_error(fmt::format("{} = {} is not a count of 1..{} heads", key, v->is_integer() ? v->as_int() : -1,
                                      c.n_head));
    }
    if (c.n_head_kv == 0)
        return make_error(fmt::format("{}: every layer is a convolution; kvlens needs at least one attention layer", key));
    if (c.n_head % c.n_head_kv != 0)
        return make_error(fmt::format("head_count_kv {} does not divide head_count {}", c.n_head_kv, c.n_head));

    const std::string taps_key = c.arch_name + ".shortconv.l_cache";
    auto taps = f.get_int_in(taps_key, 0, 0, k_max_conv_taps);
    if (!taps) return taps.err();
    bool any_conv = false;
    for (char conv : c.layer_conv) any_conv = any_conv || conv != 0;
    if (any_conv && *taps < 2)
        return make_error(fmt::format("missing or bad metadata '{}' = {} (a convolution needs 2..{} taps)", taps_key, *taps,
                                      k_max_conv_taps));
    c.shortconv_l_cache = any_conv ? *taps : 0;
    if (c.n_embd % 2 != 0) return make_error(fmt::format("embedding_length {} is odd", c.n_embd));
    // llama.cpp windows every attention layer of a file with a window; kvlens
    // keeps one local group, here the convolutions', so such a file is refused.
    if (f.get_int(c.arch_name + ".attention.sliding_window", 0) > 0)
        return make_error(fmt::format("{}.attention.sliding_window: LFM2 with windowed attention layers is not supported",
                                      c.arch_name));
    return {};
}

}  // namespace kvlens
