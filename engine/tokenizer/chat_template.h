// SPDX-License-Identifier: Apache-2.0
// Chat formats, recognised from tokenizer.chat_template by their distinctive
// markers and rendered natively (a template is never executed): ChatML
// (<|im_start|>), Llama 3 (<|start_header_id|>), Gemma (<start_of_turn>), or
// none. The rendered text holds special-token text: encode it with
// parse_special = true. It never starts with BOS; the caller adds BOS as the
// model asks (tokenizer::add_bos()).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/chat_message.h"

namespace kvlens {

enum class chat_kind { none, chatml, llama3, gemma };

const char* to_string(chat_kind k);  // "none", "chatml", "llama3", "gemma"

struct chat_format {
    chat_kind kind = chat_kind::none;
    // ChatML: the system turn the template inserts when the conversation has
    // none (SmolLM2: "You are a helpful AI assistant named SmolLM, trained by
    // Hugging Face"); empty when it inserts none.
    std::string default_system;
    // Llama 3.1+: the system turn always opens with the knowledge-cutoff lines.
    bool llama3_dated_system = false;

    // From the template text; when there is none (empty), from the marker
    // tokens the vocabulary has (has_token answers whether a text is a token).
    template <class HasToken>
    static chat_format detect(std::string_view tmpl, HasToken has_token) {
        if (!tmpl.empty()) return from_template(tmpl);
        chat_format f;
        if (has_token("<|im_start|>") && has_token("<|im_end|>")) f.kind = chat_kind::chatml;
        else if (has_token("<|start_header_id|>") && has_token("<|eot_id|>")) f.kind = chat_kind::llama3;
        else if (has_token("<start_of_turn>") && has_token("<end_of_turn>")) f.kind = chat_kind::gemma;
        return f;
    }
    static chat_format from_template(std::string_view tmpl);

    // The conversation as the model saw such conversations in training;
    // add_generation_prompt appends the opening of the assistant's turn.
    std::string render(const std::vector<chat_message>& messages, bool add_generation_prompt) const;
};

}  // namespace kvlens
