// SPDX-License-Identifier: Apache-2.0
// Unit tests of the tokenizer's parts on tiny in-memory vocabularies:
// streaming UTF-8, the byte-level alphabet, pre-tokenizer splits, BPE merge
// order, SentencePiece scores and byte fallback, special tokens, end of
// generation, and the metadata checks of tokenizer::from_gguf.
#include <QtTest>

#include <string>
#include <vector>

#include "engine/tokenizer/byte_level.h"
#include "engine/tokenizer/pretokenizer.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/utf8.h"
#include "engine/tokenizer/utf8_stream.h"
#include "tests/tokenizer/tiny_vocab.h"

using namespace kvlens;
using kvlens::test::add_merge;
using kvlens::test::byte_level_vocab;
using kvlens::test::vocab_spec;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

QString show(const std::vector<token_id>& ids) {
    QStringList parts;
    for (token_id id : ids) parts << QString::number(id);
    return parts.join(' ');
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
    if (!t) qFatal("tiny vocabulary rejected: %s", t.message().c_str());
    return std::move(t.value());
}

}  // namespace

class TestTokenizer : public QObject {
    Q_OBJECT

private slots:
    // ---- streaming UTF-8

    void utf8StreamSplitsAnywhere_data() {
        QTest::addColumn<std::string>("text");
        QTest::newRow("ascii") << std::string("plain text");
        QTest::newRow("latin") << std::string("café crème");
        QTest::newRow("cjk") << std::string("预填充和解码");
        QTest::newRow("emoji") << std::string("ok 🙂👨‍👩‍👧 done");
        QTest::newRow("mixed") << std::string("a\xC3\xA9\xE4\xB8\x96\xF0\x9F\x98\x80z");
    }
    void utf8StreamSplitsAnywhere() {
        QFETCH(std::string, text);
        // Every chunk size, every output whole characters, all of it in the end.
        for (std::size_t chunk = 1; chunk <= 5; ++chunk) {
            utf8_stream s;
            std::string out;
            for (std::size_t pos = 0; pos < text.size(); pos += chunk) {
                const std::string part = s.push(std::string_view(text).substr(pos, chunk));
                QVERIFY2(valid_utf8(part), qPrintable(QString("chunk %1 at %2").arg(chunk).arg(pos)));
                out += part;
            }
            out += s.flush();
            QCOMPARE(out, text);
            QCOMPARE(s.pending(), std::size_t(0));
        }
    }

    void utf8StreamHoldsSplitCharacter() {
        utf8_stream s;
        QCOMPARE(s.push("a\xE4"), std::string("a"));   // '世' = E4 B8 96
        QCOMPARE(s.pending(), std::size_t(1));
        QCOMPARE(s.push("\xB8"), std::string());
        QCOMPARE(s.push("\x96!"), std::string("世!"));
        QCOMPARE(s.push("\xF0\x9F"), std::string());      // '🙂' = F0 9F 99 82
        QCOMPARE(s.push("\x99\x82"), std::string("🙂"));
        QCOMPARE(s.flush(), std::string());
    }

    void utf8StreamReplacesInvalidBytes_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<std::string>("expected");
        QTest::newRow("stray continuation") << std::string("a\x80z") << std::string("a\xEF\xBF\xBDz");
        QTest::newRow("truncated then ascii") << std::string("\xE4\xB8z") << std::string("\xEF\xBF\xBDz");
        QTest::newRow("invalid lead") << std::string("\xFFok") << std::string("\xEF\xBF\xBDok");
        QTest::newRow("overlong") << std::string("\xC0\xAF") << std::string("\xEF\xBF\xBD\xEF\xBF\xBD");
        QTest::newRow("surrogate") << std::string("\xED\xA0\x80") << std::string("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
        QTest::newRow("unfinished at end") << std::string("x\xF0\x9F\x99") << std::string("x\xEF\xBF\xBD");
    }
    void utf8StreamReplacesInvalidBytes() {
        QFETCH(std::string, input);
        QFETCH(std::string, expected);
        utf8_stream s;
        std::string out = s.push(input);
        out += s.flush();
        QCOMPARE(out, expected);
    }

    // ---- byte-level alphabet

    void byteLevelKnownCodePoints() {
        QCOMPARE(byte_level::code_point_of(' '), 0x120u);    // 'Ġ'
        QCOMPARE(byte_level::code_point_of('\n'), 0x10Au);   // 'Ċ'
        QCOMPARE(byte_level::code_point_of('\t'), 0x109u);
        QCOMPARE(byte_level::code_point_of(0), 0x100u);
        QCOMPARE(byte_level::code_point_of(0xAD), 0x143u);   // the last unprintable byte
        QCOMPARE(byte_level::code_point_of('A'), std::uint32_t('A'));
        QCOMPARE(byte_level::code_point_of(0xE9), 0xE9u);
        QCOMPARE(byte_level::encode(" hello\n"), std::string("Ġhello\xC4\x8A"));
    }

    void byteLevelRoundTripsEveryByte() {
        std::string all;
        for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
        const std::string text = byte_level::encode(all);
        QVERIFY(valid_utf8(text));
        std::string back;
        QVERIFY(byte_level::decode(text, back));
        QCOMPARE(back, all);
        // 256 distinct code points, each the inverse of the other.
        for (int b = 0; b < 256; ++b) QCOMPARE(byte_level::byte_of(byte_level::code_point_of(b)), b);
        std::string unknown;
        QVERIFY(!byte_level::decode("\xE2\x96\x81", unknown));   // '▁' is not in the alphabet
        QCOMPARE(unknown, std::string("\xE2\x96\x81"));
    }

    // ---- pre-tokenizers

    void pretokenizerSplits_data() {
        QTest::addColumn<QString>("pre");
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::vector<std::string>>("pieces");
        using v = std::vector<std::string>;
        QTest::newRow("gpt2 words") << "gpt2" << std::string("Hello world") << v{"Hello", " world"};
        QTest::newRow("gpt2 contractions") << "gpt2" << std::string("I'm fine, you're OK")
                                           << v{"I", "'m", " fine", ",", " you", "'re", " OK"};
        QTest::newRow("gpt2 space runs") << "gpt2" << std::string("a  b   c") << v{"a", " ", " b", "  ", " c"};
        QTest::newRow("gpt2 newlines") << "gpt2" << std::string("hi\n\nthere") << v{"hi", "\n", "\n", "there"};
        QTest::newRow("gpt2 trailing spaces") << "gpt2" << std::string("x = 42;  ")
                                              << v{"x", " =", " 42", ";", "  "};
        QTest::newRow("gpt2 scripts") << "gpt2" << std::string("Привет мир 你好") << v{"Привет", " мир", " 你好"};
        QTest::newRow("smollm digits") << "smollm" << std::string("abc123 def") << v{"abc", "1", "2", "3", " def"};
        QTest::newRow("smollm space before digit") << "smollm" << std::string("x 42") << v{"x", " ", "4", "2"};
        QTest::newRow("smollm decimal") << "smollm" << std::string("3.14") << v{"3", ".", "1", "4"};
        QTest::newRow("smollm money") << "smollm" << std::string("I'll pay $100!")
                                      << v{"I", "'ll", " pay", " $", "1", "0", "0", "!"};
        QTest::newRow("smollm tab") << "smollm" << std::string("tab\there") << v{"tab", "\t", "here"};
        QTest::newRow("llama3 digit groups") << "llama-bpe" << std::string("12345 apples") << v{"123", "45", " apples"};
        QTest::newRow("llama3 upper contraction") << "llama-bpe" << std::string("HELLO'S WORLD")
                                                  << v{"HELLO", "'S", " WORLD"};
        QTest::newRow("llama3 punct newlines") << "llama-bpe" << std::string("hi!\n\nyo") << v{"hi", "!\n\n", "yo"};
        QTest::newRow("llama3 space newline") << "llama-bpe" << std::string("  \n  x") << v{"  \n", " ", " x"};
        QTest::newRow("qwen2 digits") << "qwen2" << std::string("12345 abc") << v{"1", "2", "3", "4", "5", " abc"};
        QTest::newRow("qwen2 contraction") << "qwen2" << std::string("don'T stop") << v{"don", "'T", " stop"};
        QTest::newRow("default") << "default" << std::string("a+b=12345") << v{"a", "+", "b", "=", "123", "45"};
        QTest::newRow("invalid utf8 kept") << "gpt2" << std::string("ab\xFF\xFE cd") << v{"ab", "\xFF\xFE", " cd"};
    }
    void pretokenizerSplits() {
        QFETCH(QString, pre);
        QFETCH(std::string, text);
        QFETCH(std::vector<std::string>, pieces);
        auto p = pretokenizer::create(pre.toStdString());
        QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        std::vector<std::string> got;
        for (std::string_view s : (*p)->split(text)) got.emplace_back(s);
        QCOMPARE(got, pieces);
    }

    void pretokenizerUnknownName() {
        auto p = pretokenizer::create("no-such-pre");
        QVERIFY(!p.ok());
        QVERIFY(p.message().find("no-such-pre") != std::string::npos);
        QVERIFY(p.message().find("smollm") != std::string::npos);   // lists what is known
    }

    // ---- byte-level BPE

    void bpeAppliesMergesByRank() {
        vocab_spec v = byte_level_vocab();
        const token_id he = add_merge(v, "h", "e");
        const token_id ll = add_merge(v, "l", "l");
        const token_id hell = add_merge(v, "he", "ll");
        const token_id hello = add_merge(v, "hell", "o");
        const token_id bc = add_merge(v, "b", "c");     // rank before "a b"
        const token_id ab = add_merge(v, "a", "b");
        const token_id aa = add_merge(v, "a", "a");
        const token_id sp_w = add_merge(v, "Ġ", "w");
        Q_UNUSED(he);
        Q_UNUSED(ll);
        Q_UNUSED(hell);
        auto t = must_build(v);

        QCOMPARE(show(t->encode("hello", false, false)), show({hello}));
        QCOMPARE(show(t->encode("hellohello", false, false)), show({hello, hello}));
        QCOMPARE(show(t->encode("abc", false, false)), show({'a', bc}));   // lower rank wins
        QCOMPARE(show(t->encode("abd", false, false)), show({ab, 'd'}));
        QCOMPARE(show(t->encode("aaa", false, false)), show({aa, 'a'}));   // leftmost on a tie
        QCOMPARE(show(t->encode("aaaaa", false, false)), show({aa, aa, 'a'}));
        QCOMPARE(show(t->encode("hello w", false, false)), show({hello, sp_w}));
        // ' ' is byte 0x20, shown as 'Ġ', token 32 in this vocabulary.
        QCOMPARE(show(t->encode(" x", false, false)), show({' ', 'x'}));
        QCOMPARE(t->decode(t->encode("hello w\xC3\xA9\n", false, false)), std::string("hello w\xC3\xA9\n"));
    }

    void bpeLongWordIsLinear() {
        // 20000 'a's: pairs merge level by level; the count is exact.
        vocab_spec v = byte_level_vocab();
        const token_id aa = add_merge(v, "a", "a");
        const token_id a4 = add_merge(v, "aa", "aa");
        auto t = must_build(v);
        const auto ids = t->encode(std::string(20003, 'a'), false, false);
        QCOMPARE(ids.size(), std::size_t(5000 + 2));
        QCOMPARE(ids.front(), a4);
        QCOMPARE(ids[5000], aa);
        QCOMPARE(ids.back(), token_id('a'));
    }

    void bpeEveryByteRoundTrips() {
        auto t = must_build(byte_level_vocab());
        std::string all;
        for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
        const auto ids = t->encode(all, false, false);
        QCOMPARE(ids.size(), std::size_t(256));
        QCOMPARE(t->decode(ids), all);
        QCOMPARE(t->token_to_piece(' '), std::string(" "));
        QCOMPARE(t->token_text(' '), std::string("Ġ"));
    }

    // ---- SentencePiece

    void spmMergesByScoreWithByteFallback() {
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

        QCOMPARE(t->model_name(), std::string("llama"));
        QVERIFY(t->add_bos());              // the default for SentencePiece
        QVERIFY(t->add_space_prefix());
        QCOMPARE(t->bos_id(), bos);
        QCOMPARE(t->eos_id(), eos);
        QCOMPARE(show(t->encode("hello world", false, false)), show({sp_hello, sp_world}));
        QCOMPARE(show(t->encode("hello world", true, false)), show({bos, sp_hello, sp_world}));
        // 'é' (C3 A9) is no token: its bytes are.
        QCOMPARE(show(t->encode("hé", false, false)), show({sp, h, 3 + 0xC3, 3 + 0xA9}));
        QCOMPARE(t->decode(t->encode("hé", false, false)), std::string("hé"));
        // After a special token the text gets its space prefix again.
        const auto ids = t->encode("hello</s>hello", false, true);
        QCOMPARE(show(ids), show({sp_hello, eos, sp_hello}));
        QCOMPARE(t->decode(ids), std::string("hello</s>hello"));
        QCOMPARE(t->token_to_piece(sp_world), std::string(" world"));
        QCOMPARE(t->token_to_piece(3 + 0x41), std::string("A"));
    }

    // ---- special tokens

    void specialTokensOnlyWhenAsked() {
        vocab_spec v = byte_level_vocab();
        const token_id start = v.add("<|im_start|>", 3);
        const token_id end = v.add("<|im_end|>", 3);
        const token_id eot = v.add("<|endoftext|>", 3);
        const token_id tool = v.add("<tool>", 4);        // user-defined: always matched
        v.u32["tokenizer.ggml.eos_token_id"] = static_cast<std::uint32_t>(eot);
        auto t = must_build(v);

        QCOMPARE(show(t->encode("<|im_start|>x<|im_end|>", false, true)), show({start, 'x', end}));
        const auto plain = t->encode("<|im_start|>x", false, false);
        QVERIFY(std::find(plain.begin(), plain.end(), start) == plain.end());
        QCOMPARE(t->decode(plain), std::string("<|im_start|>x"));
        QCOMPARE(show(t->encode("a<tool>b", false, false)), show({'a', tool, 'b'}));
        QCOMPARE(t->token_to_piece(end), std::string("<|im_end|>"));
        QVERIFY(t->is_control(start));
        QVERIFY(!t->is_control(tool));
        QVERIFY(t->is_end_of_generation(eot));
        QVERIFY(t->is_end_of_generation(end));
        QVERIFY(!t->is_end_of_generation(start));
        QVERIFY(!t->is_end_of_generation('x'));
        QCOMPARE(t->eot_id(), end);
        QCOMPARE(t->chat_template_kind(), "chatml");   // no template, but the markers are tokens
    }

    void specialTokenLongestMatch() {
        vocab_spec v = byte_level_vocab();
        const token_id a = v.add("<a>", 3);
        const token_id ab = v.add("<a><b>", 3);
        auto t = must_build(v);
        QCOMPARE(show(t->encode("<a><b><a>", false, true)), show({ab, a}));
    }

    // ---- metadata checks

    void rejectsBadMetadata_data() {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<QString>("expected");   // part of the error message
        QTest::newRow("no model") << "no model" << "tokenizer.ggml.model";
        QTest::newRow("unknown model") << "bert" << "unsupported tokenizer model 'bert'";
        QTest::newRow("unknown pre") << "pre" << "unsupported pre-tokenizer 'martian'";
        QTest::newRow("bos out of range") << "bos" << "bos_token_id = 70000 is out of range (260 tokens)";
        QTest::newRow("eot out of range") << "eot" << "eot_token_id = 260 is out of range";
        QTest::newRow("types length") << "types" << "token_type has 3 entries for 260 tokens";
        QTest::newRow("type value") << "type value" << "token_type[5] = 9";
        QTest::newRow("scores length") << "scores" << "scores has 2 entries";
        QTest::newRow("merge without space") << "merge" << "merges[1] = 'ab'";
        QTest::newRow("no merges") << "no merges" << "merges is missing";
        QTest::newRow("no tokens") << "no tokens" << "tokenizer.ggml.tokens";
    }
    void rejectsBadMetadata() {
        QFETCH(QString, mutation);
        QFETCH(QString, expected);
        vocab_spec v = byte_level_vocab();
        for (const char* s : {"<s>", "</s>", "ab", "cd"}) v.add(s);
        v.merges = {"a b", "c d"};
        const std::string m = mutation.toStdString();
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
        QVERIFY2(file.ok(), file.ok() ? "" : file.message().c_str());
        auto t = tokenizer::from_gguf(**file);
        QVERIFY(!t.ok());
        QVERIFY2(QString::fromStdString(t.message()).contains(expected), t.message().c_str());
    }

    void acceptsNoneIds() {
        vocab_spec v = byte_level_vocab();
        v.u32["tokenizer.ggml.eot_token_id"] = 0xFFFFFFFFu;   // how converters say "none"
        v.u32["tokenizer.ggml.bos_token_id"] = 5;
        auto t = must_build(v);
        QCOMPARE(t->eot_id(), -1);
        QCOMPARE(t->bos_id(), 5);
        QVERIFY(!t->add_bos());          // gpt2 default
        QCOMPARE(t->pre_name(), std::string("gpt2"));
        QCOMPARE(t->n_vocab(), 256);
        QCOMPARE(show(t->encode("", true, false)), show({5}));
        QCOMPARE(t->token_to_piece(-1), std::string());
        QCOMPARE(t->token_to_piece(256), std::string());
        QCOMPARE(t->token_text(999), std::string());
    }
};

QTEST_GUILESS_MAIN(TestTokenizer)
#include "test_tokenizer.moc"
