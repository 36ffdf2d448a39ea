// SPDX-License-Identifier: Apache-2.0
// Synthetic models. Weights are drawn as N(0, 0.02)-like values and quantized
// by the scalar reference quantizers, or, for types the engine only reads
// (K-quants, the i-quants, ternary, MXFP4), made as random blocks with their scales set afterwards; to
// make multi-GB models quickly, a pool of 4096 random quantized row-chunks is
// made once and tensors are filled by drawing chunks from it.
#include "engine/model/synth_model.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstddef>
#include <cstring>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/fp16.h"
#include "engine/model/matrix_types.h"
#include "engine/quant/quant_blocks.h"
#include "engine/quant/quant_blocks_low_bit.h"
#include "engine/quant/quant_formats.h"
#include "engine/gguf/gguf_writer.h"

namespace kvlens {

namespace {

struct xorshift {
    std::uint64_t s;
    std::uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    // Roughly normal: sum of uniforms, scaled to the given deviation.
    float normal(float sd) {
        float acc = 0;
        for (int i = 0; i < 4; ++i) acc += static_cast<float>(next() >> 40) / static_cast<float>(1 << 24);
        return (acc - 2.0f) * sd * 1.732f;
    }
};

// Where a block keeps its scale d and minimum scale dmin (-1: none), for the
// types with no reference quantizer: f16 fields, but for IQ1_M's d (an f16
// split over the top nibbles of its four scale words) and MXFP4's (a power of
// two, one byte of exponent).
struct scale_fields {
    enum class kind { f16, iq1_m_split, e8m0 };
    std::ptrdiff_t d = -1, dmin = -1;
    kind how = kind::f16;
};

scale_fields scale_fields_of(ggml_type t) {
    switch (t) {
    case ggml_type::q2_K: return {offsetof(block_q2_K, d), offsetof(block_q2_K, dmin)};
    case ggml_type::q3_K: return {offsetof(block_q3_K, d), -1};
    case ggml_type::q4_K: return {offsetof(block_q4_K, d), offsetof(block_q4_K, dmin)};
    case ggml_type::q5_K: return {offsetof(block_q5_K, d), offsetof(block_q5_K, dmin)};
    case ggml_type::q6_K: return {offsetof(block_q6_K, d), -1};
    case ggml_type::iq4_nl: return {offsetof(block_iq4_nl, d), -1};
    case ggml_type::iq4_xs: return {offsetof(block_iq4_xs, d), -1};
    case ggml_type::iq2_xxs: return {offsetof(block_iq2_xxs, d), -1};
    case ggml_type::iq2_xs: return {offsetof(block_iq2_xs, d), -1};
    case ggml_type::iq2_s: return {offsetof(block_iq2_s, d), -1};
    case ggml_type::iq3_xxs: return {offsetof(block_iq3_xxs, d), -1};
    case ggml_type::iq3_s: return {offsetof(block_iq3_s, d), -1};
    case ggml_type::iq1_s: return {offsetof(block_iq1_s, d), -1};
    case ggml_type::iq1_m: return {offsetof(block_iq1_m, scales), -1, scale_fields::kind::iq1_m_split};
    case ggml_type::tq1_0: return {offsetof(block_tq1_0, d), -1};
    case ggml_type::tq2_0: return {offsetof(block_tq2_0, d), -1};
    case ggml_type::mxfp4: return {offsetof(block_mxfp4, e), -1, scale_fields::kind::e8m0};
    default: return {};
    }
}

void put_f16(std::uint8_t* block, std::ptrdiff_t at, float v) {
    const std::uint16_t h = fp32_to_fp16(v);
    std::memcpy(block + at, &h, 2);
}

// Sets the scale field at `at` to v (MXFP4: the nearest power of two, in 2^-20 .. 2^20).
void put_scale(std::uint8_t* block, std::ptrdiff_t at, scale_fields::kind how, float v) {
    switch (how) {
    case scale_fields::kind::f16: put_f16(block, at, v); return;
    case scale_fields::kind::iq1_m_split: {
        const std::uint16_t h = fp32_to_fp16(v);
        for (int k = 0; k < 4; ++k) {
            std::uint16_t w;
            std::memcpy(&w, block + at + 2 * k, 2);
            w = static_cast<std::uint16_t>((w & 0x0FFF) | ((h >> (4 * k)) & 0xF) << 12);
            std::memcpy(block + at + 2 * k, &w, 2);
        }
        return;
    }
    case scale_fields::kind::e8m0: {
        // e8m0_half_to_float(e) = 2^(e - 128): e = 128 reads the doubled levels as they are.
        const int e = v > 0 ? 128 + std::clamp(static_cast<int>(std::lround(std::log2(v))), -20, 20) : 128;
        block[at] = static_cast<std::uint8_t>(e);
        return;
    }
    }
}

// n elements of random blocks of type t: random quants and sub-scales, then
// per block d (and dmin) chosen so the block's values have mean about 0 and
// root mean square sd. With d = 1, dmin = 0 the block reads a[i]; with d = 0,
// dmin = 1 it reads b[i]; d = alpha, dmin = alpha * beta reads alpha (a + beta b).
void random_blocks(ggml_type t, std::uint8_t* dst, std::int64_t n, float sd, xorshift& rng) {
    const scale_fields f = scale_fields_of(t);
    const type_traits& tr = traits_of(t);
    const to_float_fn deq = quant::reference_to_float(t);
    std::vector<float> a(static_cast<std::size_t>(tr.block_size)), b(a.size());
    for (std::int64_t blk = 0; blk < n / tr.block_size; ++blk) {
        std::uint8_t* p = dst + blk * tr.type_size;
        for (std::int64_t i = 0; i < tr.type_size; ++i) p[i] = static_cast<std::uint8_t>(rng.next() >> 56);
        put_scale(p, f.d, f.how, 1.0f);
        if (f.dmin >= 0) put_f16(p, f.dmin, 0.0f);
        deq(p, a.data(), tr.block_size);
        double beta = 0;
        if (f.dmin >= 0) {
            put_f16(p, f.d, 0.0f);
            put_f16(p, f.dmin, 1.0f);
            deq(p, b.data(), tr.block_size);
            double sa = 0, sb = 0;
            for (std::size_t i = 0; i < a.size(); ++i) { sa += a[i]; sb += b[i]; }
            if (sb != 0) beta = -sa / sb;
        }
        double ss = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const double v = a[i] + beta * b[i];
            ss += v * v;
        }
        const double rms = std::sqrt(ss / static_cast<double>(a.size()));
        const double alpha = rms > 0 ? sd / rms : 0.0;
        put_scale(p, f.d, f.how, static_cast<float>(alpha));
        if (f.dmin >= 0) put_f16(p, f.dmin, static_cast<float>(alpha * beta));
    }
}

// A pool of random encoded chunks of 256 elements of one type.
class chunk_pool {
public:
    chunk_pool(ggml_type type, float sd, std::uint64_t seed) : type_(type), bytes_(row_bytes(type, k_chunk)) {
        xorshift rng{seed * 0x9E3779B97F4A7C15ULL + 1};
        std::vector<float> values(k_chunk);
        data_.resize(static_cast<std::size_t>(k_pool * bytes_));
        from_float_fn q = quant::reference_from_float(type);
        for (int c = 0; c < k_pool; ++c) {
            std::uint8_t* chunk = data_.data() + c * bytes_;
            if (!q) {
                random_blocks(type, chunk, k_chunk, sd, rng);
                continue;
            }
            for (auto& v : values) v = rng.normal(sd);
            q(values.data(), chunk, k_chunk);
        }
    }
    void fill(std::uint8_t* dst, std::int64_t n_bytes, std::uint64_t seed) const {
        xorshift rng{seed | 1};
        std::int64_t at = 0;
        while (at < n_bytes) {
            const std::int64_t c = static_cast<std::int64_t>(rng.next() % k_pool);
            const std::int64_t n = std::min(bytes_, n_bytes - at);
            std::memcpy(dst + at, data_.data() + c * bytes_, static_cast<std::size_t>(n));
            at += n;
        }
    }

private:
    static constexpr int k_chunk = 256;   // elements; a multiple of every block size
    static constexpr int k_pool = 4096;
    ggml_type type_;
    std::int64_t bytes_;
    std::vector<std::uint8_t> data_;
};

std::vector<std::string> synth_vocab(int n_vocab) {
    std::vector<std::string> v;
    v.reserve(static_cast<std::size_t>(n_vocab));
    v.push_back("<|endoftext|>");
    v.push_back("<|im_start|>");
    v.push_back("<|im_end|>");
    // The 256 byte-level symbols (GPT-2 alphabet), as UTF-8.
    for (int b = 0; b < 256; ++b) {
        int cp = b;
        if (!((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255))) {
            int k = 0;
            for (int x = 0; x < b; ++x)
                if (!((x >= 33 && x <= 126) || (x >= 161 && x <= 172) || (x >= 174 && x <= 255))) ++k;
            cp = 256 + k;
        }
        std::string s;
        if (cp < 0x80) s.push_back(static_cast<char>(cp));
        else {
            s.push_back(static_cast<char>(0xC0 | (cp >> 6)));
            s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
        v.push_back(s);
    }
    while (static_cast<int>(v.size()) < n_vocab) v.push_back(fmt::format("<synth_{}>", v.size()));
    v.resize(static_cast<std::size_t>(n_vocab));
    return v;
}

}  // namespace

std::vector<float> phi3_rope_factors(int n_rot, bool long_factors) {
    const int n = n_rot / 2;
    std::vector<float> out;
    for (int i = 0; i < n; ++i) {
        const float t = n > 1 ? static_cast<float>(i) / static_cast<float>(n - 1) : 0.0f;
        out.push_back(long_factors ? 1.5f + 6.5f * t : 1.0f + 0.25f * t);
    }
    return out;
}

std::vector<float> llama3_rope_factors(int n_rot, float base, float factor, float low, float high, int original_ctx) {
    constexpr double pi = 3.14159265358979323846;
    const double low_freq_wavelen = original_ctx / static_cast<double>(low);
    const double high_freq_wavelen = original_ctx / static_cast<double>(high);
    std::vector<float> out;
    for (int i = 0; i < n_rot; i += 2) {
        const double freq = std::pow(static_cast<double>(base), -static_cast<double>(i) / n_rot);
        const double wavelen = 2 * pi / freq;
        if (wavelen < high_freq_wavelen) {
            out.push_back(1.0f);
        } else if (wavelen > low_freq_wavelen) {
            out.push_back(factor);
        } else {
            const double smooth = (original_ctx / wavelen - low) / (static_cast<double>(high) - low);
            out.push_back(static_cast<float>(1.0 / ((1 - smooth) / factor + smooth)));
        }
    }
    return out;
}

std::vector<std::string> synth_type_names() {
    std::vector<std::string> names;
    for (ggml_type t : accepted_matrix_types()) names.emplace_back(type_name(t));
    return names;
}

result<ggml_type> synth_type_named(const std::string& name) {
    for (ggml_type t : accepted_matrix_types())
        if (name == type_name(t)) return t;
    std::string known;
    for (const auto& n : synth_type_names()) known += (known.empty() ? "" : ", ") + n;
    return make_error(fmt::format("unsupported weight type '{}' (supported: {})", name, known));
}

status write_synth_model(const synth_shape& s, ggml_type type, const std::string& path, std::uint64_t seed) {
    if (!matrix_type_accepted(type) || (!quant::reference_from_float(type) && scale_fields_of(type).d < 0))
        return make_error(fmt::format("synth-model cannot write weights of type {} (supported: {})", type_name(type),
                                      fmt::join(synth_type_names(), ", ")));
    const int head_dim = s.head_dim > 0 ? s.head_dim : s.n_embd / s.n_head;
    const bool gemma2 = s.arch == "gemma2";
    const bool gemma = s.arch == "gemma3" || gemma2;   // post-norms, key and value lengths, a window
    const bool exaone4 = s.arch == "exaone4";
    const bool lfm2 = s.arch == "lfm2" || s.arch == "lfm2moe";
    const bool qk_norm = s.arch == "gemma3" || s.arch == "qwen3" || s.arch == "qwen3moe" || exaone4 ||
                         s.arch == "qwen3vl" || s.arch == "qwen3vlmoe" || lfm2 || s.arch == "hunyuan-dense";   // per head
    const bool gpt_oss = s.arch == "gpt-oss";   // biases, sinks, windows, biased experts
    const bool stablelm = s.arch == "stablelm";   // LayerNorms with biases, partial NeoX RoPE, SwiGLU
    const bool nemotron = s.arch == "nemotron";   // LayerNorms with biases, relu(up)^2, every bias there is
    const bool starcoder2 = s.arch == "starcoder2";   // gpt2's biases and GELU on apart Q/K/V, NeoX RoPE
    const bool qkv_bias = s.arch == "qwen2" || s.arch == "qwen2vl" || s.arch == "qwen2moe" || s.arch == "glm4" || gpt_oss ||
                          (stablelm && s.sequential_blocks) || nemotron || starcoder2;
    const bool olmoe = s.arch == "olmoe";
    const bool moe = s.n_expert > 0;
    const int n_ff_exp = s.n_ff_exp > 0 ? s.n_ff_exp : s.n_ff;
    const bool phi3 = s.arch == "phi3";
    const int n_rot = s.n_rot > 0 ? s.n_rot : head_dim;
    const bool granite = s.arch == "granite" || s.arch == "granitemoe" || s.arch == "minicpm";   // its scales
    const bool minicpm = s.arch == "minicpm";
    const bool longrope = (phi3 || minicpm) && s.longrope_original_ctx > 0;
    const bool olmo2 = s.arch == "olmo2";
    const bool glm4 = s.arch == "glm4";
    const bool cohere = s.arch == "command-r" || s.arch == "cohere2";   // LayerNorms, parallel blocks
    const bool gpt2 = s.arch == "gpt2" || s.arch == "starcoder";   // LayerNorms and products with biases, GELU, learned positions
    const bool gptneox = s.arch == "gptneox";   // gpt2's biases and GELU, NeoX RoPE, parallel blocks
    const bool phi2 = s.arch == "phi2";   // one norm, parallel blocks, biases, partial RoPE, the logits' bias
    const bool biased = gpt2 || gptneox || phi2;   // every product and LayerNorm with a bias, fused Q/K/V
    static const char* const written[] = {"llama",    "qwen2",    "qwen3",     "gemma",      "gemma2",   "gemma3",
                                          "phi3",     "granite",  "smollm3",   "olmo2",      "exaone",   "exaone4",
                                          "internlm2", "mistral3", "ernie4_5", "arcee",      "glm4",     "qwen3vl",  "qwen2moe",
                                          "qwen3moe", "qwen3vlmoe", "olmoe",  "granitemoe", "lfm2", "lfm2moe", "gpt-oss",
                                          "minicpm",  "qwen2vl",  "ernie4_5-moe", "hunyuan-dense", "command-r", "cohere2", "gpt2", "gptneox", "phi2", "stablelm", "nemotron", "starcoder", "starcoder2"};
    if (std::find(std::begin(written), std::end(written), s.arch) == std::end(written))
        return make_error(fmt::format("synth-model writes {}, not '{}'", fmt::join(written, ", "), s.arch));
    if (n_rot > head_dim || n_rot % 2 != 0)
        return make_error(fmt::format("shape {} rotates {} of {} dimensions per head", s.name, n_rot, head_dim));
    const int block = static_cast<int>(traits_of(type).block_size);
    if (s.n_embd % block != 0 || s.n_ff % block != 0 || (s.n_head * head_dim) % block != 0)
        return make_error(fmt::format("shape {} has rows ({}, {}, {}) that are not a multiple of {}'s block of {}", s.name,
                                      s.n_embd, s.n_ff, s.n_head * head_dim, type_name(type), block));
    gguf_writer w;
    w.set_string("general.architecture", s.arch);
    w.set_string("general.name", fmt::format("synthetic {} ({})", s.name, type_name(type)));
    const std::string A = s.arch + ".";
    w.set_u32(A + "block_count", static_cast<std::uint32_t>(s.n_layer));
    w.set_u32(A + "context_length", static_cast<std::uint32_t>(s.n_ctx));
    w.set_u32(A + "embedding_length", static_cast<std::uint32_t>(s.n_embd));
    w.set_u32(A + "feed_forward_length", static_cast<std::uint32_t>(s.n_ff));
    w.set_u32(A + "attention.head_count", static_cast<std::uint32_t>(s.n_head));
    const auto is_conv = [&s](int il) { return std::find(s.conv_layers.begin(), s.conv_layers.end(), il) != s.conv_layers.end(); };
    if (lfm2) {   // one count per layer, 0 where the layer convolves
        std::vector<std::int32_t> kv_heads;
        for (int il = 0; il < s.n_layer; ++il) kv_heads.push_back(is_conv(il) ? 0 : s.n_head_kv);
        w.set_i32_array(A + "attention.head_count_kv", kv_heads);
        w.set_u32(A + "shortconv.l_cache", static_cast<std::uint32_t>(s.conv_taps));
    } else {
        w.set_u32(A + "attention.head_count_kv", static_cast<std::uint32_t>(s.n_head_kv));
    }
    w.set_u32(A + "rope.dimension_count", static_cast<std::uint32_t>(n_rot));
    w.set_f32(A + "rope.freq_base", s.rope_base);
    if (cohere || biased || stablelm || nemotron || starcoder2) w.set_f32(A + "attention.layer_norm_epsilon", 1e-5f);
    else w.set_f32(A + "attention.layer_norm_rms_epsilon", gemma || s.arch == "gemma" || olmo2 ? 1e-6f : 1e-5f);
    if (gptneox) w.set_bool(A + "use_parallel_residual", !s.sequential_blocks);
    if (cohere && s.cohere_logit_scale != 0) w.set_f32(A + "logit_scale", s.cohere_logit_scale);
    if (s.arch == "cohere2") w.set_u32(A + "attention.sliding_window", static_cast<std::uint32_t>(s.sliding_window));
    w.set_u32(A + "vocab_size", static_cast<std::uint32_t>(s.n_vocab));
    if (moe) {
        w.set_u32(A + "expert_count", static_cast<std::uint32_t>(s.n_expert));
        w.set_u32(A + "expert_used_count", static_cast<std::uint32_t>(s.n_expert_used));
        if (s.n_ff_exp > 0) w.set_u32(A + "expert_feed_forward_length", static_cast<std::uint32_t>(s.n_ff_exp));
        if (s.n_ff_shared > 0)
            w.set_u32(A + "expert_shared_feed_forward_length", static_cast<std::uint32_t>(s.n_ff_shared));
        if (s.arch == "ernie4_5-moe") {
            w.set_u32(A + "leading_dense_block_count", static_cast<std::uint32_t>(s.n_dense_lead));
            w.set_u32(A + "interleave_moe_layer_step", 1);
        }
        if (s.arch == "lfm2moe") {
            w.set_u32(A + "leading_dense_block_count", static_cast<std::uint32_t>(s.n_dense_lead));
            w.set_u32(A + "expert_gating_func", 2);   // sigmoid
        }
    }
    if (longrope) {
        const double scale = static_cast<double>(s.n_ctx) / s.longrope_original_ctx;
        w.set_u32(A + "rope.scaling.original_context_length", static_cast<std::uint32_t>(s.longrope_original_ctx));
        // Phi-3's converter writes the attention factor; MiniCPM's writes the
        // scaling's name (llama.cpp reads the factor pair only with it).
        if (phi3)
            w.set_f32(A + "rope.scaling.attn_factor",
                      static_cast<float>(std::sqrt(1.0 + std::log(scale) / std::log(s.longrope_original_ctx))));
        else
            w.set_string(A + "rope.scaling.type", "longrope");
    }
    if (s.yarn_factor > 0) {
        w.set_string(A + "rope.scaling.type", "yarn");
        w.set_f32(A + "rope.scaling.factor", s.yarn_factor);
        w.set_u32(A + "rope.scaling.original_context_length", static_cast<std::uint32_t>(s.yarn_original_ctx));
        if (s.yarn_beta_fast > 0) w.set_f32(A + "rope.scaling.yarn_beta_fast", s.yarn_beta_fast);
        if (s.yarn_beta_slow > 0) w.set_f32(A + "rope.scaling.yarn_beta_slow", s.yarn_beta_slow);
        if (s.yarn_log_mul > 0) w.set_f32(A + "rope.scaling.yarn_log_multiplier", s.yarn_log_mul);
    }
    if (s.attn_temp_scale != 0) w.set_f32(A + "attention.temperature_scale", s.attn_temp_scale);
    if (!s.rope_sections.empty())
        w.set_i32_array(A + "rope.dimension_sections", std::vector<std::int32_t>(s.rope_sections.begin(), s.rope_sections.end()));
    if (s.n_deepstack > 0) w.set_u32(A + "n_deepstack_layers", static_cast<std::uint32_t>(s.n_deepstack));
    if ((olmo2 || exaone4) && s.sliding_window > 0) {   // OLMo 3's and EXAONE 4.0's windows
        w.set_u32(A + "attention.sliding_window", static_cast<std::uint32_t>(s.sliding_window));
        if (!s.swa_pattern.empty())
            w.set_bool_array(A + "attention.sliding_window_pattern",
                             std::vector<bool>(s.swa_pattern.begin(), s.swa_pattern.end()));
    }
    if (gpt_oss) {
        w.set_u32(A + "attention.key_length", static_cast<std::uint32_t>(head_dim));
        w.set_u32(A + "attention.value_length", static_cast<std::uint32_t>(head_dim));
        w.set_u32(A + "attention.sliding_window", static_cast<std::uint32_t>(s.sliding_window));
    }
    if (granite) {
        w.set_f32(A + "logit_scale", s.granite_logit_scale);
        if (s.granite_embedding_scale != 0) w.set_f32(A + "embedding_scale", s.granite_embedding_scale);
        if (s.granite_attention_scale != 0) w.set_f32(A + "attention.scale", s.granite_attention_scale);
        if (s.granite_residual_scale != 0) w.set_f32(A + "residual_scale", s.granite_residual_scale);
    }
    if (gemma) {
        w.set_u32(A + "attention.key_length", static_cast<std::uint32_t>(head_dim));
        w.set_u32(A + "attention.value_length", static_cast<std::uint32_t>(head_dim));
        if (s.sliding_window > 0) w.set_u32(A + "attention.sliding_window", static_cast<std::uint32_t>(s.sliding_window));
        if (gemma2 && s.attn_softcap > 0) w.set_f32(A + "attn_logit_softcapping", s.attn_softcap);
        if (gemma2 && s.final_softcap > 0) w.set_f32(A + "final_logit_softcapping", s.final_softcap);
        if (!s.swa_pattern.empty()) {
            std::vector<std::int32_t> pat(s.swa_pattern.begin(), s.swa_pattern.end());
            w.set_i32_array(A + "attention.sliding_window_pattern", pat);
        }
    }
    w.set_string("tokenizer.ggml.model", "gpt2");
    w.set_string("tokenizer.ggml.pre", "gpt-2");   // llama.cpp knows this spelling only
    std::vector<std::string> vocab = synth_vocab(s.n_vocab);
    // llama.cpp sets the right-strip flag of a model named like Phi-3 (as
    // these are) on "</s>", "<unk>" and "<s>" and fails when one is missing:
    // Phi-3's vocabulary has them, so a phi3 file gets them too.
    if (phi3) {
        const char* const spm_specials[] = {"<unk>", "<s>", "</s>"};
        for (std::size_t i = 0; i < std::size(spm_specials); ++i) vocab[vocab.size() - 1 - i] = spm_specials[i];
    }
    w.set_string_array("tokenizer.ggml.tokens", vocab);
    std::vector<std::int32_t> types(static_cast<std::size_t>(s.n_vocab), 1);
    types[0] = types[1] = types[2] = 3;   // control tokens
    w.set_i32_array("tokenizer.ggml.token_type", types);
    w.set_string_array("tokenizer.ggml.merges", {});
    w.set_u32("tokenizer.ggml.bos_token_id", 1);
    w.set_u32("tokenizer.ggml.eos_token_id", 2);
    w.set_bool("tokenizer.ggml.add_bos_token", false);
    w.set_string("tokenizer.chat_template",
                 "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + "
                 "'<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}");

    const bool float_type = type == ggml_type::f32 || type == ggml_type::f16 || type == ggml_type::bf16;
    const ggml_type emb_type = float_type ? type : ggml_type::q8_0;
    auto weights = std::make_shared<chunk_pool>(type, 0.02f, seed);
    auto embeds = std::make_shared<chunk_pool>(emb_type, s.embd_sd, seed + 7);
    std::uint64_t tensor_seed = seed * 1000003ULL;
    auto matrix = [&](const std::string& name, int n_in, int n_out, std::shared_ptr<chunk_pool> pool, ggml_type t) {
        const std::uint64_t ts = ++tensor_seed;
        w.add_tensor(name, t, {n_in, n_out},
                     [pool, ts](std::uint8_t* dst, std::int64_t n) { pool->fill(dst, n, ts); });
    };
    // F32 vectors: `center` plus, in varied shapes, N(0, sd) noise.
    xorshift vec_rng{seed * 0xD1B54A32D192ED03ULL + 5};
    // (rows > 1: a matrix of rows x (n / rows) in that layout, LFM2's convolution kernel.)
    auto vec = [&](const std::string& name, int n, float center, float sd, int rows = 1) {
        std::vector<std::uint8_t> b(static_cast<std::size_t>(n) * 4);
        for (int i = 0; i < n; ++i) {
            const float v = center + (s.varied_norms ? vec_rng.normal(sd) : 0.0f);
            std::memcpy(b.data() + i * 4, &v, 4);
        }
        if (rows > 1) w.add_tensor(name, ggml_type::f32, {n / rows, rows}, std::move(b));
        else w.add_tensor(name, ggml_type::f32, {n}, std::move(b));
    };
    auto ones = [&](const std::string& name, int n) { vec(name, n, 1.0f, 0.2f); };

    matrix("token_embd.weight", s.n_embd, s.n_vocab, embeds, emb_type);
    ones(lfm2 ? "token_embd_norm.weight" : "output_norm.weight", s.n_embd);   // LFM2's converter's name
    if (s.llama3_rope_factor > 0 && (s.arch == "llama" || s.arch == "exaone" || s.arch == "arcee")) {
        const std::vector<float> f = llama3_rope_factors(head_dim, s.rope_base, s.llama3_rope_factor, s.llama3_low_freq_factor,
                                                         s.llama3_high_freq_factor, s.llama3_original_ctx);
        std::vector<std::uint8_t> b(f.size() * 4);
        std::memcpy(b.data(), f.data(), b.size());
        w.add_tensor("rope_freqs.weight", ggml_type::f32, {static_cast<std::int64_t>(f.size())}, std::move(b));
    }
    if (longrope)
        for (const bool long_factors : {false, true}) {
            const std::vector<float> f = phi3_rope_factors(n_rot, long_factors);
            std::vector<std::uint8_t> b(f.size() * 4);
            std::memcpy(b.data(), f.data(), b.size());
            w.add_tensor(long_factors ? "rope_factors_long.weight" : "rope_factors_short.weight", ggml_type::f32,
                         {static_cast<std::int64_t>(f.size())}, std::move(b));
        }
    if (!s.tied_output) matrix("output.weight", s.n_embd, s.n_vocab, weights, type);
    if (gpt2)   // the learned positions, as the embeddings' (F32, as GPT-2's converter keeps them)
        vec("position_embd.weight", s.n_ctx * s.n_embd, 0.0f, s.embd_sd, s.n_ctx);
    if (biased || stablelm || nemotron || starcoder2) vec("output_norm.bias", s.n_embd, 0.0f, 0.05f);
    if (phi2) vec("output.bias", s.n_vocab, 0.0f, 0.5f);
    for (int il = 0; il < s.n_layer; ++il) {
        const std::string p = fmt::format("blk.{}.", il);
        if (!olmo2 && !exaone4) ones(p + "attn_norm.weight", s.n_embd);
        if (stablelm || nemotron || starcoder2) {   // the norms' biases; StableLM's parallel kind has no ffn_norm
            vec(p + "attn_norm.bias", s.n_embd, 0.0f, 0.05f);
            if (s.sequential_blocks || nemotron || starcoder2) vec(p + "ffn_norm.bias", s.n_embd, 0.0f, 0.05f);
        }
        if (nemotron || starcoder2) {   // Nemotron's optional biases, all written; StarCoder 2's required ones
            vec(p + "attn_output.bias", s.n_embd, 0.0f, 0.05f);
            vec(p + "ffn_up.bias", s.n_ff, 0.0f, 0.05f);
            vec(p + "ffn_down.bias", s.n_embd, 0.0f, 0.05f);
        }
        if (lfm2 && is_conv(il)) {   // the convolution's kernel (taps of each channel), in_proj (B, C, X), out_proj
            vec(p + "shortconv.conv.weight", s.conv_taps * s.n_embd, 0.0f, 0.5f, s.n_embd);
            matrix(p + "shortconv.in_proj.weight", s.n_embd, 3 * s.n_embd, weights, type);
            matrix(p + "shortconv.out_proj.weight", s.n_embd, s.n_embd, weights, type);
        } else if (phi3 || biased) {
            matrix(p + "attn_qkv.weight", s.n_embd, (s.n_head + 2 * s.n_head_kv) * head_dim, weights, type);
            if (biased) {   // every product's bias, and the norms'
                vec(p + "attn_qkv.bias", (s.n_head + 2 * s.n_head_kv) * head_dim, 0.0f, 0.05f);
                vec(p + "attn_output.bias", s.n_embd, 0.0f, 0.05f);
                vec(p + "attn_norm.bias", s.n_embd, 0.0f, 0.05f);
                if (!phi2) vec(p + "ffn_norm.bias", s.n_embd, 0.0f, 0.05f);
                vec(p + "ffn_up.bias", s.n_ff, 0.0f, 0.05f);
                vec(p + "ffn_down.bias", s.n_embd, 0.0f, 0.05f);
            }
        } else {
            matrix(p + "attn_q.weight", s.n_embd, s.n_head * head_dim, weights, type);
            matrix(p + "attn_k.weight", s.n_embd, s.n_head_kv * head_dim, weights, type);
            matrix(p + "attn_v.weight", s.n_embd, s.n_head_kv * head_dim, weights, type);
        }
        if (!(lfm2 && is_conv(il))) matrix(p + "attn_output.weight", s.n_head * head_dim, s.n_embd, weights, type);
        if (gpt_oss) {
            vec(p + "attn_output.bias", s.n_embd, 0.0f, 0.05f);
            vec(p + "attn_sinks.weight", s.n_head, 0.5f, 1.0f);
        }
        if (qkv_bias) {
            vec(p + "attn_q.bias", s.n_head * head_dim, 0.0f, 0.05f);
            vec(p + "attn_k.bias", s.n_head_kv * head_dim, 0.0f, 0.05f);
            vec(p + "attn_v.bias", s.n_head_kv * head_dim, 0.0f, 0.05f);
        }
        if (qk_norm && !(lfm2 && is_conv(il))) {
            ones(p + "attn_q_norm.weight", head_dim);
            ones(p + "attn_k_norm.weight", head_dim);
        }
        if (olmo2 || olmoe) {   // over the whole Q and K rows
            ones(p + "attn_q_norm.weight", s.n_head * head_dim);
            ones(p + "attn_k_norm.weight", s.n_head_kv * head_dim);
        }
        if (gemma || olmo2 || exaone4 || glm4) {
            ones(p + "post_attention_norm.weight", s.n_embd);
            ones(p + "post_ffw_norm.weight", s.n_embd);
        }
        if (!olmo2 && !exaone4 && !cohere && !phi2 && !(stablelm && !s.sequential_blocks)) ones(p + (gpt_oss ? "post_attention_norm.weight" : "ffn_norm.weight"), s.n_embd);
        if (moe && il >= s.n_dense_lead) {
            if (s.arch == "lfm2moe" || s.arch == "ernie4_5-moe") vec(p + "exp_probs_b.bias", s.n_expert, 0.0f, 0.5f);
            // The router in F32, each expert's matrices one slice of a 3-D tensor.
            std::vector<std::uint8_t> router(static_cast<std::size_t>(s.n_embd) * s.n_expert * 4);
            for (std::size_t i = 0; i < router.size() / 4; ++i) {
                const float v = vec_rng.normal(0.25f);
                std::memcpy(router.data() + i * 4, &v, 4);
            }
            w.add_tensor(p + "ffn_gate_inp.weight", ggml_type::f32, {s.n_embd, s.n_expert}, std::move(router));
            if (gpt_oss) {   // the router's bias; each expert's products' biases, a row of the 2-D tensor per expert
                vec(p + "ffn_gate_inp.bias", s.n_expert, 0.0f, 0.5f);
                vec(p + "ffn_gate_exps.bias", s.n_expert * n_ff_exp, 0.0f, 0.05f, s.n_expert);
                vec(p + "ffn_up_exps.bias", s.n_expert * n_ff_exp, 0.0f, 0.05f, s.n_expert);
                vec(p + "ffn_down_exps.bias", s.n_expert * s.n_embd, 0.0f, 0.05f, s.n_expert);
            }
            const auto experts = [&](const std::string& kind, int n_in, int n_out) {
                const std::uint64_t ts = ++tensor_seed;
                if (!s.split_experts) {
                    w.add_tensor(p + kind + "_exps.weight", type, {n_in, n_out, s.n_expert},
                                 [pool = weights, ts](std::uint8_t* dst, std::int64_t n) { pool->fill(dst, n, ts); });
                    return;
                }
                // The 3-D tensor's bytes, made once, a slice per expert.
                const std::int64_t slice = row_bytes(type, n_in) * n_out;
                auto whole = std::make_shared<std::vector<std::uint8_t>>();
                for (int e = 0; e < s.n_expert; ++e)
                    w.add_tensor(fmt::format("{}{}.{}.weight", p, kind, e), type, {n_in, n_out},
                                 [pool = weights, ts, whole, slice, e, total = slice * s.n_expert](std::uint8_t* dst,
                                                                                                  std::int64_t n) {
                                     if (whole->empty()) {
                                         whole->resize(static_cast<std::size_t>(total));
                                         pool->fill(whole->data(), total, ts);
                                     }
                                     std::memcpy(dst, whole->data() + e * slice, static_cast<std::size_t>(n));
                                 });
            };
            experts("ffn_gate", s.n_embd, n_ff_exp);
            experts("ffn_up", s.n_embd, n_ff_exp);
            experts("ffn_down", n_ff_exp, s.n_embd);
            if (s.n_ff_shared > 0) {
                if (s.arch == "qwen2moe") vec(p + "ffn_gate_inp_shexp.weight", s.n_embd, 0.0f, 0.1f);   // Granite's is ungated
                matrix(p + "ffn_gate_shexp.weight", s.n_embd, s.n_ff_shared, weights, type);
                matrix(p + "ffn_up_shexp.weight", s.n_embd, s.n_ff_shared, weights, type);
                matrix(p + "ffn_down_shexp.weight", s.n_ff_shared, s.n_embd, weights, type);
            }
            continue;
        }
        if (phi3 || glm4) {
            matrix(p + "ffn_up.weight", s.n_embd, 2 * s.n_ff, weights, type);   // gate's rows, then up's
        } else {
            if (s.arch != "arcee" && !biased && !nemotron && !starcoder2)   // arcee, gpt2, gptneox, phi2, nemotron, starcoder2: no gate
                matrix(p + "ffn_gate.weight", s.n_embd, s.n_ff, weights, type);
            matrix(p + "ffn_up.weight", s.n_embd, s.n_ff, weights, type);
        }
        matrix(p + "ffn_down.weight", s.n_ff, s.n_embd, weights, type);
    }
    return w.write_file(path);
}

}  // namespace kvlens
