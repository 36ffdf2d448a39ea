// SPDX-License-Identifier: Apache-2.0
// The GGUF reader: a valid file round-trips through the writer; every class of
// malformed file is rejected with an error that names the problem.
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "tests/support/gguf_bytes.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "tests/support/float_compare.h"
#include "tests/support/text_checks.h"

#include <cstdint>
#include <fstream>
#include <filesystem>
#include <string>
#include <vector>

using kvlens::gguf_file;
using kvlens::test::contains;
using kvlens::test::gguf_bytes;

namespace {

// A valid one-tensor file: 8 F32 values at offset 0.
gguf_bytes valid_file() {
    gguf_bytes b;
    b.header(3, 1, 1).kv_str("general.architecture", "llama").tensor("w", {8}, 0, 0).align().zeros(32);
    return b;
}

}  // namespace

TEST(GgufReader, writerOutputReadsBack)
{
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
    ASSERT_TRUE(f.ok()) << (f.ok() ? "" : f.message());
    ASSERT_EQ((*f)->version(), 3u);
    ASSERT_EQ((*f)->get_string("general.architecture"), std::string("llama"));
    ASSERT_EQ((*f)->get_int("llama.block_count"), 2);
    ASSERT_TRUE(kvlens::test::qt_fuzzy_equal((*f)->get_float("llama.rope.freq_base"), 10000.0));
    ASSERT_EQ((*f)->get_bool("tokenizer.ggml.add_bos_token"), true);
    ASSERT_EQ((*f)->get_string_array("tokenizer.ggml.tokens").size(), std::size_t(3));
    ASSERT_EQ((*f)->get_string_array("tokenizer.ggml.tokens")[2], std::string_view("c"));
    const auto* t = (*f)->tensor("blk.0.attn_norm.weight");
    ASSERT_TRUE(t);
    ASSERT_EQ(t->n_bytes, 256);
    ASSERT_EQ(t->data[5], std::uint8_t(5));
    const auto* q = (*f)->tensor("q");
    ASSERT_TRUE(q);
    ASSERT_EQ(q->ne[0], 64);
    ASSERT_EQ(q->ne[1], 3);
    ASSERT_EQ(q->n_bytes, 120);
    ASSERT_EQ(q->offset % 32, 0u);
}

TEST(GgufReader, validHandMadeFileOpens)
{
    auto f = gguf_file::parse(valid_file().bytes);
    ASSERT_TRUE(f.ok()) << (f.ok() ? "" : f.message());
    ASSERT_EQ((*f)->tensors().size(), std::size_t(1));
}

struct malformed_row {
    std::string tag;
    std::vector<std::uint8_t> bytes;
    std::string expected;
};

std::vector<malformed_row> malformed_rows()
{
    std::vector<malformed_row> rows;   // expected: a fragment of the error message
    { gguf_bytes b; b.put<std::uint32_t>(0x12345678).put<std::uint32_t>(3);
      rows.push_back({"bad magic", b.bytes, "bad magic"}); }
    { gguf_bytes b; b.header(1, 0, 0);
      rows.push_back({"version 1", b.bytes, "unsupported GGUF version 1"}); }
    { gguf_bytes b; b.header(7, 0, 0);
      rows.push_back({"version 7", b.bytes, "unsupported GGUF version 7"}); }
    { gguf_bytes b; b.put<std::uint32_t>(0x46554747).put<std::uint32_t>(3).put<std::uint32_t>(0);
      rows.push_back({"truncated header", b.bytes, "truncated"}); }
    { gguf_bytes b; b.header(3, 0, 1000000);
      rows.push_back({"kv count beyond file", b.bytes, "metadata count 1000000 exceeds"}); }
    { gguf_bytes b; b.header(3, 1ull << 40, 0);
      rows.push_back({"tensor count beyond file", b.bytes, "tensor count"}); }
    { gguf_bytes b; b.header(3, 0, 1).put<std::uint64_t>(1ull << 50).zeros(16);
      rows.push_back({"key length beyond file", b.bytes, "string length"}); }
    { gguf_bytes b; b.header(3, 0, 1).str("k").put<std::uint32_t>(8).put<std::uint64_t>(999).zeros(16);
      rows.push_back({"string value beyond file", b.bytes, "string length 999"}); }
    { gguf_bytes b; b.header(3, 0, 1).str("k").put<std::uint32_t>(9).put<std::uint32_t>(4).put<std::uint64_t>(1ull << 40).zeros(16);
      rows.push_back({"array beyond file", b.bytes, "array of"}); }
    { gguf_bytes b; b.header(3, 0, 1).str("k").put<std::uint32_t>(42).zeros(16);
      rows.push_back({"unknown value type", b.bytes, "unknown metadata value type 42"}); }
    { gguf_bytes b; b.header(3, 0, 1).str("k").put<std::uint32_t>(9).put<std::uint32_t>(77).put<std::uint64_t>(1).zeros(16);
      rows.push_back({"unknown array element type", b.bytes, "unknown array element type 77"}); }
    { gguf_bytes b; b.header(3, 0, 1).kv_u32("", 1).zeros(16);
      rows.push_back({"empty key", b.bytes, "is empty"}); }
    { gguf_bytes b; b.header(3, 0, 2).kv_u32("a.b", 1).kv_u32("a.b", 2).zeros(16);
      rows.push_back({"duplicate key", b.bytes, "duplicate metadata key 'a.b'"}); }
    { gguf_bytes b; b.header(3, 0, 1).kv_u32("general.alignment", 48).zeros(16);
      rows.push_back({"alignment not a power of two", b.bytes, "alignment 48 is not a power of two"}); }
    { gguf_bytes b; b.header(3, 1, 0).tensor("t", {8}, 99, 0).align().zeros(32);
      rows.push_back({"unknown tensor type", b.bytes, "unknown type 99"}); }
    { gguf_bytes b; b.header(3, 2, 0).tensor("t", {8}, 0, 0).tensor("t", {8}, 0, 32).align().zeros(64);
      rows.push_back({"duplicate tensor name", b.bytes, "duplicate tensor name 't'"}); }
    { gguf_bytes b; b.header(3, 1, 0).tensor("", {8}, 0, 0).align().zeros(32);
      rows.push_back({"empty tensor name", b.bytes, "empty name"}); }
    { gguf_bytes b; b.header(3, 1, 0).tensor("t", {1, 1, 1, 1, 1}, 0, 0).align().zeros(32);
      rows.push_back({"five dimensions", b.bytes, "5 dimensions"}); }
    { gguf_bytes b; b.header(3, 1, 0).tensor("t", {8, 0}, 0, 0).align().zeros(32);
      rows.push_back({"zero-sized dimension", b.bytes, "zero-sized dimension"}); }
    { gguf_bytes b; b.header(3, 1, 0).tensor("t", {1ull << 40, 1ull << 40}, 0, 0).align().zeros(32);
      rows.push_back({"element count overflow", b.bytes, "element count overflows"}); }
    { gguf_bytes b; b.header(3, 1, 0).tensor("t", {1ull << 61}, 0, 0).align().zeros(32);
      rows.push_back({"byte count overflow", b.bytes, "byte count overflows"}); }
    { gguf_bytes b; b.header(3, 1, 0).tensor("t", {8}, 0, 4).align().zeros(64);
      rows.push_back({"misaligned tensor data", b.bytes, "not aligned to 32"}); }
    { gguf_bytes b; b.header(3, 1, 0).tensor("t", {8}, 0, 1024).align().zeros(32);
      rows.push_back({"tensor data outside the file", b.bytes, "outside the"}); }
    { gguf_bytes b = valid_file(); b.bytes.resize(b.bytes.size() - 8);
      rows.push_back({"truncated tensor data", b.bytes, "outside the"}); }
    { gguf_bytes b; b.header(3, 1, 0).tensor("t", {33}, 2, 0).align().zeros(64);
      rows.push_back({"row not whole blocks", b.bytes, "not a whole number"}); }
    return rows;
}

TEST(GgufReader, everyKindOfMalformedFileIsRejectedWithItsCause)
{
    kvlens::test::for_each_row(malformed_rows(), [&](const malformed_row& row) {
        auto f = gguf_file::parse(row.bytes, "bad.gguf");
        ASSERT_TRUE(!f.ok());
        const std::string message = f.message();
        ASSERT_TRUE(contains(message, row.expected)) << "message was: " + message;
        ASSERT_TRUE(message.starts_with("bad.gguf: "));
    });
}

TEST(GgufReader, missingAndEmptyFilesAreErrors)
{
    auto missing = gguf_file::open("/nonexistent/model.gguf");
    ASSERT_TRUE(!missing.ok());
    ASSERT_TRUE(contains(missing.message(), "cannot open"));
    const kvlens::test::temp_dir dir;
    const std::string empty = (dir.path / "empty.gguf").string();
    std::ofstream file(empty, std::ios::binary | std::ios::trunc);
    ASSERT_TRUE(file.is_open());
    file.close();
    auto e = gguf_file::open(empty);
    ASSERT_TRUE(!e.ok());
    ASSERT_TRUE(contains(e.message(), "is empty"));
}

TEST(GgufReader, defaultModelHasItsKnownShape)
{
    if (!kvlens::test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    auto f = gguf_file::open(kvlens::test::default_model().string());
    ASSERT_TRUE(f.ok()) << (f.ok() ? "" : f.message());
    ASSERT_EQ((*f)->version(), 3u);
    ASSERT_EQ((*f)->tensors().size(), std::size_t(272));
    ASSERT_EQ((*f)->get_int("llama.block_count"), 30);
    ASSERT_EQ((*f)->get_string("tokenizer.ggml.pre"), std::string("smollm"));
    ASSERT_EQ((*f)->get_string_array("tokenizer.ggml.tokens").size(), std::size_t(49152));
    ASSERT_EQ(int((*f)->tensor("token_embd.weight")->type), int(kvlens::ggml_type::q8_0));
}
