// SPDX-License-Identifier: Apache-2.0
// The llama family's variants read as llama.cpp reads them: Gemma (1),
// Granite's four scales, MiniCPM's three, SmolLM3's unrotated layers, OLMo 2's norms and
// Qwen2-VL's RoPE sections, ERNIE 4.5's experts and Hunyuan's norms after RoPE, and
// Cohere's LayerNorms, parallel blocks and windows (Command R, R7B), from synth-model
// files; a bad or missing scale refused with its key named; a bias the
// engine would not add refused with the tensor named. (Their numbers are
// held to llama.cpp in test_synth_reference.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/model/model.h"
#include "engine/model/model_config.h"
#include "engine/model/synth_model.h"
#include "tests/support/text_checks.h"

using namespace kvlens;
using kvlens::test::contains;

namespace {

// The bytes of a synth-model file of `shape` (F32 weights), changed by `edit`.
std::vector<std::uint8_t> synth_bytes(const synth_shape& shape) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("kvlens_test_variants_" + shape.name + "_" + std::to_string(::getpid()) + ".gguf");
    if (const status st = write_synth_model(shape, ggml_type::f32, path.string(), 1); !st) {
        ADD_FAILURE() << st.message();
        return {};
    }
    std::ifstream in(path, std::ios::binary);
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(path);
    return bytes;
}

result<std::unique_ptr<model>> load(std::vector<std::uint8_t> bytes) {
    auto f = gguf_file::parse(std::move(bytes), "variant.gguf");
    if (!f) return f.err();
    return model::from_file(*f);
}

result<model_config> config_of(const synth_shape& shape) {
    auto f = gguf_file::parse(synth_bytes(shape), "variant.gguf");
    if (!f) return f.err();
    return read_model_config(**f);
}

result<model_config> config_of_bytes(std::vector<std::uint8_t> bytes) {
    auto f = gguf_file::parse(std::move(bytes), "variant.gguf");
    if (!f) return f.err();
    return read_model_config(**f);
}

synth_shape granite(const std::function<void(synth_shape&)>& edit = [](synth_shape&) {}) {
    synth_shape s = *synth_shape_named("check-granite");
    edit(s);
    return s;
}

// Every occurrence of `from` in the bytes replaced by `to` (same length).
void relabel(std::vector<std::uint8_t>& bytes, const std::string& from, const std::string& to) {
    ASSERT_EQ(from.size(), to.size());
    for (std::size_t i = 0; i + from.size() <= bytes.size(); ++i)
        if (std::equal(from.begin(), from.end(), bytes.begin() + static_cast<std::ptrdiff_t>(i)))
            std::copy(to.begin(), to.end(), bytes.begin() + static_cast<std::ptrdiff_t>(i));
}

}  // namespace

TEST(LlamaVariants, gemmaScalesItsEmbeddingsUsesGegluAndMultipliesByItsEmbedding)
{
    auto m = load(synth_bytes(*synth_shape_named("check-gemma")));
    ASSERT_TRUE(m.ok()) << m.message();
    const model_config& c = (*m)->config();
    EXPECT_EQ(c.architecture, arch::gemma);
    EXPECT_FLOAT_EQ(c.embd_scale, 16.0f);   // sqrt(256)
    EXPECT_EQ(c.ffn_act, ffn_activation::gelu_tanh);
    EXPECT_TRUE(c.rope_neox);
    EXPECT_FLOAT_EQ(c.score_scale(), 0.125f);   // 1 / sqrt(64)
    EXPECT_EQ((*m)->weights().output.data, (*m)->weights().tok_embd.data);
}

TEST(LlamaVariants, graniteReadsItsFourScalesAndRotatesAdjacentPairs)
{
    auto c = config_of(granite());
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->architecture, arch::granite);
    EXPECT_FLOAT_EQ(c->embd_scale, 6.0f);
    EXPECT_FLOAT_EQ(c->score_scale(), 0.05f);
    EXPECT_FLOAT_EQ(c->residual_scale, 0.4f);
    EXPECT_FLOAT_EQ(c->logit_scale, 3.0f);
    EXPECT_FALSE(c->rope_neox);
    for (int il = 0; il < c->n_layer; ++il) EXPECT_TRUE(c->rotates(il)) << il;
}

TEST(LlamaVariants, graniteWithoutOptionalScalesKeepsLlamasNumbers)
{
    auto c = config_of(granite([](synth_shape& s) {
        s.granite_embedding_scale = s.granite_attention_scale = s.granite_residual_scale = 0;
    }));
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_FLOAT_EQ(c->embd_scale, 1.0f);
    EXPECT_FLOAT_EQ(c->score_scale(), 0.125f);
    EXPECT_FLOAT_EQ(c->residual_scale, 1.0f);
}

TEST(LlamaVariants, aGraniteFileWithoutItsLogitScaleIsRefusedByKey)
{
    auto bytes = synth_bytes(granite());
    relabel(bytes, "granite.logit_scale", "granite.logit_scalX");
    auto f = gguf_file::parse(std::move(bytes), "variant.gguf");
    ASSERT_TRUE(f.ok());
    auto c = read_model_config(**f);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.message(), "missing metadata 'granite.logit_scale'");
}

TEST(LlamaVariants, aGraniteScaleThatIsNoPositiveNumberIsRefusedByKey)
{
    for (const float bad : {-2.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
        auto c = config_of(granite([&](synth_shape& s) { s.granite_residual_scale = bad; }));
        ASSERT_FALSE(c.ok()) << bad;
        EXPECT_TRUE(contains(c.message(), "metadata 'granite.residual_scale' = ")) << c.message();
        EXPECT_TRUE(contains(c.message(), "is not a positive scale")) << c.message();
    }
    // The logit scale divides: 0 is refused there, not read as "none".
    auto c = config_of(granite([](synth_shape& s) { s.granite_logit_scale = 0; }));
    ASSERT_FALSE(c.ok());
    EXPECT_TRUE(contains(c.message(), "metadata 'granite.logit_scale' = 0 is not a positive scale")) << c.message();
}

TEST(LlamaVariants, smollm3LeavesEveryFourthLayerUnrotated)
{
    synth_shape s = *synth_shape_named("check-smollm3");
    s.n_layer = 9;
    auto c = config_of(s);
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->architecture, arch::smollm3);
    EXPECT_FALSE(c->rope_neox);
    const std::vector<bool> expected = {true, true, true, false, true, true, true, false, true};
    for (int il = 0; il < c->n_layer; ++il) EXPECT_EQ(c->rotates(il), expected[static_cast<std::size_t>(il)]) << il;
}

TEST(LlamaVariants, olmo2NormsAfterItsBlocksAndOverWholeQAndKRows)
{
    auto m = load(synth_bytes(*synth_shape_named("check-olmo2")));
    ASSERT_TRUE(m.ok()) << m.message();
    const model_config& c = (*m)->config();
    EXPECT_EQ(c.architecture, arch::olmo2);
    EXPECT_FALSE(c.has_pre_norms);
    EXPECT_TRUE(c.has_post_norms);
    EXPECT_TRUE(c.qk_norm_whole);
    EXPECT_TRUE(c.rope_neox);
    const layer_weights& l = (*m)->weights().layers[0];
    EXPECT_TRUE(l.attn_norm.empty());
    EXPECT_TRUE(l.ffn_norm.empty());
    EXPECT_EQ(static_cast<int>(l.q_norm.size()), c.n_q());
    EXPECT_EQ(static_cast<int>(l.k_norm.size()), c.n_kv());
    EXPECT_EQ((*m)->info().norms, "after each block, Q and K over whole rows");
}

// OLMo 3 is olmo2 with a window key: three windowed layers, then a full one
// (the converter's bool per layer, or llama.cpp's period of 4 when the file
// has none); the windowed layers rotate plainly, the full ones with YaRN.
TEST(LlamaVariants, olmo3WindowsThreeLayersOfFourAndRotatesThemWithoutYarn)
{
    for (const bool as_bools : {true, false}) {
        synth_shape s = *synth_shape_named("check-olmo3");
        s.n_layer = 8;
        s.swa_pattern = as_bools ? std::vector<int>{1, 1, 1, 0, 1, 1, 1, 0} : std::vector<int>{};
        auto c = config_of(s);
        ASSERT_TRUE(c.ok()) << c.message();
        EXPECT_EQ(c->architecture, arch::olmo2);
        for (int il = 0; il < c->n_layer; ++il) {
            const bool windowed = il % 4 != 3;
            EXPECT_EQ(c->layer_window[static_cast<std::size_t>(il)], windowed ? 8 : 0) << il;
            EXPECT_TRUE(c->rotates(il)) << il;
            EXPECT_EQ(c->scaled_rope(il), !windowed) << il;
            EXPECT_EQ(c->rope_base(il), 500000.0f) << il;
            EXPECT_EQ(c->rope_scale(il), windowed ? 1.0f : 0.25f) << il;
        }
        EXPECT_TRUE(c->yarn());
    }
}

TEST(LlamaVariants, anOlmo3PatternThatDoesNotFitTheLayersIsRefusedByKey)
{
    synth_shape s = *synth_shape_named("check-olmo3");
    s.swa_pattern = {1, 1, 0};   // 3 flags for 4 layers
    auto c = config_of(s);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.message(), "olmo2.attention.sliding_window_pattern has 3 entries for 4 layers");
}

// EXAONE 4.0: norms after the blocks, Q and K normed per head; llama.cpp
// windows 64-layer files only (the 32B), every 4th layer full and unrotated.
TEST(LlamaVariants, exaone4WindowsItsThirtyTwoBDepthAndLeavesTheFullLayersUnrotated)
{
    auto m = load(synth_bytes(*synth_shape_named("check-exaone4")));
    ASSERT_TRUE(m.ok()) << m.message();
    const model_config& c = (*m)->config();
    EXPECT_EQ(c.architecture, arch::exaone4);
    EXPECT_TRUE(c.rope_neox);
    EXPECT_FALSE(c.has_pre_norms);
    EXPECT_TRUE(c.has_post_norms);
    EXPECT_FALSE(c.qk_norm_whole);
    const layer_weights& l = (*m)->weights().layers[0];
    EXPECT_TRUE(l.attn_norm.empty());
    EXPECT_EQ(static_cast<int>(l.q_norm.size()), c.head_dim);
    EXPECT_EQ(static_cast<int>(l.k_norm.size()), c.head_dim);
    for (int il = 0; il < c.n_layer; ++il) {
        const bool windowed = il % 4 != 3;
        EXPECT_EQ(c.layer_window[static_cast<std::size_t>(il)], windowed ? 8 : 0) << il;
        EXPECT_EQ(c.rotates(il), windowed) << il;
    }
    EXPECT_EQ((*m)->info().norms, "after each block, Q and K per head");
    EXPECT_EQ((*m)->info().n_window_layers, 48);

    // Any other depth (the 1.2B): full attention and RoPE in every layer, whatever its window key says.
    synth_shape shallow = *synth_shape_named("check-exaone4");
    shallow.n_layer = 30;
    auto c30 = config_of(shallow);
    ASSERT_TRUE(c30.ok()) << c30.message();
    for (int il = 0; il < c30->n_layer; ++il) {
        EXPECT_FALSE(c30->is_swa(il)) << il;
        EXPECT_TRUE(c30->rotates(il)) << il;
    }
}

// Ministral 3: queries times 1 + b ln(floor(pos / original) + 1) after RoPE;
// a temperature that is no number is refused by its key.
TEST(LlamaVariants, mistral3ScalesItsQueriesPastEachStretchOfTheOriginalContext)
{
    auto c = config_of(*synth_shape_named("check-mistral3"));
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->architecture, arch::mistral3);
    EXPECT_FALSE(c->rope_neox);
    EXPECT_EQ(c->attn_temp_floor, 16);
    EXPECT_EQ(c->attn_temperature(0), 1.0f);
    EXPECT_EQ(c->attn_temperature(15), 1.0f);
    EXPECT_FLOAT_EQ(c->attn_temperature(16), 1.0f + 0.5f * std::log(2.0f));
    EXPECT_FLOAT_EQ(c->attn_temperature(47), 1.0f + 0.5f * std::log(3.0f));
    EXPECT_EQ(c->yarn_beta_fast, 0.5f);
    EXPECT_EQ(c->yarn_beta_slow, 0.125f);
    // Log multiplier 1: the rotation's magnitude comes to 1 (YaRN's own 1 + 0.1 ln 4 undone).
    EXPECT_NEAR(c->rope_attn_factor * (1.0 + 0.1 * std::log(4.0)), 1.0, 1e-6);

    synth_shape bad = *synth_shape_named("check-mistral3");
    bad.attn_temp_scale = std::numeric_limits<float>::quiet_NaN();
    auto refused = config_of(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("mistral3.attention.temperature_scale"), std::string::npos) << refused.message();
}

// The window pattern as llama.cpp reads it: bools per layer, or a period;
// anything else names the key.
TEST(LlamaVariants, aWindowPatternIsBoolsPerLayerOrAPeriodAndNothingElse)
{
    const std::string key = "olmo2.attention.sliding_window_pattern";
    const auto flags_of = [&](const std::function<void(gguf_writer&)>& set) {
        gguf_writer w;
        w.set_string("general.architecture", "olmo2");
        set(w);
        const auto path = std::filesystem::temp_directory_path() /
                          ("kvlens_test_window_pattern_" + std::to_string(::getpid()) + ".gguf");
        EXPECT_TRUE(w.write_file(path.string()).ok());
        auto f = gguf_file::open(path.string());
        std::filesystem::remove(path);
        EXPECT_TRUE(f.ok());
        return window_layer_flags(**f, key, 4, 4);
    };
    auto absent = flags_of([](gguf_writer&) {});
    ASSERT_TRUE(absent.ok());
    EXPECT_EQ(*absent, (std::vector<bool>{true, true, true, false}));   // the default period of 4
    auto period = flags_of([&](gguf_writer& w) { w.set_u32(key, 2); });
    ASSERT_TRUE(period.ok());
    EXPECT_EQ(*period, (std::vector<bool>{true, false, true, false}));
    auto bools = flags_of([&](gguf_writer& w) { w.set_bool_array(key, {false, true, true, false}); });
    ASSERT_TRUE(bools.ok());
    EXPECT_EQ(*bools, (std::vector<bool>{false, true, true, false}));
    auto floats = flags_of([&](gguf_writer& w) { w.set_f32_array(key, {1, 1, 1, 0}); });
    ASSERT_FALSE(floats.ok());
    EXPECT_EQ(floats.message(), key + " must hold bools (one per layer)");
    auto twos = flags_of([&](gguf_writer& w) { w.set_i32_array(key, {1, 2, 1, 0}); });
    ASSERT_FALSE(twos.ok());
    EXPECT_EQ(twos.message(), key + " must hold bools (one per layer)");
    auto zero = flags_of([&](gguf_writer& w) { w.set_u32(key, 0); });
    ASSERT_FALSE(zero.ok());
    EXPECT_EQ(zero.message(), key + " = 0 is not a period of 1..4 layers");
}

TEST(LlamaVariants, aGraniteMoeSharedExpertIsReadUngated)
{
    auto m = load(synth_bytes(*synth_shape_named("check-granitemoeshared")));
    ASSERT_TRUE(m.ok()) << m.message();
    EXPECT_EQ((*m)->config().n_ff_shared, 512);
    const layer_weights& l = (*m)->weights().layers[0];
    EXPECT_EQ(l.shared_down.n_out, (*m)->config().n_embd);
    EXPECT_TRUE(l.shared_gate_inp.empty());
}

TEST(LlamaVariants, aBiasTheEngineWouldNotAddIsRefusedWithTheTensorNamed)
{
    // A qwen2 file (Q, K and V biases) relabelled llama: llama.cpp would add
    // them; kvlens adds them for qwen2 only, so it refuses the file.
    auto bytes = synth_bytes(*synth_shape_named("check-qwen2"));
    ASSERT_TRUE(load(bytes).ok());
    relabel(bytes, "qwen2", "llama");
    auto m = load(std::move(bytes));
    ASSERT_FALSE(m.ok());
    EXPECT_TRUE(contains(m.message(), "tensor 'blk.0.attn_q.bias' is a bias kvlens does not add in a llama model"))
        << m.message();
}

TEST(LlamaVariants, minicpmIsGranitesBlockWithItsThreeScalesAndLongRope)
{
    auto m = load(synth_bytes(*synth_shape_named("check-minicpm")));
    ASSERT_TRUE(m.ok()) << m.message();
    const model_config& c = (*m)->config();
    EXPECT_EQ(c.architecture, arch::granite);
    EXPECT_FLOAT_EQ(c.embd_scale, 12.0f);
    EXPECT_FLOAT_EQ(c.residual_scale, 1.4f / std::sqrt(2.0f));
    EXPECT_FLOAT_EQ(c.logit_scale, 2.0f);
    EXPECT_FLOAT_EQ(c.score_scale(), 0.125f);   // no attention scale: 1 / sqrt(64)
    EXPECT_FALSE(c.rope_neox);
    EXPECT_TRUE(c.rope_longrope);
    // The LongRoPE pair in place of rope_freqs: long past the original 32 tokens.
    EXPECT_TRUE((*m)->weights().rope_freqs.empty());
    EXPECT_EQ((*m)->rope_factors_for(32), phi3_rope_factors(c.n_rot, false));
    EXPECT_EQ((*m)->rope_factors_for(64), phi3_rope_factors(c.n_rot, true));
    for (int il = 0; il < c.n_layer; ++il) EXPECT_TRUE(c.rotates(il)) << il;
}

TEST(LlamaVariants, aMinicpmFileWithoutItsEmbeddingScaleIsRefusedByKey)
{
    auto bytes = synth_bytes(*synth_shape_named("check-minicpm"));
    relabel(bytes, "minicpm.embedding_scale", "minicpm.embedding_scalX");
    auto f = gguf_file::parse(std::move(bytes), "variant.gguf");
    ASSERT_TRUE(f.ok());
    auto c = read_model_config(**f);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.message(), "missing metadata 'minicpm.embedding_scale'");
}

TEST(LlamaVariants, qwen2vlIsQwen2WithSectionsThatTurnTextAsNeoxRope)
{
    auto c = config_of(*synth_shape_named("check-qwen2vl"));
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->architecture, arch::qwen2);
    EXPECT_TRUE(c->rope_neox);
    EXPECT_TRUE(c->has_qkv_bias);
    // A fourth section would leave a text token's pairs there unturned.
    synth_shape s = *synth_shape_named("check-qwen2vl");
    s.rope_sections = {8, 12, 8, 4};
    auto fourth = config_of(s);
    ASSERT_FALSE(fourth.ok());
    EXPECT_TRUE(contains(fourth.message(), "qwen2vl.rope.dimension_sections' has a fourth section of 4 pairs"))
        << fourth.message();
    s.rope_sections = {0, 0, 0, 0};
    auto none = config_of(s);
    ASSERT_FALSE(none.ok());
    EXPECT_TRUE(contains(none.message(), "sections no pairs")) << none.message();
}

TEST(LlamaVariants, ernieMoeChoosesBySoftmaxPlusAnOptionalBiasAfterItsDenseLead)
{
    auto m = load(synth_bytes(*synth_shape_named("check-ernie4_5-moe")));
    ASSERT_TRUE(m.ok()) << m.message();
    const model_config& c = (*m)->config();
    EXPECT_EQ(c.architecture, arch::ernie4_5);
    EXPECT_FALSE(c.rope_neox);
    EXPECT_EQ(c.n_dense_lead, 1);
    EXPECT_FALSE(c.layer_moe(0));
    EXPECT_TRUE(c.layer_moe(1));
    EXPECT_FALSE(c.moe_sigmoid);
    EXPECT_TRUE(c.moe_norm_weights);
    EXPECT_EQ(c.n_ff_shared, 512);
    EXPECT_EQ((*m)->weights().layers[1].expert_bias.size(), 4u);
    EXPECT_TRUE((*m)->weights().layers[1].shared_gate_inp.empty());   // the shared expert is not gated
    // A file without the bias chooses by the softmax alone.
    auto bytes = synth_bytes(*synth_shape_named("check-ernie4_5-moe"));
    relabel(bytes, "exp_probs_b.bias", "exp_probs_X.bias");
    auto unbiased = load(std::move(bytes));
    ASSERT_TRUE(unbiased.ok()) << unbiased.message();
    EXPECT_TRUE((*unbiased)->weights().layers[1].expert_bias.empty());
}

TEST(LlamaVariants, ernieMoeWithExpertsInEveryOtherLayerIsRefusedByKey)
{
    auto bytes = synth_bytes(*synth_shape_named("check-ernie4_5-moe"));
    // The step is a u32 right after its key: 1 becomes 2.
    const std::string key = "ernie4_5-moe.interleave_moe_layer_step";
    auto at = std::search(bytes.begin(), bytes.end(), key.begin(), key.end());
    ASSERT_NE(at, bytes.end());
    const auto value = at + static_cast<std::ptrdiff_t>(key.size()) + 4;   // past the value type (u32)
    ASSERT_EQ(*value, 1);
    *value = 2;
    auto f = gguf_file::parse(std::move(bytes), "variant.gguf");
    ASSERT_TRUE(f.ok());
    auto c = read_model_config(**f);
    ASSERT_FALSE(c.ok());
    EXPECT_TRUE(contains(c.message(), "ernie4_5-moe.interleave_moe_layer_step = 2: only experts in every layer"))
        << c.message();
}

TEST(LlamaVariants, hunyuanDenseNormsQAndKPerHeadAfterNeoxRope)
{
    auto m = load(synth_bytes(*synth_shape_named("check-hunyuan-dense")));
    ASSERT_TRUE(m.ok()) << m.message();
    const model_config& c = (*m)->config();
    EXPECT_EQ(c.architecture, arch::hunyuan_dense);
    EXPECT_TRUE(c.rope_neox);
    EXPECT_TRUE(c.has_qk_norm);
    EXPECT_TRUE(c.qk_norm_after_rope);
    EXPECT_FALSE(c.has_qkv_bias);
    EXPECT_EQ((*m)->info().qk_norm, model_info::qk_norm_kind::per_head_after_rope);
    EXPECT_TRUE(contains((*m)->info().norms, "Q and K per head after RoPE")) << (*m)->info().norms;
}

TEST(CohereVariants, commandRNormsByLayerNormAndRunsBothBlocksFromOneNorm)
{
    auto m = load(synth_bytes(*synth_shape_named("check-command-r")));
    ASSERT_TRUE(m.ok()) << m.message();
    const model_config& c = (*m)->config();
    EXPECT_EQ(c.architecture, arch::command_r);
    EXPECT_TRUE(c.layer_norm);
    EXPECT_TRUE(c.parallel_blocks);
    EXPECT_FALSE(c.rope_neox);
    EXPECT_FLOAT_EQ(c.rms_eps, 1e-5f);   // from command-r.attention.layer_norm_epsilon
    EXPECT_FLOAT_EQ(c.logit_mul, 0.25f);
    EXPECT_FLOAT_EQ(c.logit_scale, 1.0f);   // Granite's divisor untouched
    // One norm per layer, read by both blocks: no feed-forward norm loaded.
    EXPECT_FALSE((*m)->weights().layers[0].attn_norm.empty());
    EXPECT_TRUE((*m)->weights().layers[0].ffn_norm.empty());
    EXPECT_TRUE(contains((*m)->info().norms, "LayerNorm, one per layer")) << (*m)->info().norms;
}

TEST(CohereVariants, commandR7BWindowsThreeLayersInFourAndLeavesTheFourthUnrotated)
{
    auto c = config_of(*synth_shape_named("check-cohere2"));
    ASSERT_TRUE(c.ok()) << c.message();
    for (int il = 0; il < c->n_layer; ++il) {
        EXPECT_EQ(c->layer_window[static_cast<std::size_t>(il)], il % 4 == 3 ? 0 : 8) << il;
        EXPECT_EQ(c->rotates(il), il % 4 != 3) << il;
    }
    // The windowed layers rotate with the model's base, as llama.cpp's graph passes it.
    EXPECT_FLOAT_EQ(c->rope_base(0), 50000.0f);
}

TEST(CohereVariants, gptneoxRunsItsBlocksSideBySideOnlyWhereTheFileSays)
{
    auto par = config_of(*synth_shape_named("check-gptneox"));
    ASSERT_TRUE(par.ok()) << par.message();
    EXPECT_EQ(par->architecture, arch::gptneox);
    EXPECT_TRUE(par->parallel_blocks);
    EXPECT_FALSE(par->shared_block_norm);   // each block its own norm
    EXPECT_TRUE(par->rope_neox);
    EXPECT_EQ(par->n_rot, 16);
    EXPECT_TRUE(par->norm_bias && par->has_qkv_bias && par->has_attn_out_bias && par->has_ffn_bias);
    auto seq = config_of(*synth_shape_named("check-gptneox-seq"));
    ASSERT_TRUE(seq.ok()) << seq.message();
    EXPECT_FALSE(seq->parallel_blocks);
    // llama.cpp requires the flag; so does kvlens, by name.
    auto bytes = synth_bytes(*synth_shape_named("check-gptneox"));
    relabel(bytes, "gptneox.use_parallel_residual", "gptneox.use_parallel_residuaX");
    auto none = config_of_bytes(std::move(bytes));
    ASSERT_FALSE(none.ok());
    EXPECT_TRUE(contains(none.message(), "'gptneox.use_parallel_residual'")) << none.message();
}

TEST(CohereVariants, whatKvlensDoesNotComputeIsRefusedByName)
{
    auto bytes = synth_bytes(*synth_shape_named("check-command-r"));
    relabel(bytes, "command-r.attention.layer_norm_epsilon", "command-r.attention.layer_norm_epsiloX");
    auto no_eps = config_of_bytes(std::move(bytes));
    ASSERT_FALSE(no_eps.ok());
    EXPECT_TRUE(contains(no_eps.message(), "'command-r.attention.layer_norm_epsilon'")) << no_eps.message();

    synth_shape plus = *synth_shape_named("check-command-r");   // Command R+'s depth: per-head Q/K norms
    plus.n_layer = 64;
    auto deep = config_of(plus);
    ASSERT_FALSE(deep.ok());
    EXPECT_TRUE(contains(deep.message(), "Command R+")) << deep.message();

    auto nw_bytes = synth_bytes(*synth_shape_named("check-cohere2"));
    relabel(nw_bytes, "cohere2.attention.sliding_window", "cohere2.attention.sliding_windoX");
    auto nw = config_of_bytes(std::move(nw_bytes));
    ASSERT_FALSE(nw.ok());
    EXPECT_TRUE(contains(nw.message(), "missing metadata 'cohere2.attention.sliding_window'")) << nw.message();
}
