// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the input is a chat template, a NUL, then messages separated
// by NULs. The format is detected (with vocabularies that have all, some or
// none of the markers) and rendered; the segments must join to the rendered
// text, and every control segment must be one of the formats' markers (no
// message or template text may come out as one).
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/chat_template.h"

namespace {

// Every marker a renderer writes as a control segment (chat_template.cpp).
bool is_marker(std::string_view s) {
    static const std::string_view markers[] = {
        "<|im_start|>", "<|im_end|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>",
        "<|im_sep|>", "<start_of_turn>", "<end_of_turn>", "<｜User｜>", "<｜Assistant｜>", "<｜end▁of▁sentence｜>", "<think>",
        "<|system|>", "<|user|>", "<|assistant|>", "<|end|>", "<|endoftext|>",
        "[INST]", "[/INST]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "</s>",
        "<|start_of_role|>", "<|end_of_role|>", "<|end_of_text|>", "</think>",
        "[|system|]", "[|user|]", "[|assistant|]", "[|endofturn|]",
        "<|start|>", "<|message|>", "<|channel|>", "<|return|>",
        "<｜hy_User｜>", "<｜hy_Assistant｜>", "<｜hy_place▁holder▁no▁2｜>", "<｜hy_place▁holder▁no▁3｜>",
        "<|START_OF_TURN_TOKEN|>", "<|END_OF_TURN_TOKEN|>", "<|USER_TOKEN|>", "<|CHATBOT_TOKEN|>", "<|SYSTEM_TOKEN|>"};
    return std::find(std::begin(markers), std::end(markers), s) != std::end(markers);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    const std::size_t cut = in.find('\0');
    const std::string_view tmpl = in.substr(0, cut);
    std::vector<kvlens::chat_message> messages;
    if (cut != std::string_view::npos) {
        std::string_view rest = in.substr(cut + 1);
        static const char* const roles[] = {"system", "user", "assistant", "user"};
        for (int i = 0; !rest.empty() && i < 16; ++i) {
            const std::size_t next = rest.find('\0');
            messages.push_back({roles[i % 4], std::string(rest.substr(0, next))});
            rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
        }
    }
    const auto all = [](std::string_view) { return true; };
    const auto none = [](std::string_view) { return false; };
    const auto gemma = [](std::string_view s) { return s == "<start_of_turn>" || s == "<end_of_turn>"; };
    // Mistral 7B v0.1/v0.2: "[INST]" is text, "</s>" the EOS token.
    const auto eos_only = [](std::string_view s) { return s == "</s>"; };
    for (const kvlens::chat_format& f : {kvlens::chat_format::detect(tmpl, all), kvlens::chat_format::detect(tmpl, none),
                                         kvlens::chat_format::detect(tmpl, gemma), kvlens::chat_format::detect(tmpl, eos_only)}) {
        for (bool gen : {false, true}) {
            const auto segments = f.render_segments(messages, gen);
            std::string joined;
            for (const auto& s : segments) {
                joined += s.text;
                if (s.control && !is_marker(s.text)) std::abort();   // text is never control
                // Markers the vocabulary lacks are text (Mistral v0.1/v0.2).
                if (s.control && !f.markers_are_tokens && s.text.front() == '[') std::abort();
            }
            if (joined != f.render(messages, gen)) std::abort();
        }
    }
    return 0;
}
