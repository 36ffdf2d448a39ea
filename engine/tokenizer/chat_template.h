// SPDX-License-Identifier: Apache-2.0
// Chat formats, recognised from tokenizer.chat_template by their distinctive
// markers together with the vocabulary (a format is chosen only when the
// vocabulary has its marker tokens; Mistral's, OLMo 2's and EXAONE's may be
// plain text, see below) and rendered natively (a template is never
// executed): ChatML (<|im_start|>), Llama 3 (<|start_header_id|>), Gemma
// (<start_of_turn>), DeepSeek (<｜User｜>), Phi-3 (<|user|> ... <|end|>),
// Mistral ([INST] ... [/INST]), Granite (<|start_of_role|>), OLMo 2
// (<|user|>\n ... without <|end|>), EXAONE 3.x ([|user|] ... [|endofturn|]),
// Harmony (gpt-oss: <|start|>role<|message|> ... <|end|>, <|channel|>),
// Hunyuan (<｜hy_User｜>, <｜hy_Assistant｜>), or none. The rendering is a list of segments, control markers
// apart from message text, so that only the markers can become control
// tokens (tokenizer::encode_chat): a document or a question that contains
// "<|im_end|>" or "[INST]" stays text. It never starts with BOS; the caller
// adds BOS as the model asks (tokenizer::add_bos()).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/chat_message.h"

namespace kvlens {

// deepseek: DeepSeek-R1 and V3 and the R1 distillations ("<｜User｜>",
// "<｜Assistant｜>"), whatever their architecture (the distills are qwen2 and llama).
// phi3: Phi-3, Phi-3.5, Phi-4-mini ("<|user|>", "<|end|>"; Phi-4 itself is ChatML
// with "<|im_sep|>" after the role: chatml, variant chatml_phi4).
// mistral: Mistral 7B Instruct, Nemo, Small, Large ("[INST]", "[/INST]").
// granite: IBM Granite 3.0-3.3 Instruct ("<|start_of_role|>user<|end_of_role|>q<|end_of_text|>\n").
// olmo2: OLMo 2 Instruct, AllenAI's Tulu 3 format ("<|user|>\nq\n<|assistant|>\na<|endoftext|>";
// no "<|end|>", which is Phi-3's). SmolLM3 is ChatML: chatml, variant chatml_smollm3.
// exaone: LG's EXAONE 3.0 and 3.5 Instruct ("[|system|]s[|endofturn|]\n[|user|]q\n
// [|assistant|]a[|endofturn|]\n"; an empty system turn when the chat has none).
// EXAONE 4.0 ("[|user|]\n", "[|tool|]", reasoning blocks) and EXAONE Deep
// ("<thought>") render otherwise and are not recognised.
// harmony: OpenAI's gpt-oss ("<|start|>user<|message|>q<|end|><|start|>assistant";
// the answer comes in channels: "<|channel|>analysis<|message|>…<|end|>", then
// "<|start|>assistant<|channel|>final<|message|>…<|return|>").
// hunyuan: Tencent's Hunyuan dense models (0.5B-7B, Hunyuan-MT): DeepSeek's format
// with their markers, "s<｜hy_place▁holder▁no▁3｜><｜hy_User｜>q<｜hy_Assistant｜>a
// <｜hy_place▁holder▁no▁2｜>", as llama.cpp renders a single turn.
// command_r: Cohere's Command R, R+, Aya 23 and Aya Expanse ("<|START_OF_TURN_TOKEN|><|USER_TOKEN|>q
// <|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"); Command R7B's templates too, rendered
// so as llama.cpp's built-in renderer does (without R7B's preamble and response markers).
// zephyr: HuggingFaceH4's Zephyr and what took its template: TinyLlama-1.1B-Chat,
// StableLM 2 Zephyr ("<|user|>\nq</s>\n<|assistant|>\n": every turn closed by the
// tokenizer's EOS and a newline; the markers plain text in their vocabularies).
enum class chat_kind { none, chatml, llama3, gemma, deepseek, phi3, mistral, granite, olmo2, exaone, harmony, hunyuan,
                       command_r, zephyr };
constexpr int k_chat_kinds = 14;

// "none", "chatml", "llama3", "gemma", "deepseek", "phi3", "mistral", "granite", "olmo2", "exaone", "harmony",
// "hunyuan", "command-r", "zephyr"
const char* to_string(chat_kind k);

// The official templates of one kind that render differently, told apart by
// their text. Renderings here are those of the Hugging Face templates
// (tests/tokenizer/chat_formats_reference.py renders them with jinja2).
enum class chat_variant {
    standard,           // the kinds with one rendering
    chatml_phi4,        // Phi-4 (14B): "<|im_start|>user<|im_sep|>q<|im_end|>", no newlines
    chatml_smollm3,     // SmolLM3: a system turn of "## Metadata" (cutoff, date, reasoning
                        //   mode) and "## Custom Instructions", left unclosed; "/no_think"
                        //   in the system text opens answers with an empty think block;
                        //   "Today Date" is always 08 July 2025 (its release), as Llama 3.1's
                        //   is the template's 26 Jul 2024: the same chat renders the same daily
    phi3_2404,          // Phi-3-mini-4k's first template, Phi-3-medium: no system turn,
                        //   "<|assistant|>\n" written after every user turn
    phi3,               // Phi-3, Phi-3.5: "<|user|>\nq<|end|>\n<|assistant|>\n"
    phi4_mini,          // Phi-4-mini: "<|user|>q<|end|><|assistant|>", no newlines
    mistral_v1_2023,    // Mistral 7B v0.1/v0.2 first templates: "[INST] q [/INST]a</s>",
                        //   no system role (its text opens the first user turn here)
    mistral_v1,         // v0.1/v0.2 since 2024: " [INST] s\n\nq [/INST] a</s>",
                        //   the system text opens the first user turn
    mistral_v3,         // v0.3, Large 2407: "[INST] q[/INST] a</s>" (answer trimmed),
                        //   the system text opens the last user turn when that is the last message
    mistral_v3_tekken,  // Nemo: "[INST]q[/INST]a</s>", the system text as in v3
    mistral_v7,         // Large 2411: "[SYSTEM_PROMPT] s[/SYSTEM_PROMPT][INST] q[/INST] a</s>"
    mistral_v7_tekken,  // Small 3 (2501 and later): the same without the spaces
    granite_3_0,        // Granite 3.0: each message a turn; no default system turn
    granite_3_1,        // Granite 3.1, 3.2, 3.3: the same; their default system turn
                        //   (dated) is left out, see default_system
    harmony_2508,       // gpt-oss's first template (August 2025): "\n\n" after the developer text
    harmony,            // its revisions: the developer text as it is
};

// A piece of a rendered conversation: a format marker ("<|im_start|>"), which
// may become a control token, or text (roles, contents, newlines), which never does.
struct chat_segment {
    bool control = false;
    std::string text;
};

struct chat_format {
    chat_kind kind = chat_kind::none;
    chat_variant variant = chat_variant::standard;
    // ChatML: the system turn the template inserts when the conversation has
    // none (SmolLM2: "You are a helpful AI assistant named SmolLM, trained by
    // Hugging Face"); empty when it inserts none. Only a literal the template
    // outputs under a condition on the first message's role counts (an
    // unconditional or commented-out one does not): callers show it.
    // Mistral v7: the template's default_system_message when it is a plain
    // literal (Small 3.2); Small 3's holds today's date and is left out, so
    // that a conversation always renders the same (kvlens sends its own).
    // Granite 3.1-3.3: left out for the same reason ("Knowledge Cutoff Date:
    // April 2024.\nToday's Date: <today>.\nYou are Granite, developed by IBM.
    // You are a helpful AI assistant."; Granite 3.0 has none).
    // SmolLM3: the instructions its system turn holds when the conversation
    // has no system message (the reasoning one; no date in it).
    // EXAONE: empty. Its template opens a chat without a system message with
    // an empty system turn ("[|system|][|endofturn|]\n"), which is rendered:
    // there is no text in it to show. The system prompt LG recommends ("You
    // are EXAONE model from LG AI Research, a helpful assistant.") is in the
    // model cards only, not in the template, so it is not inserted.
    std::string default_system;
    // Mistral Small 3, Granite 3.1+: the template inserts a default system
    // turn holding today's date when a chat has none. It is not rendered (a
    // conversation always renders the same; kvlens sends its own system
    // text), and default_system stays empty; callers say that it exists.
    bool dated_default_left_out = false;
    // Llama 3.1+: the system turn always opens with the knowledge-cutoff lines.
    bool llama3_dated_system = false;
    // DeepSeek-R1 (its distills' revised template): the assistant's turn
    // opens with "<think>\n", so the model's first tokens are reasoning.
    bool opens_reasoning = false;
    // Mistral: whether "[INST]", "[/INST]" are tokens of the vocabulary (v0.3
    // and later). In the 32000-token vocabulary of v0.1/v0.2 they are plain
    // text, split into ordinary pieces as in training: text segments then.
    // OLMo 2: the same for "<|system|>", "<|user|>", "<|assistant|>".
    // EXAONE: always true; its markers are control segments, and
    // tokenizer::encode_chat keeps any the vocabulary lacks as text.
    // Zephyr: the same for its role markers.
    bool markers_are_tokens = true;
    // Zephyr: the tokenizer's EOS as text ("</s>", "<|endoftext|>"), which
    // closes every turn; the tokenizer sets it (empty: "</s>").
    std::string eos_text;
    // Phi-3.5: an empty system message is left out.
    bool skips_empty_system = false;
    // Phi-3 (July 2024), Phi-3.5, Phi-4-mini: without a generation prompt the
    // conversation ends in EOS ("<|endoftext|>").
    bool ends_with_eos = false;
    // Mistral 7B v0.1's first template: "</s> " after an answer.
    bool space_after_eos = false;

    // Phi-3 and Phi-3.5 declare their markers right-stripping (rstrip in the
    // Hugging Face tokenizer's added tokens; llama.cpp sets the same
    // attribute for Phi-3 files): the whitespace after a marker, the
    // template's "\n", is no token when encoded. Phi-4-mini writes none.
    bool markers_strip_space_after() const {
        return kind == chat_kind::phi3 && variant != chat_variant::phi4_mini;
    }
    // Where the system text goes: a turn of its own, in front of the first or
    // of the last user turn (formats without a system role), or nowhere.
    enum class system_place { own_turn, first_user_turn, last_user_turn, dropped };
    system_place where_system_goes() const {
        if (kind == chat_kind::gemma || variant == chat_variant::mistral_v1 ||
            variant == chat_variant::mistral_v1_2023)
            return system_place::first_user_turn;
        if (variant == chat_variant::mistral_v3 || variant == chat_variant::mistral_v3_tekken)
            return system_place::last_user_turn;
        if (variant == chat_variant::phi3_2404) return system_place::dropped;
        return system_place::own_turn;
    }

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
                                   has_token("<｜User｜>") && has_token("<｜Assistant｜>"),
                                   has_token("<|user|>") && has_token("<|assistant|>") && has_token("<|end|>"),
                                   has_token("[INST]") && has_token("[/INST]"),
                                   has_token("<|start_of_role|>") && has_token("<|end_of_role|>") &&
                                       has_token("<|end_of_text|>"),
                                   has_token("<|user|>") && has_token("<|assistant|>"),
                                   has_token("[|system|]") && has_token("[|user|]") && has_token("[|assistant|]") &&
                                       has_token("[|endofturn|]"),
                                   has_token("<|start|>") && has_token("<|message|>") && has_token("<|channel|>") &&
                                       has_token("<|end|>"),
                                   has_token("<｜hy_User｜>") && has_token("<｜hy_Assistant｜>") &&
                                       has_token("<｜hy_place▁holder▁no▁2｜>"),
                                   has_token("<|START_OF_TURN_TOKEN|>") && has_token("<|USER_TOKEN|>") &&
                                       has_token("<|CHATBOT_TOKEN|>") && has_token("<|END_OF_TURN_TOKEN|>"),
                                   has_token("<|user|>") && has_token("<|assistant|>")};
        if (!tmpl.empty()) return from_template(tmpl, have);
        chat_format f;
        if (have[1]) f.kind = chat_kind::chatml;
        else if (have[2]) f.kind = chat_kind::llama3;
        else if (have[3]) f.kind = chat_kind::gemma;
        else if (have[4]) f.kind = chat_kind::deepseek;
        else if (have[5]) {
            f.kind = chat_kind::phi3;
            f.variant = chat_variant::phi3;
        } else if (have[6]) {
            // Without a template, SentencePiece pieces ("▁the") say v3/v7
            // with spaces, tekken's byte-level ones say without.
            const bool spm = has_token("▁the");
            f.kind = chat_kind::mistral;
            if (has_token("[SYSTEM_PROMPT]")) f.variant = spm ? chat_variant::mistral_v7 : chat_variant::mistral_v7_tekken;
            else f.variant = spm ? chat_variant::mistral_v3 : chat_variant::mistral_v3_tekken;
        } else if (have[7]) {
            f.kind = chat_kind::granite;
            f.variant = chat_variant::granite_3_1;
        } else if (have[9]) {
            f.kind = chat_kind::exaone;
        } else if (have[10]) {
            f.kind = chat_kind::harmony;
            f.variant = chat_variant::harmony_2508;
        } else if (have[11]) {
            f.kind = chat_kind::hunyuan;
        } else if (have[12]) {
            f.kind = chat_kind::command_r;
        }
        // OLMo 2 is never chosen from the vocabulary alone: GLM's vocabularies
        // have "<|user|>" and "<|assistant|>" too, for another format.
        return f;
    }
    // From the template text alone, as if the vocabulary had every marker.
    static chat_format from_template(std::string_view tmpl) {
        const bool all[k_chat_kinds] = {false, true, true, true, true, true, true, true, true, true, true, true, true, true};
        return from_template(tmpl, all);
    }
    // available[k]: the vocabulary has the markers of chat_kind k. Mistral is
    // chosen without them too (v0.1/v0.2 write "[INST]" as text), with
    // markers_are_tokens = available[mistral]; OLMo 2 likewise. EXAONE too:
    // its template's markers name no other format.
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
