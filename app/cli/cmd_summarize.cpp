// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli summarize REPORT.pdf`: extract, check the fit, and either one
// request (the report fits with room for the answer) or map-reduce: each
// page-aligned section summarized as its own request, then the summaries
// summarized (again in groups if they do not fit). The wording, the chat
// layout, the fit and the map-reduce plan come from tasks/, the same the
// window uses. Every stage is a request of the same engine, in the metrics
// file; stderr says which pages each covered. With --remote URL the engine is
// an OpenAI-compatible server (issue 17): the fit is planned against the
// server's context (its /props or /v1/models, else --ctx) with token counts
// from --model's tokenizer when given, else one token per byte (an upper
// bound, so map-reduce starts sooner rather than overflowing the server).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/cli/commands.h"
#include "app/cli/generate_options.h"
#include "app/cli/remote_options.h"
#include "app/cli/signals.h"
#include "engine/tokenizer/tokenizer.h"
#include "pdf/reader_process.h"
#include "tasks/chat_layout.h"
#include "tasks/context_fit.h"
#include "tasks/instructions.h"
#include "tasks/map_reduce.h"

namespace {

struct summarize_args {
    generate_options o;
    remote_cli_options remote;
    std::string file, pages, password, task = "key-points", question;
};

kvlens::request_params chat_request(const summarize_args& a, const std::vector<kvlens::tasks::chat_turn>& chat) {
    kvlens::request_params p;
    p.chat = true;
    for (const auto& t : chat) p.messages.push_back({t.role, t.content});
    p.max_tokens = a.o.max_tokens;
    p.sampling = make_sampling(a.o);
    p.speculation = make_speculation(a.o);
    return p;
}

int run_summarize(summarize_args a) {
    namespace tasks = kvlens::tasks;
    const char* who = "kvlens-cli summarize";
    const bool remote = !a.remote.url.empty();
    if (a.o.model.empty() && !remote) a.o.model = "models/SmolLM2-135M-Instruct.Q4_1.gguf";
    if (remote && a.o.draft > 0) {
        fmt::print(stderr, "{}: --draft runs on the local engine only, not with --remote\n", who);
        return 1;
    }
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
    const std::string text = tasks::joined_text(*doc);
    if (text.find_first_not_of(" \n\t") == std::string::npos) {
        fmt::print(stderr, "{}: '{}' has no extractable text (scanned pages?)\n", who, a.file);
        return 1;
    }

    kvlens::engine_options eo;
    std::string why;
    if (!remote && !make_engine_options(a.o, eo, why)) { fmt::print(stderr, "{}: {}\n", who, why); return 1; }
    // With --remote, a --model file only lends its tokenizer.
    auto e = remote ? make_remote_engine(a.remote, a.o.model, a.o.parallel) : kvlens::engine::create(eo);
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
    const tasks::task_kind task = a.question.empty() ? *tasks::parse_task_key(a.task) : tasks::task_kind::question;
    const std::string instruction = tasks::instruction(task, a.question);
    const std::string system = a.o.system.empty() ? tasks::system_prompt(tasks::document_language(text)) : a.o.system;
    const std::string title = doc->metadata.title;
    const int first_page = doc->pages.front().number, last_page = doc->pages.back().number;
    // Template, system prompt, header and instruction: measured on an empty
    // report (the longest stage instruction), plus a margin.
    auto overhead_of = [&](const std::string& instr) {
        std::vector<kvlens::chat_message> msgs;
        for (const auto& t : tasks::layout_chat({system, title, tasks::pages_label(999, 999), "", instr, {}}))
            msgs.push_back({t.role, t.content});
        const auto ids = tok.encode_chat(msgs, true);   // document text stays text; only markers are control tokens
        return ids ? static_cast<int>(ids->size()) : 0;
    };
    const int overhead = std::max({overhead_of(instruction), overhead_of(tasks::map_instruction()),
                                   overhead_of(tasks::combine_instruction())}) + 16;
    int ctx = eng.context_length();
    if (remote && ctx <= 0) {
        if (a.o.ctx <= 0) {
            fmt::print(stderr, "{}: the server does not say its context length; give it with --ctx\n", who);
            return 1;
        }
        ctx = a.o.ctx;
    } else if (remote && a.o.ctx > 0) {
        ctx = std::min(ctx, a.o.ctx);   // a smaller budget than the server's, if asked
    }
    const auto fit = tasks::check_fit(*doc, count, ctx, a.o.max_tokens, overhead);

    run_result r;
    if (fit.fits) {
        fmt::print(stderr, "{}: {} tokens fit the context ({} available): one request over {}\n", who, fit.needed_tokens,
                   fit.available_tokens, tasks::pages_label(first_page, last_page));
        const auto chat = tasks::layout_chat({system, title, "", text, instruction, {}});
        const bool ok = run_requests(eng, {chat_request(a, chat)}, 1, metrics.get(), true, r, who);
        if (remote && !a.o.quiet) print_server_figures(r.done);
        return ok ? 0 : 1;
    }
    if (fit.available_tokens < 256) {
        fmt::print(stderr, "{}: the context of {} tokens leaves {} for the report after the answer; lower --max-tokens or raise --ctx\n",
                   who, ctx, fit.available_tokens);
        return 1;
    }
    auto plan = tasks::map_reduce::plan(*doc, count, {task, a.question, title, system, fit.available_tokens});
    if (!plan) { fmt::print(stderr, "{}: {}\n", who, plan.message()); return 1; }
    fmt::print(stderr, "{}: {} tokens do not fit the context ({} available): map-reduce over {} sections\n", who,
               fit.needed_tokens, fit.available_tokens, plan->round().size());
    for (;;) {
        std::vector<kvlens::request_params> reqs;
        bool last = false;
        for (const tasks::stage& s : plan->round()) {
            last = s.kind == tasks::stage_kind::reduce;
            fmt::print(stderr, "{}: {} stage {}/{} (round {}): {} ({} tokens)\n", who, tasks::stage_kind_name(s.kind),
                       s.index + 1, s.round_size, s.round, tasks::pages_label(s.first_page, s.last_page), s.input_tokens);
            reqs.push_back(chat_request(a, s.chat));
        }
        const bool ok = run_requests(eng, reqs, last ? 1 : a.o.parallel, metrics.get(), last, r, who);
        if (remote && !a.o.quiet) print_server_figures(r.done);
        if (!ok) return 1;
        for (std::size_t i = 0; i < reqs.size(); ++i) plan->set_answer(i, r.texts[i]);
        if (!plan->advance()) return 0;
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
    add_remote_options(cmd, args->remote);
    cmd->callback([args, &exit_code] { exit_code = run_summarize(*args); });
}
