// SPDX-License-Identifier: Apache-2.0
// The chat layout shared by the CLI and the window.
#include "tasks/chat_layout.h"

namespace kvlens::tasks {

std::string document_header(const std::string& title, const std::string& pages)
{
    std::string h = "Report \"" + (title.empty() ? std::string("report") : title) + "\"";
    if (!pages.empty()) h += " (" + pages + ")";
    return h + ":\n\n";
}

std::vector<chat_turn> layout_chat(const chat_parts& p)
{
    std::vector<chat_turn> turns;
    if (!p.system.empty()) turns.push_back({"system", p.system});
    const std::string body = document_header(p.title, p.pages) + p.document + "\n\n";
    if (p.history.empty()) {
        turns.push_back({"user", body + p.instruction});
        return turns;
    }
    for (std::size_t i = 0; i < p.history.size(); ++i)
        turns.push_back({i % 2 == 0 ? "user" : "assistant", (i == 0 ? body : std::string()) + p.history[i]});
    turns.push_back({"user", p.instruction});
    return turns;
}

}  // namespace kvlens::tasks
