// SPDX-License-Identifier: Apache-2.0
// Loading the tokenizer from GGUF metadata and the encode/decode paths that
// tie its parts together (see tokenizer.h): special-token partition, then
// pre-tokenizer + BPE (gpt2) or SentencePiece (llama); pieces for decoding.
#include "engine/tokenizer/tokenizer.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "common/printable.h"
#include "engine/gguf/gguf_reader.h"
#include "engine/tokenizer/bpe.h"
#include "engine/tokenizer/byte_level.h"
#include "engine/tokenizer/pretokenizer.h"
#include "engine/tokenizer/special_tokens.h"
#include "engine/tokenizer/spm.h"

namespace kvlens {
namespace {

const gguf_array* array_of(const gguf_file& file, std::string_view key) {
    const gguf_value* v = file.find(key);
    return v ? v->as_array() : nullptr;
}

// "<0x0A>" -> 10; -1 when text is not of that form.
int parse_byte_token(std::string_view text) {
    if (text.size() != 6 || text.substr(0, 3) != "<0x" || text[5] != '>') return -1;
    int v = 0;
    for (char c : text.substr(3, 2)) {
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

}  // namespace

tokenizer::tokenizer() = default;
tokenizer::~tokenizer() = default;

result<std::unique_ptr<tokenizer>> tokenizer::from_gguf(const gguf_file& file) {
    std::unique_ptr<tokenizer> t(new tokenizer());
    if (status st = t->load(file); !st) return st.err();
    return result<std::unique_ptr<tokenizer>>(std::move(t));
}

status tokenizer::load(const gguf_file& file) {
    model_ = file.get_string("tokenizer.ggml.model");
    if (model_.empty()) return make_error("the file has no tokenizer (tokenizer.ggml.model is missing)");
    if (model_ != "gpt2" && model_ != "llama")
        return make_error("unsupported tokenizer model " + quoted(model_) + " (supported: gpt2, llama)");

    // Tokens: strings, at least one, ids must fit an int32.
    const gguf_array* tokens = array_of(file, "tokenizer.ggml.tokens");
    if (!tokens) return make_error("tokenizer.ggml.tokens is missing or not an array");
    if (!tokens->is_string()) return make_error("tokenizer.ggml.tokens is not an array of strings");
    if (tokens->empty()) return make_error("tokenizer.ggml.tokens is empty");
    if (tokens->count > static_cast<std::uint64_t>(std::numeric_limits<token_id>::max()))
        return make_error("tokenizer.ggml.tokens has too many entries (" + std::to_string(tokens->count) + ")");
    const std::size_t n = tokens->size();
    vocab_.text.reserve(n);
    for (std::string_view v : tokens->strings()) vocab_.text.emplace_back(v);

    vocab_.score.assign(n, 0.0f);
    if (const gguf_array* s = array_of(file, "tokenizer.ggml.scores")) {
        if (s->size() != n)
            return make_error("tokenizer.ggml.scores has " + std::to_string(s->size()) + " entries for " +
                              std::to_string(n) + " tokens");
        if (!s->is_float() && !s->is_integer()) return make_error("tokenizer.ggml.scores is not numeric");
        for (std::size_t i = 0; i < n; ++i) vocab_.score[i] = static_cast<float>(s->float_at(i));
    }

    vocab_.type.assign(n, token_type::normal);
    if (const gguf_array* ty = array_of(file, "tokenizer.ggml.token_type")) {
        if (ty->size() != n)
            return make_error("tokenizer.ggml.token_type has " + std::to_string(ty->size()) + " entries for " +
                              std::to_string(n) + " tokens");
        if (!ty->is_integer() || ty->type == gguf_value_type::boolean)
            return make_error("tokenizer.ggml.token_type is not integer");
        for (std::size_t i = 0; i < n; ++i) {
            const std::int64_t t = ty->int_at(i);
            if (t < 0 || t > 6)
                return make_error("tokenizer.ggml.token_type[" + std::to_string(i) + "] = " + std::to_string(t) +
                                  " is not a token type (0..6)");
            vocab_.type[i] = static_cast<token_type>(t);
        }
    }

    vocab_.index.reserve(n);
    for (std::size_t i = 0; i < n; ++i) vocab_.index[vocab_.text[i]] = static_cast<token_id>(i);

    if (status st = load_special_ids(file); !st) return st;

    if (model_ == "gpt2") {
        pre_ = file.get_string("tokenizer.ggml.pre", "default");
        auto p = pretokenizer::create(pre_);
        if (!p) return make_error(printable(p.message(), 400));
        pre_tok_ = std::move(p.value());

        const gguf_array* merges = array_of(file, "tokenizer.ggml.merges");
        if (!merges) return make_error("tokenizer.ggml.merges is missing (a gpt2 tokenizer needs its merges)");
        if (!merges->is_string()) return make_error("tokenizer.ggml.merges is not an array of strings");
        auto m = bpe_merger::build(vocab_, merges->strings());
        if (!m) return make_error(printable(m.message(), 400));
        bpe_ = std::make_unique<bpe_merger>(std::move(m.value()));
        add_space_prefix_ = file.get_bool("tokenizer.ggml.add_space_prefix", false);
    } else {
        spm_ = std::make_unique<spm_merger>(vocab_);
        add_space_prefix_ = file.get_bool("tokenizer.ggml.add_space_prefix", true);
    }

    special_ = std::make_unique<special_token_matcher>(vocab_);
    build_pieces();

    template_ = file.get_string("tokenizer.chat_template");
    chat_ = chat_format::detect(template_, [this](std::string_view s) { return vocab_.find(s) >= 0; });
    if (eos_ >= 0) chat_.eos_text = vocab_.text[static_cast<std::size_t>(eos_)];   // Zephyr closes its turns with it
    return {};
}

status tokenizer::load_special_ids(const gguf_file& file) {
    const auto n = static_cast<std::int64_t>(vocab_.size());
    const bool spm = model_ == "llama";
    // (key, where it goes, default when absent)
    struct special_key {
        const char* key;
        token_id* id;
        token_id fallback;
    };
    token_id eom = -1;
    const special_key keys[] = {
        {"tokenizer.ggml.bos_token_id", &bos_, spm && n > 1 ? 1 : -1},
        {"tokenizer.ggml.eos_token_id", &eos_, spm && n > 2 ? 2 : -1},
        {"tokenizer.ggml.eot_token_id", &eot_, -1},
        {"tokenizer.ggml.eom_token_id", &eom, -1},
        {"tokenizer.ggml.unknown_token_id", &unk_, spm ? 0 : -1},
        {"tokenizer.ggml.padding_token_id", &pad_, -1},
    };
    for (const auto& k : keys) {
        const gguf_value* v = file.find(k.key);
        if (!v) {
            *k.id = k.fallback;
            continue;
        }
        if (!v->is_integer()) return make_error(std::string(k.key) + " is not an integer");
        const std::int64_t id = v->as_int();
        // -1 (also written as u32 0xFFFFFFFF) is how converters say "none".
        if (id == -1 || id == 0xFFFFFFFFLL) {
            *k.id = -1;
            continue;
        }
        if (id < 0 || id >= n)
            return make_error(std::string(k.key) + " = " + std::to_string(id) + " is out of range (" +
                              std::to_string(n) + " tokens)");
        *k.id = static_cast<token_id>(id);
    }

    // Absent, llama.cpp adds BOS for SentencePiece and for these pre-tokenizers (LFM2's template starts with it).
    const std::string pre = file.get_string("tokenizer.ggml.pre");
    add_bos_ = file.get_bool("tokenizer.ggml.add_bos_token", spm || pre == "llama-bpe" || pre == "lfm2");
    add_eos_ = file.get_bool("tokenizer.ggml.add_eos_token", false);

    // End of turn by name when the metadata does not say.
    // (Hunyuan's turn end last: its files name it EOS; kvlens stops there whatever they name.)
    static const char* const k_eot_names[] = {"<|eot_id|>", "<|im_end|>", "<end_of_turn>", "<|end|>",
                                              "<|endoftext|>", "<|end_of_text|>", "<|eom_id|>",
                                              "<｜hy_place▁holder▁no▁2｜>", "<|END_OF_TURN_TOKEN|>"};
    if (eot_ < 0)
        for (const char* name : k_eot_names)
            if (const token_id id = vocab_.find(name); id >= 0) {
                eot_ = id;
                break;
            }
    eog_.clear();
    for (token_id id : {eos_, eot_, eom})
        if (id >= 0) eog_.push_back(id);
    for (const char* name : k_eot_names)
        if (const token_id id = vocab_.find(name); id >= 0) eog_.push_back(id);
    // Harmony (gpt-oss's o200k_harmony): "<|return|>" ends the answer and
    // "<|call|>" a tool call, but "<|end|>" only ends one message of the
    // answer (its analysis channel comes before its final one): as llama.cpp
    // does for a vocabulary with all three, <|end|> is no end of generation.
    const token_id ret = vocab_.find("<|return|>"), call = vocab_.find("<|call|>"), end = vocab_.find("<|end|>");
    if (ret >= 0 && call >= 0) {
        eog_.push_back(ret);
        eog_.push_back(call);
        if (end >= 0) {
            eog_.erase(std::remove(eog_.begin(), eog_.end(), end), eog_.end());
            if (eot_ == end) eot_ = ret;
        }
    }
    std::sort(eog_.begin(), eog_.end());
    eog_.erase(std::unique(eog_.begin(), eog_.end()), eog_.end());
    return {};
}

void tokenizer::build_pieces() {
    const bool spm = model_ == "llama";
    piece_.resize(vocab_.size());
    for (int i = 0; i < vocab_.size(); ++i) {
        const std::string& text = vocab_.text[i];
        switch (vocab_.type[i]) {
        case token_type::control:
        case token_type::user_defined:
        case token_type::unknown:
            piece_[i] = text;  // shown as written
            break;
        case token_type::unused:
            break;  // nothing
        case token_type::byte:
            if (const int b = parse_byte_token(text); b >= 0) piece_[i] = std::string(1, static_cast<char>(b));
            else piece_[i] = spm ? spm_merger::unescape_spaces(text) : text;
            break;
        case token_type::normal:
        case token_type::undefined:
            if (spm) piece_[i] = spm_merger::unescape_spaces(text);
            else byte_level::decode(text, piece_[i]);
            break;
        }
    }
}

// ---- encoding

void tokenizer::encode_text(std::string_view text, std::vector<token_id>& out) const {
    for (std::string_view word : pre_tok_->split(text)) {
        if (pre_tok_->ignore_merges()) {
            if (const token_id id = vocab_.find(byte_level::encode(word)); id >= 0) {
                out.push_back(id);
                continue;
            }
        }
        bpe_->encode_word(word, out);
    }
}

std::vector<token_id> tokenizer::encode(std::string_view text, bool add_bos, bool parse_special) const {
    std::vector<token_id> out;
    out.reserve(text.size() / 3 + 2);
    if (add_bos && bos_ >= 0) out.push_back(bos_);
    bool after_special = true;  // at the start, or just after a special token
    for (const text_fragment& f : special_->partition(text, parse_special)) {
        if (f.special >= 0) {
            out.push_back(f.special);
            after_special = true;
            continue;
        }
        if (spm_) {
            // SentencePiece saw every text with a leading space.
            std::string s = add_space_prefix_ && after_special ? " " : "";
            s += f.text;
            spm_->encode(spm_merger::escape_spaces(s), out);
        } else {
            encode_text(f.text, out);
        }
        after_special = false;
    }
    return out;
}

status tokenizer::check_input_size(std::size_t bytes, std::string_view what) {
    if (bytes <= max_input_bytes) return {};
    return make_error(std::string(what) + " of " + std::to_string(bytes) + " bytes is over the tokenizer's limit of " +
                      std::to_string(max_input_bytes) + " bytes (16 MiB)");
}

void tokenizer::encode_plain(std::string_view text, std::vector<token_id>& out) const {
    const std::vector<token_id> ids = encode(text, false, false);
    out.insert(out.end(), ids.begin(), ids.end());
}

result<std::vector<token_id>> tokenizer::encode_chat(const std::vector<chat_message>& messages,
                                                     bool add_generation_prompt) const {
    std::size_t bytes = 0;
    for (const chat_message& m : messages) bytes += m.role.size() + m.content.size();
    if (status st = check_input_size(bytes, "a conversation"); !st) return st.err();
    std::vector<token_id> out;
    if (add_bos_ && bos_ >= 0) out.push_back(bos_);
    // Text between two markers is encoded as one piece, as it was when the
    // rendered text was split at special tokens; a marker the vocabulary lacks
    // stays text and joins its neighbours.
    // Phi-3's markers strip the whitespace after them (chat_format::
    // markers_strip_space_after); <|endoftext|> keeps it.
    const bool rstrip_markers = chat_.markers_strip_space_after();
    bool strip = false;   // the text that follows loses its leading whitespace
    std::string pending;
    for (const chat_segment& s : chat_.render_segments(messages, add_generation_prompt)) {
        const token_id id = s.control ? vocab_.find(s.text) : -1;
        const bool is_marker = id >= 0 && (vocab_.type[id] == token_type::control ||
                                           vocab_.type[id] == token_type::user_defined);
        if (!is_marker) {
            std::string_view text = s.text;
            if (strip) {
                const std::size_t at = text.find_first_not_of(" \t\n\r\f\v");
                text = at == std::string_view::npos ? std::string_view() : text.substr(at);
                strip = text.empty();
            }
            pending += text;
            continue;
        }
        if (!pending.empty()) encode_plain(pending, out);
        pending.clear();
        out.push_back(id);
        strip = rstrip_markers && s.text != "<|endoftext|>";
    }
    if (!pending.empty()) encode_plain(pending, out);
    return out;
}

// ---- decoding

std::string tokenizer::token_to_piece(token_id id) const {
    if (id < 0 || id >= vocab_.size()) return {};
    return piece_[id];
}

std::string tokenizer::decode(std::span<const token_id> ids) const {
    std::string out;
    bool after_special = true;
    for (const token_id id : ids) {
        if (id < 0 || id >= vocab_.size()) continue;
        std::string_view piece = piece_[id];
        const token_type t = vocab_.type[id];
        const bool special = t == token_type::control || t == token_type::user_defined || t == token_type::unknown;
        if (spm_ && add_space_prefix_ && after_special && !special && !piece.empty() && piece[0] == ' ')
            piece.remove_prefix(1);
        out.append(piece);
        after_special = special;
    }
    return out;
}

// ---- vocabulary and chat

const std::string& tokenizer::token_text(token_id id) const {
    static const std::string none;
    return id >= 0 && id < vocab_.size() ? vocab_.text[id] : none;
}

token_type tokenizer::type_of(token_id id) const {
    return id >= 0 && id < vocab_.size() ? vocab_.type[id] : token_type::undefined;
}

bool tokenizer::is_end_of_generation(token_id id) const {
    return std::binary_search(eog_.begin(), eog_.end(), id);
}

std::string tokenizer::render_chat(const std::vector<chat_message>& messages, bool add_generation_prompt) const {
    return chat_.render(messages, add_generation_prompt);
}

}  // namespace kvlens
