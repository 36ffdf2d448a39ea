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

// Where the template's control flow stands at a position: the innermost
// {% if %} open there, and whether the position is in its else branch.
struct branch {
    std::string_view condition;  // "" when no if is open
    bool in_else = false;
};

branch branch_at(std::string_view tmpl, std::size_t at) {
    struct open_if {
        std::string_view condition;
        bool in_else;
    };
    std::vector<open_if> stack;
    for (std::size_t pos = tmpl.find("{%"); pos != std::string_view::npos && pos < at; pos = tmpl.find("{%", pos + 2)) {
        const std::size_t close = tmpl.find("%}", pos + 2);
        if (close == std::string_view::npos || close > at) break;
        std::string_view tag = tmpl.substr(pos + 2, close - pos - 2);
        while (!tag.empty() && (tag.front() == '-' || tag.front() == '+' || tag.front() == ' ' || tag.front() == '\n'))
            tag.remove_prefix(1);
        while (!tag.empty() && (tag.back() == '-' || tag.back() == '+' || tag.back() == ' ' || tag.back() == '\n'))
            tag.remove_suffix(1);
        auto starts = [&](std::string_view w) {
            return tag.substr(0, w.size()) == w && (tag.size() == w.size() || tag[w.size()] == ' ' || tag[w.size()] == '(');
        };
        if (starts("if")) stack.push_back({tag.substr(2), false});
        else if (starts("elif") && !stack.empty()) stack.back() = {tag.substr(4), false};
        else if (starts("else") && !stack.empty()) stack.back().in_else = true;
        else if (starts("endif") && !stack.empty()) stack.pop_back();
    }
    if (stack.empty()) return {};
    return {stack.back().condition, stack.back().in_else};
}

// True when the branch is taken exactly when the conversation has no system
// turn first: `if ... != 'system'`, or the else of `if ... == 'system'`.
bool only_without_system(const branch& b) {
    const bool names_system = b.condition.find("'system'") != std::string_view::npos ||
                              b.condition.find("\"system\"") != std::string_view::npos;
    if (!names_system) return false;
    const bool neq = b.condition.find("!=") != std::string_view::npos;
    const bool eq = !neq && b.condition.find("==") != std::string_view::npos;
    return b.in_else ? eq : neq;
}

// True when the string literal opening at `quote` is the first thing an
// output expression prints: "{{" or "{{-", spaces, then the quote.
bool opens_output(std::string_view tmpl, std::size_t quote) {
    std::size_t i = quote;
    while (i > 0 && (tmpl[i - 1] == ' ' || tmpl[i - 1] == '\n' || tmpl[i - 1] == '-')) --i;
    return i >= 2 && tmpl.substr(i - 2, 2) == "{{";
}

// A system turn written as a literal in a ChatML template and printed only
// when the conversation brings none: "<|im_start|>system" + newline (real or
// \n) + text without template syntax + "<|im_end|>", as the first thing of an
// output expression, in a branch taken only without a system turn.
std::string find_default_system(std::string_view tmpl) {
    constexpr std::string_view open = "<|im_start|>system";
    constexpr std::string_view close = "<|im_end|>";
    for (std::size_t at = tmpl.find(open); at != std::string_view::npos; at = tmpl.find(open, at + 1)) {
        if (at == 0 || (tmpl[at - 1] != '\'' && tmpl[at - 1] != '"') || !opens_output(tmpl, at - 1)) continue;
        if (!only_without_system(branch_at(tmpl, at))) continue;
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

// Builds the segment list: one segment per marker, neighbouring text merged.
class segment_writer {
public:
    void control(std::string_view s) { add(true, s); }
    void text(std::string_view s) { add(false, s); }
    std::vector<chat_segment> take() { return std::move(out_); }

private:
    void add(bool control, std::string_view s) {
        if (s.empty()) return;
        if (!control && !out_.empty() && !out_.back().control) out_.back().text += s;
        else out_.push_back({control, std::string(s)});
    }
    std::vector<chat_segment> out_;
};

std::vector<chat_segment> render_chatml(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    auto turn = [&w](std::string_view role, std::string_view content) {
        w.control("<|im_start|>");
        w.text(role);
        w.text("\n");
        w.text(content);
        w.control("<|im_end|>");
        w.text("\n");
    };
    if (!msgs.empty() && msgs.front().role != "system" && !f.default_system.empty()) turn("system", f.default_system);
    for (const auto& m : msgs) turn(m.role, m.content);
    if (gen) {
        w.control("<|im_start|>");
        w.text("assistant\n");
    }
    return w.take();
}

std::vector<chat_segment> render_llama3(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    auto header = [&w](std::string_view role) {
        w.control("<|start_header_id|>");
        w.text(role);
        w.control("<|end_header_id|>");
        w.text("\n\n");
    };
    std::size_t first = 0;
    if (f.llama3_dated_system) {
        // Llama 3.1/3.2: a system turn always, dated; the template's fallback
        // date is used so that the same conversation always renders the same.
        std::string system;
        if (!msgs.empty() && msgs.front().role == "system") {
            system = trim(msgs.front().content);
            first = 1;
        }
        header("system");
        w.text("Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n");
        w.text(system);
        w.control("<|eot_id|>");
    }
    for (std::size_t i = first; i < msgs.size(); ++i) {
        header(msgs[i].role);
        w.text(trim(msgs[i].content));
        w.control("<|eot_id|>");
    }
    if (gen) header("assistant");
    return w.take();
}

std::vector<chat_segment> render_gemma(const std::vector<chat_message>& msgs, bool gen) {
    // No system role: its text opens the first user turn.
    std::string prefix;
    std::size_t first = 0;
    if (!msgs.empty() && msgs.front().role == "system") {
        prefix = msgs.front().content + "\n\n";
        first = 1;
    }
    segment_writer w;
    for (std::size_t i = first; i < msgs.size(); ++i) {
        const std::string& r = msgs[i].role;
        const std::string role = r == "assistant" ? "model" : r == "system" ? "user" : r;
        w.control("<start_of_turn>");
        w.text(role + "\n");
        if (i == first) w.text(prefix);
        w.text(trim(msgs[i].content));
        w.control("<end_of_turn>");
        w.text("\n");
    }
    if (gen) {
        w.control("<start_of_turn>");
        w.text("model\n");
    }
    return w.take();
}

// DeepSeek-R1's template: the (last) system text first, with no marker, then
// "<｜User｜>" + text and "<｜Assistant｜>" + answer + end of sentence, an
// earlier answer without its reasoning (the text after its last </think>);
// the generation prompt opens the assistant's turn, and with the revised
// template its reasoning too. The BOS the template writes first is the
// tokenizer's (add_bos_token).
std::vector<chat_segment> render_deepseek(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    const chat_message* system = nullptr;
    for (const auto& m : msgs)
        if (m.role == "system") system = &m;
    if (system) w.text(system->content);
    for (const auto& m : msgs) {
        if (m.role == "user") {
            w.control("<｜User｜>");
            w.text(m.content);
        } else if (m.role == "assistant") {
            std::string_view answer = m.content;
            if (const auto end = answer.rfind("</think>"); end != std::string_view::npos) answer.remove_prefix(end + 8);
            w.control("<｜Assistant｜>");
            w.text(answer);
            w.control("<｜end▁of▁sentence｜>");
        }
    }
    if (gen) {
        w.control("<｜Assistant｜>");
        if (f.opens_reasoning) {
            w.control("<think>");
            w.text("\n");
        }
    }
    return w.take();
}

// No template: a plain transcript a base model can continue.
std::vector<chat_segment> render_plain(const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    for (const auto& m : msgs) {
        std::string role = m.role.empty() ? "user" : m.role;
        role[0] = static_cast<char>(role[0] >= 'a' && role[0] <= 'z' ? role[0] - 'a' + 'A' : role[0]);
        w.text(role + ": " + m.content + "\n\n");
    }
    if (gen) w.text("Assistant:");
    return w.take();
}

}  // namespace

const char* to_string(chat_kind k) {
    switch (k) {
    case chat_kind::chatml: return "chatml";
    case chat_kind::llama3: return "llama3";
    case chat_kind::gemma: return "gemma";
    case chat_kind::deepseek: return "deepseek";
    case chat_kind::none: break;
    }
    return "none";
}

chat_format chat_format::from_template(std::string_view tmpl, const bool (&available)[k_chat_kinds]) {
    // The format whose opening marker comes first among those the vocabulary has.
    struct marker {
        chat_kind kind;
        std::string_view open;
    };
    constexpr marker markers[] = {{chat_kind::chatml, "<|im_start|>"},
                                  {chat_kind::llama3, "<|start_header_id|>"},
                                  {chat_kind::gemma, "<start_of_turn>"},
                                  {chat_kind::deepseek, "<｜User｜>"}};
    chat_format f;
    std::size_t first = std::string_view::npos;
    for (const marker& m : markers) {
        const std::size_t at = tmpl.find(m.open);
        if (available[static_cast<int>(m.kind)] && at < first) {
            first = at;
            f.kind = m.kind;
        }
    }
    if (f.kind == chat_kind::chatml) f.default_system = find_default_system(tmpl);
    if (f.kind == chat_kind::llama3) f.llama3_dated_system = tmpl.find("Cutting Knowledge Date") != std::string_view::npos;
    if (f.kind == chat_kind::deepseek)
        f.opens_reasoning = tmpl.find("<｜Assistant｜><think>\\n") != std::string_view::npos ||
                            tmpl.find("<｜Assistant｜><think>\n") != std::string_view::npos;
    return f;
}

std::vector<chat_segment> chat_format::render_segments(const std::vector<chat_message>& messages,
                                                       bool add_generation_prompt) const {
    switch (kind) {
    case chat_kind::chatml: return render_chatml(*this, messages, add_generation_prompt);
    case chat_kind::llama3: return render_llama3(*this, messages, add_generation_prompt);
    case chat_kind::gemma: return render_gemma(messages, add_generation_prompt);
    case chat_kind::deepseek: return render_deepseek(*this, messages, add_generation_prompt);
    case chat_kind::none: break;
    }
    return render_plain(messages, add_generation_prompt);
}

std::string chat_format::render(const std::vector<chat_message>& messages, bool add_generation_prompt) const {
    std::string out;
    for (const chat_segment& s : render_segments(messages, add_generation_prompt)) out += s.text;
    return out;
}

}  // namespace kvlens
