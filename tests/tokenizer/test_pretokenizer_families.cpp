// SPDX-License-Identifier: Apache-2.0
// The pre-tokenizer families beyond GPT-2, SmolLM, Llama 3 and Qwen2: how
// Tekken, GPT-4o, Seed-Coder, DeepSeek (LLM, Coder, V3) and Viking split text,
// which names share an expression, and which skip the merges for whole
// words. The splits are llama.cpp's (tests/tokenizer/llamacpp_compare checks
// them on random texts); the rows here pin what each family is known for.
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include <string>
#include <vector>

#include "engine/tokenizer/pretokenizer.h"

using namespace kvlens;

namespace {

std::vector<std::string> split(const pretokenizer& p, const std::string& text) {
    std::vector<std::string> out;
    for (std::string_view s : p.split(text)) out.emplace_back(s);
    return out;
}

}  // namespace

// ---- splits, family by family
struct familySplits_row {
    std::string tag;
    std::string pre;
    std::string text;
    std::vector<std::string> pieces;
};

std::vector<familySplits_row> familySplits_rows()
{
    std::vector<familySplits_row> rows;
    using v = std::vector<std::string>;
    // GPT-4o (Phi-4-mini): contractions stay with their word, digits go in threes.
    rows.push_back({"gpt-4o keeps 's with its word", "gpt-4o", "He's 12345 ok", v{"He's", " ", "123", "45", " ok"}});
    rows.push_back({"gpt-4o keeps an upper-case contraction too", "gpt-4o", "I'M here", v{"I'M", " here"}});
    rows.push_back({"gpt-4o groups digits in threes", "gpt-4o", "1234567", v{"123", "456", "7"}});
    rows.push_back({"gpt-4o splits words at a change of case", "gpt-4o", "camelCaseWord", v{"camel", "Case", "Word"}});
    rows.push_back({"gpt-4o keeps newlines after punctuation", "gpt-4o", "end.\n\nNext", v{"end", ".\n\n", "Next"}});
    // Tekken (Mistral Nemo, Mistral Small 3): every digit apart, no contractions.
    rows.push_back({"tekken splits digits one by one", "tekken", "year 2024", v{"year", " ", "2", "0", "2", "4"}});
    rows.push_back({"tekken splits contractions off", "tekken", "don't I'M", v{"don", "'t", " I", "'M"}});
    rows.push_back({"tekken splits words at a change of case", "tekken", "camelCaseWord", v{"camel", "Case", "Word"}});
    rows.push_back({"tekken counts non-ASCII letters as either case", "tekken", "Ärger übel", v{"Ärger", " übel"}});
    // Seed-Coder: as Qwen2, but newlines leave the punctuation before them.
    rows.push_back({"seed-coder keeps newlines apart from punctuation", "seed-coder", "x;\n\ny", v{"x", ";", "\n\n", "y"}});
    rows.push_back({"seed-coder splits digits one by one", "seed-coder", "v12", v{"v", "1", "2"}});
    // DeepSeek LLM: cased-script words, punctuation, trailing spaces, CJK, numbers.
    rows.push_back({"deepseek-llm splits CJK from words and numbers", "deepseek-llm", "Hello, 世界! 123",
                    v{"Hello", ",", " ", "世界", "!", " ", "123"}});
    rows.push_back({"deepseek-llm puts each newline apart", "deepseek-llm", "a\n\nb", v{"a", "\n", "\n", "b"}});
    rows.push_back({"deepseek-llm never counts a space as CJK", "deepseek-llm", "中文\u3000中文",
                    v{"中文", "\u3000", "中文"}});
    // DeepSeek Coder: words, punctuation (not symbols), CJK, single digits.
    rows.push_back({"deepseek-coder splits code", "deepseek-coder", "int x = 42;\n",
                    v{"int", " x", " = ", "4", "2", ";", "\n"}});
    // DeepSeek V3 / R1: numbers in threes, CJK and kana runs, one ASCII mark before a word.
    rows.push_back({"deepseek-v3 groups digits in threes", "deepseek-v3", "12345", v{"123", "45"}});
    rows.push_back({"deepseek-v3 splits CJK runs from Latin", "deepseek-v3", "我想在apple工作", v{"我想在", "apple", "工作"}});
    // Hunyuan's dense models (0.5B-7B, Hunyuan-MT) split as DeepSeek V3 (llama.cpp: one case for both).
    rows.push_back({"hunyuan-dense splits as deepseek-v3", "hunyuan-dense", "混元7B翻译, 12345 words",
                    v{"混元", "7", "B", "翻译", ",", " ", "123", "45", " words"}});
    rows.push_back({"deepseek-v3 lets an ASCII mark lead a word", "deepseek-v3", "mail@example.com",
                    v{"mail", "@example", ".com"}});
    rows.push_back({"deepseek-v3 takes a space before a word", "deepseek-v3", "Hello world", v{"Hello", " world"}});
    rows.push_back({"deepseek-v3 reads ~ as no symbol, as llama.cpp does", "deepseek-v3", "~é", v{"~é"}});
    // Viking: runs up to spaces and sentence punctuation, then digits apart.
    rows.push_back({"viking splits at punctuation and digits", "viking", "Hei, verden! 42",
                    v{"Hei", ",", " verden", "!", " ", "4", "2"}});
    return rows;
}

TEST(PretokenizerFamilies, eachFamilySplitsAsItsModelsWereTrained)
{
    kvlens::test::for_each_row(familySplits_rows(), [&](const familySplits_row& row) {
        auto p = pretokenizer::create(row.pre);
        ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.message().c_str());
        ASSERT_EQ(split(**p, row.text), row.pieces);
    });
}

// ---- names that share an expression
struct aliasSplits_row {
    std::string tag;
    std::string alias;
    std::string base;
};

std::vector<aliasSplits_row> aliasSplits_rows()
{
    return {
        {"Mi:dm 2.0 is Llama 3", "midm-2.0", "llama-bpe"},
        {"DBRX / Phi-4 is Llama 3's expression", "dbrx", "llama-bpe"},
        {"Smaug is Llama 3's expression", "smaug-bpe", "llama-bpe"},
        {"A.X 4.0 is GPT-2", "a.x-4.0", "gpt2"},
        {"Mellum is GPT-2", "mellum", "gpt2"},
        {"Trillion is GPT-2", "trillion", "gpt2"},
    };
}

TEST(PretokenizerFamilies, aliasesSplitAsTheirBase)
{
    const std::string text = "It's 12345 apples,\n\n  don't  ÄÖ 你好 x+y!";
    kvlens::test::for_each_row(aliasSplits_rows(), [&](const aliasSplits_row& row) {
        auto alias = pretokenizer::create(row.alias);
        auto base = pretokenizer::create(row.base);
        ASSERT_TRUE(alias.ok() && base.ok());
        ASSERT_EQ(split(**alias, text), split(**base, text));
    });
}

// ---- the whole-word shortcut, as llama.cpp sets it per name
struct ignoreMerges_row {
    std::string tag;
    std::string pre;
    bool ignore_merges;
};

std::vector<ignoreMerges_row> ignoreMerges_rows()
{
    return {
        {"Llama 3 skips merges for vocabulary words", "llama-bpe", true},
        {"Mi:dm 2.0 does as Llama 3", "midm-2.0", true},
        {"Tekken skips merges for vocabulary words", "tekken", true},
        {"DBRX merges every word", "dbrx", false},
        {"Smaug merges every word", "smaug-bpe", false},
        {"GPT-4o merges every word", "gpt-4o", false},
        {"Seed-Coder merges every word", "seed-coder", false},
        {"DeepSeek V3 merges every word", "deepseek-v3", false},
    };
}

TEST(PretokenizerFamilies, onlyLlama3AndTekkenSkipMergesForWholeWords)
{
    kvlens::test::for_each_row(ignoreMerges_rows(), [&](const ignoreMerges_row& row) {
        auto p = pretokenizer::create(row.pre);
        ASSERT_TRUE(p.ok());
        ASSERT_EQ((*p)->ignore_merges(), row.ignore_merges);
    });
}

// ---- every name
TEST(PretokenizerFamilies, everyKnownNameCompilesAndGivesBackItsText)
{
    const std::string text = "Ünïcode 'S 3.14\r\n\t中文 한국어 ١٢٣ 🙂~é\u3000end  ";
    for (const std::string& name : pretokenizer::known_names()) {
        SCOPED_TRACE(name);
        auto p = pretokenizer::create(name);
        ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.message().c_str());
        std::string joined;
        for (const std::string& piece : split(**p, text)) {
            ASSERT_FALSE(piece.empty());
            joined += piece;
        }
        ASSERT_EQ(joined, text);
    }
}
