// SPDX-License-Identifier: Apache-2.0
// The chat a request sends: the system prompt, then the document first and
// the instruction last (nearest the answer: small models follow it there,
// and every task and follow-up on the same pages shares the longest possible
// prefix, which the engine's prefix cache reuses).
#pragma once

#include <string>
#include <vector>

namespace kvlens::tasks {

struct chat_turn {
    std::string role;       // "system", "user", "assistant"
    std::string content;
};

struct chat_parts {
    std::string system;                 // the system prompt ("" : none)
    std::string title;                  // the document's title ("" : "report")
    std::string pages;                  // "" or "pages 1-20": named after the title (map-reduce stages)
    std::string document;               // the text of the selected pages
    std::string instruction;            // the task, the question, or a stage's instruction
    std::vector<std::string> history;   // a follow-up: alternating user, assistant texts after the document
};

// system; user: Report "title":\n\n<document>\n\n<instruction> — or, with a
// history, the document rides with the first user turn and the instruction
// is a user turn of its own at the end.
std::vector<chat_turn> layout_chat(const chat_parts& parts);

// The header put in front of the document text: Report "title":\n\n
std::string document_header(const std::string& title, const std::string& pages = {});

}  // namespace kvlens::tasks
