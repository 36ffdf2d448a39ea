// SPDX-License-Identifier: Apache-2.0
// Hidden reasoning in a token stream: text between <think> and </think> is
// the model's reasoning, not its answer; in OpenAI's Harmony format
// (gpt-oss) the answer is the content of the "final" channel's messages,
// and everything else (message headers, the "analysis" channel's reasoning,
// the terminators) is hidden. Tags arrive in pieces (a tokenizer may cut
// "</think>" as "</", "think", ">"), so the tracker reads the text stream,
// not single tokens: a tail that may still begin a tag is held undecided
// until a later piece settles it.
#pragma once

#include <string>
#include <string_view>

namespace kvlens {

// Whether a model may think in <think>…</think> before it answers, and how we
// know: its vocabulary has both tags as tokens (Qwen3, the DeepSeek-R1
// distills), or its chat template writes the tags; or its chat format is
// Harmony, whose answers open with an analysis channel. none: neither.
enum class reasoning_evidence { none, vocabulary, chat_template, harmony_channels };
const char* to_string(reasoning_evidence e);   // "none", "vocabulary", "chat_template", "harmony_channels"
reasoning_evidence reasoning_evidence_of(bool vocab_has_open_tag, bool vocab_has_close_tag,
                                         std::string_view chat_template);

class hidden_reasoning {
public:
    enum class syntax { think_tags, harmony_channels };
    // Harmony: the text that follows a prompt ending in "<|start|>assistant"
    // (a message header first). Set before the first push.
    void use(syntax s) { syntax_ = s; }

    // Feeds the next piece of generated text. Returns true when the piece
    // makes answer text appear: characters outside <think>...</think> and
    // outside the tags themselves, including held characters it settles as
    // text ("<th" followed by "e" is answer text, shown by the later piece).
    bool push(std::string_view piece);

    // Between <think> and </think>; Harmony: anywhere but a final channel's content.
    bool inside() const { return syntax_ == syntax::think_tags ? inside_ : !(in_content_ && final_channel_); }
    // The prompt itself opened <think> (DeepSeek-R1's template): what follows is reasoning.
    void open() { inside_ = true; }

private:
    bool push_harmony(std::string_view piece);

    syntax syntax_ = syntax::think_tags;
    // Harmony: in a message's content (after <|message|>) or its header, the
    // header's text so far, and whether the content is the final channel's.
    bool in_content_ = false;
    bool final_channel_ = false;
    std::string header_;
    bool inside_ = false;
    std::string held_;    // a tail of the text so far that is a proper prefix of the next tag
};

}  // namespace kvlens
