// SPDX-License-Identifier: Apache-2.0
// The pre-tokenizer expressions per tokenizer.ggml.pre and the PCRE2 matching
// loop (see pretokenizer.h). The expressions are the ones the models'
// tokenizers were trained with (GPT-2, StarCoder/SmolLM, Llama 3, Qwen2,
// Tekken, GPT-4o, DeepSeek, ...), as llama.cpp reads them: where llama.cpp's
// reading differs from the Hugging Face original (letter case, marks, the
// whitespace inside literal ranges) we follow llama.cpp, so that a GGUF file
// gives the same ids in both; each such place says so.
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

// Llama 3's case-insensitive contractions ('s 't 're 've 'm 'll 'd).
#define CONTRACTION "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"
// Tekken and GPT-4o split words at a change of case. Their originals say
// \p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M} and \p{Ll}\p{Lm}\p{Lo}\p{M}; llama.cpp reads
// "upper" as any letter but a-z and "lower" as any letter but A-Z (so the case
// of non-ASCII letters never splits a word, and combining marks are not part
// of words).
#define UPPER "(?:(?=\\p{L})[^a-z])"
#define LOWER "(?:(?=\\p{L})[^A-Z])"
// The common tail of the Llama 3 style expressions: newlines with the spaces
// before them, then spaces (a run before a non-space leaves its last one to
// the word that follows).
#define SPACE_TAIL S_ "*[\\r\\n]+|" S_ "+(?!" NOT_S ")|" S_ "+"
// A literal range that llama.cpp matches against text whose non-ASCII
// whitespace has been replaced by a control character: the range never
// matches whitespace, even where it spans it (U+0800-U+4E00 spans U+2000).
#define NO_WS(cls) "(?:(?!" S_ ")" cls ")"

// GPT-2's expression; the trailing \s+ catches a lone whitespace character
// before a non-space (the reference implementations do the same).
constexpr const char* k_gpt2 =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^" WS "\\p{L}\\p{N}]+|" S_ "+(?!" NOT_S ")|" S_ "+";

// Llama 3: case-insensitive contractions, numbers in groups of up to three,
// punctuation keeping its trailing newlines.
constexpr const char* k_llama3 =
    CONTRACTION "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^" WS "\\p{L}\\p{N}]+[\\r\\n]*|" SPACE_TAIL;

// Qwen2: as Llama 3 but every digit on its own.
constexpr const char* k_qwen2 =
    CONTRACTION "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^" WS "\\p{L}\\p{N}]+[\\r\\n]*|" SPACE_TAIL;

// Seed-Coder: as Qwen2, but a punctuation run leaves its newlines apart.
constexpr const char* k_seed_coder =
    CONTRACTION "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^" WS "\\p{L}\\p{N}\\r\\n]+|" SPACE_TAIL;

// Tekken (Mistral Nemo, Mistral Small 3): words split at a change of case,
// no contractions, every digit on its own, '/' and newlines kept after
// punctuation.
constexpr const char* k_tekken =
    "[^\\r\\n\\p{L}\\p{N}]?" UPPER "*" LOWER "+|[^\\r\\n\\p{L}\\p{N}]?" UPPER "+" LOWER "*"
    "|\\p{N}| ?[^" WS "\\p{L}\\p{N}]+[\\r\\n/]*|" SPACE_TAIL;

// GPT-4o (o200k; Phi-4-mini): as Tekken, but a word keeps a following
// contraction and numbers go in groups of up to three.
constexpr const char* k_gpt4o =
    "[^\\r\\n\\p{L}\\p{N}]?" UPPER "*" LOWER "+" CONTRACTION "?|[^\\r\\n\\p{L}\\p{N}]?" UPPER "+" LOWER "*" CONTRACTION "?"
    "|\\p{N}{1,3}| ?[^" WS "\\p{L}\\p{N}]+[\\r\\n/]*|" SPACE_TAIL;

// DeepSeek LLM and Coder: CJK ideographs, Hangul and the blocks between them.
#define DEEPSEEK_CJK NO_WS("[\\x{4E00}-\\x{9FA5}\\x{800}-\\x{4E00}\\x{AC00}-\\x{D7FF}]") "+"
// DeepSeek LLM's letters: Latin, Greek, Cyrillic, Armenian, Georgian,
// Cherokee, Glagolitic, Coptic, ... (the cased scripts), listed as ranges.
#define DEEPSEEK_LETTERS                                                                              \
    "[A-Za-z\\x{B5}\\x{C0}-\\x{D6}\\x{D8}-\\x{F6}\\x{F8}-\\x{1BA}\\x{1BC}-\\x{1BF}\\x{1C4}-\\x{293}"   \
    "\\x{295}-\\x{2AF}\\x{370}-\\x{373}\\x{376}\\x{377}\\x{37B}-\\x{37D}\\x{37F}\\x{386}\\x{388}-\\x{38A}" \
    "\\x{38C}\\x{38E}-\\x{3A1}\\x{3A3}-\\x{3F5}\\x{3F7}-\\x{481}\\x{48A}-\\x{52F}\\x{531}-\\x{556}"       \
    "\\x{10A0}-\\x{10C5}\\x{13A0}-\\x{13F5}\\x{13F8}-\\x{13FD}\\x{1C90}-\\x{1CBA}\\x{1CBD}-\\x{1CBF}"    \
    "\\x{1D00}-\\x{1D2B}\\x{1D6B}-\\x{1D77}\\x{1D79}-\\x{1D9A}\\x{1E00}-\\x{1F15}\\x{1F18}-\\x{1F1D}"    \
    "\\x{1F20}-\\x{1F45}\\x{1F48}-\\x{1F4D}\\x{1F50}-\\x{1F57}\\x{1F59}\\x{1F5B}\\x{1F5D}"              \
    "\\x{1F5F}-\\x{1F7D}\\x{1F80}-\\x{1FB4}\\x{1FB6}-\\x{1FBC}\\x{1FBE}\\x{1FC2}-\\x{1FC4}"              \
    "\\x{1FC6}-\\x{1FCC}\\x{1FD0}-\\x{1FD3}\\x{1FD6}-\\x{1FDB}\\x{1FE0}-\\x{1FEC}\\x{1FF2}-\\x{1FF4}"    \
    "\\x{1FF6}-\\x{1FFC}\\x{2102}\\x{2107}\\x{210A}-\\x{2113}\\x{2115}\\x{2119}-\\x{211D}\\x{2124}"      \
    "\\x{2126}\\x{2128}\\x{212A}-\\x{212D}\\x{212F}-\\x{2134}\\x{2139}\\x{213C}-\\x{213F}"              \
    "\\x{2145}-\\x{2149}\\x{214E}\\x{2183}\\x{2184}\\x{2C00}-\\x{2C7B}\\x{2C7E}-\\x{2CE4}"              \
    "\\x{2CEB}-\\x{2CEE}\\x{2CF2}\\x{2CF3}\\x{A640}-\\x{A66D}\\x{A680}-\\x{A69B}\\x{A722}-\\x{A76F}"    \
    "\\x{A771}-\\x{A787}\\x{A78B}-\\x{A78E}\\x{AB70}-\\x{ABBF}\\x{FB00}-\\x{FB06}\\x{FB13}-\\x{FB17}"    \
    "\\x{FF21}-\\x{FF3A}\\x{FF41}-\\x{FF5A}\\x{10400}-\\x{1044F}\\x{104B0}-\\x{104D3}"                  \
    "\\x{104D8}-\\x{104FB}\\x{10C80}-\\x{10CB2}\\x{10CC0}-\\x{10CF2}\\x{118A0}-\\x{118DF}"              \
    "\\x{1E900}-\\x{1E943}]"
// DeepSeek LLM's punctuation: printable ASCII (letters are gone by then),
// fullwidth forms, curly quotes, and the ideographic comma and full stop
// (the original also lists U+3000, a space, which llama.cpp never matches
// here).
#define DEEPSEEK_PUNCT "[!-/:-~\\x{FF01}-\\x{FF0F}\\x{FF1A}-\\x{FF5E}\\x{2018}-\\x{201F}\\x{3001}-\\x{3002}]"

// DeepSeek V3 / R1: \p{S} as llama.cpp reads it, which leaves out '~'.
#define DS3_PUNCT "(?:(?!~)[\\p{P}\\p{S}])"
#define DS3_NOT_PUNCT "(?:[^\\r\\n\\p{L}\\p{P}\\p{S}]|~)"
constexpr const char* k_deepseek3_words =
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|" DS3_NOT_PUNCT "?[\\p{L}\\p{M}]+"
    "| ?" DS3_PUNCT "+[\\r\\n]*|" SPACE_TAIL;

// Viking (Nordic languages): runs up to a space or sentence punctuation
// (.,!? and the ellipsis, ideographic, fullwidth, Devanagari, Urdu and Arabic
// stops and commas; also '(', '|', ')', which the class was written with),
// then digits apart.
constexpr const char* k_viking =
    " ?[^(" WS "|.,!?\\x{2026}\\x{3002}\\x{FF0C}\\x{3001}\\x{964}\\x{6D4}\\x{60C})]+";

struct family {
    std::vector<const char*> names;
    std::vector<const char*> exprs;
    bool ignore_merges = false;
};

const std::vector<family>& families() {
    // ignore_merges as llama.cpp sets it per name (Llama 3 and Tekken).
    static const std::vector<family> f = {
        // StarCoder's digits-apart split, then GPT-2's (SmolLM, StarCoder, ...).
        {{"smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva-7b"},
         {"\\p{N}", k_gpt2}, false},
        // Llama 3 and models that took its tokenizer (Falcon 3, Pixtral, Mi:dm 2.0).
        {{"llama-bpe", "llama3", "llama-v3", "falcon3", "pixtral", "midm-2.0", "lfm2"}, {k_llama3}, true},
        // The same expression without the whole-word shortcut: cl100k
        // tokenizers (DBRX; Phi-4 files carry this name) and Smaug-Llama-3.
        {{"dbrx", "smaug-bpe"}, {k_llama3}, false},
        {{"qwen2", "stablelm2", "deepseek-r1-qwen", "megrez", "hunyuan"}, {k_qwen2}, false},
        // GPT-2's expression (also A.X 4.0, Mellum, Trillion, EXAONE 4.0).
        {{"gpt2", "gpt-2", "mpt", "olmo", "phi-2", "roberta-bpe", "a.x-4.0", "mellum", "trillion", "exaone4"},
         {k_gpt2}, false},
        {{"tekken"}, {k_tekken}, true},
        {{"gpt-4o"}, {k_gpt4o}, false},
        {{"seed-coder"}, {k_seed_coder}, false},
        // DeepSeek LLM: newlines apart, then cased-script words, punctuation,
        // trailing spaces, CJK, numbers.
        {{"deepseek-llm"},
         {"[\\r\\n]", S_ "?" DEEPSEEK_LETTERS "+", S_ "?" DEEPSEEK_PUNCT "+", S_ "+\\z", DEEPSEEK_CJK, "\\p{N}+"},
         false},
        // DeepSeek Coder: newlines apart, then words, punctuation, CJK, digits.
        {{"deepseek-coder"},
         {"[\\r\\n]", S_ "?\\p{L}+", S_ "?\\p{P}+", DEEPSEEK_CJK, "\\p{N}"}, false},
        // DeepSeek V3 / R1 (and R1-0528-Qwen3-8B), Hunyuan's dense models:
        // numbers in threes, CJK and kana runs, then words that may start with
        // one ASCII punctuation mark.
        {{"deepseek-v3", "hunyuan-dense"},
         {"\\p{N}{1,3}", "[\\x{4E00}-\\x{9FA5}\\x{3040}-\\x{309F}\\x{30A0}-\\x{30FF}]+", k_deepseek3_words}, false},
        {{"viking"}, {k_viking, "\\p{N}"}, false},
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
