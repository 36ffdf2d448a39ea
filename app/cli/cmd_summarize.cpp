// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli summarize REPORT.pdf`: extract, check the fit, and either one
// request (the report fits with room for the answer) or map-reduce: each
// page-aligned section summarized as its own request, then the summaries
// summarized (again in groups if they do not fit). Every stage is a request of
// the same engine, in the metrics file; stderr says which pages each covered.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/cli/commands.h"
#include "app/cli/generate_options.h"
#include "app/cli/signals.h"
#include "engine/tokenizer/tokenizer.h"
#include "pdf/context_fit.h"
#include "pdf/reader_process.h"

namespace {

struct summarize_args {
    generate_options o;
    std::string file, pages, password, task = "key-points", question;
};

std::string instruction_for(const summarize_args& a) {
    if (!a.question.empty()) return "Answer this question using only the report above: " + a.question;
    if (a.task == "one-line") return "Summarize the report above in one sentence.";
    if (a.task == "detailed") return "Write a detailed summary of the report above, section by section.";
    return "List the key points of the report above as short bullet points.";
}

kvlens::request_params chat_request(const summarize_args& a, const std::string& user) {
    kvlens::request_params p;
    p.chat = true;
    if (!a.o.system.empty()) p.messages.push_back({"system", a.o.system});
    p.messages.push_back({"user", user});
    p.max_tokens = a.o.max_tokens;
    p.sampling = make_sampling(a.o);
    return p;
}

std::string pages_label(int first, int last) {
    return first == last ? fmt::format("page {}", first) : fmt::format("pages {}-{}", first, last);
}

int run_summarize(summarize_args a) {
    const char* who = "kvlens-cli summarize";
    if (a.o.model.empty()) a.o.model = "models/SmolLM2-135M-Instruct.Q4_1.gguf";
    kvlens::pdf::read_options ro;
    ro.password = a.password;
    if (!a.pages.empty()) {
        ro.pages = kvlens::pdf::parse_page_range(a.pages);
        if (!ro.pages) { fmt::print(stderr, "{}: bad --pages '{}' (use A-B)\n", who, a.pages); return 1; }
    }
    ro.cancel = &kvlens::cli::stop_flag();  // Ctrl-C stops the helper
    auto doc = [&] {
        kvlens::cli::cancel_scope reading;
        return kvlens::pdf::read_document(a.file, ro);
    }();
    if (!doc) { fmt::print(stderr, "{}: {}\n", who, doc.message()); return 1; }
    for (const auto& w : doc->warnings) fmt::print(stderr, "{}: warning: {}\n", who, w);
    if (kvlens::pdf::joined_text(*doc).find_first_not_of(" \n\t") == std::string::npos) {
        fmt::print(stderr, "{}: '{}' has no extractable text (scanned pages?)\n", who, a.file);
        return 1;
    }

    kvlens::engine_options eo;
    std::string why;
    if (!make_engine_options(a.o, eo, why)) { fmt::print(stderr, "{}: {}\n", who, why); return 1; }
    auto e = kvlens::engine::create(eo);
    if (!e) { fmt::print(stderr, "{}: {}\n", who, e.message()); return 1; }
    kvlens::engine& eng = **e;
    if (!a.o.quiet) fmt::print(stderr, "kvlens: {} | context {} tokens\n", eng.backend_description(), eng.context_length());
    show_default_system(eng, a.o);
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> metrics(nullptr, &std::fclose);
    if (!a.o.metrics_json.empty()) {
        metrics.reset(std::fopen(a.o.metrics_json.c_str(), "w"));
        if (!metrics) { fmt::print(stderr, "{}: cannot write '{}'\n", who, a.o.metrics_json); return 1; }
    }

    const kvlens::tokenizer& tok = eng.vocab();
    auto count = [&tok](std::string_view s) { return static_cast<int>(tok.encode(s, false, false).size()); };
    const std::string instruction = instruction_for(a);
    // Template, instruction and labels: measured on an empty report, plus a margin.
    const auto empty_chat = tok.encode_chat({{"user", instruction + "\n\nReport (pages 1-999):\n"}}, true);
    if (!empty_chat) { fmt::print(stderr, "{}: {}\n", who, empty_chat.message()); return 1; }
    const int overhead = static_cast<int>(empty_chat->size()) + 16;
    const int ctx = eng.context_length();
    const auto fit = kvlens::pdf::check_fit(*doc, count, ctx, a.o.max_tokens, overhead);
    const int first_page = doc->pages.front().number, last_page = doc->pages.back().number;

    run_result r;
    if (fit.fits) {
        fmt::print(stderr, "{}: {} tokens fit the context ({} available): one request over {}\n", who, fit.needed_tokens,
                   fit.available_tokens, pages_label(first_page, last_page));
        // The report first, the instruction last (nearest the answer: small
        // models follow it there, and follow-ups share the report's prefix).
        const std::string user = fmt::format("Report ({}):\n{}\n\n{}", pages_label(first_page, last_page),
                                             kvlens::pdf::joined_text(*doc), instruction);
        return run_requests(eng, {chat_request(a, user)}, 1, metrics.get(), true, r, who) ? 0 : 1;
    }
    if (fit.available_tokens < 256) {
        fmt::print(stderr, "{}: the context of {} tokens leaves {} for the report after the answer; lower --max-tokens or raise --ctx\n",
                   who, ctx, fit.available_tokens);
        return 1;
    }
    auto sections = kvlens::pdf::make_sections(*doc, count, fit.available_tokens);
    if (!sections) { fmt::print(stderr, "{}: {}\n", who, sections.message()); return 1; }
    fmt::print(stderr, "{}: {} tokens do not fit the context ({} available): map-reduce over {} sections\n", who,
               fit.needed_tokens, fit.available_tokens, sections->size());

    // Map: each section on its own.
    std::vector<kvlens::request_params> map_reqs;
    for (std::size_t i = 0; i < sections->size(); ++i) {
        const auto& s = (*sections)[i];
        fmt::print(stderr, "{}: map stage {}: {} ({} tokens)\n", who, i + 1, pages_label(s.first_page, s.last_page), s.tokens);
        map_reqs.push_back(chat_request(a, fmt::format("Part of a longer report ({}):\n{}\n\nSummarize this part in a few "
                                                       "sentences, keeping names, numbers and conclusions.",
                                                       pages_label(s.first_page, s.last_page), s.text)));
    }
    if (!run_requests(eng, map_reqs, a.o.parallel, metrics.get(), false, r, who)) return 1;
    std::vector<std::pair<std::string, std::string>> parts;   // (pages label, summary)
    for (std::size_t i = 0; i < sections->size(); ++i)
        parts.push_back({pages_label((*sections)[i].first_page, (*sections)[i].last_page), r.texts[i]});

    // Reduce: combine summaries; if they do not fit, summarize groups of them first.
    for (int round = 1;; ++round) {
        std::string joined;
        for (const auto& [label, text] : parts) joined += fmt::format("[{}] {}\n\n", label, text);
        if (count(joined) <= fit.available_tokens || parts.size() == 1) {
            fmt::print(stderr, "{}: reduce stage: {} summaries covering {}\n", who, parts.size(), pages_label(first_page, last_page));
            const std::string user = fmt::format("Summaries of the parts of a report ({}):\n{}\n\n{}",
                                                 pages_label(first_page, last_page), joined, instruction);
            return run_requests(eng, {chat_request(a, user)}, 1, metrics.get(), true, r, who) ? 0 : 1;
        }
        std::vector<std::pair<std::string, std::string>> next;
        std::vector<kvlens::request_params> reqs;
        std::vector<std::string> labels;
        std::string group;
        std::string group_first;
        std::string group_last;
        auto flush = [&] {
            if (group.empty()) return;
            labels.push_back(group_first == group_last ? group_first : group_first + " to " + group_last);
            reqs.push_back(chat_request(a, group + "\nCombine these summaries of consecutive parts of a report into one short summary."));
            group.clear();
        };
        for (const auto& [label, text] : parts) {
            const std::string item = fmt::format("[{}] {}\n\n", label, text);
            if (!group.empty() && count(group + item) > fit.available_tokens) flush();
            if (group.empty()) group_first = label;
            group += item;
            group_last = label;
        }
        flush();
        for (const auto& l : labels) fmt::print(stderr, "{}: reduce round {}: {}\n", who, round, l);
        if (!run_requests(eng, reqs, a.o.parallel, metrics.get(), false, r, who)) return 1;
        for (std::size_t i = 0; i < reqs.size(); ++i) next.push_back({labels[i], r.texts[i]});
        parts.swap(next);
    }
}

}  // namespace

void add_summarize_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<summarize_args>();
    CLI::App* cmd = app.add_subcommand("summarize", "Summarize a PDF report (map-reduce when it does not fit)");
    cmd->add_option("report", args->file, "PDF file")->required();
    cmd->add_option("--pages", args->pages, "Page range A-B");
    cmd->add_option("--password", args->password, "Password of an encrypted PDF");
    cmd->add_option("--task", args->task, "one-line, key-points or detailed")->check(CLI::IsMember({"one-line", "key-points", "detailed"}));
    cmd->add_option("--question", args->question, "Ask a question instead of summarizing");
    add_generate_options(cmd, args->o, false);
    cmd->callback([args, &exit_code] { exit_code = run_summarize(*args); });
}
