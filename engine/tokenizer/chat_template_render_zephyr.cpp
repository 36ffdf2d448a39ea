// SPDX-License-Identifier: Apache-2.0
// Rendering Zephyr conversations (HuggingFaceH4/zephyr-7b-beta's template,
// which TinyLlama-1.1B-Chat and StableLM 2 Zephyr took) as the template does;
// tests/tokenizer/chat_formats_reference.py renders it with jinja2 for the
// tests. Each system, user or assistant message is "<|role|>\n" + content +
// EOS + "\n" (other roles left out), and after the last message the
// generation prompt "<|assistant|>\n" (none for an empty chat: the template
// writes it inside its loop). The markers are plain text in those models'
// vocabularies; EOS is the tokenizer's ("</s>", "<|endoftext|>").
#include "engine/tokenizer/chat_template_render.h"

namespace kvlens::chat_render {

std::vector<chat_segment> render_zephyr(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    const std::string eos = f.eos_text.empty() ? std::string("</s>") : f.eos_text;
    auto mark = [&](std::string_view s) {
        if (f.markers_are_tokens) w.control(s);
        else w.text(s);   // plain text in TinyLlama's and Zephyr's vocabularies
    };
    for (const chat_message& m : msgs) {
        if (m.role == "system" || m.role == "user" || m.role == "assistant") {
            mark("<|" + m.role + "|>");
            w.text("\n");
            w.text(m.content);
            w.control(eos);
            w.text("\n");
        }
    }
    if (gen && !msgs.empty()) {
        mark("<|assistant|>");
        w.text("\n");
    }
    return w.take();
}

}  // namespace kvlens::chat_render
