// SPDX-License-Identifier: Apache-2.0
// The pre-tokenizer expressions per tokenizer.ggml.pre and the PCRE2 matching
// loop (see pretokenizer.h). The expressions are the ones the models'
// tokenizers were trained with (GPT-2, StarCoder/SmolLM, Llama 3, Qwen2).
#define PCRE2_CODE_UNIT_WIDTH 8
#include "engine/tokenizer/pretokenizer.h"

#include <pcre2.h>

#include <algorithm>

namespace kvlens {
namespace {

// \s and \S spelled as Unicode's White_Space property, which is what the
// reference tokenizers use (PCRE2's \s leaves out U+0085).
#define WS "\\t\\n\\x{0B}\\f\\r\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}"
#define S_ "[" WS "]"
#define NOT_S "[^" WS "]"

// GPT-2's expression; the trailing \s+ catches a lone whitespace character
// before a non-space (the reference implementations do the same).
constexpr const char* k_gpt2 =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^" WS "\\p{L}\\p{N}]+|" S_ "+(?!" NOT_S ")|" S_ "+";

// Llama 3: case-insensitive contractions, numbers in groups of up to three,
// punctuation keeping its trailing newlines.
constexpr const char* k_llama3 =
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}"
    "| ?[^" WS "\\p{L}\\p{N}]+[\\r\\n]*|" S_ "*[\\r\\n]+|" S_ "+(?!" NOT_S ")|" S_ "+";

// Qwen2: as Llama 3 but every digit on its own.
constexpr const char* k_qwen2 =
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}"
    "| ?[^" WS "\\p{L}\\p{N}]+[\\r\\n]*|" S_ "*[\\r\\n]+|" S_ "+(?!" NOT_S ")|" S_ "+";

struct family {
    std::vector<const char*> names;
    std::vector<const char*> exprs;
    bool ignore_merges = false;
};

const std::vector<family>& families() {
    static const std::vector<family> f = {
        // StarCoder's digits-apart split, then GPT-2's (SmolLM, StarCoder, ...).
        {{"smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva-7b"},
         {"\\p{N}", k_gpt2}, false},
        {{"llama-bpe", "llama3", "llama-v3", "falcon3", "pixtral"}, {k_llama3}, true},
        {{"qwen2", "stablelm2", "deepseek-r1-qwen", "megrez", "hunyuan"}, {k_qwen2}, false},
        {{"gpt2", "gpt-2", "mpt", "olmo", "phi-2", "roberta-bpe"}, {k_gpt2}, false},
        // What a BPE model without a named pre-tokenizer gets.
        {{"default"},
         {"[\\p{P}\\$\\+<=>\\^~\\|]+", k_gpt2, "\\p{N}+", "[0-9][0-9][0-9]"}, false},
    };
    return f;
}

}  // namespace

struct pretokenizer::compiled {
    pcre2_code* code = nullptr;
    ~compiled() { pcre2_code_free(code); }
};

pretokenizer::~pretokenizer() = default;

std::vector<std::string> pretokenizer::known_names() {
    std::vector<std::string> out;
    for (const auto& f : families())
        for (const char* n : f.names) out.emplace_back(n);
    return out;
}

result<std::unique_ptr<pretokenizer>> pretokenizer::create(std::string_view name) {
    const family* found = nullptr;
    for (const auto& f : families())
        if (std::find(f.names.begin(), f.names.end(), name) != f.names.end()) found = &f;
    if (!found) {
        std::string list;
        for (const auto& n : known_names()) list += (list.empty() ? "" : ", ") + n;
        return make_error("unsupported pre-tokenizer '" + std::string(name) + "' (known: " + list + ")");
    }
    std::unique_ptr<pretokenizer> p(new pretokenizer());
    p->name_ = std::string(name);
    p->ignore_merges_ = found->ignore_merges;
    for (const char* expr : found->exprs) {
        int err = 0;
        PCRE2_SIZE err_at = 0;
        auto c = std::make_unique<compiled>();
        c->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(expr), PCRE2_ZERO_TERMINATED,
                                PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &err, &err_at, nullptr);
        if (!c->code) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            return make_error("pre-tokenizer '" + p->name_ + "': expression does not compile at " +
                              std::to_string(err_at) + ": " + reinterpret_cast<const char*>(msg));
        }
        // Without JIT (not built in, or no executable memory) matching still works, slower.
        pcre2_jit_compile(c->code, PCRE2_JIT_COMPLETE);
        p->exprs_.push_back(std::move(c));
    }
    return p;
}

std::vector<std::string_view> pretokenizer::split(std::string_view text) const {
    std::vector<std::string_view> pieces;
    if (text.empty()) return pieces;
    pieces.push_back(text);

    pcre2_match_data* md = pcre2_match_data_create(1, nullptr);
    // A larger JIT stack than the 32 KiB default, for very long runs of one class.
    pcre2_match_context* mc = pcre2_match_context_create(nullptr);
    pcre2_jit_stack* js = pcre2_jit_stack_create(32 * 1024, 4 * 1024 * 1024, nullptr);
    if (mc && js) pcre2_jit_stack_assign(mc, nullptr, js);
    std::vector<std::string_view> next;
    for (const auto& expr : exprs_) {
        next.clear();
        next.reserve(pieces.size() * 2);
        for (std::string_view piece : pieces) {
            // Each piece is its own subject, so look-aheads stop at its end.
            const auto* subject = reinterpret_cast<PCRE2_SPTR>(piece.data());
            std::size_t done = 0;   // bytes of piece already emitted
            std::size_t from = 0;   // where the next search starts
            while (from < piece.size()) {
                const int rc = pcre2_match(expr->code, subject, piece.size(), from, 0, md, mc);
                if (rc < 0) break;  // no match (or a matching error): the rest stays one piece
                const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
                const std::size_t begin = ov[0], end = ov[1];
                if (end <= begin) {  // an empty match: step over one byte and go on
                    from = begin + 1;
                    continue;
                }
                if (begin > done) next.push_back(piece.substr(done, begin - done));
                next.push_back(piece.substr(begin, end - begin));
                done = from = end;
            }
            if (done < piece.size()) next.push_back(piece.substr(done));
        }
        pieces.swap(next);
    }
    pcre2_jit_stack_free(js);
    pcre2_match_context_free(mc);
    pcre2_match_data_free(md);
    return pieces;
}

}  // namespace kvlens
