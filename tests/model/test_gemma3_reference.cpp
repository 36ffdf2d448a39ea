// SPDX-License-Identifier: Apache-2.0
// Gemma 3 270M (Q4_K_M) against llama.cpp: golden data made by
// tests/reference/generate_gemma3_reference.py with llama-cpp-python 0.3.16
// (plain CPU kernels). Skips, saying so, when models/gemma-3-270m-q4_k_m.gguf
// is absent (scripts/fetch-model gemma3-270m).
//
// - Tokenization: identical ids on every recorded text (hand-written ones and
//   1500 generated multilingual texts), no tolerance.
// - First-step logits: within k_logit_tolerance on the reference's top-10 and
//   on ids 0..31. The tolerance comes from measurement (see the constant).
// - Greedy: identical for 32 tokens, or, where kvlens parts earlier, the
//   reference's top-2 margin at that step is a near tie: below k_near_tie or
//   below twice this prompt's measured first-step difference.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <numeric>

#include <nlohmann/json.hpp>

#include "engine/backend/backend.h"
#include "engine/kv/kv_geometry.h"
#include "engine/model/model.h"
#include "engine/runtime/sampling.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/test_paths.h"

using nlohmann::json;

namespace {

constexpr const char* k_sha256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818";
constexpr int k_required_identical = 32;
constexpr double k_near_tie = 0.1;
// The noise of a correct engine, measured: llama.cpp against itself, the same
// prompt fed as one batch and one token per eval (two kernel paths), differs
// by up to 1.24 on the first step's logits (batch_vs_single_max_diff in the
// golden data: 0 to 1.24 over the 8 prompts, logits of about +-25). kvlens
// differs from llama.cpp by 0.23 to 0.88 on the recorded logits. The
// tolerance is llama.cpp's own spread, rounded up: 1.25. Both engines quantize
// activations to 8-bit blocks and keep K/V in f16; they differ in summation
// order, GELU (llama.cpp: an f16 lookup table) and exp. A wrong RoPE base,
// norm, window or scale moves logits by whole units.
constexpr double k_logit_tolerance = 1.25;

std::filesystem::path gemma_model() {
    if (const char* p = std::getenv("KVLENS_GEMMA3_MODEL")) return p;
    return kvlens::test::source_root() / "models/gemma-3-270m-q4_k_m.gguf";
}

json load(const char* name) {
    std::ifstream in(kvlens::test::source_root() / "tests/reference/data" / name);
    return json::parse(in);
}

struct runner {
    std::unique_ptr<kvlens::model> m;
    std::unique_ptr<kvlens::backend> be;
    std::vector<std::int32_t> table;
    std::vector<float> logits;

    bool open() {
        auto mm = kvlens::model::load(gemma_model().string());
        if (!mm) return false;
        m = std::move(*mm);
        kvlens::backend_options o;
        o.max_batch = 128;
        o.max_ctx = 256;
        auto b = kvlens::make_cpu_backend(*m, o);
        if (!b) return false;
        be = std::move(*b);
        auto g = kvlens::make_kv_geometry(m->info(), kvlens::kv_dtype::f16, 16);
        g.layer_window = m->config().layer_window;
        table.resize(16);
        std::iota(table.begin(), table.end(), 0);
        logits.resize(static_cast<std::size_t>(m->info().n_vocab));
        return be->init_kv(g, 16).ok();
    }
    void feed(const std::vector<std::int32_t>& ids, int pos) {
        kvlens::forward_batch b;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            b.tokens.push_back(ids[i]);
            b.positions.push_back(pos + static_cast<int>(i));
            b.block_tables.push_back(table.data());
        }
        b.logit_rows.push_back(static_cast<std::int32_t>(ids.size() - 1));
        QVERIFY(be->forward(b, logits.data(), nullptr).ok());
    }
    double first_step_difference(const json& e) const {
        double worst = 0;
        const auto ids = e["first_step"]["top10_ids"].get<std::vector<std::int32_t>>();
        const auto ref = e["first_step"]["top10_logits"].get<std::vector<double>>();
        for (std::size_t i = 0; i < ids.size(); ++i)
            worst = std::max(worst, std::fabs(logits[static_cast<std::size_t>(ids[i])] - ref[i]));
        const auto slice = e["first_step"]["logits_0_31"].get<std::vector<double>>();
        for (std::size_t i = 0; i < slice.size(); ++i) worst = std::max(worst, std::fabs(logits[i] - slice[i]));
        return worst;
    }
};

}  // namespace

class TestGemma3Reference : public QObject {
    Q_OBJECT
    runner r_;
    json greedy_;

private slots:
    void initTestCase() {
        if (!std::filesystem::exists(gemma_model()))
            QSKIP("Gemma 3 270M not fetched (scripts/fetch-model gemma3-270m); the gemma3 parity checks did not run");
        if (!std::filesystem::exists(kvlens::test::source_root() / "tests/reference/data/gemma3_greedy.json"))
            QSKIP("no Gemma 3 golden data (tests/reference/generate_gemma3_reference.py)");
        QVERIFY2(r_.open(), "the Gemma 3 model did not load");
        greedy_ = load("gemma3_greedy.json");
        QCOMPARE(greedy_["model_sha256"].get<std::string>(), std::string(k_sha256));
    }

    void theConfigurationIsLlamaCppsFiveLocalLayersThenOneGlobal() {
        const kvlens::model_config& c = r_.m->config();
        QCOMPARE(c.n_layer, 18);
        for (int il = 0; il < c.n_layer; ++il)
            QCOMPARE(c.layer_window[static_cast<std::size_t>(il)], il % 6 == 5 ? 0 : 512);
        QCOMPARE(c.rope_base(0), 10000.0f);
        QCOMPARE(c.rope_base(5), 1000000.0f);
        QCOMPARE(c.score_scale(), 1.0f / 16.0f);   // 1 / sqrt(key_length 256)
    }

    void tokenizationIsIdenticalOnEveryRecordedText() {
        const json t = load("gemma3_tokenize.json");
        auto tok = kvlens::tokenizer::from_gguf(r_.m->file());
        QVERIFY(tok.ok());
        int checked = 0;
        for (const json& e : t["entries"]) {
            const auto want = e["ids"].get<std::vector<std::int32_t>>();
            const auto got = (*tok)->encode(e["text"].get<std::string>(), false, false);
            QVERIFY2(got == want, qPrintable(QString("text '%1' (%2) tokenized differently")
                                                 .arg(QString::fromStdString(e["text"].get<std::string>()))
                                                 .arg(QString::fromStdString(e["name"].get<std::string>()))));
            ++checked;
        }
        QVERIFY(checked > 1000);
        qInfo("%d texts tokenized as llama.cpp does", checked);
    }

    void greedy_data() {
        QTest::addColumn<int>("entry");
        if (!std::filesystem::exists(gemma_model()) ||
            !std::filesystem::exists(kvlens::test::source_root() / "tests/reference/data/gemma3_greedy.json"))
            return;
        const json g = load("gemma3_greedy.json");
        for (std::size_t i = 0; i < g["entries"].size(); ++i)
            QTest::newRow(g["entries"][i]["name"].get<std::string>().c_str()) << static_cast<int>(i);
    }

    void greedy() {
        QFETCH(int, entry);
        const json& e = greedy_["entries"][static_cast<std::size_t>(entry)];
        const auto prompt = e["prompt_ids"].get<std::vector<std::int32_t>>();
        const auto expected = e["generated_ids"].get<std::vector<std::int32_t>>();
        const int n_check = std::min<int>(k_required_identical, static_cast<int>(expected.size()));
        r_.feed(prompt, 0);
        const double noise = r_.first_step_difference(e);
        int pos = static_cast<int>(prompt.size());
        for (int step = 0; step < n_check; ++step) {
            const std::int32_t got = kvlens::argmax(r_.logits);
            if (got != expected[static_cast<std::size_t>(step)]) {
                const double margin = e["steps"][static_cast<std::size_t>(step)]["margin"].get<double>();
                QVERIFY2(margin < std::max(k_near_tie, 2 * noise),
                         qPrintable(QString("step %1: got %2, llama.cpp %3 with a margin of %4 (this prompt's noise %5)")
                                        .arg(step).arg(got).arg(expected[static_cast<std::size_t>(step)]).arg(margin).arg(noise)));
                qInfo("parted from llama.cpp at step %d, a near tie (margin %.4f, first-step noise %.4f)", step, margin, noise);
                return;
            }
            r_.feed({got}, pos++);
        }
        qInfo("identical to llama.cpp for all %d tokens", n_check);
    }

    void firstStepLogits_data() { greedy_data(); }

    void firstStepLogits() {
        QFETCH(int, entry);
        const json& e = greedy_["entries"][static_cast<std::size_t>(entry)];
        r_.feed(e["prompt_ids"].get<std::vector<std::int32_t>>(), 0);
        const double worst = r_.first_step_difference(e);
        qInfo("largest first-step logit difference: %.5f", worst);
        QVERIFY2(worst <= k_logit_tolerance, qPrintable(QString("first-step logits differ by %1").arg(worst)));
        const double margin0 = e["steps"][0]["margin"].get<double>();
        if (kvlens::argmax(r_.logits) != e["first_step"]["argmax"].get<std::int32_t>())
            QVERIFY2(margin0 < std::max(k_near_tie, 2 * worst),
                     qPrintable(QString("first token differs at a margin of %1").arg(margin0)));
    }
};

QTEST_GUILESS_MAIN(TestGemma3Reference)
#include "test_gemma3_reference.moc"
