// SPDX-License-Identifier: Apache-2.0
// Chat formats, recognised from tokenizer.chat_template by their distinctive
// markers together with the vocabulary (a format is chosen only when the
// vocabulary has its marker tokens) and rendered natively (a template is never
// executed): ChatML (<|im_start|>), Llama 3 (<|start_header_id|>), Gemma
// (<start_of_turn>), or none. The rendering is a list of segments, control
// markers apart from message text, so that only the markers can become
// control tokens (tokenizer::encode_chat): a document or a question that
// contains "<|im_end|>" stays text. It never starts with BOS; the caller adds
// BOS as the model asks (tokenizer::add_bos()).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/chat_message.h"

namespace kvlens {

// deepseek: DeepSeek-R1 and V3 and the R1 distillations ("<｜User｜>",
// "<｜Assistant｜>"), whatever their architecture (the distills are qwen2 and llama).
enum class chat_kind { none, chatml, llama3, gemma, deepseek };
constexpr int k_chat_kinds = 5;

const char* to_string(chat_kind k);  // "none", "chatml", "llama3", "gemma", "deepseek"

// A piece of a rendered conversation: a format marker ("<|im_start|>"), which
// may become a control token, or text (roles, contents, newlines), which never does.
struct chat_segment {
    bool control = false;
    std::string text;
};

struct chat_format {
    chat_kind kind = chat_kind::none;
    // ChatML: the system turn the template inserts when the conversation has
    // none (SmolLM2: "You are a helpful AI assistant named SmolLM, trained by
    // Hugging Face"); empty when it inserts none. Only a literal the template
    // outputs under a condition on the first message's role counts (an
    // unconditional or commented-out one does not): callers show it.
    std::string default_system;
    // Llama 3.1+: the system turn always opens with the knowledge-cutoff lines.
    bool llama3_dated_system = false;
    // DeepSeek-R1 (its distills' revised template): the assistant's turn
    // opens with "<think>\n", so the model's first tokens are reasoning.
    bool opens_reasoning = false;

    // From the template text and the vocabulary (has_token answers whether a
    // text is a token): of the formats whose markers the vocabulary has, the
    // one whose opening marker comes first in the template; none when the
    // template names no such format. An empty template: from the vocabulary alone.
    template <class HasToken>
    static chat_format detect(std::string_view tmpl, HasToken has_token) {
        bool have[k_chat_kinds] = {false,
                                   has_token("<|im_start|>") && has_token("<|im_end|>"),
                                   has_token("<|start_header_id|>") && has_token("<|eot_id|>"),
                                   has_token("<start_of_turn>") && has_token("<end_of_turn>"),
                                   has_token("<｜User｜>") && has_token("<｜Assistant｜>")};
        if (!tmpl.empty()) return from_template(tmpl, have);
        chat_format f;
        if (have[1]) f.kind = chat_kind::chatml;
        else if (have[2]) f.kind = chat_kind::llama3;
        else if (have[3]) f.kind = chat_kind::gemma;
        else if (have[4]) f.kind = chat_kind::deepseek;
        return f;
    }
    // From the template text alone, as if the vocabulary had every marker.
    static chat_format from_template(std::string_view tmpl) {
        const bool all[k_chat_kinds] = {false, true, true, true, true};
        return from_template(tmpl, all);
    }
    // available[k]: the vocabulary has the markers of chat_kind k.
    static chat_format from_template(std::string_view tmpl, const bool (&available)[k_chat_kinds]);

    // The conversation as the model saw such conversations in training;
    // add_generation_prompt appends the opening of the assistant's turn.
    // One segment per marker; neighbouring text is merged.
    std::vector<chat_segment> render_segments(const std::vector<chat_message>& messages,
                                              bool add_generation_prompt) const;
    // The segments joined: for showing and counting, never for encoding with
    // special-token parsing.
    std::string render(const std::vector<chat_message>& messages, bool add_generation_prompt) const;
};

}  // namespace kvlens
