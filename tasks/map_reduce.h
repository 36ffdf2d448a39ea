// SPDX-License-Identifier: Apache-2.0
// Map-reduce over a report too long for the context (design: "Long reports"):
// every page-aligned section summarized on its own (map), then the summaries
// combined, in groups while they do not fit (combine rounds), into the
// answer to the task (reduce). The driver only plans: it hands out a round
// of stages, each a chat to send, takes their answers back and plans the
// next round. The CLI runs a round as parallel requests; the window runs
// each stage as a run in its history. No engine, no Qt.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "tasks/chat_layout.h"
#include "tasks/context_fit.h"
#include "tasks/task_kind.h"

namespace kvlens::tasks {

enum class stage_kind { map, combine, reduce };
const char* stage_kind_name(stage_kind k);      // "map", "combine", "reduce"

struct stage {
    stage_kind kind = stage_kind::map;
    int round = 0;              // 0: map; 1, 2, ...: combine rounds and the reduce
    int index = 0;              // 0-based within the round
    int round_size = 0;         // stages in the round
    int first_page = 0;         // the pages it covers, 1-based inclusive
    int last_page = 0;
    int input_tokens = 0;       // tokens of its text (a section, or the summaries)
    std::vector<chat_turn> chat;
};

struct map_reduce_options {
    task_kind task = task_kind::key_points;
    std::string question;       // task_kind::question
    std::string title;          // the document's title
    std::string system;         // the system prompt ("" : none)
    int available_tokens = 0;   // for a stage's text: context - answer - prompt overhead
};

class map_reduce {
public:
    // Plans the map round; an error when the document has no text or the
    // limit is below 1 token.
    static result<map_reduce> plan(const document_text& doc, const token_counter& count_tokens,
                                   map_reduce_options options);

    const std::vector<stage>& round() const { return round_; }   // the stages to run now
    // The answer of round()[index]; a stage answered twice keeps the last.
    void set_answer(std::size_t index, std::string answer);
    bool round_answered() const;
    // Plans the next round from the answers; false when the reduce stage was
    // the last (then answer() holds the result) or the round is not answered.
    bool advance();
    bool finished() const { return finished_; }
    const std::string& answer() const { return answer_; }
    int stages_planned() const { return planned_; }   // over all rounds so far
    int first_page() const { return first_page_; }
    int last_page() const { return last_page_; }

private:
    struct part {
        int first_page, last_page;
        std::string text;
    };
    void plan_summaries(std::vector<part> parts, int round);

    token_counter count_;
    map_reduce_options options_;
    std::vector<stage> round_;
    std::vector<part> round_parts_;     // what each stage of the round covers
    std::vector<std::string> answers_;
    std::vector<bool> answered_;
    std::string answer_;
    bool finished_ = false;
    int planned_ = 0;
    int first_page_ = 0, last_page_ = 0;
};

}  // namespace kvlens::tasks
