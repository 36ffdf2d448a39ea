// SPDX-License-Identifier: Apache-2.0
// The tokenizer stored in a GGUF file: text <-> token ids, special tokens,
// end-of-generation ids, and the model's chat format. Two models:
//   gpt2  - byte-level BPE with merge ranks and the regex pre-tokenizer named
//           by tokenizer.ggml.pre (smollm, llama-bpe, qwen2, gpt2, default);
//   llama - SentencePiece: scores, '▁' for spaces, <0xXX> byte fallback.
// Built once by from_gguf (which validates the metadata) and then only read:
// every const method is safe to call from several threads at once.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "engine/tokenizer/chat_message.h"
#include "engine/tokenizer/chat_template.h"
#include "engine/tokenizer/utf8_stream.h"
#include "engine/tokenizer/vocab.h"

namespace kvlens {

class gguf_file;
class pretokenizer;
class bpe_merger;
class spm_merger;
class special_token_matcher;

class tokenizer {
public:
    // Reads tokenizer.ggml.* and tokenizer.chat_template. Errors name the
    // cause: unknown model or pre-tokenizer, missing or mistyped arrays,
    // arrays of different lengths, a special id out of range, a bad merge.
    static result<std::unique_ptr<tokenizer>> from_gguf(const gguf_file& file);
    ~tokenizer();
    tokenizer(const tokenizer&) = delete;
    tokenizer& operator=(const tokenizer&) = delete;

    // ---- text -> ids
    // The longest text the engine's readers accept (a prompt, a chat's
    // messages together): 16 MiB, some 4 million tokens, far above any
    // context, small enough that its ids and pieces fit in memory.
    static constexpr std::size_t max_input_bytes = std::size_t(16) << 20;
    // An error naming both numbers when `bytes` is over max_input_bytes.
    static status check_input_size(std::size_t bytes, std::string_view what);

    // add_bos: prepend bos_id() (pass `want && add_bos()` to follow the
    // model's metadata). parse_special: text of control tokens
    // ("<|im_start|>") becomes those tokens; otherwise it is tokenized as
    // plain text. User-defined tokens are matched either way. Text from a
    // document or a person is always encoded with parse_special = false; only
    // encode_chat puts control tokens around it.
    std::vector<token_id> encode(std::string_view text, bool add_bos, bool parse_special) const;
    // A conversation in the model's chat format (BOS first when add_bos()):
    // the format's markers become control tokens, the messages' text is plain
    // text whatever it holds. An error when the messages are over max_input_bytes.
    result<std::vector<token_id>> encode_chat(const std::vector<chat_message>& messages,
                                              bool add_generation_prompt) const;

    // ---- ids -> text
    // The raw bytes a token stands for (not necessarily whole UTF-8
    // characters). Control tokens give their text ("<|im_end|>"); an id out
    // of range gives "".
    std::string token_to_piece(token_id id) const;
    // A whole sequence. With a SentencePiece add_space_prefix model, the space
    // the encoder put before text at the start or after a special token is
    // removed again, so decode(encode(x)) == x.
    std::string decode(std::span<const token_id> ids) const;

    // ---- vocabulary
    int n_vocab() const { return vocab_.size(); }
    const std::string& token_text(token_id id) const;   // as stored ("Ġthe", "▁the"); "" out of range
    token_type type_of(token_id id) const;               // undefined out of range
    bool is_control(token_id id) const { return type_of(id) == token_type::control; }
    token_id find_token(std::string_view text) const { return vocab_.find(text); }  // -1 when absent
    token_id bos_id() const { return bos_; }   // -1 when the model has none
    token_id eos_id() const { return eos_; }
    token_id eot_id() const { return eot_; }   // end of turn; -1 when none
    token_id unk_id() const { return unk_; }
    token_id pad_id() const { return pad_; }
    bool add_bos() const { return add_bos_; }  // tokenizer.ggml.add_bos_token
    bool add_eos() const { return add_eos_; }  // tokenizer.ggml.add_eos_token
    bool add_space_prefix() const { return add_space_prefix_; }
    // eos, eot, and <|im_end|> <|eot_id|> <|eom_id|> <end_of_turn> <|end|>
    // <|endoftext|> <|end_of_text|> when the vocabulary has them; in a
    // vocabulary with <|return|> and <|call|> (Harmony) those two, and not <|end|>.
    bool is_end_of_generation(token_id id) const;
    const std::vector<token_id>& end_of_generation_ids() const { return eog_; }
    const std::string& model_name() const { return model_; }   // "gpt2" or "llama"
    const std::string& pre_name() const { return pre_; }       // "smollm", ...; "" for llama

    // ---- chat
    // "chatml", "llama3", "gemma", "deepseek", "phi3", "mistral", "granite",
    // "olmo2", "exaone", "harmony", "hunyuan", "command-r" or "none"
    const char* chat_template_kind() const { return to_string(chat_.kind); }
    // Whether a chat prompt's generation prompt opens the model's reasoning
    // (DeepSeek-R1's "<｜Assistant｜><think>\n"): its first tokens are reasoning.
    bool chat_opens_reasoning() const { return chat_.opens_reasoning; }
    chat_kind chat_kind_value() const { return chat_.kind; }
    const std::string& chat_template() const { return template_; }  // as stored; "" when absent
    // The system turn the format adds when a conversation has none ("" when
    // none): callers show it, so that no instruction from a file is hidden.
    const std::string& default_system_prompt() const { return chat_.default_system; }
    // The conversation in the model's format as text, for showing it; to
    // encode it use encode_chat (encoding this text with parse_special would
    // turn marker text inside the messages into control tokens).
    std::string render_chat(const std::vector<chat_message>& messages, bool add_generation_prompt) const;

private:
    tokenizer();
    status load(const gguf_file& file);
    status load_special_ids(const gguf_file& file);
    void build_pieces();
    void encode_text(std::string_view text, std::vector<token_id>& out) const;
    // Plain text (user-defined tokens matched), after a special token or at the start.
    void encode_plain(std::string_view text, std::vector<token_id>& out) const;

    std::string model_;
    std::string pre_;
    vocab_data vocab_;
    std::vector<std::string> piece_;  // (n_vocab) raw bytes each token decodes to
    token_id bos_ = -1, eos_ = -1, eot_ = -1, unk_ = -1, pad_ = -1;
    bool add_bos_ = false, add_eos_ = false, add_space_prefix_ = false;
    std::vector<token_id> eog_;  // sorted
    std::string template_;
    chat_format chat_;

    std::unique_ptr<pretokenizer> pre_tok_;          // gpt2 only
    std::unique_ptr<bpe_merger> bpe_;                // gpt2 only
    std::unique_ptr<spm_merger> spm_;                // llama only
    std::unique_ptr<special_token_matcher> special_;
};

}  // namespace kvlens
