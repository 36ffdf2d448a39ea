// SPDX-License-Identifier: Apache-2.0
// A mixture of experts through the CPU backend, beyond the logits the
// llama.cpp reference holds (test_synth_reference): a prompt's numbers do not
// depend on its chunks or on what else its batch holds (each expert's rows
// keep their own kernels, matmul.h), and a forward counts the weight bytes of
// the experts its tokens were routed to, each once.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>

#include "engine/backend/backend.h"
#include "engine/kv/kv_geometry.h"
#include "engine/model/model.h"
#include "engine/model/synth_model.h"

using namespace kvlens;

namespace {

// check-SHAPE in `type`, written to a temporary file and loaded.
std::unique_ptr<model> synth(const std::string& shape, const std::string& type) {
    const auto path = std::filesystem::temp_directory_path() / fmt::format("kvlens_test_moe_{}_{}_{}.gguf", shape, type, ::getpid());
    auto s = synth_shape_named(shape);
    auto t = synth_type_named(type);
    if (!s || !t || !write_synth_model(*s, *t, path.string()).ok()) return nullptr;
    auto m = model::load(path.string());
    std::filesystem::remove(path);
    return m ? std::move(*m) : nullptr;
}

std::unique_ptr<backend> cpu(const model& m) {
    backend_options o;
    o.max_batch = 128;
    o.max_ctx = 256;
    o.n_threads = 2;
    auto b = make_cpu_backend(m, o);
    if (!b || !(*b)->init_kv(make_kv_geometry(m.info(), kv_dtype::f16, 16), 48).ok()) return nullptr;
    return std::move(*b);
}

std::vector<std::int32_t> prompt_ids(int n, int V) {
    std::vector<std::int32_t> ids(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ids[static_cast<std::size_t>(i)] = 3 + (i * 37 + i * i) % (V - 3);
    return ids;
}

const char* const k_shapes[] = {"check-qwen3moe", "check-qwen2moe", "check-mixtral", "check-olmoe", "check-granitemoe",
                                 "check-lfm2moe"};

}  // namespace

TEST(MoeForward, aPromptGivesTheSameLogitsInAnyChunksBitForBit)
{
    for (const char* shape : k_shapes) {
        auto m = synth(shape, "Q4_0");
        ASSERT_TRUE(m) << shape;
        const int V = m->info().n_vocab;
        const std::vector<std::int32_t> prompt = prompt_ids(100, V);
        std::vector<std::int32_t> table(16);
        std::iota(table.begin(), table.end(), 0);
        std::vector<float> whole;
        for (const int chunk : {100, 9, 1}) {
            auto be = cpu(*m);
            ASSERT_TRUE(be);
            std::vector<float> logits(static_cast<std::size_t>(V));
            for (std::size_t at = 0; at < prompt.size(); at += static_cast<std::size_t>(chunk)) {
                const std::size_t n = std::min(prompt.size() - at, static_cast<std::size_t>(chunk));
                forward_batch b;
                b.append_prompt({prompt.data() + at, n}, static_cast<std::int32_t>(at), table.data(), at + n == prompt.size());
                ASSERT_TRUE(be->forward(b, logits.data(), nullptr).ok());
            }
            if (whole.empty()) whole = logits;
            else EXPECT_EQ(0, std::memcmp(whole.data(), logits.data(), whole.size() * sizeof(float))) << shape << ", chunks of " << chunk;
        }
    }
}

// A decode step and another sequence's prompt chunk share experts in one
// batch; each gets the logits it gets alone.
TEST(MoeForward, aDecodeStepBesideAPromptChunkGetsItsLogitsAlone)
{
    for (const char* shape : k_shapes) {
        auto m = synth(shape, "Q4_K");
        ASSERT_TRUE(m) << shape;
        const auto V = static_cast<std::size_t>(m->info().n_vocab);
        const std::vector<std::int32_t> prompt = prompt_ids(40, static_cast<int>(V));
        std::vector<std::int32_t> table_a(16), table_b(16);
        std::iota(table_a.begin(), table_a.end(), 0);
        std::iota(table_b.begin(), table_b.end(), 16);
        auto alone = cpu(*m), batched = cpu(*m);
        ASSERT_TRUE(alone && batched);
        std::vector<float> all(2 * V), one(V);
        for (auto* be : {&alone, &batched}) {
            forward_batch b;
            b.append_prompt(prompt, 0, table_a.data(), true);
            ASSERT_TRUE((*be)->forward(b, one.data(), nullptr).ok());
        }
        forward_batch b;
        b.append({&prompt[5], 1}, 40, table_a.data(), true);   // sequence a's decode step
        b.append_prompt({prompt.data(), 30}, 0, table_b.data(), true);
        ASSERT_TRUE(batched->forward(b, all.data(), nullptr).ok());
        forward_batch step;
        step.append({&prompt[5], 1}, 40, table_a.data(), true);
        ASSERT_TRUE(alone->forward(step, one.data(), nullptr).ok());
        EXPECT_EQ(0, std::memcmp(one.data(), all.data(), V * sizeof(float))) << shape << ": the decode step";
        forward_batch chunk;
        chunk.append_prompt({prompt.data(), 30}, 0, table_b.data(), true);
        ASSERT_TRUE(alone->forward(chunk, one.data(), nullptr).ok());
        EXPECT_EQ(0, std::memcmp(one.data(), all.data() + V, V * sizeof(float))) << shape << ": the prompt chunk";
    }
}

// One token reads the dense weights and its n_expert_used experts per layer
// (model::decode_weight_bytes); a long prompt reaches more experts, never
// more than all of them.
TEST(MoeForward, aForwardCountsTheWeightBytesOfTheExpertsItRan)
{
    auto m = synth("check-qwen3moe", "Q4_0");
    ASSERT_TRUE(m);
    const model_config& c = m->config();
    const layer_weights& l0 = m->weights().layers[0];
    const double one_expert = static_cast<double>(l0.exp_gate[0].row_bytes * l0.exp_gate[0].n_out +
                                                  l0.exp_up[0].row_bytes * l0.exp_up[0].n_out +
                                                  l0.exp_down[0].row_bytes * l0.exp_down[0].n_out);
    EXPECT_DOUBLE_EQ(m->decode_weight_bytes(), m->dense_weight_bytes() + c.n_layer * c.n_expert_used * one_expert);
    auto be = cpu(*m);
    ASSERT_TRUE(be);
    std::vector<std::int32_t> table(16);
    std::iota(table.begin(), table.end(), 0);
    const std::vector<std::int32_t> prompt = prompt_ids(64, m->info().n_vocab);
    std::vector<float> logits(static_cast<std::size_t>(m->info().n_vocab));
    forward_counts counts;
    forward_batch first;
    first.append_prompt({prompt.data(), 1}, 0, table.data(), true);
    ASSERT_TRUE(be->forward(first, logits.data(), &counts).ok());
    EXPECT_DOUBLE_EQ(counts.weight_bytes, m->decode_weight_bytes());
    forward_batch rest;
    rest.append_prompt({prompt.data() + 1, 63}, 1, table.data(), true);
    ASSERT_TRUE(be->forward(rest, logits.data(), &counts).ok());
    EXPECT_GT(counts.weight_bytes, m->decode_weight_bytes());
    EXPECT_LE(counts.weight_bytes, m->dense_weight_bytes() + c.n_layer * c.n_expert * one_expert);
}

// Mixtral files converted before llama.cpp merged the experts (early 2024:
// one 2-D tensor per expert, blk.N.ffn_gate.E.weight) run as the merged
// layout does: the same values give the same logits, bit for bit
// (llama.cpp 0.3.16 itself no longer loads them, so the merged layout's
// reference is theirs too).
TEST(MoeForward, filesWithOneTensorPerExpertGiveTheMergedLayoutsLogits)
{
    for (const char* type : {"Q4_K", "F16"}) {
        auto merged = synth("check-mixtral", type);
        auto split = synth("check-mixtral-split", type);
        ASSERT_TRUE(merged && split) << type;
        EXPECT_EQ(split->info().n_expert, 4);
        const int V = merged->info().n_vocab;
        const std::vector<std::int32_t> prompt = prompt_ids(30, V);
        std::vector<std::int32_t> table(16);
        std::iota(table.begin(), table.end(), 0);
        std::vector<float> a(static_cast<std::size_t>(V)), b(a.size());
        for (auto [m, out] : {std::pair{merged.get(), &a}, std::pair{split.get(), &b}}) {
            auto be = cpu(*m);
            ASSERT_TRUE(be);
            forward_batch fb;
            fb.append_prompt(prompt, 0, table.data(), true);
            ASSERT_TRUE(be->forward(fb, out->data(), nullptr).ok());
        }
        EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float))) << type;
    }
}

// Metadata that cannot describe a mixture of experts is refused by name.
TEST(MoeForward, badExpertMetadataIsRefusedByName)
{
    const auto load_shape = [](synth_shape s) {
        const auto path = std::filesystem::temp_directory_path() / fmt::format("kvlens_test_moe_bad_{}.gguf", ::getpid());
        auto t = synth_type_named("Q8_0");
        EXPECT_TRUE(t && write_synth_model(s, *t, path.string()).ok());
        auto m = model::load(path.string());
        std::filesystem::remove(path);
        return m.ok() ? std::string() : m.message();
    };
    auto s = synth_shape_named("check-qwen3moe");
    ASSERT_TRUE(s);
    synth_shape too_many = *s;   // more experts per token than there are
    too_many.n_expert_used = 9;
    EXPECT_NE(load_shape(too_many).find("qwen3moe.expert_used_count"), std::string::npos) << load_shape(too_many);
    synth_shape dense = *s;      // a qwen3moe file without experts
    dense.n_expert = 0;
    dense.n_ff_exp = 0;
    EXPECT_NE(load_shape(dense).find("qwen3moe.expert_count"), std::string::npos) << load_shape(dense);
    auto lfm = synth_shape_named("check-lfm2moe");
    ASSERT_TRUE(lfm);
    synth_shape all_dense = *lfm;   // every layer dense: no layer left for the experts
    all_dense.n_dense_lead = all_dense.n_layer;
    EXPECT_NE(load_shape(all_dense).find("lfm2moe.leading_dense_block_count"), std::string::npos) << load_shape(all_dense);
}

// The CUDA backend refuses a mixture of experts with a sentence saying so
// (choose_backend then runs it on the CPU); without a GPU it gives the
// reason it gives for any model.
TEST(MoeForward, theCudaBackendRefusesAMixtureOfExpertsByName)
{
    auto m = synth("check-mixtral", "Q8_0");
    auto dense = synth("check-llama", "Q8_0");
    ASSERT_TRUE(m && dense);
#if KVLENS_HAVE_CUDA
    backend_options o;
    auto b = make_cuda_backend(*m, o);
    ASSERT_FALSE(b.ok());
    auto d = make_cuda_backend(*dense, o);
    if (d.ok()) EXPECT_NE(b.message().find("mixture of experts"), std::string::npos) << b.message();
    else EXPECT_EQ(b.message(), d.message()) << "no GPU: the same reason for both";
#else
    GTEST_SKIP() << "built without CUDA";
#endif
}
