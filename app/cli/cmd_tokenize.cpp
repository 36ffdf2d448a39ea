// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli tokenize --model M (--text T | --file F) [--json] [--bos]`: token ids.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/cli/cli_checks.h"
#include "app/cli/commands.h"
#include "app/cli/input_file.h"
#include "engine/gguf/gguf_reader.h"
#include "engine/tokenizer/tokenizer.h"

namespace {

struct tokenize_args {
    std::string model, text, file;
    bool json = false, bos = false, no_special = false;
    bool from_file = false;
};

int run_tokenize(const tokenize_args& a) {
    std::string text = a.text;
    if (a.from_file) {
        auto r = kvlens::cli::read_input_file(a.file, kvlens::tokenizer::max_input_bytes, "input file");
        if (!r) {
            fmt::print(stderr, "kvlens-cli tokenize: {}\n", r.message());
            return 1;
        }
        text = std::move(*r);
    } else if (auto st = kvlens::tokenizer::check_input_size(text.size(), "the text"); !st) {
        fmt::print(stderr, "kvlens-cli tokenize: {}\n", st.message());
        return 1;
    }
    auto f = kvlens::gguf_file::open(a.model);
    if (!f) {
        fmt::print(stderr, "kvlens-cli tokenize: {}\n", f.message());
        return 1;
    }
    auto tok = kvlens::tokenizer::from_gguf(**f);
    if (!tok) {
        fmt::print(stderr, "kvlens-cli tokenize: {}: {}\n", a.model, tok.message());
        return 1;
    }
    const auto ids = (*tok)->encode(text, a.bos, !a.no_special);
    if (a.json) {
        fmt::print("{}\n", nlohmann::json(ids).dump());
        return 0;
    }
    for (auto id : ids) fmt::print("{:>6}  {}\n", id, nlohmann::json((*tok)->token_to_piece(id)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    fmt::print("{} tokens\n", ids.size());
    return 0;
}

}  // namespace

void add_tokenize_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<tokenize_args>();
    CLI::App* cmd = app.add_subcommand("tokenize", "Turn text into the model's token ids");
    cmd->add_option("--model,-m", args->model, "GGUF model file")->required();
    auto* text = cmd->add_option("--text,-t", args->text, "Text to tokenize");
    auto* file = cmd->add_option("--file,-f", args->file, "File whose contents to tokenize");
    text->excludes(file);
    cmd->add_flag("--json", args->json, "Print a JSON array of integers");
    cmd->add_flag("--bos", args->bos, "Prepend the BOS token");
    cmd->add_flag("--no-special", args->no_special, "Treat special-token text as plain text");
    cmd->callback([args, &exit_code, text, file] {
        if (text->count() == 0 && file->count() == 0) {
            fmt::print(stderr, "kvlens-cli tokenize: give --text or --file\n");
            exit_code = 1;
            return;
        }
        args->from_file = file->count() > 0;
        exit_code = run_tokenize(*args);
    });
}
