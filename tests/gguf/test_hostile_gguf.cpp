// SPDX-License-Identifier: Apache-2.0
// Hostile GGUF files: sizes a small file declares are checked against what it
// holds before anything is allocated, arrays cost no memory beyond the file,
// 64-bit metadata is never cut to 32 bits, tensor data meets its type's
// alignment, and file-controlled names reach messages escaped and cut.
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include <malloc.h>

#include <array>
#include <cstdint>
#include <cstring>
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
// linear, Llama 3.1's (its factors come as rope_freqs.weight) and YaRN are read.
TEST(HostileGguf, aRopeScalingKvlensDoesNotComputeIsRefusedByName)
{
    for (const char* scaling : {"longrope", "su", "dynamic"}) {
        const auto bytes = llama_file([&](gguf_writer& w) { w.set_string("llama.rope.scaling.type", scaling); });
        const std::string why = config_error(bytes);
        EXPECT_TRUE(contains(why, std::string("RoPE scaling '") + scaling + "' is not supported")) << why;
    }
    for (const char* scaling : {"none", "linear", "llama3", "yarn"}) {
        const auto bytes = llama_file([&](gguf_writer& w) { w.set_string("llama.rope.scaling.type", scaling); });
        EXPECT_EQ(config_error(bytes), "") << scaling;
    }
}

// A Qwen3 128K file: YaRN x4 from an original 32,768 tokens, read as
// llama.cpp 0.3.16 reads it (ext_factor 1, beta_fast 32, beta_slow 1 from its
// defaults). Heads of 128 at base 1e6 put the ramp between pairs 23 and 40:
// ggml_rope_yarn_corr_dims gives floor(23.6) and ceil(39.65).
TEST(HostileGguf, yarnIsReadWithLlamaCppsDefaultsAndItsRampPlacedByTheOriginalContext)
{
    const auto qwen_128k = [](const std::function<void(gguf_writer&)>& more) {
        return llama_file([&](gguf_writer& w) {
            w.set_u32("llama.embedding_length", 512);
            w.set_u32("llama.context_length", 131072);
            w.set_f32("llama.rope.freq_base", 1000000.0f);
            w.set_string("llama.rope.scaling.type", "yarn");
            w.set_f32("llama.rope.scaling.factor", 4.0f);
            more(w);
        });
    };
    auto f = gguf_file::parse(qwen_128k([](gguf_writer& w) {
        w.set_u32("llama.rope.scaling.original_context_length", 32768);
    }), "yarn.gguf");
    ASSERT_TRUE(f.ok());
    auto c = kvlens::read_model_config(**f);
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_TRUE(c->yarn());
    EXPECT_EQ(c->yarn_ext_factor, 1.0f);
    EXPECT_EQ(c->yarn_beta_fast, 32.0f);
    EXPECT_EQ(c->yarn_beta_slow, 1.0f);
    EXPECT_EQ(c->rope_freq_scale, 0.25f);
    EXPECT_EQ(c->rope_original_ctx, 32768);
    EXPECT_EQ(c->n_rot, 128);
    EXPECT_EQ(c->yarn_corr_dims(1000000.0f), (std::array<float, 2>{23.0f, 40.0f}));
    // A ramp past the last pair stops there (base 10: ceil(238.1) -> 127).
    EXPECT_EQ(c->yarn_corr_dims(10.0f)[1], 127.0f);
    // Without the key, the original context is the training context.
    auto plain = gguf_file::parse(qwen_128k([](gguf_writer&) {}), "yarn.gguf");
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(kvlens::read_model_config(**plain)->rope_original_ctx, 131072);
    // One that would start before the first pair starts at 0 (an original
    // context of 128 sees no pair turn 32 times: floor(-2.09) -> 0).
    auto short_ctx = gguf_file::parse(qwen_128k([](gguf_writer& w) {
        w.set_u32("llama.rope.scaling.original_context_length", 128);
    }), "yarn.gguf");
    ASSERT_TRUE(short_ctx.ok());
    EXPECT_EQ(kvlens::read_model_config(**short_ctx)->yarn_corr_dims(1000000.0f), (std::array<float, 2>{0.0f, 14.0f}));
    // Other scalings leave YaRN off.
    auto linear = gguf_file::parse(llama_file([](gguf_writer& w) {
        w.set_string("llama.rope.scaling.type", "linear");
        w.set_f32("llama.rope.scaling.factor", 4.0f);
    }), "linear.gguf");
    ASSERT_TRUE(linear.ok());
    EXPECT_FALSE(kvlens::read_model_config(**linear)->yarn());
}

struct badYarnValuesAreRefusedByKey_row {
    std::string tag;
    std::function<void(gguf_writer&)> set;
    std::string expected;
};

std::vector<badYarnValuesAreRefusedByKey_row> badYarnValuesAreRefusedByKey_rows()
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::string not_factor = "' = {} is not a YaRN factor in [1, 1024]";
    const std::string unread = ": llama.cpp (0.3.16) does not read it for llama and uses ";
    return {
        {"factor below 1", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.factor", 0.5f); },
         "metadata 'llama.rope.scaling.factor' = 0.5 is not a YaRN factor in [1, 1024]"},
        {"negative factor", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.factor", -4.0f); },
         "metadata 'llama.rope.scaling.factor' = -4 is not a YaRN factor"},
        {"NaN factor", [=](gguf_writer& w) { w.set_f32("llama.rope.scaling.factor", nan); },
         "metadata 'llama.rope.scaling.factor' = nan is not a YaRN factor"},
        {"infinite factor", [=](gguf_writer& w) { w.set_f32("llama.rope.scaling.factor", inf); },
         "metadata 'llama.rope.scaling.factor' = inf is not a YaRN factor"},
        {"huge factor", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.factor", 4096.0f); },
         "metadata 'llama.rope.scaling.factor' = 4096 is not a YaRN factor"},
        {"original context 0", [](gguf_writer& w) { w.set_u32("llama.rope.scaling.original_context_length", 0); },
         "llama.rope.scaling.original_context_length"},
        {"original context a float", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.original_context_length", 4096.0f); },
         "llama.rope.scaling.original_context_length' is not an integer"},
        {"beta_fast llama.cpp ignores", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.yarn_beta_fast", 64.0f); },
         "metadata 'llama.rope.scaling.yarn_beta_fast' = 64" + unread + "32"},
        {"beta_slow llama.cpp ignores", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.yarn_beta_slow", 2.0f); },
         "metadata 'llama.rope.scaling.yarn_beta_slow' = 2" + unread + "1"},
        {"ext_factor llama.cpp ignores", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.yarn_ext_factor", 0.5f); },
         "metadata 'llama.rope.scaling.yarn_ext_factor' = 0.5" + unread + "1"},
        {"attn_factor llama.cpp ignores", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.yarn_attn_factor", 0.9f); },
         "metadata 'llama.rope.scaling.yarn_attn_factor' = 0.9" + unread + "1"},
        {"log multiplier llama.cpp ignores", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.yarn_log_multiplier", 0.1f); },
         "metadata 'llama.rope.scaling.yarn_log_multiplier' = 0.1" + unread + "0"},
        {"NaN beta_fast", [=](gguf_writer& w) { w.set_f32("llama.rope.scaling.yarn_beta_fast", nan); },
         "metadata 'llama.rope.scaling.yarn_beta_fast' = nan is not a finite number"},
        {"text beta_slow", [](gguf_writer& w) { w.set_string("llama.rope.scaling.yarn_beta_slow", "1"); },
         "metadata 'llama.rope.scaling.yarn_beta_slow' is not a number"},
        {"the scaling's own attention factor out of range", [](gguf_writer& w) { w.set_f32("llama.rope.scaling.attn_factor", 0.0f); },
         "metadata 'llama.rope.scaling.attn_factor' = 0 is not a factor in (0, 16]"},
    };
}

// A YaRN value kvlens cannot apply as llama.cpp does is refused with its key:
// a factor that is no number from 1 to 1024, an original context that is no
// positive integer, and the yarn_* keys llama.cpp 0.3.16 does not read for
// these architectures (it keeps its defaults, where a later llama.cpp or the
// model's authors would not), unless they hold the value llama.cpp uses.
TEST(HostileGguf, badYarnValuesAreRefusedByKey)
{
    kvlens::test::for_each_row(badYarnValuesAreRefusedByKey_rows(), [&](const badYarnValuesAreRefusedByKey_row& row) {
        const auto bytes = llama_file([&](gguf_writer& w) {
            w.set_string("llama.rope.scaling.type", "yarn");
            w.set_f32("llama.rope.scaling.factor", 4.0f);
            row.set(w);
        });
        const std::string why = config_error(bytes);
        ASSERT_TRUE(contains(why, row.expected)) << why;
    });
    // The values llama.cpp uses are no reason to refuse a file.
    const auto defaults = llama_file([](gguf_writer& w) {
        w.set_string("llama.rope.scaling.type", "yarn");
        w.set_f32("llama.rope.scaling.factor", 4.0f);
        w.set_f32("llama.rope.scaling.yarn_ext_factor", 1.0f);
        w.set_f32("llama.rope.scaling.yarn_attn_factor", 1.0f);
        w.set_f32("llama.rope.scaling.yarn_beta_fast", 32.0f);
        w.set_f32("llama.rope.scaling.yarn_beta_slow", 1.0f);
        w.set_f32("llama.rope.scaling.yarn_log_multiplier", 0.0f);
    });
    EXPECT_EQ(config_error(defaults), "");
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
    // The 100,000-byte name cut to a short quote: the message is that, the
    // sentence around it and kvlens's own list of architectures (which grows).
    ASSERT_TRUE(c.message().size() < 250 + std::strlen(kvlens::supported_architectures())) << c.message().c_str();
    ASSERT_TRUE(c.message().find('\x1b') == std::string::npos);
    ASSERT_TRUE(contains(c.message(), "more bytes)"));
}
