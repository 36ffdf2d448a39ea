// SPDX-License-Identifier: Apache-2.0
// Inside the chat formats (chat_template.h), shared by the files that render
// them: the segment writer, Jinja's string helpers, and the renderers that
// live outside chat_template.cpp (Granite, OLMo 2, SmolLM3, EXAONE, Harmony, Command R, Zephyr).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/tokenizer/chat_template.h"

namespace kvlens::chat_render {

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

// Python's str.rstrip() and str.lstrip(chars), as templates call them.
inline std::string_view rstrip(std::string_view s) {
    const auto e = s.find_last_not_of(" \t\n\r\f\v");
    return e == std::string_view::npos ? std::string_view() : s.substr(0, e + 1);
}
inline std::string_view lstrip(std::string_view s, std::string_view chars) {
    const auto b = s.find_first_not_of(chars);
    return b == std::string_view::npos ? std::string_view() : s.substr(b);
}

std::vector<chat_segment> render_granite(const chat_format& f, const std::vector<chat_message>& msgs, bool gen);
std::vector<chat_segment> render_olmo2(const chat_format& f, const std::vector<chat_message>& msgs, bool gen);
std::vector<chat_segment> render_smollm3(const std::vector<chat_message>& msgs, bool gen);
std::vector<chat_segment> render_exaone(const std::vector<chat_message>& msgs, bool gen);
std::vector<chat_segment> render_harmony(const chat_format& f, const std::vector<chat_message>& msgs, bool gen);
std::vector<chat_segment> render_command_r(const std::vector<chat_message>& msgs, bool gen);
std::vector<chat_segment> render_zephyr(const chat_format& f, const std::vector<chat_message>& msgs, bool gen);

// gpt-oss's system message (identity, cutoff, a fixed date, reasoning effort, channels).
extern const char* const k_harmony_system;

// SmolLM3's default instructions without a system message (reasoning mode).
extern const char* const k_smollm3_think_instructions;

}  // namespace kvlens::chat_render
