// SPDX-License-Identifier: Apache-2.0
// Rendering gpt-oss conversations in OpenAI's Harmony format as the model's
// official Hugging Face template does (no tools, its default reasoning
// effort): a system message of the model's identity, knowledge cutoff,
// date, reasoning effort and channels; the conversation's system text as a
// developer message ("# Instructions\n\n" + text, and "\n\n" after it in
// the first template revision); each user turn
// "<|start|>user<|message|>" + text + "<|end|>"; each assistant turn in the
// final channel, its reasoning dropped as the template drops it; the
// generation prompt "<|start|>assistant", after which the model writes its
// analysis channel, then its final one.
#include "engine/tokenizer/chat_template_render.h"

namespace kvlens::chat_render {

namespace {

void open_message(segment_writer& w, std::string_view role) {
    w.control("<|start|>");
    w.text(role);
}

}  // namespace

// The template writes strftime_now("%Y-%m-%d"); a fixed date (gpt-oss's
// release) keeps a conversation's rendering, and its prefix-cache reuse,
// the same every day.
const char* const k_harmony_system =
    "You are ChatGPT, a large language model trained by OpenAI.\n"
    "Knowledge cutoff: 2024-06\n"
    "Current date: 2025-08-05\n\n"
    "Reasoning: medium\n\n"
    "# Valid channels: analysis, commentary, final. Channel must be included for every message.";

std::vector<chat_segment> render_harmony(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    open_message(w, "system");
    w.control("<|message|>");
    w.text(k_harmony_system);
    w.control("<|end|>");
    std::size_t first = 0;
    if (!msgs.empty() && (msgs.front().role == "system" || msgs.front().role == "developer")) {
        first = 1;
        if (!msgs.front().content.empty()) {
            open_message(w, "developer");
            w.control("<|message|>");
            w.text("# Instructions\n\n");
            w.text(msgs.front().content);
            if (f.variant == chat_variant::harmony_2508) w.text("\n\n");
            w.control("<|end|>");
        }
    }
    for (std::size_t i = first; i < msgs.size(); ++i) {
        const chat_message& m = msgs[i];
        if (m.role == "user") {
            open_message(w, "user");
            w.control("<|message|>");
            w.text(m.content);
            w.control("<|end|>");
        } else if (m.role == "assistant") {
            open_message(w, "assistant");
            w.control("<|channel|>");
            w.text("final");
            w.control("<|message|>");
            w.text(m.content);
            // <|return|> ends a conversation's last answer (as in training), <|end|> any other.
            w.control(i + 1 == msgs.size() && !gen ? "<|return|>" : "<|end|>");
        }
        // Other roles (a later system message, tools) are not rendered, as in the template.
    }
    if (gen) open_message(w, "assistant");
    return w.take();
}

}  // namespace kvlens::chat_render
