// SPDX-License-Identifier: Apache-2.0
// Hostile GGUF files: sizes a small file declares are checked against what it
// holds before anything is allocated, arrays cost no memory beyond the file,
// 64-bit metadata is never cut to 32 bits, tensor data meets its type's
// alignment, and file-controlled names reach messages escaped and cut.
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include <malloc.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/model/model.h"
#include "engine/model/model_config.h"
#include "tests/support/float_compare.h"
#include "tests/support/gguf_bytes.h"
#include "tests/support/text_checks.h"

using kvlens::gguf_file;
using kvlens::gguf_writer;
using kvlens::test::contains;
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

std::string config_error(const std::vector<std::uint8_t>& bytes) {
    auto f = gguf_file::parse(bytes, "hostile.gguf");
    if (!f) return "parse: " + f.message();
    auto c = kvlens::read_model_config(**f);
    return c ? std::string() : c.message();
}

}  // namespace

TEST(HostileGguf, aLayerCountTheTensorsCannotBackIsRefusedBeforeAnythingIsSized)
{
    const auto bytes = llama_file([](gguf_writer& w) { w.set_u32("llama.block_count", 16777216); });
    auto f = gguf_file::parse(bytes, "bomb.gguf");
    ASSERT_TRUE(f.ok());
    const std::size_t before = heap_in_use();
    auto m = kvlens::model::from_file(*f);
    const std::size_t grown = heap_in_use() > before ? heap_in_use() - before : 0;
    ASSERT_TRUE(!m.ok());
    ASSERT_TRUE(contains(m.message(), "block_count' = 16777216 needs at least 150994944 tensors; the file has 9")) << m.message().c_str();
    ASSERT_TRUE(grown < (1u << 20)) << "heap grew by " << grown << " bytes";
}

// A RoPE scaling kvlens does not compute changes every position's angles,
// so the file is refused with the scaling named, not run with wrong positions;
// linear and Llama 3.1's (its factors come as rope_freqs.weight) are read.
TEST(HostileGguf, aRopeScalingKvlensDoesNotComputeIsRefusedByName)
{
    for (const char* scaling : {"yarn", "longrope", "su"}) {
        const auto bytes = llama_file([&](gguf_writer& w) { w.set_string("llama.rope.scaling.type", scaling); });
        const std::string why = config_error(bytes);
        EXPECT_TRUE(contains(why, std::string("RoPE scaling '") + scaling + "' is not supported")) << why;
    }
    for (const char* scaling : {"none", "linear", "llama3"}) {
        const auto bytes = llama_file([&](gguf_writer& w) { w.set_string("llama.rope.scaling.type", scaling); });
        EXPECT_EQ(config_error(bytes), "") << scaling;
    }
}

// phi3 files carry LongRoPE (their converter may or may not write the
// type): accepted there, with the attention factor it brings; a factor that
// is no positive finite number up to 16 is refused by its key.
TEST(HostileGguf, longRopeIsReadInPhi3FilesAndItsAttentionFactorChecked)
{
    const auto phi3 = [](const std::function<void(gguf_writer&)>& more) {
        return llama_file([&](gguf_writer& w) {
            w.set_string("general.architecture", "phi3");
            w.set_u32("phi3.block_count", 1);
            w.set_u32("phi3.embedding_length", 64);
            w.set_u32("phi3.feed_forward_length", 128);
            w.set_u32("phi3.attention.head_count", 4);
            w.set_u32("phi3.context_length", 131072);
            more(w);
        });
    };
    auto f = gguf_file::parse(phi3([](gguf_writer& w) {
        w.set_string("phi3.rope.scaling.type", "longrope");
        w.set_f32("phi3.rope.scaling.attn_factor", 1.19f);
        w.set_u32("phi3.rope.scaling.original_context_length", 4096);
    }), "phi3.gguf");
    ASSERT_TRUE(f.ok());
    auto c = kvlens::read_model_config(**f);
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->architecture, kvlens::arch::phi3);
    EXPECT_FLOAT_EQ(c->rope_attn_factor, 1.19f);
    EXPECT_EQ(c->rope_original_ctx, 4096);
    // Without the key, the original context is the training context.
    auto plain = gguf_file::parse(phi3([](gguf_writer&) {}), "phi3.gguf");
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(kvlens::read_model_config(**plain)->rope_original_ctx, 131072);
    for (const float bad : {0.0f, -1.0f, 17.0f, std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity()}) {
        const std::string why = config_error(phi3([&](gguf_writer& w) { w.set_f32("phi3.rope.scaling.attn_factor", bad); }));
        EXPECT_TRUE(contains(why, "'phi3.rope.scaling.attn_factor' = ")) << bad << ": " << why;
    }
}

// Gemma 2's caps and window come from the file; llama.cpp's defaults (50,
// 30, 4096 on the even layers) where it says nothing, and a cap that is no
// positive number, or a window of 0, is refused by its key.
TEST(HostileGguf, gemma2CapsAndWindowAreReadOrRefusedByKey)
{
    const auto gemma2 = [](const std::function<void(gguf_writer&)>& more) {
        return llama_file([&](gguf_writer& w) {
            w.set_string("general.architecture", "gemma2");
            w.set_u32("gemma2.block_count", 1);
            w.set_u32("gemma2.embedding_length", 64);
            w.set_u32("gemma2.feed_forward_length", 128);
            w.set_u32("gemma2.attention.head_count", 4);
            more(w);
        });
    };
    auto plain = gguf_file::parse(gemma2([](gguf_writer&) {}), "gemma2.gguf");
    ASSERT_TRUE(plain.ok());
    auto c = kvlens::read_model_config(**plain);
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->architecture, kvlens::arch::gemma2);
    EXPECT_FLOAT_EQ(c->attn_logit_softcap, 50.0f);
    EXPECT_FLOAT_EQ(c->final_logit_softcap, 30.0f);
    EXPECT_EQ(c->layer_window[0], 4096);
    for (const float bad : {0.0f, -2.0f, std::numeric_limits<float>::quiet_NaN()}) {
        const std::string why =
            config_error(gemma2([&](gguf_writer& w) { w.set_f32("gemma2.attn_logit_softcapping", bad); }));
        EXPECT_TRUE(contains(why, "gemma2.attn_logit_softcapping = ")) << bad << ": " << why;
        const std::string why_final =
            config_error(gemma2([&](gguf_writer& w) { w.set_f32("gemma2.final_logit_softcapping", bad); }));
        EXPECT_TRUE(contains(why_final, "gemma2.final_logit_softcapping = ")) << bad << ": " << why_final;
    }
    const std::string why = config_error(gemma2([](gguf_writer& w) { w.set_u32("gemma2.attention.sliding_window", 0); }));
    EXPECT_TRUE(contains(why, "gemma2.attention.sliding_window = 0")) << why;
}

TEST(HostileGguf, anArrayCostsNoMemoryBeyondTheFile)
{
    // 8 MiB of u8 elements: one value object each would be ~400 MiB.
    constexpr std::uint64_t n = 8u << 20;
    gguf_bytes b;
    b.header(3, 0, 1).str("big").put<std::uint32_t>(9).put<std::uint32_t>(0).put<std::uint64_t>(n);
    b.bytes.resize(b.bytes.size() + n, 7);
    const std::size_t before = heap_in_use();
    auto f = gguf_file::parse(std::move(b.bytes), "array.gguf");
    ASSERT_TRUE(f.ok());
    const std::size_t grown = heap_in_use() - before;
    ASSERT_TRUE(grown < (1u << 20)) << "heap grew by " << grown << " bytes";
    const kvlens::gguf_array* a = (*f)->find("big")->as_array();
    ASSERT_TRUE(a);
    ASSERT_EQ(a->size(), std::size_t(n));
    ASSERT_EQ(a->int_at(n - 1), 7);
}

TEST(HostileGguf, arraysOfEveryTypeReadBackElementByElement)
{
    gguf_writer w;
    w.set_f32_array("f", {1.5f, -2.0f});
    w.set_i32_array("i", {-7, 9});
    w.set_string_array("s", {"", "two", "three"});
    auto f = gguf_file::parse(w.to_bytes());
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(kvlens::test::qt_fuzzy_equal((*f)->find("f")->as_array()->float_at(1), -2.0));
    ASSERT_EQ((*f)->find("i")->as_array()->int_at(0), -7);
    ASSERT_TRUE(kvlens::test::qt_fuzzy_equal((*f)->find("i")->as_array()->float_at(1), 9.0));
    const auto s = (*f)->get_string_array("s");
    ASSERT_EQ(s.size(), std::size_t(3));
    ASSERT_EQ(s[0], std::string_view(""));
    ASSERT_EQ(s[2], std::string_view("three"));
}

TEST(HostileGguf, nestedArraysAreValidatedAndKeptAsBytes)
{
    gguf_bytes b;  // [[1, 2], [3]] of u8
    b.header(3, 0, 1).str("n").put<std::uint32_t>(9).put<std::uint32_t>(9).put<std::uint64_t>(2);
    b.put<std::uint32_t>(0).put<std::uint64_t>(2).put<std::uint8_t>(1).put<std::uint8_t>(2);
    b.put<std::uint32_t>(0).put<std::uint64_t>(1).put<std::uint8_t>(3);
    auto f = gguf_file::parse(b.bytes);
    ASSERT_TRUE(f.ok()) << (f.ok() ? "" : f.message().c_str());
    ASSERT_EQ((*f)->find("n")->as_array()->size(), std::size_t(2));
    gguf_bytes bad = b;
    bad.bytes.pop_back();
    ASSERT_TRUE(!gguf_file::parse(bad.bytes).ok());
}

struct countsOverTheLimitsAreRefused_row {
    std::string tag;
    std::vector<std::uint8_t> bytes;
    std::string expected;
};

std::vector<countsOverTheLimitsAreRefused_row> countsOverTheLimitsAreRefused_rows()
{
    std::vector<countsOverTheLimitsAreRefused_row> rows;
    { gguf_bytes b; b.header(3, 0, 70000).zeros(70000 * 13);
      rows.push_back({"metadata", b.bytes, "metadata count 70000 is over the limit of 65536"}); }
    { gguf_bytes b; b.header(3, 70000, 0).zeros(70000 * 32);
      rows.push_back({"tensors", b.bytes, "tensor count 70000 is over the limit of 65536"}); }
    return rows;
}

TEST(HostileGguf, countsOverTheLimitsAreRefused)
{
    kvlens::test::for_each_row(countsOverTheLimitsAreRefused_rows(), [&](const countsOverTheLimitsAreRefused_row& row) {
        auto f = gguf_file::parse(row.bytes);
        ASSERT_TRUE(!f.ok());
        ASSERT_TRUE(contains(f.message(), row.expected)) << f.message().c_str();
    });
}

struct sixtyFourBitMetadataIsNeverCutTo32Bits_row {
    std::string tag;
    std::string key;
    std::uint64_t value;
};

std::vector<sixtyFourBitMetadataIsNeverCutTo32Bits_row> sixtyFourBitMetadataIsNeverCutTo32Bits_rows()
{
    std::vector<sixtyFourBitMetadataIsNeverCutTo32Bits_row> rows;
    rows.push_back({"context_length 2^32+3", "llama.context_length", std::uint64_t((1ull << 32) + 3)});
    rows.push_back({"head_count_kv 2^32+1", "llama.attention.head_count_kv", std::uint64_t((1ull << 32) + 1)});
    rows.push_back({"key_length 2^32+16", "llama.attention.key_length", std::uint64_t((1ull << 32) + 16)});
    rows.push_back({"rope.dimension_count 2^32+8", "llama.rope.dimension_count", std::uint64_t((1ull << 32) + 8)});
    rows.push_back({"vocab_size 2^63+2", "llama.vocab_size", std::uint64_t((1ull << 63) + 2)});
    rows.push_back({"block_count 2^32+1", "llama.block_count", std::uint64_t((1ull << 32) + 1)});
    return rows;
}

TEST(HostileGguf, sixtyFourBitMetadataIsNeverCutTo32Bits)
{
    kvlens::test::for_each_row(sixtyFourBitMetadataIsNeverCutTo32Bits_rows(), [&](const sixtyFourBitMetadataIsNeverCutTo32Bits_row& row) {
        const std::string why = config_error(llama_file([&](gguf_writer& w) { w.set_u64(row.key, row.value); }));
        ASSERT_TRUE(contains(why, row.key) && contains(why, std::to_string(row.value)) && contains(why, "out of range")) << why;
    });
}

TEST(HostileGguf, tensorDataMustMeetItsTypesAlignment)
{
    // general.alignment = 1 (a legal power of two) with Q8_0 data at an odd address.
    gguf_bytes b;
    b.header(3, 1, 1).kv_u32("general.alignment", 1).tensor("qq", {32}, 8, 0);
    ASSERT_TRUE(b.bytes.size() % 2 == 1);  // the data starts right after the header, at an odd byte
    b.zeros(34);
    auto f = gguf_file::parse(b.bytes, "odd.gguf");
    ASSERT_TRUE(!f.ok());
    ASSERT_TRUE(contains(f.message(), "is not aligned to 2 bytes, which its type Q8_0 needs")) << f.message().c_str();
    // The same at an even address reads.
    gguf_bytes even;
    even.header(3, 1, 1).kv_u32("general.alignment", 1).tensor("q", {32}, 8, 0);
    ASSERT_TRUE(even.bytes.size() % 2 == 0);
    even.zeros(34);
    ASSERT_TRUE(gguf_file::parse(even.bytes).ok());
}

TEST(HostileGguf, fileControlledNamesReachMessagesEscapedAndCut)
{
    gguf_bytes b;
    b.header(3, 2, 0).tensor("\x1b[31mred", {8}, 0, 0).tensor("\x1b[31mred", {8}, 0, 32).align().zeros(64);
    auto f = gguf_file::parse(b.bytes);
    ASSERT_TRUE(!f.ok());
    ASSERT_TRUE(f.message().find('\x1b') == std::string::npos) << f.message().c_str();
    ASSERT_TRUE(contains(f.message(), "'\\x1b[31mred'"));

    gguf_writer w;
    w.set_string("general.architecture", std::string(100000, 'x') + "\x1b]0;title\x07");
    auto g = gguf_file::parse(w.to_bytes());
    ASSERT_TRUE(g.ok());
    auto c = kvlens::read_model_config(**g);
    ASSERT_TRUE(!c.ok());
    ASSERT_TRUE(c.message().size() < 400) << c.message().c_str();
    ASSERT_TRUE(c.message().find('\x1b') == std::string::npos);
    ASSERT_TRUE(contains(c.message(), "more bytes)"));
}
