// SPDX-License-Identifier: Apache-2.0
// Rendering Granite 3.x, OLMo 2 (Tulu 3) and SmolLM3 conversations, each as
// its official Hugging Face template does for a text chat (no tools, no
// documents); tests/tokenizer/chat_formats_reference.py renders those
// templates with jinja2 for the tests. Where a template writes today's date,
// the rendering does not: the same conversation renders the same every day
// (see default_system and chat_variant::chatml_smollm3 in chat_template.h).
#include "engine/tokenizer/chat_template_render.h"

namespace kvlens::chat_render {

// ---- Granite 3.x

// "<|start_of_role|>" role "<|end_of_role|>" content "<|end_of_text|>\n" per
// message; the generation prompt opens the assistant's role after the last
// message the template loops over. Granite 3.0 loops over all of them and
// writes the roles it names (system, user, assistant). 3.1-3.3 take a first
// system message out of the loop (and, without one, insert a dated default,
// left out here), then write every other message under its own role.
std::vector<chat_segment> render_granite(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    auto open = [&w](std::string_view role) {
        w.control("<|start_of_role|>");
        w.text(role);
        w.control("<|end_of_role|>");
    };
    auto turn = [&](const chat_message& m) {
        open(m.role);
        w.text(m.content);
        w.control("<|end_of_text|>");
        w.text("\n");
    };
    if (f.variant == chat_variant::granite_3_0) {
        for (const auto& m : msgs)
            if (m.role == "system" || m.role == "user" || m.role == "assistant") turn(m);
        if (gen && !msgs.empty()) open("assistant");
        return w.take();
    }
    const std::size_t first = !msgs.empty() && msgs.front().role == "system" ? 1 : 0;
    if (first == 1) turn(msgs.front());
    for (std::size_t i = first; i < msgs.size(); ++i) turn(msgs[i]);
    if (gen && msgs.size() > first) open("assistant");
    return w.take();
}

// ---- OLMo 2 (Tulu 3)

// "<|role|>\n" content "\n"; an answer ends in EOS ("<|endoftext|>"), and a
// newline follows unless it is the last message. The generation prompt
// follows the last message. The BOS the template writes first is the
// tokenizer's (add_bos_token).
std::vector<chat_segment> render_olmo2(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    auto mark = [&](std::string_view s) {
        if (f.markers_are_tokens) w.control(s);
        else w.text(s);   // the vocabulary has no such token
    };
    for (std::size_t i = 0; i < msgs.size(); ++i) {
        const chat_message& m = msgs[i];
        const bool last = i + 1 == msgs.size();
        if (m.role == "system" || m.role == "user") {
            mark(m.role == "system" ? "<|system|>" : "<|user|>");
            w.text("\n");
            w.text(m.content);
            w.text("\n");
        } else if (m.role == "assistant") {
            mark("<|assistant|>");
            w.text("\n");
            w.text(m.content);
            w.control("<|endoftext|>");
            if (!last) w.text("\n");
        }
    }
    if (gen && !msgs.empty()) {
        mark("<|assistant|>");
        w.text("\n");
    }
    return w.take();
}

// ---- SmolLM3

const char* const k_smollm3_think_instructions =
    "You are a helpful AI assistant named SmolLM, trained by Hugging Face. Your role as an assistant involves "
    "thoroughly exploring questions through a systematic thinking process before providing the final precise and "
    "accurate solutions. This requires engaging in a comprehensive cycle of analysis, summarizing, exploration, "
    "reassessment, reflection, backtracking, and iteration to develop well-considered thinking process. Please "
    "structure your response into two main sections: Thought and Solution using the specified format: <think> "
    "Thought section </think> Solution section. In the Thought section, detail your reasoning process in steps. Each "
    "step should include detailed considerations such as analysing questions, summarizing relevant findings, "
    "brainstorming new ideas, verifying the accuracy of the current steps, refining any errors, and revisiting "
    "previous steps. In the Solution section, based on various attempts, explorations, and reflections from the "
    "Thought section, systematically present the final solution that you deem correct. The Solution section should "
    "be logical, accurate, and concise and detail necessary steps needed to reach the conclusion.";

namespace {

constexpr std::string_view k_smollm3_no_think_instructions =
    "You are a helpful AI assistant named SmolLM, trained by Hugging Face.";
// The template writes strftime_now("%d %B %Y"); a fixed date keeps the
// rendering (and the prefix cache) the same from one day to the next.
constexpr std::string_view k_smollm3_today = "08 July 2025";

std::string erase_all(std::string s, std::string_view what) {
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at)) s.erase(at, what.size());
    return s;
}

// The empty reasoning block that opens an answer in "/no_think" mode.
void empty_think(segment_writer& w) {
    w.control("<think>");
    w.text("\n\n");
    w.control("</think>");
    w.text("\n");
}

}  // namespace

// The system turn is always written: metadata (knowledge cutoff, date,
// reasoning mode), then the system text as custom instructions, or the
// template's default. "/think" or "/no_think" in the system text chooses the
// mode (default: think) and is taken out of it; "/system_override" writes
// the text alone. Without tools the template never closes this turn (no
// "<|im_end|>"), and so neither does this. Later system messages are left
// out; a tool message is a user turn.
std::vector<chat_segment> render_smollm3(const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    const bool has_system = !msgs.empty() && msgs.front().role == "system";
    bool think = true;
    std::string custom;
    if (has_system) {
        const std::string& s = msgs.front().content;
        if (s.find("/no_think") != std::string::npos) think = false;
        else if (s.find("/think") != std::string::npos) think = true;
        custom = std::string(rstrip(erase_all(erase_all(s, "/no_think"), "/think")));
    }
    w.control("<|im_start|>");
    w.text("system\n");
    if (has_system && msgs.front().content.find("/system_override") != std::string::npos) {
        w.text(rstrip(erase_all(custom, "/system_override")));
        w.control("<|im_end|>");
        w.text("\n");
    } else {
        w.text("## Metadata\n\nKnowledge Cutoff Date: June 2025\nToday Date: ");
        w.text(k_smollm3_today);
        w.text(think ? "\nReasoning Mode: /think\n\n" : "\nReasoning Mode: /no_think\n\n");
        w.text("## Custom Instructions\n\n");
        w.text(!custom.empty() ? std::string_view(custom)
               : think         ? std::string_view(k_smollm3_think_instructions)
                               : k_smollm3_no_think_instructions);
        w.text("\n\n");
    }
    for (const auto& m : msgs) {
        if (m.role == "user" || m.role == "tool") {
            w.control("<|im_start|>");
            w.text("user\n");
            w.text(m.content);
            w.control("<|im_end|>");
            w.text("\n");
        } else if (m.role == "assistant") {
            w.control("<|im_start|>");
            w.text("assistant\n");
            if (!think) empty_think(w);
            w.text(lstrip(m.content, "\n"));
            w.control("<|im_end|>");
            w.text("\n");
        }
    }
    if (gen) {
        w.control("<|im_start|>");
        w.text("assistant\n");
        if (!think) empty_think(w);
    }
    return w.take();
}

}  // namespace kvlens::chat_render
