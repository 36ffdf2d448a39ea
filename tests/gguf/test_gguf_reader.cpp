// SPDX-License-Identifier: Apache-2.0
// The GGUF reader: a valid file round-trips through the writer; every class of
// malformed file is rejected with an error that names the problem.
#include <QtTest>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "tests/support/gguf_bytes.h"
#include "tests/support/test_paths.h"

using kvlens::gguf_file;
using kvlens::test::gguf_bytes;

Q_DECLARE_METATYPE(std::vector<std::uint8_t>)

namespace {

// A valid one-tensor file: 8 F32 values at offset 0.
gguf_bytes valid_file() {
    gguf_bytes b;
    b.header(3, 1, 1).kv_str("general.architecture", "llama").tensor("w", {8}, 0, 0).align().zeros(32);
    return b;
}

}  // namespace

class TestGgufReader : public QObject {
    Q_OBJECT

private slots:
    void writerOutputReadsBack() {
        kvlens::gguf_writer w;
        w.set_string("general.architecture", "llama");
        w.set_u32("llama.block_count", 2);
        w.set_f32("llama.rope.freq_base", 10000.0f);
        w.set_bool("tokenizer.ggml.add_bos_token", true);
        w.set_string_array("tokenizer.ggml.tokens", {"a", "b", "c"});
        w.set_i32_array("tokenizer.ggml.token_type", {1, 1, 3});
        std::vector<std::uint8_t> data(4 * 64);
        for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i);
        w.add_tensor("blk.0.attn_norm.weight", kvlens::ggml_type::f32, {64}, data);
        w.add_tensor("q", kvlens::ggml_type::q4_1, {64, 3}, std::vector<std::uint8_t>(2 * 3 * 20, 7));

        auto f = gguf_file::parse(w.to_bytes());
        QVERIFY2(f.ok(), f.ok() ? "" : f.message().c_str());
        QCOMPARE((*f)->version(), 3u);
        QCOMPARE((*f)->get_string("general.architecture"), std::string("llama"));
        QCOMPARE((*f)->get_int("llama.block_count"), 2);
        QCOMPARE((*f)->get_float("llama.rope.freq_base"), 10000.0);
        QCOMPARE((*f)->get_bool("tokenizer.ggml.add_bos_token"), true);
        QCOMPARE((*f)->get_string_array("tokenizer.ggml.tokens").size(), std::size_t(3));
        QCOMPARE((*f)->get_string_array("tokenizer.ggml.tokens")[2], std::string_view("c"));
        const auto* t = (*f)->tensor("blk.0.attn_norm.weight");
        QVERIFY(t);
        QCOMPARE(t->n_bytes, 256);
        QCOMPARE(t->data[5], std::uint8_t(5));
        const auto* q = (*f)->tensor("q");
        QVERIFY(q);
        QCOMPARE(q->ne[0], 64);
        QCOMPARE(q->ne[1], 3);
        QCOMPARE(q->n_bytes, 120);
        QCOMPARE(q->offset % 32, 0u);
    }

    void validHandMadeFileOpens() {
        auto f = gguf_file::parse(valid_file().bytes);
        QVERIFY2(f.ok(), f.ok() ? "" : f.message().c_str());
        QCOMPARE((*f)->tensors().size(), std::size_t(1));
    }

    void malformed_data() {
        QTest::addColumn<std::vector<std::uint8_t>>("bytes");
        QTest::addColumn<QString>("expected");   // a fragment of the error message

        { gguf_bytes b; b.put<std::uint32_t>(0x12345678).put<std::uint32_t>(3);
          QTest::newRow("bad magic") << b.bytes << "bad magic"; }
        { gguf_bytes b; b.header(1, 0, 0);
          QTest::newRow("version 1") << b.bytes << "unsupported GGUF version 1"; }
        { gguf_bytes b; b.header(7, 0, 0);
          QTest::newRow("version 7") << b.bytes << "unsupported GGUF version 7"; }
        { gguf_bytes b; b.put<std::uint32_t>(0x46554747).put<std::uint32_t>(3).put<std::uint32_t>(0);
          QTest::newRow("truncated header") << b.bytes << "truncated"; }
        { gguf_bytes b; b.header(3, 0, 1000000);
          QTest::newRow("kv count beyond file") << b.bytes << "metadata count 1000000 exceeds"; }
        { gguf_bytes b; b.header(3, 1ull << 40, 0);
          QTest::newRow("tensor count beyond file") << b.bytes << "tensor count"; }
        { gguf_bytes b; b.header(3, 0, 1).put<std::uint64_t>(1ull << 50).zeros(16);
          QTest::newRow("key length beyond file") << b.bytes << "string length"; }
        { gguf_bytes b; b.header(3, 0, 1).str("k").put<std::uint32_t>(8).put<std::uint64_t>(999).zeros(16);
          QTest::newRow("string value beyond file") << b.bytes << "string length 999"; }
        { gguf_bytes b; b.header(3, 0, 1).str("k").put<std::uint32_t>(9).put<std::uint32_t>(4).put<std::uint64_t>(1ull << 40).zeros(16);
          QTest::newRow("array beyond file") << b.bytes << "array of"; }
        { gguf_bytes b; b.header(3, 0, 1).str("k").put<std::uint32_t>(42).zeros(16);
          QTest::newRow("unknown value type") << b.bytes << "unknown metadata value type 42"; }
        { gguf_bytes b; b.header(3, 0, 1).str("k").put<std::uint32_t>(9).put<std::uint32_t>(77).put<std::uint64_t>(1).zeros(16);
          QTest::newRow("unknown array element type") << b.bytes << "unknown array element type 77"; }
        { gguf_bytes b; b.header(3, 0, 1).kv_u32("", 1).zeros(16);
          QTest::newRow("empty key") << b.bytes << "is empty"; }
        { gguf_bytes b; b.header(3, 0, 2).kv_u32("a.b", 1).kv_u32("a.b", 2).zeros(16);
          QTest::newRow("duplicate key") << b.bytes << "duplicate metadata key 'a.b'"; }
        { gguf_bytes b; b.header(3, 0, 1).kv_u32("general.alignment", 48).zeros(16);
          QTest::newRow("alignment not a power of two") << b.bytes << "alignment 48 is not a power of two"; }
        { gguf_bytes b; b.header(3, 1, 0).tensor("t", {8}, 99, 0).align().zeros(32);
          QTest::newRow("unknown tensor type") << b.bytes << "unknown type 99"; }
        { gguf_bytes b; b.header(3, 2, 0).tensor("t", {8}, 0, 0).tensor("t", {8}, 0, 32).align().zeros(64);
          QTest::newRow("duplicate tensor name") << b.bytes << "duplicate tensor name 't'"; }
        { gguf_bytes b; b.header(3, 1, 0).tensor("", {8}, 0, 0).align().zeros(32);
          QTest::newRow("empty tensor name") << b.bytes << "empty name"; }
        { gguf_bytes b; b.header(3, 1, 0).tensor("t", {1, 1, 1, 1, 1}, 0, 0).align().zeros(32);
          QTest::newRow("five dimensions") << b.bytes << "5 dimensions"; }
        { gguf_bytes b; b.header(3, 1, 0).tensor("t", {8, 0}, 0, 0).align().zeros(32);
          QTest::newRow("zero-sized dimension") << b.bytes << "zero-sized dimension"; }
        { gguf_bytes b; b.header(3, 1, 0).tensor("t", {1ull << 40, 1ull << 40}, 0, 0).align().zeros(32);
          QTest::newRow("element count overflow") << b.bytes << "element count overflows"; }
        { gguf_bytes b; b.header(3, 1, 0).tensor("t", {1ull << 61}, 0, 0).align().zeros(32);
          QTest::newRow("byte count overflow") << b.bytes << "byte count overflows"; }
        { gguf_bytes b; b.header(3, 1, 0).tensor("t", {8}, 0, 4).align().zeros(64);
          QTest::newRow("misaligned tensor data") << b.bytes << "not aligned to 32"; }
        { gguf_bytes b; b.header(3, 1, 0).tensor("t", {8}, 0, 1024).align().zeros(32);
          QTest::newRow("tensor data outside the file") << b.bytes << "outside the"; }
        { gguf_bytes b = valid_file(); b.bytes.resize(b.bytes.size() - 8);
          QTest::newRow("truncated tensor data") << b.bytes << "outside the"; }
        { gguf_bytes b; b.header(3, 1, 0).tensor("t", {33}, 2, 0).align().zeros(64);
          QTest::newRow("row not whole blocks") << b.bytes << "not a whole number"; }
    }

    void malformed() {
        QFETCH(std::vector<std::uint8_t>, bytes);
        QFETCH(QString, expected);
        auto f = gguf_file::parse(bytes, "bad.gguf");
        QVERIFY(!f.ok());
        const QString message = QString::fromStdString(f.message());
        QVERIFY2(message.contains(expected), qPrintable("message was: " + message));
        QVERIFY(message.startsWith("bad.gguf: "));
    }

    void missingAndEmptyFilesAreErrors() {
        auto missing = gguf_file::open("/nonexistent/model.gguf");
        QVERIFY(!missing.ok());
        QVERIFY(QString::fromStdString(missing.message()).contains("cannot open"));
        const QString empty = QDir::temp().filePath("kvlens-empty.gguf");
        QFile file(empty);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        auto e = gguf_file::open(empty.toStdString());
        QVERIFY(!e.ok());
        QVERIFY(QString::fromStdString(e.message()).contains("is empty"));
    }

    void defaultModelHasItsKnownShape() {
        if (!kvlens::test::have_default_model()) QSKIP("default model not fetched (scripts/fetch-model)");
        auto f = gguf_file::open(kvlens::test::default_model().string());
        QVERIFY2(f.ok(), f.ok() ? "" : f.message().c_str());
        QCOMPARE((*f)->version(), 3u);
        QCOMPARE((*f)->tensors().size(), std::size_t(272));
        QCOMPARE((*f)->get_int("llama.block_count"), 30);
        QCOMPARE((*f)->get_string("tokenizer.ggml.pre"), std::string("smollm"));
        QCOMPARE((*f)->get_string_array("tokenizer.ggml.tokens").size(), std::size_t(49152));
        QCOMPARE(int((*f)->tensor("token_embd.weight")->type), int(kvlens::ggml_type::q8_0));
    }
};

QTEST_GUILESS_MAIN(TestGgufReader)
#include "test_gguf_reader.moc"
