// SPDX-License-Identifier: Apache-2.0
// Recognising and rendering the chat formats (see chat_template.h). Each
// renderer follows the official template of its family: which messages are
// trimmed, where the system text goes, what opens the assistant's turn.
// Where a family's templates differ (Phi-3, Mistral, Granite, SmolLM3's
// ChatML) the variant is read from the template's text and each renders as
// its own template does. Granite, OLMo 2 and SmolLM3 render in
// chat_template_render_granite_olmo2_smollm3.cpp, EXAONE in
// chat_template_render_exaone.cpp.
#include "engine/tokenizer/chat_template.h"

#include <algorithm>
#include <initializer_list>

#include "engine/tokenizer/chat_template_render.h"

namespace kvlens {
namespace {

using chat_render::segment_writer;

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

// True when a newline follows the literal that ends at `at`, in the same
// literal or spliced on ("<|end|>\n", "<|end|>' + '\n'"), real or escaped.
bool newline_follows(std::string_view tmpl, std::size_t at) {
    while (at < tmpl.size() && (tmpl[at] == '\'' || tmpl[at] == '"' || tmpl[at] == ' ' || tmpl[at] == '+')) ++at;
    return tmpl.substr(at, 1) == "\n" || tmpl.substr(at, 2) == "\\n";
}

// Phi-3's templates: the variant and what it does with system messages and
// the end of a conversation without a generation prompt.
void read_phi3_variant(std::string_view tmpl, chat_format& f) {
    bool newlines = false;
    for (std::string_view m : {std::string_view("<|end|>"), std::string_view("<|assistant|>")})
        for (std::size_t at = tmpl.find(m); at != std::string_view::npos; at = tmpl.find(m, at + 1))
            newlines = newlines || newline_follows(tmpl, at + m.size());
    // Phi-3-mini-4k's first template has no generation prompt: it opens the
    // assistant's turn after every user turn instead.
    if (tmpl.find("add_generation_prompt") == std::string_view::npos) f.variant = chat_variant::phi3_2404;
    else f.variant = newlines ? chat_variant::phi3 : chat_variant::phi4_mini;
    f.skips_empty_system = tmpl.find("'system' and message['content']") != std::string_view::npos ||
                           tmpl.find("\"system\" and message[\"content\"]") != std::string_view::npos ||
                           tmpl.find("'system' and message.content") != std::string_view::npos;
    f.ends_with_eos = f.variant != chat_variant::phi3_2404 && tmpl.find("eos_token") != std::string_view::npos;
}

bool has_any(std::string_view tmpl, std::initializer_list<std::string_view> texts) {
    for (std::string_view t : texts)
        if (tmpl.find(t) != std::string_view::npos) return true;
    return false;
}

// Mistral's templates, told apart by the spaces around [INST] and by where
// the system text goes (the official ones; see chat_template.h).
chat_variant mistral_variant(std::string_view tmpl) {
    const bool spaced = has_any(tmpl, {"[INST] '", "[INST] \""});           // '[INST] ' + content
    if (tmpl.find("[SYSTEM_PROMPT]") != std::string_view::npos)
        return spaced ? chat_variant::mistral_v7 : chat_variant::mistral_v7_tekken;
    if (has_any(tmpl, {"' [INST]", "\" [INST]"})) return chat_variant::mistral_v1;  // ' [INST] ' + ...
    if (spaced && tmpl.find("system_message") == std::string_view::npos) return chat_variant::mistral_v1_2023;
    return spaced ? chat_variant::mistral_v3 : chat_variant::mistral_v3_tekken;
}

// Mistral Small's default system prompt: `set default_system_message = "..."`
// when the value is one literal (Small 3.2); "" when it splices in more
// (Small 3's " + today + ") or there is none.
std::string find_mistral_default_system(std::string_view tmpl) {
    constexpr std::string_view name = "default_system_message";
    const std::size_t at = tmpl.find(name);
    if (at == std::string_view::npos) return {};
    std::size_t i = at + name.size();
    while (i < tmpl.size() && tmpl[i] == ' ') ++i;
    if (tmpl.substr(i, 1) != "=") return {};
    ++i;
    while (i < tmpl.size() && tmpl[i] == ' ') ++i;
    if (i >= tmpl.size() || (tmpl[i] != '"' && tmpl[i] != '\'')) return {};
    const char quote = tmpl[i];
    const std::size_t from = ++i;
    while (i < tmpl.size() && tmpl[i] != quote) i += tmpl[i] == '\\' ? 2 : 1;
    if (i >= tmpl.size()) return {};
    const std::string_view body = tmpl.substr(from, i - from);
    ++i;
    while (i < tmpl.size() && (tmpl[i] == ' ' || tmpl[i] == '-')) ++i;
    if (tmpl.substr(i, 2) != "%}") return {};  // more spliced on
    return unescape_literal(body);
}

std::vector<chat_segment> render_chatml(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    if (f.variant == chat_variant::chatml_smollm3) return chat_render::render_smollm3(msgs, gen);
    segment_writer w;
    if (f.variant == chat_variant::chatml_phi4) {   // Phi-4: the role, then <|im_sep|>; no newlines
        auto open = [&w](std::string_view role) {
            w.control("<|im_start|>");
            w.text(role);
            w.control("<|im_sep|>");
        };
        for (const auto& m : msgs) {
            if (m.role != "system" && m.role != "user" && m.role != "assistant") continue;   // the template writes no other
            open(m.role);
            w.text(m.content);
            w.control("<|im_end|>");
        }
        if (gen) open("assistant");
        return w.take();
    }
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
// tokenizer's (add_bos_token). Hunyuan's dense models took DeepSeek's
// tokenizer and its format with their own markers, and close the system
// text with one (as llama.cpp renders them: "s<｜hy_place▁holder▁no▁3｜>
// <｜hy_User｜>q<｜hy_Assistant｜>").
struct deepseek_markers {
    const char* user;
    const char* assistant;
    const char* end;
    const char* after_system;   // nullptr: none
};
constexpr deepseek_markers k_deepseek_markers{"<｜User｜>", "<｜Assistant｜>", "<｜end▁of▁sentence｜>", nullptr};
constexpr deepseek_markers k_hunyuan_markers{"<｜hy_User｜>", "<｜hy_Assistant｜>", "<｜hy_place▁holder▁no▁2｜>",
                                             "<｜hy_place▁holder▁no▁3｜>"};

std::vector<chat_segment> render_deepseek(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    const deepseek_markers& mk = f.kind == chat_kind::hunyuan ? k_hunyuan_markers : k_deepseek_markers;
    segment_writer w;
    const chat_message* system = nullptr;
    for (const auto& m : msgs)
        if (m.role == "system") system = &m;
    if (system) {
        w.text(system->content);
        if (mk.after_system) w.control(mk.after_system);
    }
    for (const auto& m : msgs) {
        if (m.role == "user") {
            w.control(mk.user);
            w.text(m.content);
        } else if (m.role == "assistant") {
            std::string_view answer = m.content;
            if (const auto end = answer.rfind("</think>"); end != std::string_view::npos) answer.remove_prefix(end + 8);
            w.control(mk.assistant);
            w.text(answer);
            w.control(mk.end);
        }
    }
    if (gen) {
        w.control(mk.assistant);
        if (f.opens_reasoning) {
            w.control("<think>");
            w.text("\n");
        }
    }
    return w.take();
}

// Phi-3 and Phi-4-mini: "<|role|>" + content + "<|end|>", with a newline
// after each marker in Phi-3/3.5. Roles other than system, user and
// assistant are left out (the templates that name their roles drop them;
// kvlens sends no others). Phi-3-mini-4k's first template drops system
// messages too and opens the assistant's turn after every user turn.
std::vector<chat_segment> render_phi3(const chat_format& f, const std::vector<chat_message>& msgs, bool gen) {
    segment_writer w;
    if (f.variant == chat_variant::phi3_2404) {
        for (const auto& m : msgs) {
            if (m.role == "user") {
                w.control("<|user|>");
                w.text("\n");
                w.text(m.content);
                w.control("<|end|>");
                w.text("\n");
                w.control("<|assistant|>");
                w.text("\n");
            } else if (m.role == "assistant") {
                w.text(m.content);
                w.control("<|end|>");
                w.text("\n");
            }
        }
        return w.take();
    }
    const std::string_view nl = f.variant == chat_variant::phi4_mini ? "" : "\n";
    for (const auto& m : msgs) {
        const char* marker = m.role == "system" ? "<|system|>" : m.role == "user" ? "<|user|>"
                           : m.role == "assistant" ? "<|assistant|>" : nullptr;
        if (!marker || (m.role == "system" && m.content.empty() && f.skips_empty_system)) continue;
        w.control(marker);
        w.text(nl);
        w.text(m.content);
        w.control("<|end|>");
        w.text(nl);
    }
    if (gen) {
        w.control("<|assistant|>");
        w.text(nl);
    } else if (f.ends_with_eos) {
        w.control("<|endoftext|>");
    }
    return w.take();
}

// Mistral: "[INST]" question "[/INST]" answer "</s>", the spaces as each
// variant writes them. v7 gives the system text a turn of its own; the
// others put it in front of one user turn (v1: the first, v3: the last when
// it is the last message, else nowhere) and leave later system messages out
// (their templates refuse them). The templates have no generation prompt:
// "[/INST]" is where the answer starts. "</s>" is the EOS token.
std::vector<chat_segment> render_mistral(const chat_format& f, const std::vector<chat_message>& msgs, bool) {
    segment_writer w;
    auto mark = [&](std::string_view s) {
        if (f.markers_are_tokens) w.control(s);
        else w.text(s);  // v0.1/v0.2: the vocabulary has no such token
    };
    auto eos = [&] {
        w.control("</s>");
        if (f.space_after_eos) w.text(" ");
    };
    const chat_variant v = f.variant;
    if (v == chat_variant::mistral_v7 || v == chat_variant::mistral_v7_tekken) {
        const std::string_view sp = v == chat_variant::mistral_v7 ? " " : "";
        auto system_turn = [&](std::string_view text) {
            mark("[SYSTEM_PROMPT]");
            w.text(sp);
            w.text(text);
            mark("[/SYSTEM_PROMPT]");
        };
        if ((msgs.empty() || msgs.front().role != "system") && !f.default_system.empty()) system_turn(f.default_system);
        for (const auto& m : msgs) {
            if (m.role == "system") {
                system_turn(m.content);
            } else if (m.role == "user") {
                mark("[INST]");
                w.text(sp);
                w.text(m.content);
                mark("[/INST]");
            } else if (m.role == "assistant") {
                w.text(sp);
                w.text(m.content);
                eos();
            }
        }
        return w.take();
    }
    const bool has_system = !msgs.empty() && msgs.front().role == "system";
    const std::size_t first = has_system ? 1 : 0;
    const bool system_first = v == chat_variant::mistral_v1 || v == chat_variant::mistral_v1_2023;
    for (std::size_t i = first; i < msgs.size(); ++i) {
        const chat_message& m = msgs[i];
        if (m.role == "user") {
            const bool with_system = has_system && (system_first ? i == first : i + 1 == msgs.size());
            if (v == chat_variant::mistral_v1) w.text(" ");
            mark("[INST]");
            if (v != chat_variant::mistral_v3_tekken) w.text(" ");
            if (with_system) {
                w.text(msgs.front().content);
                w.text("\n\n");
            }
            w.text(m.content);
            if (system_first) w.text(" ");
            mark("[/INST]");
        } else if (m.role == "assistant") {
            if (v == chat_variant::mistral_v1 || v == chat_variant::mistral_v3) w.text(" ");
            w.text(v == chat_variant::mistral_v3 ? trim(m.content) : m.content);
            eos();
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
    case chat_kind::phi3: return "phi3";
    case chat_kind::mistral: return "mistral";
    case chat_kind::granite: return "granite";
    case chat_kind::olmo2: return "olmo2";
    case chat_kind::exaone: return "exaone";
    case chat_kind::harmony: return "harmony";
    case chat_kind::hunyuan: return "hunyuan";
    case chat_kind::command_r: return "command-r";
    case chat_kind::zephyr: return "zephyr";
    case chat_kind::none: break;
    }
    return "none";
}

namespace {

// True when the template's "<|user|>" turn is the message's content and a
// newline: "'<|user|>\n' + message['content'] + '\n'" (OLMo 2, Tulu 3).
bool question_ends_in_newline(std::string_view tmpl) {
    const std::size_t user = tmpl.find("<|user|>");
    if (user == std::string_view::npos) return false;
    for (std::string_view content : {"message['content']", "message[\"content\"]", "message.content"}) {
        const std::size_t at = tmpl.find(content, user);
        if (at != std::string_view::npos && newline_follows(tmpl, at + content.size())) return true;
    }
    return false;
}

// gpt-oss's first template writes "\n\n" after the developer text
// ({{- developer_message }} then {{- "\n\n" }}); its revisions write it only
// before a tools section. Told apart by what the template outputs next.
chat_variant harmony_variant(std::string_view tmpl) {
    const std::size_t at = tmpl.find("developer_message }}");
    if (at == std::string_view::npos) return chat_variant::harmony;
    const std::size_t next_output = tmpl.find("{{", at);
    const std::size_t next_statement = tmpl.find("{%", at);
    if (next_output == std::string_view::npos || next_output > next_statement) return chat_variant::harmony;
    const std::size_t close = tmpl.find("}}", next_output);
    const std::string_view output = tmpl.substr(next_output, close == std::string_view::npos ? 0 : close - next_output);
    return output.find("\\n\\n") != std::string_view::npos || output.find("\n\n") != std::string_view::npos
               ? chat_variant::harmony_2508
               : chat_variant::harmony;
}

// Where the template first writes kind's opening marker; npos when it does not.
std::size_t opening_at(std::string_view tmpl, chat_kind kind) {
    constexpr auto npos = std::string_view::npos;
    switch (kind) {
    case chat_kind::chatml: return tmpl.find("<|im_start|>");
    case chat_kind::llama3: return tmpl.find("<|start_header_id|>");
    case chat_kind::gemma: return tmpl.find("<start_of_turn>");
    case chat_kind::deepseek: return tmpl.find("<｜User｜>");
    case chat_kind::phi3:
        // Phi-4-mini names only "<|assistant|>" (the other roles come from
        // message['role']); GLM's "<|user|>" templates have no "<|end|>".
        if (tmpl.find("<|end|>") == npos) return npos;
        return std::min({tmpl.find("<|system|>"), tmpl.find("<|user|>"), tmpl.find("<|assistant|>")});
    case chat_kind::mistral:
        // Llama 2's [INST] <<SYS>> templates are another format.
        return tmpl.find("<<SYS>>") == npos ? tmpl.find("[INST]") : npos;
    case chat_kind::granite: return tmpl.find("<|start_of_role|>");
    case chat_kind::olmo2:
        // Phi-3 ends a turn in "<|end|>", Zephyr a question in EOS, GLM writes
        // "<|user|>" around no message['content']: Tulu's question ends in a newline.
        if (tmpl.find("<|end|>") != npos || !question_ends_in_newline(tmpl)) return npos;
        return std::min({tmpl.find("<|system|>"), tmpl.find("<|user|>"), tmpl.find("<|assistant|>")});
    case chat_kind::exaone:
        // EXAONE 4.0 ("[|tool|]") and EXAONE Deep ("<thought>") share the
        // markers but not the rendering.
        if (tmpl.find("[|endofturn|]") == npos || tmpl.find("[|tool|]") != npos || tmpl.find("<thought>") != npos)
            return npos;
        return std::min({tmpl.find("[|system|]"), tmpl.find("[|user|]"), tmpl.find("[|assistant|]"),
                         tmpl.find("[|endofturn|]")});
    case chat_kind::harmony: return tmpl.find("<|channel|>") == npos ? npos : tmpl.find("<|start|>");
    case chat_kind::hunyuan:   // llama.cpp's test: both markers
        if (tmpl.find("<｜hy_place▁holder▁no▁3｜>") == npos) return npos;
        return std::min({tmpl.find("<｜hy_User｜>"), tmpl.find("<｜hy_Assistant｜>"), tmpl.find("<｜hy_place▁holder▁no▁3｜>")});
    case chat_kind::zephyr:
        // Zephyr closes a question with EOS (Tulu, OLMo 2's, with a newline;
        // Phi-3 with "<|end|>").
        if (tmpl.find("<|end|>") != npos || tmpl.find("eos_token") == npos || question_ends_in_newline(tmpl)) return npos;
        return std::min({tmpl.find("<|system|>"), tmpl.find("<|user|>"), tmpl.find("<|assistant|>")});
    case chat_kind::command_r:   // llama.cpp's test: the turn marker and the user's
        if (tmpl.find("<|USER_TOKEN|>") == npos) return npos;
        return tmpl.find("<|START_OF_TURN_TOKEN|>");
    case chat_kind::none: break;
    }
    return npos;
}

}  // namespace

chat_format chat_format::from_template(std::string_view tmpl, const bool (&available)[k_chat_kinds]) {
    // The format whose opening marker comes first among those the vocabulary
    // has; Mistral's markers are text in v0.1/v0.2, so it needs none, nor
    // does OLMo 2 (its markers may be plain text in its vocabulary), nor
    // EXAONE (encode_chat keeps a marker its vocabulary lacks as text).
    chat_format f;
    std::size_t first = std::string_view::npos;
    for (int k = 1; k < k_chat_kinds; ++k) {
        const auto kind = static_cast<chat_kind>(k);
        const std::size_t at = opening_at(tmpl, kind);
        const bool any_vocabulary = kind == chat_kind::mistral || kind == chat_kind::olmo2 || kind == chat_kind::exaone ||
                                    kind == chat_kind::zephyr;
        if ((available[k] || any_vocabulary) && at < first) {
            first = at;
            f.kind = kind;
        }
    }
    if (f.kind == chat_kind::chatml) {
        f.default_system = find_default_system(tmpl);
        if (tmpl.find("<|im_sep|>") != std::string_view::npos) f.variant = chat_variant::chatml_phi4;
        if (tmpl.find("## Metadata") != std::string_view::npos && tmpl.find("Reasoning Mode") != std::string_view::npos) {
            f.variant = chat_variant::chatml_smollm3;
            f.default_system = chat_render::k_smollm3_think_instructions;
        }
    }
    if (f.kind == chat_kind::llama3) f.llama3_dated_system = tmpl.find("Cutting Knowledge Date") != std::string_view::npos;
    if (f.kind == chat_kind::deepseek)
        f.opens_reasoning = tmpl.find("<｜Assistant｜><think>\\n") != std::string_view::npos ||
                            tmpl.find("<｜Assistant｜><think>\n") != std::string_view::npos;
    if (f.kind == chat_kind::phi3) read_phi3_variant(tmpl, f);
    if (f.kind == chat_kind::mistral) {
        f.variant = mistral_variant(tmpl);
        f.markers_are_tokens = available[static_cast<int>(chat_kind::mistral)];
        f.space_after_eos = f.variant == chat_variant::mistral_v1_2023 &&
                            has_any(tmpl, {"eos_token + ' '", "eos_token + \" \""});
        if (f.variant == chat_variant::mistral_v7 || f.variant == chat_variant::mistral_v7_tekken) {
            f.default_system = find_mistral_default_system(tmpl);
            f.dated_default_left_out = f.default_system.empty() &&
                                       tmpl.find("default_system_message") != std::string_view::npos;
        }
    }
    // Granite 3.1+ take the system message out of the loop (to put a dated
    // default in its place when there is none); 3.0 loops over every message.
    if (f.kind == chat_kind::granite) {
        f.variant = tmpl.find("loop_messages") != std::string_view::npos ? chat_variant::granite_3_1
                                                                          : chat_variant::granite_3_0;
        f.dated_default_left_out = f.variant == chat_variant::granite_3_1;
    }
    if (f.kind == chat_kind::olmo2) f.markers_are_tokens = available[static_cast<int>(chat_kind::olmo2)];
    if (f.kind == chat_kind::zephyr) f.markers_are_tokens = available[static_cast<int>(chat_kind::zephyr)];
    if (f.kind == chat_kind::harmony) f.variant = harmony_variant(tmpl);
    return f;
}

std::vector<chat_segment> chat_format::render_segments(const std::vector<chat_message>& messages,
                                                       bool add_generation_prompt) const {
    switch (kind) {
    case chat_kind::chatml: return render_chatml(*this, messages, add_generation_prompt);
    case chat_kind::llama3: return render_llama3(*this, messages, add_generation_prompt);
    case chat_kind::gemma: return render_gemma(messages, add_generation_prompt);
    case chat_kind::deepseek:
    case chat_kind::hunyuan: return render_deepseek(*this, messages, add_generation_prompt);
    case chat_kind::phi3: return render_phi3(*this, messages, add_generation_prompt);
    case chat_kind::mistral: return render_mistral(*this, messages, add_generation_prompt);
    case chat_kind::granite: return chat_render::render_granite(*this, messages, add_generation_prompt);
    case chat_kind::olmo2: return chat_render::render_olmo2(*this, messages, add_generation_prompt);
    case chat_kind::exaone: return chat_render::render_exaone(messages, add_generation_prompt);
    case chat_kind::harmony: return chat_render::render_harmony(*this, messages, add_generation_prompt);
    case chat_kind::command_r: return chat_render::render_command_r(messages, add_generation_prompt);
    case chat_kind::zephyr: return chat_render::render_zephyr(*this, messages, add_generation_prompt);
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
