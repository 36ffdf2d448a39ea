// SPDX-License-Identifier: Apache-2.0
// The map-reduce planner: map stages from the sections, then combine rounds
// while the summaries do not fit together, then the reduce stage.
#include "tasks/map_reduce.h"

#include "tasks/instructions.h"

namespace kvlens::tasks {

const char* stage_kind_name(stage_kind k)
{
    switch (k) {
    case stage_kind::map: return "map";
    case stage_kind::combine: return "combine";
    case stage_kind::reduce: return "reduce";
    }
    return "map";
}

result<map_reduce> map_reduce::plan(const document_text& doc, const token_counter& count_tokens,
                                    map_reduce_options options)
{
    auto sections = make_sections(doc, count_tokens, options.available_tokens);
    if (!sections) return make_error(sections.message());
    if (sections->empty()) return make_error("the document has no text to summarize");
    map_reduce m;
    m.count_ = count_tokens;
    m.options_ = std::move(options);
    m.first_page_ = sections->front().first_page;
    m.last_page_ = sections->back().last_page;
    std::vector<part> parts;
    for (section& s : *sections) {
        stage st;
        st.kind = stage_kind::map;
        st.index = int(m.round_.size());
        st.first_page = s.first_page;
        st.last_page = s.last_page;
        st.input_tokens = s.tokens;
        st.chat = layout_chat({m.options_.system, m.options_.title, pages_label(s.first_page, s.last_page),
                               s.text, map_instruction(), {}});
        m.round_.push_back(std::move(st));
        parts.push_back({s.first_page, s.last_page, std::move(s.text)});
    }
    for (stage& st : m.round_) st.round_size = int(m.round_.size());
    m.round_parts_ = std::move(parts);
    m.answers_.assign(m.round_.size(), {});
    m.answered_.assign(m.round_.size(), false);
    m.planned_ = int(m.round_.size());
    return m;
}

void map_reduce::set_answer(std::size_t index, std::string answer)
{
    if (index >= answers_.size()) return;
    answers_[index] = std::move(answer);
    answered_[index] = true;
}

bool map_reduce::round_answered() const
{
    for (bool a : answered_)
        if (!a) return false;
    return !answered_.empty();
}

bool map_reduce::advance()
{
    if (finished_ || !round_answered()) return false;
    const int round = round_.front().round;
    if (round_.front().kind == stage_kind::reduce) {
        answer_ = answers_.front();
        finished_ = true;
        round_.clear();
        return false;
    }
    std::vector<part> summaries;
    for (std::size_t i = 0; i < round_.size(); ++i)
        summaries.push_back({round_[i].first_page, round_[i].last_page, answers_[i]});
    plan_summaries(std::move(summaries), round + 1);
    return true;
}

// Summaries as one text: "[pages 1-20] ...\n\n[pages 21-40] ...\n\n".
static std::string joined_summaries(const std::vector<std::pair<std::string, std::string>>& items)
{
    std::string out;
    for (const auto& [label, text] : items) out += "[" + label + "] " + text + "\n\n";
    return out;
}

void map_reduce::plan_summaries(std::vector<part> parts, int round)
{
    std::vector<std::pair<std::string, std::string>> items;
    for (const part& p : parts) items.push_back({pages_label(p.first_page, p.last_page), p.text});
    const std::string all = joined_summaries(items);
    const int all_tokens = count_(all);
    std::vector<stage> next;
    std::vector<part> next_parts;
    if (all_tokens <= options_.available_tokens || parts.size() == 1) {
        stage st;
        st.kind = stage_kind::reduce;
        st.round = round;
        st.first_page = first_page_;
        st.last_page = last_page_;
        st.input_tokens = all_tokens;
        const std::string header = "Summaries of the parts, in order:\n\n";
        st.chat = layout_chat({options_.system, options_.title, pages_label(first_page_, last_page_), header + all,
                               instruction(options_.task, options_.question), {}});
        next.push_back(std::move(st));
        next_parts.push_back({first_page_, last_page_, all});
    } else {
        // Groups of consecutive summaries, each as large as fits.
        std::size_t i = 0;
        while (i < parts.size()) {
            std::vector<std::pair<std::string, std::string>> group{items[i]};
            std::size_t j = i + 1;
            while (j < parts.size()) {
                auto candidate = group;
                candidate.push_back(items[j]);
                if (count_(joined_summaries(candidate)) > options_.available_tokens) break;
                group = std::move(candidate);
                ++j;
            }
            stage st;
            st.kind = stage_kind::combine;
            st.round = round;
            st.first_page = parts[i].first_page;
            st.last_page = parts[j - 1].last_page;
            const std::string text = joined_summaries(group);
            st.input_tokens = count_(text);
            st.chat = layout_chat({options_.system, options_.title, pages_label(st.first_page, st.last_page), text,
                                   combine_instruction(), {}});
            next.push_back(std::move(st));
            next_parts.push_back({parts[i].first_page, parts[j - 1].last_page, text});
            i = j;
        }
    }
    for (std::size_t k = 0; k < next.size(); ++k) {
        next[k].index = int(k);
        next[k].round_size = int(next.size());
    }
    round_ = std::move(next);
    round_parts_ = std::move(next_parts);
    answers_.assign(round_.size(), {});
    answered_.assign(round_.size(), false);
    planned_ += int(round_.size());
}

}  // namespace kvlens::tasks
