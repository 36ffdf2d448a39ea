// SPDX-License-Identifier: Apache-2.0
// Unit tests of the tokenizer's parts on tiny in-memory vocabularies:
// streaming UTF-8, the byte-level alphabet, pre-tokenizer splits, BPE merge
// order, SentencePiece scores and byte fallback, special tokens, end of
// generation, and the metadata checks of tokenizer::from_gguf.
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/tokenizer/byte_level.h"
#include "engine/tokenizer/pretokenizer.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/utf8.h"
#include "engine/tokenizer/utf8_stream.h"
#include "tests/support/text_checks.h"
#include "tests/tokenizer/tiny_vocab.h"

using namespace kvlens;
using kvlens::test::add_merge;
using kvlens::test::contains;
using kvlens::test::byte_level_vocab;
using kvlens::test::vocab_spec;

namespace {

// "12 7 99": ids as the failure message shows them.
std::string show(const std::vector<token_id>& ids) {
    std::string out;
    for (token_id id : ids) out += (out.empty() ? "" : " ") + std::to_string(id);
    return out;
}

bool valid_utf8(std::string_view s) {
    for (std::size_t pos = 0; pos < s.size();) {
        const int n = utf8::valid_sequence_at(s, pos);
        if (n == 0) return false;
        pos += n;
    }
    return true;
}

std::unique_ptr<tokenizer> must_build(const vocab_spec& spec) {
    auto t = spec.build();
    if (!t) throw std::runtime_error("tiny vocabulary rejected: " + t.message());   // the test fails with it
    return std::move(t.value());
}

}  // namespace

// ---- streaming UTF-8
struct utf8StreamSplitsAnywhere_row {
    std::string tag;
    std::string text;
};

std::vector<utf8StreamSplitsAnywhere_row> utf8StreamSplitsAnywhere_rows()
{
    std::vector<utf8StreamSplitsAnywhere_row> rows;
    rows.push_back({"ascii", std::string("plain text")});
    rows.push_back({"latin", std::string("café crème")});
    rows.push_back({"cjk", std::string("预填充和解码")});
    rows.push_back({"emoji", std::string("ok 🙂👨‍👩‍👧 done")});
    rows.push_back({"mixed", std::string("a\xC3\xA9\xE4\xB8\x96\xF0\x9F\x98\x80z")});
    return rows;
}

TEST(Tokenizer, utf8StreamSplitsAnywhere)
{
    kvlens::test::for_each_row(utf8StreamSplitsAnywhere_rows(), [&](const utf8StreamSplitsAnywhere_row& row) {
        // Every chunk size, every output whole characters, all of it in the end.
        for (std::size_t chunk = 1; chunk <= 5; ++chunk) {
            utf8_stream s;
            std::string out;
            for (std::size_t pos = 0; pos < row.text.size(); pos += chunk) {
                const std::string part = s.push(std::string_view(row.text).substr(pos, chunk));
                ASSERT_TRUE(valid_utf8(part)) << "chunk " << chunk << " at " << pos;
                out += part;
            }
            out += s.flush();
            ASSERT_EQ(out, row.text);
            ASSERT_EQ(s.pending(), std::size_t(0));
        }
    });
}

TEST(Tokenizer, utf8StreamHoldsSplitCharacter)
{
    utf8_stream s;
    ASSERT_EQ(s.push("a\xE4"), std::string("a"));   // '世' = E4 B8 96
    ASSERT_EQ(s.pending(), std::size_t(1));
    ASSERT_EQ(s.push("\xB8"), std::string());
    ASSERT_EQ(s.push("\x96!"), std::string("世!"));
    ASSERT_EQ(s.push("\xF0\x9F"), std::string());      // '🙂' = F0 9F 99 82
    ASSERT_EQ(s.push("\x99\x82"), std::string("🙂"));
    ASSERT_EQ(s.flush(), std::string());
}

struct utf8StreamReplacesInvalidBytes_row {
    std::string tag;
    std::string input;
    std::string expected;
};

std::vector<utf8StreamReplacesInvalidBytes_row> utf8StreamReplacesInvalidBytes_rows()
{
    std::vector<utf8StreamReplacesInvalidBytes_row> rows;
    rows.push_back({"stray continuation", std::string("a\x80z"), std::string("a\xEF\xBF\xBDz")});
    rows.push_back({"truncated then ascii", std::string("\xE4\xB8z"), std::string("\xEF\xBF\xBDz")});
    rows.push_back({"invalid lead", std::string("\xFFok"), std::string("\xEF\xBF\xBDok")});
    rows.push_back({"overlong", std::string("\xC0\xAF"), std::string("\xEF\xBF\xBD\xEF\xBF\xBD")});
    rows.push_back({"surrogate", std::string("\xED\xA0\x80"), std::string("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD")});
    rows.push_back({"unfinished at end", std::string("x\xF0\x9F\x99"), std::string("x\xEF\xBF\xBD")});
    return rows;
}

TEST(Tokenizer, utf8StreamReplacesInvalidBytes)
{
    kvlens::test::for_each_row(utf8StreamReplacesInvalidBytes_rows(), [&](const utf8StreamReplacesInvalidBytes_row& row) {
        utf8_stream s;
        std::string out = s.push(row.input);
        out += s.flush();
        ASSERT_EQ(out, row.expected);
    });
}

// ---- byte-level alphabet
TEST(Tokenizer, byteLevelKnownCodePoints)
{
    ASSERT_EQ(byte_level::code_point_of(' '), 0x120u);    // 'Ġ'
    ASSERT_EQ(byte_level::code_point_of('\n'), 0x10Au);   // 'Ċ'
    ASSERT_EQ(byte_level::code_point_of('\t'), 0x109u);
    ASSERT_EQ(byte_level::code_point_of(0), 0x100u);
    ASSERT_EQ(byte_level::code_point_of(0xAD), 0x143u);   // the last unprintable byte
    ASSERT_EQ(byte_level::code_point_of('A'), std::uint32_t('A'));
    ASSERT_EQ(byte_level::code_point_of(0xE9), 0xE9u);
    ASSERT_EQ(byte_level::encode(" hello\n"), std::string("Ġhello\xC4\x8A"));
}

TEST(Tokenizer, byteLevelRoundTripsEveryByte)
{
    std::string all;
    for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
    const std::string text = byte_level::encode(all);
    ASSERT_TRUE(valid_utf8(text));
    std::string back;
    ASSERT_TRUE(byte_level::decode(text, back));
    ASSERT_EQ(back, all);
    // 256 distinct code points, each the inverse of the other.
    for (int b = 0; b < 256; ++b) ASSERT_EQ(byte_level::byte_of(byte_level::code_point_of(b)), b);
    std::string unknown;
    ASSERT_TRUE(!byte_level::decode("\xE2\x96\x81", unknown));   // '▁' is not in the alphabet
    ASSERT_EQ(unknown, std::string("\xE2\x96\x81"));
}

// ---- pre-tokenizers
struct pretokenizerSplits_row {
    std::string tag;
    std::string pre;
    std::string text;
    std::vector<std::string> pieces;
};

std::vector<pretokenizerSplits_row> pretokenizerSplits_rows()
{
    std::vector<pretokenizerSplits_row> rows;
    using v = std::vector<std::string>;
    rows.push_back({"gpt2 words", "gpt2", std::string("Hello world"), v{"Hello", " world"}});
    rows.push_back({"gpt2 contractions", "gpt2", std::string("I'm fine, you're OK"), v{"I", "'m", " fine", ",", " you", "'re", " OK"}});
    rows.push_back({"gpt2 space runs", "gpt2", std::string("a  b   c"), v{"a", " ", " b", "  ", " c"}});
    rows.push_back({"gpt2 newlines", "gpt2", std::string("hi\n\nthere"), v{"hi", "\n", "\n", "there"}});
    rows.push_back({"gpt2 trailing spaces", "gpt2", std::string("x = 42;  "), v{"x", " =", " 42", ";", "  "}});
    rows.push_back({"gpt2 scripts", "gpt2", std::string("Привет мир 你好"), v{"Привет", " мир", " 你好"}});
    rows.push_back({"smollm digits", "smollm", std::string("abc123 def"), v{"abc", "1", "2", "3", " def"}});
    rows.push_back({"smollm space before digit", "smollm", std::string("x 42"), v{"x", " ", "4", "2"}});
    rows.push_back({"smollm decimal", "smollm", std::string("3.14"), v{"3", ".", "1", "4"}});
    rows.push_back({"smollm money", "smollm", std::string("I'll pay $100!"), v{"I", "'ll", " pay", " $", "1", "0", "0", "!"}});
    rows.push_back({"smollm tab", "smollm", std::string("tab\there"), v{"tab", "\t", "here"}});
    rows.push_back({"llama3 digit groups", "llama-bpe", std::string("12345 apples"), v{"123", "45", " apples"}});
    rows.push_back({"llama3 upper contraction", "llama-bpe", std::string("HELLO'S WORLD"), v{"HELLO", "'S", " WORLD"}});
    rows.push_back({"llama3 punct newlines", "llama-bpe", std::string("hi!\n\nyo"), v{"hi", "!\n\n", "yo"}});
    rows.push_back({"llama3 space newline", "llama-bpe", std::string("  \n  x"), v{"  \n", " ", " x"}});
    rows.push_back({"qwen2 digits", "qwen2", std::string("12345 abc"), v{"1", "2", "3", "4", "5", " abc"}});
    rows.push_back({"qwen2 contraction", "qwen2", std::string("don'T stop"), v{"don", "'T", " stop"}});
    rows.push_back({"default", "default", std::string("a+b=12345"), v{"a", "+", "b", "=", "123", "45"}});
    rows.push_back({"invalid utf8 kept", "gpt2", std::string("ab\xFF\xFE cd"), v{"ab", "\xFF\xFE", " cd"}});
    return rows;
}

TEST(Tokenizer, pretokenizerSplits)
{
    kvlens::test::for_each_row(pretokenizerSplits_rows(), [&](const pretokenizerSplits_row& row) {
        auto p = pretokenizer::create(row.pre);
        ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.message().c_str());
        std::vector<std::string> got;
        for (std::string_view s : (*p)->split(row.text)) got.emplace_back(s);
        ASSERT_EQ(got, row.pieces);
    });
}

TEST(Tokenizer, pretokenizerUnknownName)
{
    auto p = pretokenizer::create("no-such-pre");
    ASSERT_TRUE(!p.ok());
    ASSERT_TRUE(p.message().find("no-such-pre") != std::string::npos);
    ASSERT_TRUE(p.message().find("smollm") != std::string::npos);   // lists what is known
}

// ---- byte-level BPE
TEST(Tokenizer, bpeAppliesMergesByRank)
{
    vocab_spec v = byte_level_vocab();
    const token_id he = add_merge(v, "h", "e");
    const token_id ll = add_merge(v, "l", "l");
    const token_id hell = add_merge(v, "he", "ll");
    const token_id hello = add_merge(v, "hell", "o");
    const token_id bc = add_merge(v, "b", "c");     // rank before "a b"
    const token_id ab = add_merge(v, "a", "b");
    const token_id aa = add_merge(v, "a", "a");
    const token_id sp_w = add_merge(v, "Ġ", "w");
    (void)he;
    (void)ll;
    (void)hell;
    auto t = must_build(v);

    ASSERT_EQ(show(t->encode("hello", false, false)), show({hello}));
    ASSERT_EQ(show(t->encode("hellohello", false, false)), show({hello, hello}));
    ASSERT_EQ(show(t->encode("abc", false, false)), show({'a', bc}));   // lower rank wins
    ASSERT_EQ(show(t->encode("abd", false, false)), show({ab, 'd'}));
    ASSERT_EQ(show(t->encode("aaa", false, false)), show({aa, 'a'}));   // leftmost on a tie
    ASSERT_EQ(show(t->encode("aaaaa", false, false)), show({aa, aa, 'a'}));
    ASSERT_EQ(show(t->encode("hello w", false, false)), show({hello, sp_w}));
    // ' ' is byte 0x20, shown as 'Ġ', token 32 in this vocabulary.
    ASSERT_EQ(show(t->encode(" x", false, false)), show({' ', 'x'}));
    ASSERT_EQ(t->decode(t->encode("hello w\xC3\xA9\n", false, false)), std::string("hello w\xC3\xA9\n"));
}

TEST(Tokenizer, bpeLongWordIsLinear)
{
    // 20000 'a's: pairs merge level by level; the count is exact.
    vocab_spec v = byte_level_vocab();
    const token_id aa = add_merge(v, "a", "a");
    const token_id a4 = add_merge(v, "aa", "aa");
    auto t = must_build(v);
    const auto ids = t->encode(std::string(20003, 'a'), false, false);
    ASSERT_EQ(ids.size(), std::size_t(5000 + 2));
    ASSERT_EQ(ids.front(), a4);
    ASSERT_EQ(ids[5000], aa);
    ASSERT_EQ(ids.back(), token_id('a'));
}

TEST(Tokenizer, bpeEveryByteRoundTrips)
{
    auto t = must_build(byte_level_vocab());
    std::string all;
    for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
    const auto ids = t->encode(all, false, false);
    ASSERT_EQ(ids.size(), std::size_t(256));
    ASSERT_EQ(t->decode(ids), all);
    ASSERT_EQ(t->token_to_piece(' '), std::string(" "));
    ASSERT_EQ(t->token_text(' '), std::string("Ġ"));
}

// ---- SentencePiece
TEST(Tokenizer, spmMergesByScoreWithByteFallback)
{
    vocab_spec v;
    v.model = "llama";
    v.pre = "";
    v.add("<unk>", 2);
    const token_id bos = v.add("<s>", 3);
    const token_id eos = v.add("</s>", 3);
    for (int b = 0; b < 256; ++b) {
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", b);
        v.add(name, 6);
    }
    const token_id sp = v.add("▁", 1, -1.0f);
    for (const char* c : {"h", "e", "l", "o", "w", "r", "d"}) v.add(c, 1, -2.0f);
    v.add("he", 1, -1.5f);
    v.add("ll", 1, -1.2f);
    v.add("llo", 1, -1.1f);
    v.add("hello", 1, -0.5f);
    const token_id sp_hello = v.add("▁hello", 1, -0.2f);
    v.add("or", 1, -1.0f);
    v.add("▁w", 1, -1.3f);
    v.add("▁wor", 1, -0.9f);
    v.add("ld", 1, -1.4f);
    const token_id sp_world = v.add("▁world", 1, -0.3f);
    const token_id h = 3 + 256 + 1;
    auto t = must_build(v);

    ASSERT_EQ(t->model_name(), std::string("llama"));
    ASSERT_TRUE(t->add_bos());              // the default for SentencePiece
    ASSERT_TRUE(t->add_space_prefix());
    ASSERT_EQ(t->bos_id(), bos);
    ASSERT_EQ(t->eos_id(), eos);
    ASSERT_EQ(show(t->encode("hello world", false, false)), show({sp_hello, sp_world}));
    ASSERT_EQ(show(t->encode("hello world", true, false)), show({bos, sp_hello, sp_world}));
    // 'é' (C3 A9) is no token: its bytes are.
    ASSERT_EQ(show(t->encode("hé", false, false)), show({sp, h, 3 + 0xC3, 3 + 0xA9}));
    ASSERT_EQ(t->decode(t->encode("hé", false, false)), std::string("hé"));
    // After a special token the text gets its space prefix again.
    const auto ids = t->encode("hello</s>hello", false, true);
    ASSERT_EQ(show(ids), show({sp_hello, eos, sp_hello}));
    ASSERT_EQ(t->decode(ids), std::string("hello</s>hello"));
    ASSERT_EQ(t->token_to_piece(sp_world), std::string(" world"));
    ASSERT_EQ(t->token_to_piece(3 + 0x41), std::string("A"));
}

// ---- special tokens
TEST(Tokenizer, specialTokensOnlyWhenAsked)
{
    vocab_spec v = byte_level_vocab();
    const token_id start = v.add("<|im_start|>", 3);
    const token_id end = v.add("<|im_end|>", 3);
    const token_id eot = v.add("<|endoftext|>", 3);
    const token_id tool = v.add("<tool>", 4);        // user-defined: always matched
    v.u32["tokenizer.ggml.eos_token_id"] = static_cast<std::uint32_t>(eot);
    auto t = must_build(v);

    ASSERT_EQ(show(t->encode("<|im_start|>x<|im_end|>", false, true)), show({start, 'x', end}));
    const auto plain = t->encode("<|im_start|>x", false, false);
    ASSERT_TRUE(std::find(plain.begin(), plain.end(), start) == plain.end());
    ASSERT_EQ(t->decode(plain), std::string("<|im_start|>x"));
    ASSERT_EQ(show(t->encode("a<tool>b", false, false)), show({'a', tool, 'b'}));
    ASSERT_EQ(t->token_to_piece(end), std::string("<|im_end|>"));
    ASSERT_TRUE(t->is_control(start));
    ASSERT_TRUE(!t->is_control(tool));
    ASSERT_TRUE(t->is_end_of_generation(eot));
    ASSERT_TRUE(t->is_end_of_generation(end));
    ASSERT_TRUE(!t->is_end_of_generation(start));
    ASSERT_TRUE(!t->is_end_of_generation('x'));
    ASSERT_EQ(t->eot_id(), end);
    ASSERT_EQ(std::string(t->chat_template_kind()), "chatml");   // no template, but the markers are tokens
}

TEST(Tokenizer, specialTokenLongestMatch)
{
    vocab_spec v = byte_level_vocab();
    const token_id a = v.add("<a>", 3);
    const token_id ab = v.add("<a><b>", 3);
    auto t = must_build(v);
    ASSERT_EQ(show(t->encode("<a><b><a>", false, true)), show({ab, a}));
}

// ---- metadata checks
struct rejectsBadMetadata_row {
    std::string tag;
    std::string mutation;
    std::string expected;
};

std::vector<rejectsBadMetadata_row> rejectsBadMetadata_rows()
{
    std::vector<rejectsBadMetadata_row> rows;   // expected: part of the error message
    rows.push_back({"no model", "no model", "tokenizer.ggml.model"});
    rows.push_back({"unknown model", "bert", "unsupported tokenizer model 'bert'"});
    rows.push_back({"unknown pre", "pre", "unsupported pre-tokenizer 'martian'"});
    rows.push_back({"bos out of range", "bos", "bos_token_id = 70000 is out of range (260 tokens)"});
    rows.push_back({"eot out of range", "eot", "eot_token_id = 260 is out of range"});
    rows.push_back({"types length", "types", "token_type has 3 entries for 260 tokens"});
    rows.push_back({"type value", "type value", "token_type[5] = 9"});
    rows.push_back({"scores length", "scores", "scores has 2 entries"});
    rows.push_back({"merge without space", "merge", "merges[1] = 'ab'"});
    rows.push_back({"no merges", "no merges", "merges is missing"});
    rows.push_back({"no tokens", "no tokens", "tokenizer.ggml.tokens"});
    return rows;
}

TEST(Tokenizer, rejectsBadMetadata)
{
    kvlens::test::for_each_row(rejectsBadMetadata_rows(), [&](const rejectsBadMetadata_row& row) {
        vocab_spec v = byte_level_vocab();
        for (const char* s : {"<s>", "</s>", "ab", "cd"}) v.add(s);
        v.merges = {"a b", "c d"};
        const std::string m = row.mutation;
        gguf_writer w;
        if (m != "no model") w.set_string("tokenizer.ggml.model", m == "bert" ? "bert" : "gpt2");
        w.set_string("tokenizer.ggml.pre", m == "pre" ? "martian" : "gpt2");
        if (m != "no tokens") w.set_string_array("tokenizer.ggml.tokens", v.tokens);
        if (m == "types") w.set_i32_array("tokenizer.ggml.token_type", {1, 1, 1});
        if (m == "type value") {
            std::vector<std::int32_t> types(v.tokens.size(), 1);
            types[5] = 9;
            w.set_i32_array("tokenizer.ggml.token_type", types);
        }
        if (m == "scores") w.set_f32_array("tokenizer.ggml.scores", {0.0f, 1.0f});
        if (m == "merge") w.set_string_array("tokenizer.ggml.merges", {"a b", "ab"});
        else if (m != "no merges") w.set_string_array("tokenizer.ggml.merges", v.merges);
        if (m == "bos") w.set_u32("tokenizer.ggml.bos_token_id", 70000);
        if (m == "eot") w.set_u32("tokenizer.ggml.eot_token_id", 260);
        auto file = gguf_file::parse(w.to_bytes());
        ASSERT_TRUE(file.ok()) << (file.ok() ? "" : file.message().c_str());
        auto t = tokenizer::from_gguf(**file);
        ASSERT_TRUE(!t.ok());
        ASSERT_TRUE(contains(t.message(), row.expected)) << t.message().c_str();
    });
}

TEST(Tokenizer, acceptsNoneIds)
{
    vocab_spec v = byte_level_vocab();
    v.u32["tokenizer.ggml.eot_token_id"] = 0xFFFFFFFFu;   // how converters say "none"
    v.u32["tokenizer.ggml.bos_token_id"] = 5;
    auto t = must_build(v);
    ASSERT_EQ(t->eot_id(), -1);
    ASSERT_EQ(t->bos_id(), 5);
    ASSERT_TRUE(!t->add_bos());          // gpt2 default
    ASSERT_EQ(t->pre_name(), std::string("gpt2"));
    ASSERT_EQ(t->n_vocab(), 256);
    ASSERT_EQ(show(t->encode("", true, false)), show({5}));
    ASSERT_EQ(t->token_to_piece(-1), std::string());
    ASSERT_EQ(t->token_to_piece(256), std::string());
    ASSERT_EQ(t->token_text(999), std::string());
}
