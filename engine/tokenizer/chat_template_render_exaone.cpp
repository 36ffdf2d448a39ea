// SPDX-License-Identifier: Apache-2.0
// Rendering EXAONE 3.0 / 3.5 Instruct conversations as their official Hugging
// Face template does (tests/tokenizer/chat_formats_reference.py renders it
// with jinja2 for the tests): "[|role|]" + content, a user turn closed by a
// newline, every other turn by "[|endofturn|]" and a newline. Contents are
// written as they are (the template trims nothing).
#include "engine/tokenizer/chat_template_render.h"

namespace kvlens::chat_render {

namespace {

// The template splices the role into "[|" + role + "|]"; the roles it was
// trained on have a token each. Any other role is written the same way, as
// text (the vocabulary has no such token).
bool has_marker(std::string_view role) { return role == "system" || role == "user" || role == "assistant"; }

}  // namespace

// A conversation that does not open with a system message gets an empty
// system turn first ("[|system|][|endofturn|]\n"): the template writes it
// whenever the first message's role is not system, so it is part of the
// format, not a default text (default_system stays empty). The generation
// prompt is "[|assistant|]" alone; the answer follows without a newline.
std::vector<chat_segment> render_exaone(const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    auto open = [&w](std::string_view role) {
        if (has_marker(role)) {
            w.control("[|" + std::string(role) + "|]");
        } else {
            w.text("[|");
            w.text(role);
            w.text("|]");
        }
    };
    if (!msgs.empty() && msgs.front().role != "system") {
        w.control("[|system|]");
        w.control("[|endofturn|]");
        w.text("\n");
    }
    for (const chat_message& m : msgs) {
        open(m.role);
        w.text(m.content);
        if (m.role != "user") w.control("[|endofturn|]");
        w.text("\n");
    }
    if (gen) w.control("[|assistant|]");
    return w.take();
}

}  // namespace kvlens::chat_render
