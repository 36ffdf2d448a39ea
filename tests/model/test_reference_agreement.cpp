// SPDX-License-Identifier: Apache-2.0
// The engine against llama.cpp on the default model (golden data made by
// tests/reference/generate_reference.py with llama-cpp-python).
//
// How close two correct engines can be: both quantize activations to 8-bit
// blocks before every quantized dot product, so logits carry noise of a few
// tenths. Measured on these prompts' first steps: an exact float64 forward pass
// (tests/reference/reference_forward.py) differs from llama.cpp by 0.52 to
// 1.77; kvlens differs from llama.cpp by 0.15 to 0.7. Hence:
// - first-step logits: within 0.9 (half the exact-vs-llama.cpp spread) of
//   llama.cpp on the reference's top-10 tokens, and the same argmax; on ids
//   0..31 (control tokens, whose logits are the least well conditioned) within
//   0.9 of llama.cpp or of the exact float64 pass, whichever is nearer. The
//   golden data was recorded on an AVX-512 CPU; on an AVX2 CPU kvlens's
//   kernels round differently, and in chat_capital id 6 lands at 2.08 where
//   llama.cpp says 1.07 and the exact pass 2.39: nearer the exact answer than
//   llama.cpp itself is. A wrong engine is far from both references;
// - greedy continuations: identical for the first 32 tokens, or, where they
//   part earlier, the reference's top-2 margin at that step must be a near tie:
//   below 0.1, or below twice the first-step logit difference measured on the
//   same prompt (the noise level of that prompt). A wrong engine (RoPE, norm,
//   attention, a kernel) moves logits by whole units and fails both checks.
#include <QtTest>

#include <fstream>
#include <numeric>

#include <nlohmann/json.hpp>

#include "engine/backend/backend.h"
#include "engine/kv/kv_geometry.h"
#include "engine/model/model.h"
#include "engine/runtime/sampling.h"
#include "tests/support/test_paths.h"

using nlohmann::json;

namespace {

constexpr int k_required_identical = 32;
constexpr double k_near_tie = 0.1;
constexpr double k_logit_tolerance = 0.9;

struct runner {
    std::unique_ptr<kvlens::model> m;
    std::unique_ptr<kvlens::backend> be;
    std::vector<std::int32_t> table;
    std::vector<float> logits;

    bool open() {
        auto mm = kvlens::model::load(kvlens::test::default_model().string());
        if (!mm) return false;
        m = std::move(*mm);
        kvlens::backend_options o;
        o.max_batch = 256;
        o.max_ctx = 256;
        auto b = kvlens::make_cpu_backend(*m, o);
        if (!b) return false;
        be = std::move(*b);
        auto g = kvlens::make_kv_geometry(m->info(), kvlens::kv_dtype::f16, 16);
        table.resize(16);
        std::iota(table.begin(), table.end(), 0);
        logits.resize(static_cast<std::size_t>(m->info().n_vocab));
        return be->init_kv(g, 16).ok();
    }
    // Feeds ids at positions [pos, pos + n); logits of the last one.
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
};

json load_golden() {
    std::ifstream in(kvlens::test::source_root() / "tests/reference/data/greedy.json");
    return json::parse(in);
}

// The exact float64 pass's first-step logits of ids 0..31 for a prompt.
std::vector<double> exact_logits_0_31(const std::string& name) {
    std::ifstream in(kvlens::test::source_root() / "tests/reference/data/forward_f64.json");
    const json f = json::parse(in);
    for (const json& e : f["entries"])
        if (e["name"] == name) return e["first_step"]["logits_0_31"].get<std::vector<double>>();
    return {};
}

}  // namespace

class TestReferenceAgreement : public QObject {
    Q_OBJECT
    runner r_;
    json golden_;

    // Largest |kvlens - llama.cpp| over the first step's recorded logits; the
    // prompt must just have been fed.
    double first_step_difference(const json& e) const {
        double worst = 0;
        const auto ids = e["first_step"]["top10_ids"].get<std::vector<std::int32_t>>();
        const auto ref = e["first_step"]["top10_logits"].get<std::vector<double>>();
        for (std::size_t i = 0; i < ids.size(); ++i)
            worst = std::max(worst, std::fabs(r_.logits[static_cast<std::size_t>(ids[i])] - ref[i]));
        const auto slice = e["first_step"]["logits_0_31"].get<std::vector<double>>();
        for (std::size_t i = 0; i < slice.size(); ++i) worst = std::max(worst, std::fabs(r_.logits[i] - slice[i]));
        return worst;
    }

private slots:
    void initTestCase() {
        if (!kvlens::test::have_default_model()) QSKIP("default model not fetched (scripts/fetch-model)");
        QVERIFY(r_.open());
        golden_ = load_golden();
        QCOMPARE(golden_["model_sha256"].get<std::string>(),
                 std::string("b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"));
    }

    void greedy_data() {
        QTest::addColumn<int>("entry");
        const json g = load_golden();
        for (std::size_t i = 0; i < g["entries"].size(); ++i)
            QTest::newRow(g["entries"][i]["name"].get<std::string>().c_str()) << static_cast<int>(i);
    }

    void greedy() {
        QFETCH(int, entry);
        const json& e = golden_["entries"][static_cast<std::size_t>(entry)];
        const auto prompt = e["prompt_ids"].get<std::vector<std::int32_t>>();
        const auto expected = e["generated_ids"].get<std::vector<std::int32_t>>();
        const int n_check = std::min<int>(k_required_identical, static_cast<int>(expected.size()));

        r_.feed(prompt, 0);
        const double noise = first_step_difference(e);
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
        const json& e = golden_["entries"][static_cast<std::size_t>(entry)];
        r_.feed(e["prompt_ids"].get<std::vector<std::int32_t>>(), 0);
        const auto ids = e["first_step"]["top10_ids"].get<std::vector<std::int32_t>>();
        const auto ref = e["first_step"]["top10_logits"].get<std::vector<double>>();
        double worst = 0;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const double d = std::fabs(r_.logits[static_cast<std::size_t>(ids[i])] - ref[i]);
            worst = std::max(worst, d);
            QVERIFY2(d <= k_logit_tolerance, qPrintable(QString("token %1: %2 vs llama.cpp %3")
                                                            .arg(ids[i]).arg(r_.logits[static_cast<std::size_t>(ids[i])]).arg(ref[i])));
        }
        const auto slice = e["first_step"]["logits_0_31"].get<std::vector<double>>();
        const auto exact = exact_logits_0_31(e["name"].get<std::string>());
        QCOMPARE(exact.size(), slice.size());
        for (std::size_t i = 0; i < slice.size(); ++i) {
            const double d = std::fabs(r_.logits[i] - slice[i]);
            const double d_exact = std::fabs(r_.logits[i] - exact[i]);
            worst = std::max(worst, std::min(d, d_exact));
            QVERIFY2(std::min(d, d_exact) <= k_logit_tolerance,
                     qPrintable(QString("token %1: %2 vs llama.cpp %3, exact %4").arg(i).arg(r_.logits[i]).arg(slice[i]).arg(exact[i])));
        }
        // The same first token, unless the reference itself had a near tie there
        // (chat_haiku: margin 0.07; summation order alone can flip it).
        const double margin0 = e["steps"][0]["margin"].get<double>();
        if (kvlens::argmax(r_.logits) != e["first_step"]["argmax"].get<std::int32_t>())
            QVERIFY2(margin0 < std::max(k_near_tie, 2 * worst),
                     qPrintable(QString("first token differs at a margin of %1").arg(margin0)));
        qInfo("largest first-step logit difference: %.5f", worst);
    }
};

QTEST_GUILESS_MAIN(TestReferenceAgreement)
#include "test_reference_agreement.moc"
