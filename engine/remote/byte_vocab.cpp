// SPDX-License-Identifier: Apache-2.0
// The stand-in tokenizer of a remote engine whose model kvlens has no GGUF
// for: a byte-level BPE vocabulary of the 256 bytes and no merges, so every
// byte is one token. Its counts are UTF-8 byte counts, never fewer than a
// byte-level BPE model's tokens, which keeps "does it fit" checks on the safe
// side; its ids mean nothing to the server. Built once through the same GGUF
// path as a real tokenizer, from an in-memory file.
#include "engine/remote/byte_vocab.h"

#include <mutex>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/tokenizer/tokenizer.h"

namespace kvlens::remote {

namespace {

void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else {   // the byte mapping never goes past U+0143
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

// GPT-2's byte -> printable character mapping, the token text of each byte.
std::vector<std::string> byte_tokens() {
    std::vector<std::string> tokens(256);
    unsigned next = 256;
    for (unsigned b = 0; b < 256; ++b) {
        const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
        append_utf8(tokens[b], printable ? b : next++);
    }
    return tokens;
}

}  // namespace

result<const tokenizer*> byte_level_stand_in() {
    static std::once_flag once;
    static std::unique_ptr<tokenizer> tok;
    static std::string why;
    std::call_once(once, [] {
        gguf_writer w;
        w.set_string("general.architecture", "llama");
        w.set_string("tokenizer.ggml.model", "gpt2");
        w.set_string("tokenizer.ggml.pre", "default");
        w.set_string_array("tokenizer.ggml.tokens", byte_tokens());
        w.set_string_array("tokenizer.ggml.merges", {});
        w.set_bool("tokenizer.ggml.add_bos_token", false);
        auto file = gguf_file::parse(w.to_bytes(), "<byte-level stand-in>");
        if (!file) {
            why = file.message();
            return;
        }
        auto t = tokenizer::from_gguf(**file);
        if (!t) {
            why = t.message();
            return;
        }
        tok = std::move(*t);
    });
    if (!tok) return make_error("the byte-level stand-in tokenizer failed to build: " + why);
    return static_cast<const tokenizer*>(tok.get());
}

}  // namespace kvlens::remote
