// SPDX-License-Identifier: Apache-2.0
// The tasks layer's planning, with one token per space-separated word: the
// largest page range that fits, the chat layout, the document's language,
// and map-reduce rounds that name their pages and end in one reduce stage.
#include "tasks/answer_check.h"
#include "tasks/chat_layout.h"
#include "tasks/instructions.h"
#include "tasks/map_reduce.h"

#include <QtTest>

#include <sstream>

using namespace kvlens::tasks;

namespace {

int count_words(std::string_view text) {
    std::istringstream in{std::string(text)};
    int n = 0;
    for (std::string w; in >> w;) ++n;
    return n;
}

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

class TestMapReduce : public QObject {
    Q_OBJECT
private slots:
    void largestRangeThatFitsStartsAtTheFirstPage() {
        const document_text d = pages_of_words(10, 100);   // joined: 100 words a page
        const page_span s = largest_fitting_range(d, count_words, 350, 3);
        QCOMPARE(s.first_page, 3);
        QCOMPARE(s.last_page, 5);
        QCOMPARE(s.tokens, 300);
        QCOMPARE(largest_fitting_range(d, count_words, 5000, 1).last_page, 10);
        QVERIFY(largest_fitting_range(d, count_words, 50, 1).empty());     // not even one page
        QVERIFY(largest_fitting_range(d, count_words, 500, 11).empty());   // no such page
    }

    void chatPutsTheDocumentFirstAndTheInstructionLast() {
        const auto chat = layout_chat({"sys", "Annual report", "", "text", instruction(task_kind::one_line), {}});
        QCOMPARE(chat.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(chat[1].content),
                 QStringLiteral("Report \"Annual report\":\n\ntext\n\nSummarize this report in one sentence."));
        const auto stage = layout_chat({"", "R", pages_label(1, 20), "t", map_instruction(), {}});
        QCOMPARE(stage.size(), std::size_t(1));   // no system prompt given, none sent
        QVERIFY(stage[0].content.rfind("Report \"R\" (pages 1-20):", 0) == 0);
    }

    void theAnswerIsAskedInTheDocumentsLanguage() {
        QCOMPARE(QString::fromStdString(document_language("Revenue grew 12% to 4.2 billion.")), QStringLiteral("en"));
        QCOMPARE(QString::fromStdString(document_language("2025年营业收入增长百分之十二，达到四十二亿元。")), QStringLiteral("zh"));
        QVERIFY(system_prompt("zh").find("Chinese") != std::string::npos);
        QVERIFY(system_prompt("en").find("English") != std::string::npos);
    }

    void aLoopingAnswerIsFlaggedAndANormalOneIsNot() {
        QVERIFY(is_degenerate_repetition("The KV cache is the cache. The KV cache is the cache. The KV cache is the cache. "
                                         "The KV cache is the cache. The KV cache is the cache."));
        QVERIFY(is_degenerate_repetition("缓存缓存缓存缓存缓存缓存缓存缓存缓存缓存"));
        QVERIFY(!is_degenerate_repetition("Long documents make the first token slow because prefill must read every "
                                          "token; caching the prefix removes most of this cost for follow-up questions."));
        QVERIFY(!is_degenerate_repetition("- Prefill reads the prompt.\n- Decode writes the answer.\n- The KV cache "
                                          "keeps keys and values.\n- Reuse cuts the time to the first token."));
    }

    void taskKeysRoundTrip() {
        for (task_kind t : {task_kind::one_line, task_kind::key_points, task_kind::detailed, task_kind::question})
            QCOMPARE(int(*parse_task_key(task_key(t))), int(t));
        QVERIFY(!parse_task_key("poem"));
    }

    void mapReduceMapsEverySectionThenReducesOnce() {
        const document_text d = pages_of_words(6, 100);
        map_reduce_options o;
        o.task = task_kind::one_line;
        o.title = "Thesis";
        o.available_tokens = 250;
        auto m = map_reduce::plan(d, count_words, o);
        QVERIFY2(m, m ? "" : m.message().c_str());
        QCOMPARE(m->round().size(), std::size_t(3));   // pages 1-2, 3-4, 5-6
        QCOMPARE(m->round()[1].first_page, 3);
        QCOMPARE(m->round()[1].last_page, 4);
        QVERIFY(m->round()[1].chat.back().content.find("(pages 3-4)") != std::string::npos);
        QVERIFY(!m->advance());   // nothing answered yet
        for (std::size_t i = 0; i < 3; ++i) m->set_answer(i, "short summary " + std::to_string(i));
        QVERIFY(m->advance());
        QCOMPARE(m->round().size(), std::size_t(1));
        QCOMPARE(int(m->round()[0].kind), int(stage_kind::reduce));
        QCOMPARE(m->round()[0].first_page, 1);
        QCOMPARE(m->round()[0].last_page, 6);
        const std::string& reduce = m->round()[0].chat.back().content;
        QVERIFY(reduce.find("[pages 3-4] short summary 1") != std::string::npos);
        QVERIFY(reduce.find("Summarize this report in one sentence.") != std::string::npos);
        m->set_answer(0, "final");
        QVERIFY(!m->advance());
        QVERIFY(m->finished());
        QCOMPARE(QString::fromStdString(m->answer()), QStringLiteral("final"));
        QCOMPARE(m->stages_planned(), 4);
    }

    void summariesThatDoNotFitAreCombinedInGroupsFirst() {
        const document_text d = pages_of_words(8, 100);
        map_reduce_options o;
        o.available_tokens = 110;   // one page a section; two 50-word summaries fit together, not three
        auto m = map_reduce::plan(d, count_words, o);
        QVERIFY(m);
        QCOMPARE(m->round().size(), std::size_t(8));
        std::string fifty;
        for (int k = 0; k < 49; ++k) fifty += "s ";
        for (std::size_t i = 0; i < 8; ++i) m->set_answer(i, fifty);
        QVERIFY(m->advance());
        QCOMPARE(int(m->round()[0].kind), int(stage_kind::combine));
        QCOMPARE(m->round().size(), std::size_t(4));
        QCOMPARE(m->round()[3].first_page, 7);
        QCOMPARE(m->round()[3].last_page, 8);
        for (std::size_t i = 0; i < 4; ++i) m->set_answer(i, "c");
        QVERIFY(m->advance());
        QCOMPARE(int(m->round()[0].kind), int(stage_kind::reduce));
    }
};

QTEST_APPLESS_MAIN(TestMapReduce)
#include "test_map_reduce.moc"
