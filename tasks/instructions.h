// SPDX-License-Identifier: Apache-2.0
// The words sent to the model, in one place: the system prompt, each task's
// instruction, the map-reduce stages' instructions, and the line asking for
// the answer in the document's language. The CLI and the window send the
// same wording, so a run in one can be compared with a run in the other.
#pragma once

#include <string>
#include <string_view>

#include "tasks/task_kind.h"

namespace kvlens::tasks {

// The language a document is written in, as far as the answer is concerned:
// "zh" when CJK characters make up at least a fifth of its letters, else "en".
std::string document_language(std::string_view text);

// The system prompt; it asks for the answer in `language` ("en", "zh").
std::string system_prompt(std::string_view language = "en");
// The task's instruction, sent after the document. A question is sent as asked.
std::string instruction(task_kind task, std::string_view question = {});
// Map stage: one part of a long report.
std::string map_instruction();
// An intermediate reduce round: summaries of consecutive parts into one.
std::string combine_instruction();

// "page 3" or "pages 1-20" (1-based, inclusive): how prompts and logs name pages.
std::string pages_label(int first_page, int last_page);

}  // namespace kvlens::tasks
