// SPDX-License-Identifier: Apache-2.0
// Context fitting and page-aligned sections, with a word-counting "tokenizer"
// (one token per space-separated word) so the expected numbers are plain.
#include "tasks/context_fit.h"

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

class TestContextFit : public QObject {
    Q_OBJECT
private slots:
    void fits_data() {
        QTest::addColumn<int>("contextLength");
        QTest::addColumn<int>("answerTokens");
        QTest::addColumn<bool>("fits");
        QTest::addColumn<int>("available");
        // The document has 3 pages of 30 words: 90 tokens; overhead 10.
        QTest::newRow("room to spare") << 2048 << 256 << true << 1782;
        QTest::newRow("exactly fits") << 200 << 100 << true << 90;
        QTest::newRow("one token short") << 199 << 100 << false << 89;
        QTest::newRow("answer alone fills it") << 100 << 100 << false << -10;
    }
    void fits() {
        QFETCH(int, contextLength);
        QFETCH(int, answerTokens);
        QFETCH(bool, fits);
        QFETCH(int, available);
        const auto d = doc_of({words(1, 30), words(2, 30), words(3, 30)});
        const fit_report r = check_fit(d, count_words, contextLength, answerTokens, 10);
        QCOMPARE(r.needed_tokens, 90);
        QCOMPARE(r.available_tokens, available);
        QCOMPARE(r.fits, fits);
    }

    void sectionsArePageAligned() {
        const auto d = doc_of({words(1, 30), words(2, 30), words(3, 30), words(4, 30), words(5, 30)});
        auto sections = make_sections(d, count_words, 70);
        QVERIFY(sections.ok());
        QCOMPARE(sections->size(), std::size_t(3));
        QCOMPARE((*sections)[0].first_page, 1);
        QCOMPARE((*sections)[0].last_page, 2);
        QCOMPARE((*sections)[1].first_page, 3);
        QCOMPARE((*sections)[1].last_page, 4);
        QCOMPARE((*sections)[2].first_page, 5);
        QCOMPARE((*sections)[2].last_page, 5);
        QCOMPARE((*sections)[0].tokens, 60);
        QCOMPARE(QString::fromStdString((*sections)[0].text), QString::fromStdString(words(1, 30) + "\n\n" + words(2, 30)));
    }

    void emptyPagesSkipped() {
        const auto d = doc_of({words(1, 10), "", words(3, 10)});
        auto sections = make_sections(d, count_words, 100);
        QVERIFY(sections.ok());
        QCOMPARE(sections->size(), std::size_t(1));
        QCOMPARE((*sections)[0].first_page, 1);
        QCOMPARE((*sections)[0].last_page, 3);
        QCOMPARE((*sections)[0].tokens, 20);
    }

    void bigPageSplitAtParagraphs() {
        // Page 2 has four paragraphs of 40 words: over the limit of 100.
        const std::string big = words(21, 40) + "\n\n" + words(22, 40) + "\n\n" + words(23, 40) + "\n\n" + words(24, 40);
        const auto d = doc_of({words(1, 20), big, words(3, 20)});
        auto sections = make_sections(d, count_words, 100);
        QVERIFY(sections.ok());
        QCOMPARE(sections->size(), std::size_t(4));
        QCOMPARE((*sections)[0].last_page, 1);
        QCOMPARE((*sections)[1].first_page, 2);
        QCOMPARE((*sections)[1].last_page, 2);
        QCOMPARE((*sections)[1].tokens, 80);  // two paragraphs
        QCOMPARE(QString::fromStdString((*sections)[1].text), QString::fromStdString(words(21, 40) + "\n\n" + words(22, 40)));
        QCOMPARE((*sections)[2].tokens, 80);
        QCOMPARE((*sections)[3].first_page, 3);
    }

    void paragraphLargerThanLimitStillSplitsUnderIt() {
        const auto d = doc_of({words(1, 250)});  // one paragraph, no sentence ends
        auto sections = make_sections(d, count_words, 60);
        QVERIFY(sections.ok());
        QCOMPARE(sections->size(), std::size_t(5));
        int total = 0;
        QString rejoined;
        for (const section& s : *sections) {
            QVERIFY(s.tokens <= 60);
            QCOMPARE(s.first_page, 1);
            total += s.tokens;
            rejoined += (rejoined.isEmpty() ? "" : " ") + QString::fromStdString(s.text);
        }
        QCOMPARE(total, 250);
        QCOMPARE(rejoined, QString::fromStdString(words(1, 250)));  // nothing lost, order kept
    }

    void cjkPageSplitAtSentences() {
        // A counter of one token per code point; 3 sentences of 8 characters each.
        auto per_char = [](std::string_view t) {
            int n = 0;
            for (unsigned char c : t) n += (c & 0xC0) != 0x80;
            return n;
        };
        const std::string sentence = "\xe9\xa2\x84\xe5\xa1\xab\xe5\x85\x85\xe5\xa4\x84\xe7\x90\x86\xe6\x95\xb4\xe4\xb8\xaa\xe3\x80\x82";  // 预填充处理整个。 (8 chars)
        const auto d = doc_of({sentence + sentence + sentence});
        auto sections = make_sections(d, per_char, 17);
        QVERIFY(sections.ok());
        QCOMPARE(sections->size(), std::size_t(2));
        QCOMPARE(QString::fromStdString((*sections)[0].text), QString::fromStdString(sentence + sentence));
        QCOMPARE(QString::fromStdString((*sections)[1].text), QString::fromStdString(sentence));
    }

    void badLimitIsAnError() {
        const auto d = doc_of({words(1, 5)});
        QVERIFY(!make_sections(d, count_words, 0).ok());
        QVERIFY(!make_sections(d, token_counter{}, 10).ok());
    }
};

QTEST_APPLESS_MAIN(TestContextFit)
#include "test_context_fit.moc"
