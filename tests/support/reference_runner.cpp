// SPDX-License-Identifier: Apache-2.0
// The runner and greedy check of the llama.cpp reference suites (see reference_runner.h).
#include "tests/support/reference_runner.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>

#include <fmt/format.h>

#include "engine/kv/kv_geometry.h"
#include "engine/runtime/sampling.h"
#include "tests/support/test_paths.h"

namespace kvlens::test {

nlohmann::json load_reference_data(const std::string& name) {
    std::ifstream in(source_root() / "tests/reference/data" / name);
    return nlohmann::json::parse(in);
}

kvlens::status reference_runner::open(const std::filesystem::path& model_path, int max_batch) {
    auto mm = kvlens::model::load(model_path.string());
    if (!mm) return mm.err();
    m = std::move(*mm);
    kvlens::backend_options o;
    o.max_batch = max_batch;
    o.max_ctx = 256;
    auto b = kvlens::make_cpu_backend(*m, o);
    if (!b) return b.err();
    be = std::move(*b);
    auto g = kvlens::make_kv_geometry(m->info(), kvlens::kv_dtype::f16, 16);
    g.layer_window = m->config().layer_window;
    table.resize(16);
    std::iota(table.begin(), table.end(), 0);
    logits.resize(static_cast<std::size_t>(m->info().n_vocab));
    return be->init_kv(g, 16);
}

kvlens::status reference_runner::feed(const std::vector<std::int32_t>& ids, int pos) {
    kvlens::forward_batch b;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        b.tokens.push_back(ids[i]);
        b.positions.push_back(pos + static_cast<int>(i));
        b.block_tables.push_back(table.data());
    }
    b.logit_rows.push_back(static_cast<std::int32_t>(ids.size() - 1));
    return be->forward(b, logits.data(), nullptr);
}

double reference_runner::first_step_difference(const nlohmann::json& e) const {
    double worst = 0;
    const auto ids = e["first_step"]["top10_ids"].get<std::vector<std::int32_t>>();
    const auto ref = e["first_step"]["top10_logits"].get<std::vector<double>>();
    for (std::size_t i = 0; i < ids.size(); ++i)
        worst = std::max(worst, std::fabs(logits[static_cast<std::size_t>(ids[i])] - ref[i]));
    const auto slice = e["first_step"]["logits_0_31"].get<std::vector<double>>();
    for (std::size_t i = 0; i < slice.size(); ++i) worst = std::max(worst, std::fabs(logits[i] - slice[i]));
    return worst;
}

void reference_suite_state::load(const std::filesystem::path& model_path, int max_batch,
                                 const std::string& golden_name, const std::string& no_model,
                                 const std::string& no_golden) {
    if (!std::filesystem::exists(model_path)) {
        skip = no_model;
        return;
    }
    if (!std::filesystem::exists(source_root() / "tests/reference/data" / golden_name)) {
        if (no_golden.empty()) error = "tests/reference/data/" + golden_name + " is missing";
        else skip = no_golden;
        return;
    }
    if (auto s = runner.open(model_path, max_batch); !s) {
        error = "the model did not load: " + s.message();
        return;
    }
    golden = load_reference_data(golden_name);
}

greedy_agreement check_greedy(reference_runner& r, const nlohmann::json& e, int required_identical,
                              double near_tie) {
    greedy_agreement out;
    out.name = e["name"].get<std::string>();
    const auto prompt = e["prompt_ids"].get<std::vector<std::int32_t>>();
    const auto expected = e["generated_ids"].get<std::vector<std::int32_t>>();
    const int n_check = std::min<int>(required_identical, static_cast<int>(expected.size()));
    if (auto s = r.feed(prompt, 0); !s) {
        out.failure = "the prompt's forward pass failed: " + s.message();
        return out;
    }
    const double noise = r.first_step_difference(e);
    int pos = static_cast<int>(prompt.size());
    for (int step = 0; step < n_check; ++step) {
        const std::int32_t got = kvlens::argmax(r.logits);
        const std::int32_t want = expected[static_cast<std::size_t>(step)];
        if (got != want) {
            const double margin = e["steps"][static_cast<std::size_t>(step)]["margin"].get<double>();
            if (!(margin < std::max(near_tie, 2 * noise))) {
                out.failure = fmt::format("step {}: got {}, llama.cpp {} with a margin of {} (this prompt's noise {})",
                                          step, got, want, margin, noise);
                return out;
            }
            out.ok = true;
            out.note = fmt::format("parted from llama.cpp at step {}, a near tie (margin {:.4f}, first-step noise {:.4f})",
                                   step, margin, noise);
            return out;
        }
        if (auto s = r.feed({got}, pos++); !s) {
            out.failure = fmt::format("step {}: the forward pass failed: {}", step, s.message());
            return out;
        }
    }
    out.ok = true;
    out.note = fmt::format("identical to llama.cpp for all {} tokens", n_check);
    return out;
}

std::vector<greedy_agreement> check_greedy_all(reference_runner& r, const nlohmann::json& golden,
                                               int required_identical, double near_tie) {
    std::vector<greedy_agreement> out;
    for (const nlohmann::json& e : golden["entries"]) out.push_back(check_greedy(r, e, required_identical, near_tie));
    return out;
}

}  // namespace kvlens::test
