// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any bytes as text for two small tokenizers built once (a
// byte-level BPE with merges, control and user-defined tokens, and a
// SentencePiece one with byte fallback): encode with and without special-text
// parsing, decode, and the byte-level round trip decode(encode(x)) == x.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/tokenizer/byte_level.h"
#include "engine/tokenizer/tokenizer.h"

namespace {

std::unique_ptr<kvlens::tokenizer> build(const kvlens::gguf_writer& w) {
    auto f = kvlens::gguf_file::parse(w.to_bytes(), "fuzz-vocab");
    if (!f) std::abort();
    auto t = kvlens::tokenizer::from_gguf(**f);
    if (!t) std::abort();
    return std::move(*t);
}

std::unique_ptr<kvlens::tokenizer> byte_level_bpe() {
    std::vector<std::string> tokens;
    std::vector<std::int32_t> types;
    for (int b = 0; b < 256; ++b) {
        tokens.push_back(kvlens::byte_level::encode(std::string(1, static_cast<char>(b))));
        types.push_back(1);
    }
    std::vector<std::string> merges;
    for (const char* pair : {"t h", "th e", "Ġ t", "Ġt he", "i n", "Ġ a", "e r", "o n"}) {
        const std::string p = pair;
        const auto sp = p.find(' ');
        merges.push_back(p);
        tokens.push_back(p.substr(0, sp) + p.substr(sp + 1));
        types.push_back(1);
    }
    for (const char* s : {"<|im_start|>", "<|im_end|>", "<|endoftext|>"}) {
        tokens.push_back(s);
        types.push_back(3);
    }
    tokens.push_back("<tool>");
    types.push_back(4);
    kvlens::gguf_writer w;
    w.set_string("tokenizer.ggml.model", "gpt2");
    w.set_string("tokenizer.ggml.pre", "smollm");
    w.set_string_array("tokenizer.ggml.tokens", tokens);
    w.set_i32_array("tokenizer.ggml.token_type", types);
    w.set_string_array("tokenizer.ggml.merges", merges);
    return build(w);
}

std::unique_ptr<kvlens::tokenizer> sentencepiece() {
    std::vector<std::string> tokens = {"<unk>", "<s>", "</s>"};
    std::vector<std::int32_t> types = {2, 3, 3};
    std::vector<float> scores = {0, 0, 0};
    for (int b = 0; b < 256; ++b) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "<0x%02X>", b);
        tokens.push_back(hex);
        types.push_back(6);
        scores.push_back(0);
    }
    float score = -1;
    for (const char* piece : {"\xe2\x96\x81", "\xe2\x96\x81the", "a", "b", "th", "e", "\xe2\x96\x81" "a", "<start_of_turn>"}) {
        tokens.push_back(piece);
        types.push_back(std::string_view(piece) == "<start_of_turn>" ? 3 : 1);
        scores.push_back(score -= 0.5f);
    }
    kvlens::gguf_writer w;
    w.set_string("tokenizer.ggml.model", "llama");
    w.set_string_array("tokenizer.ggml.tokens", tokens);
    w.set_i32_array("tokenizer.ggml.token_type", types);
    w.set_f32_array("tokenizer.ggml.scores", scores);
    return build(w);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const auto bpe = byte_level_bpe();
    static const auto spm = sentencepiece();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const kvlens::tokenizer* t : {bpe.get(), spm.get()}) {
        for (bool special : {false, true}) {
            const auto ids = t->encode(text, true, special);
            const std::string back = t->decode(ids);
            // Byte-level BPE loses nothing: every byte has a token.
            if (t == bpe.get() && !special && back != text) std::abort();
            for (auto id : ids) (void)t->token_to_piece(id);
        }
    }
    return 0;
}
