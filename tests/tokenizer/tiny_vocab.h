// SPDX-License-Identifier: Apache-2.0
// Tiny tokenizer vocabularies for tests, written as GGUF images in memory
// (gguf_writer) and read back through gguf_file::parse, so every test also
// goes through the same metadata path as a real model file.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/tokenizer/byte_level.h"
#include "engine/tokenizer/tokenizer.h"

namespace kvlens::test {

struct vocab_spec {
    std::string model = "gpt2";
    std::string pre = "gpt2";            // "" leaves tokenizer.ggml.pre out
    std::vector<std::string> tokens;
    std::vector<std::int32_t> types;      // empty: left out (all normal)
    std::vector<float> scores;            // empty: left out
    std::vector<std::string> merges;      // gpt2 only
    std::string chat_template;            // "" leaves it out
    std::map<std::string, std::uint32_t> u32;  // e.g. {"tokenizer.ggml.bos_token_id", 1}
    std::map<std::string, bool> flags;         // e.g. {"tokenizer.ggml.add_bos_token", true}

    // Appends a token and returns its id.
    std::int32_t add(const std::string& text, std::int32_t type = 1, float score = 0) {
        tokens.push_back(text);
        if (!types.empty() || type != 1) {
            types.resize(tokens.size() - 1, 1);
            types.push_back(type);
        }
        if (!scores.empty() || score != 0) {
            scores.resize(tokens.size() - 1, 0.0f);
            scores.push_back(score);
        }
        return static_cast<std::int32_t>(tokens.size() - 1);
    }

    std::vector<std::uint8_t> gguf_bytes() const {
        gguf_writer w;
        w.set_string("general.architecture", "llama");
        w.set_string("tokenizer.ggml.model", model);
        if (!pre.empty()) w.set_string("tokenizer.ggml.pre", pre);
        w.set_string_array("tokenizer.ggml.tokens", tokens);
        if (!types.empty()) {
            auto t = types;
            t.resize(tokens.size(), 1);
            w.set_i32_array("tokenizer.ggml.token_type", t);
        }
        if (!scores.empty()) {
            auto s = scores;
            s.resize(tokens.size(), 0.0f);
            w.set_f32_array("tokenizer.ggml.scores", s);
        }
        if (model == "gpt2") w.set_string_array("tokenizer.ggml.merges", merges);   // empty is allowed
        if (!chat_template.empty()) w.set_string("tokenizer.chat_template", chat_template);
        for (const auto& [k, v] : u32) w.set_u32(k, v);
        for (const auto& [k, v] : flags) w.set_bool(k, v);
        return w.to_bytes();
    }

    result<std::unique_ptr<tokenizer>> build() const {
        auto file = gguf_file::parse(gguf_bytes(), "tiny-vocab");
        if (!file) return file.err();
        return tokenizer::from_gguf(**file);
    }
};

// A byte-level BPE vocabulary whose ids 0..255 are the 256 single bytes (in
// byte order), ready for merges and special tokens to be added.
inline vocab_spec byte_level_vocab(const std::string& pre = "gpt2") {
    vocab_spec v;
    v.pre = pre;
    for (int b = 0; b < 256; ++b) v.add(byte_level::encode(std::string(1, static_cast<char>(b))));
    return v;
}

// A BPE merge and the token it makes: "left right" -> left+right.
inline std::int32_t add_merge(vocab_spec& v, const std::string& left, const std::string& right) {
    v.merges.push_back(left + " " + right);
    return v.add(left + right);
}

}  // namespace kvlens::test
