// SPDX-License-Identifier: Apache-2.0
// Hostile GGUF files: sizes a small file declares are checked against what it
// holds before anything is allocated, arrays cost no memory beyond the file,
// 64-bit metadata is never cut to 32 bits, tensor data meets its type's
// alignment, and file-controlled names reach messages escaped and cut.
#include <QtTest>

#include <malloc.h>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/model/model.h"
#include "engine/model/model_config.h"
#include "tests/support/gguf_bytes.h"

using kvlens::gguf_file;
using kvlens::gguf_writer;
using kvlens::test::gguf_bytes;

namespace {

// Bytes of heap in use now.
std::size_t heap_in_use() { return mallinfo2().uordblks; }

// A llama file with the given metadata overrides and nine 1-element tensors
// (enough for one layer's count, none of the right shape).
std::vector<std::uint8_t> llama_file(const std::function<void(gguf_writer&)>& extra) {
    gguf_writer w;
    w.set_string("general.architecture", "llama");
    w.set_u32("llama.block_count", 1);
    w.set_u32("llama.embedding_length", 64);
    w.set_u32("llama.feed_forward_length", 128);
    w.set_u32("llama.attention.head_count", 4);
    w.set_string_array("tokenizer.ggml.tokens", {"a", "b"});
    extra(w);
    for (int i = 0; i < 9; ++i)
        w.add_tensor("t" + std::to_string(i), kvlens::ggml_type::f32, {1}, std::vector<std::uint8_t>(4, 0));
    return w.to_bytes();
}

QString config_error(const std::vector<std::uint8_t>& bytes) {
    auto f = gguf_file::parse(bytes, "hostile.gguf");
    if (!f) return "parse: " + QString::fromStdString(f.message());
    auto c = kvlens::read_model_config(**f);
    return c ? QString() : QString::fromStdString(c.message());
}

}  // namespace

class TestHostileGguf : public QObject {
    Q_OBJECT

private slots:
    void aLayerCountTheTensorsCannotBackIsRefusedBeforeAnythingIsSized() {
        const auto bytes = llama_file([](gguf_writer& w) { w.set_u32("llama.block_count", 16777216); });
        auto f = gguf_file::parse(bytes, "bomb.gguf");
        QVERIFY(f.ok());
        const std::size_t before = heap_in_use();
        auto m = kvlens::model::from_file(*f);
        const std::size_t grown = heap_in_use() > before ? heap_in_use() - before : 0;
        QVERIFY(!m.ok());
        QVERIFY2(QString::fromStdString(m.message()).contains("block_count' = 16777216 needs at least 150994944 tensors; the file has 9"),
                 m.message().c_str());
        QVERIFY2(grown < (1u << 20), qPrintable(QString("heap grew by %1 bytes").arg(grown)));
    }

    void anArrayCostsNoMemoryBeyondTheFile() {
        // 8 MiB of u8 elements: one value object each would be ~400 MiB.
        constexpr std::uint64_t n = 8u << 20;
        gguf_bytes b;
        b.header(3, 0, 1).str("big").put<std::uint32_t>(9).put<std::uint32_t>(0).put<std::uint64_t>(n);
        b.bytes.resize(b.bytes.size() + n, 7);
        const std::size_t before = heap_in_use();
        auto f = gguf_file::parse(std::move(b.bytes), "array.gguf");
        QVERIFY(f.ok());
        const std::size_t grown = heap_in_use() - before;
        QVERIFY2(grown < (1u << 20), qPrintable(QString("heap grew by %1 bytes").arg(grown)));
        const kvlens::gguf_array* a = (*f)->find("big")->as_array();
        QVERIFY(a);
        QCOMPARE(a->size(), std::size_t(n));
        QCOMPARE(a->int_at(n - 1), 7);
    }

    void arraysOfEveryTypeReadBackElementByElement() {
        gguf_writer w;
        w.set_f32_array("f", {1.5f, -2.0f});
        w.set_i32_array("i", {-7, 9});
        w.set_string_array("s", {"", "two", "three"});
        auto f = gguf_file::parse(w.to_bytes());
        QVERIFY(f.ok());
        QCOMPARE((*f)->find("f")->as_array()->float_at(1), -2.0);
        QCOMPARE((*f)->find("i")->as_array()->int_at(0), -7);
        QCOMPARE((*f)->find("i")->as_array()->float_at(1), 9.0);
        const auto s = (*f)->get_string_array("s");
        QCOMPARE(s.size(), std::size_t(3));
        QCOMPARE(s[0], std::string_view(""));
        QCOMPARE(s[2], std::string_view("three"));
    }

    void nestedArraysAreValidatedAndKeptAsBytes() {
        gguf_bytes b;  // [[1, 2], [3]] of u8
        b.header(3, 0, 1).str("n").put<std::uint32_t>(9).put<std::uint32_t>(9).put<std::uint64_t>(2);
        b.put<std::uint32_t>(0).put<std::uint64_t>(2).put<std::uint8_t>(1).put<std::uint8_t>(2);
        b.put<std::uint32_t>(0).put<std::uint64_t>(1).put<std::uint8_t>(3);
        auto f = gguf_file::parse(b.bytes);
        QVERIFY2(f.ok(), f.ok() ? "" : f.message().c_str());
        QCOMPARE((*f)->find("n")->as_array()->size(), std::size_t(2));
        gguf_bytes bad = b;
        bad.bytes.pop_back();
        QVERIFY(!gguf_file::parse(bad.bytes).ok());
    }

    void countsOverTheLimitsAreRefused_data() {
        QTest::addColumn<std::vector<std::uint8_t>>("bytes");
        QTest::addColumn<QString>("expected");
        { gguf_bytes b; b.header(3, 0, 70000).zeros(70000 * 13);
          QTest::newRow("metadata") << b.bytes << "metadata count 70000 is over the limit of 65536"; }
        { gguf_bytes b; b.header(3, 70000, 0).zeros(70000 * 32);
          QTest::newRow("tensors") << b.bytes << "tensor count 70000 is over the limit of 65536"; }
    }
    void countsOverTheLimitsAreRefused() {
        QFETCH(std::vector<std::uint8_t>, bytes);
        QFETCH(QString, expected);
        auto f = gguf_file::parse(bytes);
        QVERIFY(!f.ok());
        QVERIFY2(QString::fromStdString(f.message()).contains(expected), f.message().c_str());
    }

    void sixtyFourBitMetadataIsNeverCutTo32Bits_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<quint64>("value");
        QTest::newRow("context_length 2^32+3") << "llama.context_length" << quint64((1ull << 32) + 3);
        QTest::newRow("head_count_kv 2^32+1") << "llama.attention.head_count_kv" << quint64((1ull << 32) + 1);
        QTest::newRow("key_length 2^32+16") << "llama.attention.key_length" << quint64((1ull << 32) + 16);
        QTest::newRow("rope.dimension_count 2^32+8") << "llama.rope.dimension_count" << quint64((1ull << 32) + 8);
        QTest::newRow("vocab_size 2^63+2") << "llama.vocab_size" << quint64((1ull << 63) + 2);
        QTest::newRow("block_count 2^32+1") << "llama.block_count" << quint64((1ull << 32) + 1);
    }
    void sixtyFourBitMetadataIsNeverCutTo32Bits() {
        QFETCH(QString, key);
        QFETCH(quint64, value);
        const QString why = config_error(llama_file([&](gguf_writer& w) { w.set_u64(key.toStdString(), value); }));
        QVERIFY2(why.contains(key) && why.contains(QString::number(value)) && why.contains("out of range"), qPrintable(why));
    }

    void tensorDataMustMeetItsTypesAlignment() {
        // general.alignment = 1 (a legal power of two) with Q8_0 data at an odd address.
        gguf_bytes b;
        b.header(3, 1, 1).kv_u32("general.alignment", 1).tensor("qq", {32}, 8, 0);
        QVERIFY(b.bytes.size() % 2 == 1);  // the data starts right after the header, at an odd byte
        b.zeros(34);
        auto f = gguf_file::parse(b.bytes, "odd.gguf");
        QVERIFY(!f.ok());
        QVERIFY2(QString::fromStdString(f.message()).contains("is not aligned to 2 bytes, which its type Q8_0 needs"),
                 f.message().c_str());
        // The same at an even address reads.
        gguf_bytes even;
        even.header(3, 1, 1).kv_u32("general.alignment", 1).tensor("q", {32}, 8, 0);
        QVERIFY(even.bytes.size() % 2 == 0);
        even.zeros(34);
        QVERIFY(gguf_file::parse(even.bytes).ok());
    }

    void fileControlledNamesReachMessagesEscapedAndCut() {
        gguf_bytes b;
        b.header(3, 2, 0).tensor("\x1b[31mred", {8}, 0, 0).tensor("\x1b[31mred", {8}, 0, 32).align().zeros(64);
        auto f = gguf_file::parse(b.bytes);
        QVERIFY(!f.ok());
        QVERIFY2(f.message().find('\x1b') == std::string::npos, f.message().c_str());
        QVERIFY(QString::fromStdString(f.message()).contains("'\\x1b[31mred'"));

        gguf_writer w;
        w.set_string("general.architecture", std::string(100000, 'x') + "\x1b]0;title\x07");
        auto g = gguf_file::parse(w.to_bytes());
        QVERIFY(g.ok());
        auto c = kvlens::read_model_config(**g);
        QVERIFY(!c.ok());
        QVERIFY2(c.message().size() < 400, c.message().c_str());
        QVERIFY(c.message().find('\x1b') == std::string::npos);
        QVERIFY(QString::fromStdString(c.message()).contains("more bytes)"));
    }
};

QTEST_GUILESS_MAIN(TestHostileGguf)
#include "test_hostile_gguf.moc"
