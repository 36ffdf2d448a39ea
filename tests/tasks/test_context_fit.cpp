// SPDX-License-Identifier: Apache-2.0
// Context fitting and page-aligned sections, with a word-counting "tokenizer"
// (one token per space-separated word) so the expected numbers are plain.
#include "tasks/context_fit.h"

#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include "tests/support/word_counter.h"

#include <string>
#include <vector>

using namespace kvlens::tasks;
using kvlens::test::count_words;

namespace {

// A page of `n` words "pP-wK".
std::string words(int page, int n) {
    std::string s;
    for (int k = 0; k < n; ++k) s += (k ? " " : "") + ("p" + std::to_string(page) + "-w" + std::to_string(k));
    return s;
}

document_text doc_of(const std::vector<std::string>& pages) {
    document_text d;
    for (std::size_t i = 0; i < pages.size(); ++i)
        d.pages.push_back({static_cast<int>(i + 1), pages[i], pages[i].size()});
    return d;
}

}  // namespace

struct fits_row {
    std::string tag;
    int contextLength;
    int answerTokens;
    bool fits;
    int available;
};

std::vector<fits_row> fits_rows()
{
    std::vector<fits_row> rows;
    // The document has 3 pages of 30 words: 90 tokens; overhead 10.
    rows.push_back({"room to spare", 2048, 256, true, 1782});
    rows.push_back({"exactly fits", 200, 100, true, 90});
    rows.push_back({"one token short", 199, 100, false, 89});
    rows.push_back({"answer alone fills it", 100, 100, false, -10});
    return rows;
}

TEST(ContextFit, aDocumentFitsWhenItAndTheAnswerFitTheContext)
{
    kvlens::test::for_each_row(fits_rows(), [&](const fits_row& row) {
        const auto d = doc_of({words(1, 30), words(2, 30), words(3, 30)});
        const fit_report r = check_fit(d, count_words, row.contextLength, row.answerTokens, 10);
        ASSERT_EQ(r.needed_tokens, 90);
        ASSERT_EQ(r.available_tokens, row.available);
        ASSERT_EQ(r.fits, row.fits);
    });
}

TEST(ContextFit, sectionsArePageAligned)
{
    const auto d = doc_of({words(1, 30), words(2, 30), words(3, 30), words(4, 30), words(5, 30)});
    auto sections = make_sections(d, count_words, 70);
    ASSERT_TRUE(sections.ok());
    ASSERT_EQ(sections->size(), std::size_t(3));
    ASSERT_EQ((*sections)[0].first_page, 1);
    ASSERT_EQ((*sections)[0].last_page, 2);
    ASSERT_EQ((*sections)[1].first_page, 3);
    ASSERT_EQ((*sections)[1].last_page, 4);
    ASSERT_EQ((*sections)[2].first_page, 5);
    ASSERT_EQ((*sections)[2].last_page, 5);
    ASSERT_EQ((*sections)[0].tokens, 60);
    ASSERT_EQ((*sections)[0].text, (words(1, 30) + "\n\n" + words(2, 30)));
}

TEST(ContextFit, emptyPagesSkipped)
{
    const auto d = doc_of({words(1, 10), "", words(3, 10)});
    auto sections = make_sections(d, count_words, 100);
    ASSERT_TRUE(sections.ok());
    ASSERT_EQ(sections->size(), std::size_t(1));
    ASSERT_EQ((*sections)[0].first_page, 1);
    ASSERT_EQ((*sections)[0].last_page, 3);
    ASSERT_EQ((*sections)[0].tokens, 20);
}

TEST(ContextFit, bigPageSplitAtParagraphs)
{
    // Page 2 has four paragraphs of 40 words: over the limit of 100.
    const std::string big = words(21, 40) + "\n\n" + words(22, 40) + "\n\n" + words(23, 40) + "\n\n" + words(24, 40);
    const auto d = doc_of({words(1, 20), big, words(3, 20)});
    auto sections = make_sections(d, count_words, 100);
    ASSERT_TRUE(sections.ok());
    ASSERT_EQ(sections->size(), std::size_t(4));
    ASSERT_EQ((*sections)[0].last_page, 1);
    ASSERT_EQ((*sections)[1].first_page, 2);
    ASSERT_EQ((*sections)[1].last_page, 2);
    ASSERT_EQ((*sections)[1].tokens, 80);  // two paragraphs
    ASSERT_EQ((*sections)[1].text, (words(21, 40) + "\n\n" + words(22, 40)));
    ASSERT_EQ((*sections)[2].tokens, 80);
    ASSERT_EQ((*sections)[3].first_page, 3);
}

TEST(ContextFit, paragraphLargerThanLimitStillSplitsUnderIt)
{
    const auto d = doc_of({words(1, 250)});  // one paragraph, no sentence ends
    auto sections = make_sections(d, count_words, 60);
    ASSERT_TRUE(sections.ok());
    ASSERT_EQ(sections->size(), std::size_t(5));
    int total = 0;
    std::string rejoined;
    for (const section& s : *sections) {
        ASSERT_TRUE(s.tokens <= 60);
        ASSERT_EQ(s.first_page, 1);
        total += s.tokens;
        rejoined += (rejoined.empty() ? "" : " ") + s.text;
    }
    ASSERT_EQ(total, 250);
    ASSERT_EQ(rejoined, (words(1, 250)));  // nothing lost, order kept
}

TEST(ContextFit, cjkPageSplitAtSentences)
{
    // A counter of one token per code point; 3 sentences of 8 characters each.
    auto per_char = [](std::string_view t) {
        int n = 0;
        for (unsigned char c : t) n += (c & 0xC0) != 0x80;
        return n;
    };
    const std::string sentence = "\xe9\xa2\x84\xe5\xa1\xab\xe5\x85\x85\xe5\xa4\x84\xe7\x90\x86\xe6\x95\xb4\xe4\xb8\xaa\xe3\x80\x82";  // 预填充处理整个。 (8 chars)
    const auto d = doc_of({sentence + sentence + sentence});
    auto sections = make_sections(d, per_char, 17);
    ASSERT_TRUE(sections.ok());
    ASSERT_EQ(sections->size(), std::size_t(2));
    ASSERT_EQ((*sections)[0].text, (sentence + sentence));
    ASSERT_EQ((*sections)[1].text, sentence);
}

TEST(ContextFit, badLimitIsAnError)
{
    const auto d = doc_of({words(1, 5)});
    ASSERT_TRUE(!make_sections(d, count_words, 0).ok());
    ASSERT_TRUE(!make_sections(d, token_counter{}, 10).ok());
}
