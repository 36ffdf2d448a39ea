// SPDX-License-Identifier: Apache-2.0
// Recognising and rendering the chat formats (see chat_template.h). Each
// renderer follows the official template of its family: which messages are
// trimmed, where the system text goes, what opens the assistant's turn.
#include "engine/tokenizer/chat_template.h"

namespace kvlens {
namespace {

// Jinja's trim: strips leading and trailing whitespace.
std::string trim(std::string_view s) {
    const char* ws = " \t\n\r\f\v";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(ws);
    return std::string(s.substr(b, e - b + 1));
}

// Undoes the escapes a Jinja string literal may hold (\n, \t, \', \", \\).
std::string unescape_literal(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        const char c = s[++i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    }
    return out;
}

// True when text holds template syntax: an unescaped quote, braces, '+'.
bool splices(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\') ++i;  // an escaped character is literal text
        else if (c == '\'' || c == '"' || c == '{' || c == '}' || c == '+') return true;
    }
    return false;
}

// A system turn written as a literal in a ChatML template:
// "<|im_start|>system" + newline (real or \n) + text without template syntax + "<|im_end|>".
std::string find_default_system(std::string_view tmpl) {
    constexpr std::string_view open = "<|im_start|>system";
    constexpr std::string_view close = "<|im_end|>";
    for (std::size_t at = tmpl.find(open); at != std::string_view::npos; at = tmpl.find(open, at + 1)) {
        std::size_t from = at + open.size();
        if (tmpl.substr(from, 1) == "\n") from += 1;
        else if (tmpl.substr(from, 2) == "\\n") from += 2;
        else continue;
        const std::size_t end = tmpl.find(close, from);
        if (end == std::string_view::npos) continue;
        const std::string_view body = tmpl.substr(from, end - from);
        // Content spliced in by the template ('+ message ...', {{ }}) is no default.
        if (body.empty() || splices(body)) continue;
        return unescape_literal(body);
    }
    return {};
}

std::string render_chatml(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    std::string out;
    if (!msgs.empty() && msgs.front().role != "system" && !f.default_system.empty())
        out += "<|im_start|>system\n" + f.default_system + "<|im_end|>\n";
    for (const auto& m : msgs) out += "<|im_start|>" + m.role + "\n" + m.content + "<|im_end|>\n";
    if (gen) out += "<|im_start|>assistant\n";
    return out;
}

std::string render_llama3(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    std::string out;
    std::size_t first = 0;
    if (f.llama3_dated_system) {
        // Llama 3.1/3.2: a system turn always, dated; the template's fallback
        // date is used so that the same conversation always renders the same.
        std::string system;
        if (!msgs.empty() && msgs.front().role == "system") {
            system = trim(msgs.front().content);
            first = 1;
        }
        out += "<|start_header_id|>system<|end_header_id|>\n\n"
               "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n" +
               system + "<|eot_id|>";
    }
    for (std::size_t i = first; i < msgs.size(); ++i)
        out += "<|start_header_id|>" + msgs[i].role + "<|end_header_id|>\n\n" + trim(msgs[i].content) + "<|eot_id|>";
    if (gen) out += "<|start_header_id|>assistant<|end_header_id|>\n\n";
    return out;
}

std::string render_gemma(const std::vector<chat_message>& msgs, bool gen) {
    // No system role: its text opens the first user turn.
    std::string prefix;
    std::size_t first = 0;
    if (!msgs.empty() && msgs.front().role == "system") {
        prefix = msgs.front().content + "\n\n";
        first = 1;
    }
    std::string out;
    for (std::size_t i = first; i < msgs.size(); ++i) {
        const std::string& r = msgs[i].role;
        const std::string role = r == "assistant" ? "model" : r == "system" ? "user" : r;
        out += "<start_of_turn>" + role + "\n" + (i == first ? prefix : std::string()) + trim(msgs[i].content) +
               "<end_of_turn>\n";
    }
    if (gen) out += "<start_of_turn>model\n";
    return out;
}

// No template: a plain transcript a base model can continue.
std::string render_plain(const std::vector<chat_message>& msgs, bool gen) {
    std::string out;
    for (const auto& m : msgs) {
        std::string role = m.role.empty() ? "user" : m.role;
        role[0] = static_cast<char>(role[0] >= 'a' && role[0] <= 'z' ? role[0] - 'a' + 'A' : role[0]);
        out += role + ": " + m.content + "\n\n";
    }
    if (gen) out += "Assistant:";
    return out;
}

}  // namespace

const char* to_string(chat_kind k) {
    switch (k) {
    case chat_kind::chatml: return "chatml";
    case chat_kind::llama3: return "llama3";
    case chat_kind::gemma: return "gemma";
    case chat_kind::none: break;
    }
    return "none";
}

chat_format chat_format::from_template(std::string_view tmpl) {
    chat_format f;
    if (tmpl.find("<|im_start|>") != std::string_view::npos) {
        f.kind = chat_kind::chatml;
        f.default_system = find_default_system(tmpl);
    } else if (tmpl.find("<|start_header_id|>") != std::string_view::npos) {
        f.kind = chat_kind::llama3;
        f.llama3_dated_system = tmpl.find("Cutting Knowledge Date") != std::string_view::npos;
    } else if (tmpl.find("<start_of_turn>") != std::string_view::npos) {
        f.kind = chat_kind::gemma;
    }
    return f;
}

std::string chat_format::render(const std::vector<chat_message>& messages, bool add_generation_prompt) const {
    switch (kind) {
    case chat_kind::chatml: return render_chatml(*this, messages, add_generation_prompt);
    case chat_kind::llama3: return render_llama3(*this, messages, add_generation_prompt);
    case chat_kind::gemma: return render_gemma(messages, add_generation_prompt);
    case chat_kind::none: break;
    }
    return render_plain(messages, add_generation_prompt);
}

}  // namespace kvlens
