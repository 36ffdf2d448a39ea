// SPDX-License-Identifier: Apache-2.0
// Task wording and the document's language.
#include "tasks/instructions.h"

#include <cstdint>

namespace kvlens::tasks {

namespace {

// Decodes one UTF-8 code point at s[i], advancing i; 0xFFFD on a bad byte.
std::uint32_t next_code_point(std::string_view s, std::size_t& i)
{
    const auto b = static_cast<unsigned char>(s[i]);
    int extra = b < 0x80 ? 0 : (b >> 5) == 0x6 ? 1 : (b >> 4) == 0xE ? 2 : (b >> 3) == 0x1E ? 3 : -1;
    if (extra < 0 || (extra > 0 && i + std::size_t(extra) >= s.size())) {
        ++i;
        return 0xFFFD;
    }
    std::uint32_t cp = extra == 0 ? b : b & (0x3F >> extra);
    ++i;
    for (int k = 0; k < extra; ++k, ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
    return cp;
}

bool is_cjk(std::uint32_t cp)
{
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0xF900 && cp <= 0xFAFF);
}

bool is_letter_like(std::uint32_t cp)
{
    return (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z') || (cp >= 0xC0 && cp < 0x2000) || is_cjk(cp);
}

}  // namespace

const char* task_key(task_kind t)
{
    switch (t) {
    case task_kind::one_line: return "one-line";
    case task_kind::key_points: return "key-points";
    case task_kind::detailed: return "detailed";
    case task_kind::question: return "question";
    }
    return "one-line";
}

std::optional<task_kind> parse_task_key(std::string_view key)
{
    for (task_kind t : {task_kind::one_line, task_kind::key_points, task_kind::detailed, task_kind::question})
        if (key == task_key(t)) return t;
    return std::nullopt;
}

std::string document_language(std::string_view text)
{
    std::size_t letters = 0, cjk = 0;
    for (std::size_t i = 0; i < text.size();) {
        const std::uint32_t cp = next_code_point(text, i);
        if (!is_letter_like(cp)) continue;
        ++letters;
        // A CJK character carries about a word; weigh it as five letters.
        if (is_cjk(cp)) cjk += 5, letters += 4;
    }
    return letters > 0 && cjk * 5 >= letters ? "zh" : "en";
}

std::string system_prompt(std::string_view language)
{
    std::string s =
        "You are a careful reading assistant. Answer only from the report the user gives you. "
        "Be concise and factual, and keep the report's numbers exact.";
    s += language == "zh" ? " Answer in Chinese (请用中文回答)." : " Answer in English.";
    return s;
}

std::string instruction(task_kind task, std::string_view question)
{
    switch (task) {
    case task_kind::one_line: return "Summarize this report in one sentence.";
    case task_kind::key_points: return "List the key points of this report as 3 to 6 short bullet points.";
    case task_kind::detailed:
        return "Write a detailed summary of this report in a few paragraphs: its purpose, "
               "its main findings with their numbers, and its conclusions.";
    case task_kind::question: {
        while (!question.empty() && (question.front() == ' ' || question.front() == '\n')) question.remove_prefix(1);
        while (!question.empty() && (question.back() == ' ' || question.back() == '\n')) question.remove_suffix(1);
        return std::string(question);
    }
    }
    return {};
}

std::string map_instruction()
{
    return "Summarize this part of the report in a few sentences, keeping names, numbers and conclusions.";
}

std::string combine_instruction()
{
    return "Combine these summaries of consecutive parts of a report into one short summary.";
}

std::string pages_label(int first_page, int last_page)
{
    return first_page == last_page ? "page " + std::to_string(first_page)
                                   : "pages " + std::to_string(first_page) + "-" + std::to_string(last_page);
}

}  // namespace kvlens::tasks
