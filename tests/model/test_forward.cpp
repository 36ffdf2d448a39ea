// SPDX-License-Identifier: Apache-2.0
// The forward pass on the tiny model: logits do not depend on how tokens are
// batched (one batch, chunks, one at a time, two sequences side by side), and
// bad batches are errors, not crashes.
#include <gtest/gtest.h>

#include "tests/support/table_rows.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>

#include "engine/backend/backend.h"
#include "engine/kv/kv_geometry.h"
#include "engine/model/model.h"
#include "engine/model/synth_model.h"
#include "engine/runtime/sampling.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/test_paths.h"
#include "tests/support/text_checks.h"
#include "tests/support/tiny_model.h"

using kvlens::test::contains;

namespace {

struct tiny {
    std::unique_ptr<kvlens::model> m;
    std::unique_ptr<kvlens::backend> be;
    int V = 0;
};

tiny open_tiny(const std::string& type, kvlens::kv_dtype dtype = kvlens::kv_dtype::f16) {
    tiny t;
    auto m = kvlens::model::load(kvlens::test::tiny_model_path(type));
    if (!m) throw std::runtime_error(m.message());   // the test fails with it
    t.m = std::move(*m);
    kvlens::backend_options o;
    o.max_batch = 64;
    o.max_ctx = 128;
    o.n_threads = 2;
    auto b = kvlens::make_cpu_backend(*t.m, o);
    if (!b) throw std::runtime_error(b.message());
    t.be = std::move(*b);
    auto g = kvlens::make_kv_geometry(t.m->info(), dtype, 16);
    if (!t.be->init_kv(g, 32).ok()) throw std::runtime_error("init_kv");
    t.V = t.m->info().n_vocab;
    return t;
}

// Logits of the last token after feeding `ids` in pieces of `piece` tokens
// into the blocks of `table`.
std::vector<float> run_pieces(tiny& t, const std::vector<std::int32_t>& ids, int piece, const std::int32_t* table) {
    std::vector<float> logits(static_cast<std::size_t>(t.V));
    for (std::size_t at = 0; at < ids.size(); at += static_cast<std::size_t>(piece)) {
        kvlens::forward_batch b;
        const std::size_t end = std::min(ids.size(), at + static_cast<std::size_t>(piece));
        for (std::size_t i = at; i < end; ++i) {
            b.tokens.push_back(ids[i]);
            b.positions.push_back(static_cast<std::int32_t>(i));
            b.block_tables.push_back(table);
        }
        b.logit_rows.push_back(static_cast<std::int32_t>(end - at - 1));
        if (!t.be->forward(b, logits.data(), nullptr).ok()) throw std::runtime_error("forward");
    }
    return logits;
}

double max_rel_diff(const std::vector<float>& a, const std::vector<float>& b) {
    double worst = 0, scale = 1e-6;
    for (std::size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, static_cast<double>(std::fabs(a[i] - b[i])));
        scale = std::max(scale, static_cast<double>(std::fabs(a[i])));
    }
    return worst / scale;
}

// The prompt the step and chunk tests share: one sentence about the KV cache,
// `times` times over (about 26 tokens each for SmolLM2), encoded with BOS.
std::vector<std::int32_t> kv_sentences(const kvlens::tokenizer& tok, int times) {
    std::string text;
    for (int i = 0; i < times; ++i)
        text += "The KV cache keeps the keys and values of past tokens, so decode reads them instead of "
                "recomputing the prefix. ";
    return tok.encode(text, true, false);
}

// A CPU backend for m (2 threads, batches up to 512, contexts up to 1024)
// with a KV pool of n_blocks 16-token blocks; null when it cannot be made.
std::unique_ptr<kvlens::backend> two_thread_backend(const kvlens::model& m, kvlens::kv_dtype dtype, int n_blocks) {
    kvlens::backend_options o;
    o.max_batch = 512;
    o.max_ctx = 1024;
    o.n_threads = 2;
    auto made = kvlens::make_cpu_backend(m, o);
    if (!made || !(*made)->init_kv(kvlens::make_kv_geometry(m.info(), dtype, 16), n_blocks)) return nullptr;
    return std::move(*made);
}

}  // namespace

struct batchingDoesNotChangeLogits_row {
    std::string tag;
    std::string type;
    int piece;
};

std::vector<batchingDoesNotChangeLogits_row> batchingDoesNotChangeLogits_rows()
{
    std::vector<batchingDoesNotChangeLogits_row> rows;
    for (const char* type : {"Q4_1", "Q8_0", "F32"})
        for (int piece : {1, 7, 40})
            rows.push_back({fmt::format("{} pieces of {}", type, piece), std::string(type), piece});
    return rows;
}

TEST(ForwardPass, batchingDoesNotChangeLogits)
{
    kvlens::test::for_each_row(batchingDoesNotChangeLogits_rows(), [&](const batchingDoesNotChangeLogits_row& row) {
        tiny t = open_tiny(row.type);
        std::vector<std::int32_t> ids(40);
        for (int i = 0; i < 40; ++i) ids[static_cast<std::size_t>(i)] = (i * 37 + 11) % t.V;
        std::vector<std::int32_t> table(8);
        std::iota(table.begin(), table.end(), 0);
        const auto whole = run_pieces(t, ids, 40, table.data());
        const auto pieces = run_pieces(t, ids, row.piece, table.data());
        ASSERT_TRUE(max_rel_diff(whole, pieces) < 1e-4) << max_rel_diff(whole, pieces);
        // Logits are real numbers spread over a range, not a constant.
        ASSERT_TRUE(*std::max_element(whole.begin(), whole.end()) - *std::min_element(whole.begin(), whole.end()) > 0.1f);
    });
}

TEST(ForwardPass, twoSequencesInOneBatchMatchSeparateRuns)
{
    tiny t = open_tiny("Q4_1");
    const std::vector<std::int32_t> a = {5, 9, 300, 4, 77, 12}, c = {400, 3, 8};
    std::vector<std::int32_t> ta = {0, 1}, tc = {5, 6};   // disjoint blocks
    const auto alone_a = run_pieces(t, a, 6, ta.data());
    const auto alone_c = run_pieces(t, c, 3, tc.data());

    kvlens::forward_batch b;
    for (std::size_t i = 0; i < a.size(); ++i) { b.tokens.push_back(a[i]); b.positions.push_back(int(i)); b.block_tables.push_back(ta.data()); }
    for (std::size_t i = 0; i < c.size(); ++i) { b.tokens.push_back(c[i]); b.positions.push_back(int(i)); b.block_tables.push_back(tc.data()); }
    b.logit_rows = {5, 8};
    std::vector<float> both(2 * static_cast<std::size_t>(t.V));
    ASSERT_TRUE(t.be->forward(b, both.data(), nullptr).ok());
    ASSERT_TRUE(max_rel_diff(alone_a, {both.begin(), both.begin() + t.V}) < 1e-4);
    ASSERT_TRUE(max_rel_diff(alone_c, {both.begin() + t.V, both.end()}) < 1e-4);
}

TEST(ForwardPass, q8KvCacheStaysClose)
{
    // F32 weights keep activations in f32, so the cache's rounding is visible
    // (with quantized weights the 8-bit activations can absorb it entirely).
    tiny f16 = open_tiny("F32"), q8 = open_tiny("F32", kvlens::kv_dtype::q8_0);
    std::vector<std::int32_t> ids(30);
    for (int i = 0; i < 30; ++i) ids[static_cast<std::size_t>(i)] = (i * 13 + 1) % f16.V;
    std::vector<std::int32_t> table = {0, 1};
    const auto a = run_pieces(f16, ids, 30, table.data());
    const auto b = run_pieces(q8, ids, 30, table.data());
    const double d = max_rel_diff(a, b);
    ASSERT_TRUE(d < 0.05 && d > 0) << std::to_string(d);   // close, and really a different cache
}

// The q8_0 KV cache against f16 on the default model, both fed the f16
// run's greedy tokens (teacher forcing), so each step compares the two
// caches on identical inputs: the argmax must agree on at least 90% of the
// 3 x 64 steps, and every step where it does not must be a near tie, f16's
// own top two less than half a logit apart (the 8-bit cache moves these
// logits by up to about 0.4). (Free-running, the texts part at the first near
// tie the 8-bit cache flips, and comparing after that measures two
// different texts, not the cache. Each prompt's f16 text, and so its count
// of near ties, moves with any change of the products' rounding, so the 90%
// is taken over all steps, not per prompt.)
TEST(ForwardPass, q8KvCacheAgreesWithF16OnTheDefaultModel)
{
    if (!kvlens::test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    auto m = kvlens::model::load(kvlens::test::default_model().string());
    ASSERT_TRUE(m.ok());
    kvlens::backend_options o;
    o.max_batch = 128;
    o.max_ctx = 256;
    std::unique_ptr<kvlens::backend> f16, q8;
    for (auto [be, dtype] : {std::pair{&f16, kvlens::kv_dtype::f16}, std::pair{&q8, kvlens::kv_dtype::q8_0}}) {
        auto made = kvlens::make_cpu_backend(**m, o);
        ASSERT_TRUE(made.ok());
        ASSERT_TRUE((*made)->init_kv(kvlens::make_kv_geometry((*m)->info(), dtype, 16), 16).ok());
        *be = std::move(*made);
    }
    std::vector<std::int32_t> table(16);
    std::iota(table.begin(), table.end(), 0);
    const std::size_t V = static_cast<std::size_t>((*m)->info().n_vocab);
    std::vector<float> a(V), b(V);
    auto tok = kvlens::tokenizer::from_gguf((*m)->file());
    ASSERT_TRUE(tok.ok());
    const std::vector<std::vector<std::int32_t>> prompts = {
        (*tok)->encode("The capital of France is", false, true),
        (*tok)->encode("def fibonacci(n):\n    ", false, true),
        (*tok)->encode((*tok)->render_chat({{"user", "Why does decode read the KV cache?"}}, true), false, true)};
    int agree = 0, steps = 0;
    for (const auto& prompt : prompts) {
        std::vector<std::int32_t> feed = prompt;
        int pos = 0, agree_here = 0;
        for (int step = 0; step < 64; ++step) {
            kvlens::forward_batch fb;
            for (std::size_t i = 0; i < feed.size(); ++i) {
                fb.tokens.push_back(feed[i]);
                fb.positions.push_back(pos + static_cast<int>(i));
                fb.block_tables.push_back(table.data());
            }
            fb.logit_rows = {static_cast<std::int32_t>(feed.size() - 1)};
            pos += static_cast<int>(feed.size());
            ASSERT_TRUE(f16->forward(fb, a.data(), nullptr).ok());
            ASSERT_TRUE(q8->forward(fb, b.data(), nullptr).ok());
            const std::int32_t next = kvlens::argmax(a);
            ++steps;
            if (next == kvlens::argmax(b)) {
                ++agree_here;
            } else {
                std::vector<float> top = a;
                std::partial_sort(top.begin(), top.begin() + 2, top.end(), std::greater<>());
                EXPECT_LT(top[0] - top[1], 0.5f) << "step " << step << ": q8_0 flipped a clear choice of f16";
            }
            feed = {next};
        }
        fmt::print("q8_0 agrees with f16 on {} of 64 steps\n", agree_here);
        agree += agree_here;
    }
    ASSERT_TRUE(agree * 10 >= steps * 9) << agree << " of " << steps;   // 90%
}

TEST(ForwardPass, badBatchesAreErrorsNotCrashes)
{
    tiny t = open_tiny("Q4_1");
    std::vector<std::int32_t> table = {0};
    std::vector<float> logits(static_cast<std::size_t>(t.V));
    kvlens::forward_batch b;
    b.tokens = {t.V + 5};
    b.positions = {0};
    b.block_tables = {table.data()};
    b.logit_rows = {0};
    auto s = t.be->forward(b, logits.data(), nullptr);
    ASSERT_TRUE(!s.ok());
    ASSERT_TRUE(contains(s.message(), "out of range"));
    b.tokens = {1};
    b.positions = {100000};
    s = t.be->forward(b, logits.data(), nullptr);
    ASSERT_TRUE(!s.ok());
    ASSERT_TRUE(contains(s.message(), "beyond the context"));
}

TEST(ForwardPass, modelErrorsNameTheMissingTensor)
{
    auto m = kvlens::model::load("/nonexistent.gguf");
    ASSERT_TRUE(!m.ok());
    ASSERT_TRUE(contains(m.message(), "cannot open"));
}

// Speculative verification (forward_batch::append_steps): a run of tokens
// marked as decode steps gives each token the logits its own decode step gives,
// bit for bit, on the default model with both cache types, at a short and a
// long prompt (one tile and several, split across the threads). Batched
// without the mark, the same tokens go through the prefill kernels and
// differ by up to about half a logit, which would change a greedy text.
TEST(ForwardPass, draftTokensMarkedAsStepsMatchTheirDecodeStepsBitForBit)
{
    if (!kvlens::test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    auto m = kvlens::model::load(kvlens::test::default_model().string());
    ASSERT_TRUE(m.ok());
    auto tok = kvlens::tokenizer::from_gguf((*m)->file());
    ASSERT_TRUE(tok.ok());
    const std::size_t V = static_cast<std::size_t>((*m)->info().n_vocab);
    std::vector<std::int32_t> table(64);
    std::iota(table.begin(), table.end(), 0);
    for (kvlens::kv_dtype dtype : {kvlens::kv_dtype::f16, kvlens::kv_dtype::q8_0}) {
        for (int repeats : {1, 12}) {
            const std::vector<std::int32_t> prompt = kv_sentences(**tok, repeats);
            const std::vector<std::int32_t> fed(prompt.begin() + 1, prompt.begin() + 7);   // 6 tokens to check
            std::unique_ptr<kvlens::backend> stepwise, together;
            for (auto* be : {&stepwise, &together}) {
                *be = two_thread_backend(**m, dtype, 64);
                ASSERT_TRUE(*be);
                kvlens::forward_batch b;
                b.append(prompt, 0, table.data(), true);
                std::vector<float> last(V);
                ASSERT_TRUE((*be)->forward(b, last.data(), nullptr).ok());
            }
            const std::int32_t at = static_cast<std::int32_t>(prompt.size());
            kvlens::forward_batch b;
            ASSERT_EQ(b.append_steps(fed, at, table.data()), 0);
            std::vector<float> all(fed.size() * V), one(V);
            ASSERT_TRUE(together->forward(b, all.data(), nullptr).ok());
            for (std::size_t i = 0; i < fed.size(); ++i) {
                kvlens::forward_batch step;
                step.append({&fed[i], 1}, at + static_cast<std::int32_t>(i), table.data(), true);
                ASSERT_TRUE(stepwise->forward(step, one.data(), nullptr).ok());
                EXPECT_EQ(0, std::memcmp(one.data(), all.data() + i * V, V * sizeof(float)))
                    << kvlens::to_string(dtype) << ", prompt of " << prompt.size() << " tokens, token " << i
                    << ": largest difference " << max_rel_diff(one, {all.begin() + i * V, all.begin() + (i + 1) * V});
            }
        }
    }
}

// A decode step gives the logits it gives alone, bit for bit, whatever else
// the batch holds: four sequences' steps and a fifth's prompt chunk in one
// forward pass. A step is always a run of its own with the decode kernels,
// and its attention range is cut into one chunk per thread however many
// jobs share the call. Before, with four jobs or more (or a prompt chunk
// beside it) a step's range went in one pass, and the merge of the lone
// step's two chunks rounds differently. The prompt chunk likewise gives
// what it gives alone.
TEST(ForwardPass, aDecodeStepGivesItsLogitsWhateverElseTheBatchHolds)
{
    if (!kvlens::test::have_default_model()) GTEST_SKIP() << "default model not fetched (scripts/fetch-model)";
    auto m = kvlens::model::load(kvlens::test::default_model().string());
    ASSERT_TRUE(m.ok());
    auto tok = kvlens::tokenizer::from_gguf((*m)->file());
    ASSERT_TRUE(tok.ok());
    const std::size_t V = static_cast<std::size_t>((*m)->info().n_vocab);
    // About 240 tokens: each step's keys split across the threads.
    const std::vector<std::int32_t> prompt = kv_sentences(**tok, 9);
    ASSERT_LT(prompt.size(), 16u * 16u);
    constexpr int k_decoding = 4, k_chunk = 40;
    std::vector<std::vector<std::int32_t>> tables(k_decoding + 1, std::vector<std::int32_t>(16));
    for (std::size_t k = 0; k < tables.size(); ++k) std::iota(tables[k].begin(), tables[k].end(), static_cast<std::int32_t>(16 * k));
    const auto at = static_cast<std::int32_t>(prompt.size());
    for (kvlens::kv_dtype dtype : {kvlens::kv_dtype::f16, kvlens::kv_dtype::q8_0}) {
        std::unique_ptr<kvlens::backend> alone, batched;
        for (auto* be : {&alone, &batched}) {
            *be = two_thread_backend(**m, dtype, 96);
            ASSERT_TRUE(*be);
            std::vector<float> last(V);
            for (int k = 0; k < k_decoding; ++k) {
                kvlens::forward_batch b;
                b.append_prompt(prompt, 0, tables[static_cast<std::size_t>(k)].data(), true);
                ASSERT_TRUE((*be)->forward(b, last.data(), nullptr).ok());
            }
        }
        // One batch: a decode step of each of the four, then the fifth's first prompt chunk.
        kvlens::forward_batch b;
        for (int k = 0; k < k_decoding; ++k)
            b.append({&prompt[static_cast<std::size_t>(k + 1)], 1}, at, tables[static_cast<std::size_t>(k)].data(), true);
        b.append_prompt({prompt.data(), k_chunk}, 0, tables[k_decoding].data(), true);
        std::vector<float> all((k_decoding + 1) * V), one(V);
        ASSERT_TRUE(batched->forward(b, all.data(), nullptr).ok());
        for (int k = 0; k <= k_decoding; ++k) {
            kvlens::forward_batch solo;
            if (k < k_decoding)
                solo.append({&prompt[static_cast<std::size_t>(k + 1)], 1}, at, tables[static_cast<std::size_t>(k)].data(), true);
            else
                solo.append_prompt({prompt.data(), k_chunk}, 0, tables[k_decoding].data(), true);
            ASSERT_TRUE(alone->forward(solo, one.data(), nullptr).ok());
            const std::vector<float> row(all.begin() + static_cast<std::ptrdiff_t>(k * V),
                                         all.begin() + static_cast<std::ptrdiff_t>((k + 1) * V));
            EXPECT_EQ(0, std::memcmp(one.data(), row.data(), V * sizeof(float)))
                << kvlens::to_string(dtype) << (k < k_decoding ? ", decode step of sequence " : ", prompt chunk of sequence ")
                << k << ": largest difference " << max_rel_diff(one, row);
        }
    }
}

// A prompt's logits do not depend on how it is cut into chunks, bit for bit,
// down to chunks of one token: every prompt row (forward_batch::append_prompt)
// goes through the same matrix kernels (prefill_kernel_tokens) and the same
// attention path (rows-in-lanes, the last register padded; tiles at
// multiples of the tile size), so a prefix-cache hit, which leaves a short
// last chunk, gives the cold run's numbers. The default
// model with both caches, and Gemma 3 (sliding-window layers past their
// window) when it is fetched. Before, chunks of 7 moved the default model's
// text and Gemma's logits by up to 3.8.
TEST(ForwardPass, chunksNeverChangeTheLogitsBitForBit)
{
    struct model_case {
        std::filesystem::path path;
        kvlens::kv_dtype dtype;
    };
    std::vector<model_case> cases;
    if (kvlens::test::have_default_model()) {
        cases.push_back({kvlens::test::default_model(), kvlens::kv_dtype::f16});
        cases.push_back({kvlens::test::default_model(), kvlens::kv_dtype::q8_0});
    }
    const auto gemma = kvlens::test::source_root() / "models/gemma-3-270m-q4_k_m.gguf";
    if (std::filesystem::exists(gemma)) cases.push_back({gemma, kvlens::kv_dtype::f16});
    if (cases.empty()) GTEST_SKIP() << "no model fetched (scripts/fetch-model)";
    for (const model_case& mc : cases) {
        auto m = kvlens::model::load(mc.path.string());
        ASSERT_TRUE(m.ok()) << m.message();
        auto tok = kvlens::tokenizer::from_gguf((*m)->file());
        ASSERT_TRUE(tok.ok());
        const std::vector<std::int32_t> prompt = kv_sentences(**tok, 20);   // about 600 tokens: past Gemma 3's window of 512
        const std::size_t V = static_cast<std::size_t>((*m)->info().n_vocab);
        kvlens::kv_geometry g = kvlens::make_kv_geometry((*m)->info(), mc.dtype, 16);
        g.layer_window = (*m)->config().layer_window;
        std::vector<std::int32_t> table(64);
        std::iota(table.begin(), table.end(), 0);
        std::vector<float> whole;
        for (int chunk : {256, 100, 9, 7, 3, 2, 1}) {
            kvlens::backend_options o;
            o.max_batch = 256;
            o.max_ctx = 1024;
            o.n_threads = 2;
            auto be = kvlens::make_cpu_backend(**m, o);
            ASSERT_TRUE(be.ok());
            ASSERT_TRUE((*be)->init_kv(g, 64).ok());
            std::vector<float> logits(V);
            for (std::size_t at = 0; at < prompt.size(); at += static_cast<std::size_t>(chunk)) {
                const std::size_t n = std::min(prompt.size() - at, static_cast<std::size_t>(chunk));
                kvlens::forward_batch b;
                b.append_prompt({prompt.data() + at, n}, static_cast<std::int32_t>(at), table.data(), at + n == prompt.size());
                ASSERT_TRUE((*be)->forward(b, logits.data(), nullptr).ok());
            }
            if (whole.empty()) {
                whole = logits;
                continue;
            }
            EXPECT_EQ(0, std::memcmp(whole.data(), logits.data(), V * sizeof(float)))
                << mc.path.filename() << " " << kvlens::to_string(mc.dtype) << ", chunks of " << chunk
                << ": largest difference " << max_rel_diff(whole, logits);
        }
    }
}

// The same with twelve query heads per KV head, where an AVX2 prefill block
// holds only two tokens (24 rows): a chunk of three then ends in a block of
// one token, which is a prompt token like the others (forward_batch::step).
// Before the step marks, a run's last token alone in its block took the
// decode path, and no rule could keep it from that at two tokens a block.
TEST(ForwardPass, chunksNeverChangeTheLogitsWithTwelveQueryHeadsPerKvHead)
{
    auto shape = kvlens::synth_shape_named("tiny");
    ASSERT_TRUE(shape.ok());
    shape->name = "tiny-g12";
    shape->n_head = 12;
    shape->n_head_kv = 1;
    shape->n_embd = 384;   // heads of 32
    const auto path = std::filesystem::temp_directory_path() / fmt::format("kvlens-tiny-g12-{}.gguf", ::getpid());
    ASSERT_TRUE(kvlens::write_synth_model(*shape, kvlens::ggml_type::q8_0, path.string(), 5).ok());
    auto m = kvlens::model::load(path.string());
    std::filesystem::remove(path);
    ASSERT_TRUE(m.ok()) << m.message();
    std::vector<std::int32_t> prompt(150);
    for (std::size_t i = 0; i < prompt.size(); ++i) prompt[i] = static_cast<std::int32_t>((i * 37 + 11) % 500);
    const std::size_t V = static_cast<std::size_t>((*m)->info().n_vocab);
    std::vector<std::int32_t> table(16);
    std::iota(table.begin(), table.end(), 0);
    for (kvlens::kv_dtype dtype : {kvlens::kv_dtype::f16, kvlens::kv_dtype::q8_0}) {
        std::vector<float> whole;
        for (int chunk : {150, 3, 5, 1}) {
            auto be = two_thread_backend(**m, dtype, 16);
            ASSERT_TRUE(be);
            std::vector<float> logits(V);
            for (std::size_t at = 0; at < prompt.size(); at += static_cast<std::size_t>(chunk)) {
                const std::size_t n = std::min(prompt.size() - at, static_cast<std::size_t>(chunk));
                kvlens::forward_batch b;
                b.append_prompt({prompt.data() + at, n}, static_cast<std::int32_t>(at), table.data(), at + n == prompt.size());
                ASSERT_TRUE(be->forward(b, logits.data(), nullptr).ok());
            }
            if (whole.empty()) {
                whole = logits;
                continue;
            }
            EXPECT_EQ(0, std::memcmp(whole.data(), logits.data(), V * sizeof(float)))
                << kvlens::to_string(dtype) << ", chunks of " << chunk << ": largest difference " << max_rel_diff(whole, logits);
        }
    }
}
