// SPDX-License-Identifier: Apache-2.0
// The tasks layer's planning, with one token per space-separated word: the
// largest page range that fits, the chat layout, the document's language,
// and map-reduce rounds that name their pages and end in one reduce stage.
#include "tasks/answer_check.h"
#include "tasks/chat_layout.h"
#include "tasks/instructions.h"
#include "tasks/map_reduce.h"

#include <gtest/gtest.h>

#include "tests/support/word_counter.h"

#include <string>
#include <vector>

using namespace kvlens::tasks;
using kvlens::test::count_words;

namespace {

document_text pages_of_words(int pages, int words_per_page) {
    document_text d;
    for (int p = 1; p <= pages; ++p) {
        std::string s;
        for (int k = 0; k < words_per_page; ++k) s += (k ? " w" : "w") + std::to_string(k);
        d.pages.push_back({p, s, s.size()});
    }
    return d;
}

}  // namespace

TEST(MapReduce, largestRangeThatFitsStartsAtTheFirstPage)
{
    const document_text d = pages_of_words(10, 100);   // joined: 100 words a page
    const page_span s = largest_fitting_range(d, count_words, 350, 3);
    ASSERT_EQ(s.first_page, 3);
    ASSERT_EQ(s.last_page, 5);
    ASSERT_EQ(s.tokens, 300);
    ASSERT_EQ(largest_fitting_range(d, count_words, 5000, 1).last_page, 10);
    ASSERT_TRUE(largest_fitting_range(d, count_words, 50, 1).empty());     // not even one page
    ASSERT_TRUE(largest_fitting_range(d, count_words, 500, 11).empty());   // no such page
}

TEST(MapReduce, chatPutsTheDocumentFirstAndTheInstructionLast)
{
    const auto chat = layout_chat({"sys", "Annual report", "", "text", instruction(task_kind::one_line), {}});
    ASSERT_EQ(chat.size(), std::size_t(2));
    ASSERT_EQ(chat[1].content, std::string("Report \"Annual report\":\n\ntext\n\nSummarize this report in one sentence."));
    const auto stage = layout_chat({"", "R", pages_label(1, 20), "t", map_instruction(), {}});
    ASSERT_EQ(stage.size(), std::size_t(1));   // no system prompt given, none sent
    ASSERT_TRUE(stage[0].content.rfind("Report \"R\" (pages 1-20):", 0) == 0);
}

TEST(MapReduce, theAnswerIsAskedInTheDocumentsLanguage)
{
    ASSERT_EQ((document_language("Revenue grew 12% to 4.2 billion.")), std::string("en"));
    ASSERT_EQ((document_language("2025年营业收入增长百分之十二，达到四十二亿元。")), std::string("zh"));
    ASSERT_TRUE(system_prompt("zh").find("Chinese") != std::string::npos);
    ASSERT_TRUE(system_prompt("en").find("English") != std::string::npos);
}

TEST(MapReduce, aLoopingAnswerIsFlaggedAndANormalOneIsNot)
{
    ASSERT_TRUE(is_degenerate_repetition("The KV cache is the cache. The KV cache is the cache. The KV cache is the cache. "
                                     "The KV cache is the cache. The KV cache is the cache."));
    ASSERT_TRUE(is_degenerate_repetition("缓存缓存缓存缓存缓存缓存缓存缓存缓存缓存"));
    ASSERT_TRUE(!is_degenerate_repetition("Long documents make the first token slow because prefill must read every "
                                      "token; caching the prefix removes most of this cost for follow-up questions."));
    ASSERT_TRUE(!is_degenerate_repetition("- Prefill reads the prompt.\n- Decode writes the answer.\n- The KV cache "
                                      "keeps keys and values.\n- Reuse cuts the time to the first token."));
}

TEST(MapReduce, taskKeysRoundTrip)
{
    for (task_kind t : {task_kind::one_line, task_kind::key_points, task_kind::detailed, task_kind::question})
        ASSERT_EQ(int(*parse_task_key(task_key(t))), int(t));
    ASSERT_TRUE(!parse_task_key("poem"));
}

TEST(MapReduce, mapReduceMapsEverySectionThenReducesOnce)
{
    const document_text d = pages_of_words(6, 100);
    map_reduce_options o;
    o.task = task_kind::one_line;
    o.title = "Thesis";
    o.available_tokens = 250;
    auto m = map_reduce::plan(d, count_words, o);
    ASSERT_TRUE(m) << (m ? "" : m.message().c_str());
    ASSERT_EQ(m->round().size(), std::size_t(3));   // pages 1-2, 3-4, 5-6
    ASSERT_EQ(m->round()[1].first_page, 3);
    ASSERT_EQ(m->round()[1].last_page, 4);
    ASSERT_TRUE(m->round()[1].chat.back().content.find("(pages 3-4)") != std::string::npos);
    ASSERT_TRUE(!m->advance());   // nothing answered yet
    for (std::size_t i = 0; i < 3; ++i) m->set_answer(i, "short summary " + std::to_string(i));
    ASSERT_TRUE(m->advance());
    ASSERT_EQ(m->round().size(), std::size_t(1));
    ASSERT_EQ(int(m->round()[0].kind), int(stage_kind::reduce));
    ASSERT_EQ(m->round()[0].first_page, 1);
    ASSERT_EQ(m->round()[0].last_page, 6);
    const std::string& reduce = m->round()[0].chat.back().content;
    ASSERT_TRUE(reduce.find("[pages 3-4] short summary 1") != std::string::npos);
    ASSERT_TRUE(reduce.find("Summarize this report in one sentence.") != std::string::npos);
    m->set_answer(0, "final");
    ASSERT_TRUE(!m->advance());
    ASSERT_TRUE(m->finished());
    ASSERT_EQ(m->answer(), std::string("final"));
    ASSERT_EQ(m->stages_planned(), 4);
}

TEST(MapReduce, summariesThatDoNotFitAreCombinedInGroupsFirst)
{
    const document_text d = pages_of_words(8, 100);
    map_reduce_options o;
    o.available_tokens = 110;   // one page a section; two 50-word summaries fit together, not three
    auto m = map_reduce::plan(d, count_words, o);
    ASSERT_TRUE(m);
    ASSERT_EQ(m->round().size(), std::size_t(8));
    std::string fifty;
    for (int k = 0; k < 49; ++k) fifty += "s ";
    for (std::size_t i = 0; i < 8; ++i) m->set_answer(i, fifty);
    ASSERT_TRUE(m->advance());
    ASSERT_EQ(int(m->round()[0].kind), int(stage_kind::combine));
    ASSERT_EQ(m->round().size(), std::size_t(4));
    ASSERT_EQ(m->round()[3].first_page, 7);
    ASSERT_EQ(m->round()[3].last_page, 8);
    for (std::size_t i = 0; i < 4; ++i) m->set_answer(i, "c");
    ASSERT_TRUE(m->advance());
    ASSERT_EQ(int(m->round()[0].kind), int(stage_kind::reduce));
}
