// SPDX-License-Identifier: Apache-2.0
// `kvlens-cli summarize --remote URL` against the scripted HTTP server of
// tests/remote (issue 17): a report that fits the server's context is one
// request; one that does not is map-reduced (several map stages, then a
// reduce) planned against the context the server reports; an error status
// is a clean error with the server's message; the API key reaches the
// server but never stderr or the metrics file.
#include <QtTest>

#include <mutex>
#include <string>

#include "fake_http_server.h"
#include "tests/support/test_paths.h"

using kvlens::test::fake_http_server;
using kvlens::test::fake_request;
using kvlens::test::fake_script;

namespace {

std::string modelsJson(int context)
{
    return R"({"object":"list","data":[{"id":"fake-model","object":"model","owned_by":"vllm","max_model_len":)"
         + std::to_string(context) + "}]}";
}

fake_script answer(const std::string& text)
{
    fake_script s;
    s.pieces.push_back({kvlens::test::stream_head(), 0});
    for (const char* piece : {"Revenue ", "grew; ", "costs ", "fell."})
        s.pieces.push_back({"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + piece
                                + "\"},\"finish_reason\":null}]}\n\n",
                            2});
    s.pieces.push_back({"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n", 0});
    s.pieces.push_back({"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":300,\"completion_tokens\":4}}\n\n", 0});
    s.pieces.push_back({"data: [DONE]\n\n", 0});
    return s;
}

// /v1/models with `context`; completions answered by `completions` (default: a short summary).
fake_http_server::handler server(int context, std::function<fake_script(const fake_request&)> completions = {})
{
    return [context, completions](const fake_request& r) {
        if (r.path == "/v1/models")
            return kvlens::test::respond(200, "application/json", modelsJson(context));
        if (r.path == "/v1/chat/completions")
            return completions ? completions(r) : answer("");
        return kvlens::test::respond(404, "application/json", R"({"detail":"Not Found"})");
    };
}

struct outcome {
    bool finished = false;
    int exitCode = -1;
    QString out, err;
};

outcome runCli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProgram(QStringLiteral(KVLENS_CLI_PATH));
    p.setArguments(args);
    QProcessEnvironment e = env;
    if (!QString::fromUtf8(KVLENS_PDF_HELPER_PATH).isEmpty())
        e.insert(QStringLiteral("KVLENS_PDF_HELPER"), QStringLiteral(KVLENS_PDF_HELPER_PATH));
    p.setProcessEnvironment(e);
    p.start();
    outcome o;
    if (!p.waitForStarted(5000))
        return o;
    o.finished = p.waitForFinished(120000);
    if (!o.finished) {
        p.kill();
        p.waitForFinished();
    }
    o.exitCode = p.exitCode();
    o.out = QString::fromUtf8(p.readAllStandardOutput());
    o.err = QString::fromUtf8(p.readAllStandardError());
    return o;
}

QString report() { return QString::fromStdString((kvlens::test::shared_dir() / "testdata/pdfs/debian-refcard-en.pdf").string()); }

int completions(const fake_http_server& s)
{
    int n = 0;
    for (const fake_request& r : s.requests())
        n += r.path == "/v1/chat/completions";
    return n;
}

}  // namespace

class TestCliRemote : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        if (!QFileInfo::exists(report()))
            QSKIP(qPrintable(QStringLiteral("SKIPPED: no test report at %1").arg(report())));
    }

    void aReportThatFitsTheServersContextIsOneRequest()
    {
        fake_http_server s(server(1 << 20));
        QVERIFY(s.ok());
        QTemporaryDir dir;
        const QString metrics = dir.filePath(QStringLiteral("m.jsonl"));
        const outcome o = runCli({QStringLiteral("summarize"), report(), QStringLiteral("--remote"),
                                  QString::fromStdString(s.url()), QStringLiteral("--metrics-json"), metrics});
        QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.err));
        QVERIFY2(o.err.contains(QStringLiteral("one request")), qPrintable(o.err));
        QCOMPARE(completions(s), 1);
        QVERIFY(o.out.contains(QStringLiteral("Revenue grew; costs fell.")));
        QVERIFY2(o.err.contains(QStringLiteral("(client)")), qPrintable(o.err));   // the figures say where they were taken
        QFile m(metrics);
        QVERIFY(m.open(QIODevice::ReadOnly));
        QVERIFY(m.readAll().contains("\"client\""));
    }

    void aReportThatDoesNotFitTheServersContextIsMapReduced()
    {
        // 3,000 tokens of context, counted one per byte: the refcard needs several sections.
        fake_http_server s(server(3000));
        QVERIFY(s.ok());
        const outcome o = runCli({QStringLiteral("summarize"), report(), QStringLiteral("--remote"),
                                  QString::fromStdString(s.url()), QStringLiteral("--max-tokens"), QStringLiteral("64")});
        QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.err));
        QVERIFY2(o.err.contains(QStringLiteral("map-reduce over")), qPrintable(o.err));
        QVERIFY2(o.err.contains(QStringLiteral("reduce stage")), qPrintable(o.err));
        QVERIFY2(completions(s) >= 3, qPrintable(QString::number(completions(s))));
        // Every request fits the server's context (bytes are an upper bound on tokens).
        for (const fake_request& r : s.requests()) {
            if (r.path == "/v1/chat/completions")
                QVERIFY2(r.body.size() < 3000 + 1000, qPrintable(QString::number(r.body.size())));
        }
    }

    void anErrorStatusIsACleanErrorWithTheServersMessage()
    {
        fake_http_server s(server(1 << 20, [](const fake_request&) {
            return kvlens::test::respond(429, "application/json", R"({"error":{"message":"Rate limit reached"}})");
        }));
        QVERIFY(s.ok());
        const outcome o = runCli({QStringLiteral("summarize"), report(), QStringLiteral("--remote"),
                                  QString::fromStdString(s.url())});
        QVERIFY(o.finished);
        QVERIFY2(o.exitCode >= 1 && o.exitCode <= 123, qPrintable(o.err));
        QVERIFY2(o.err.contains(QStringLiteral("429")) && o.err.contains(QStringLiteral("Rate limit reached")),
                 qPrintable(o.err));
    }

    void theApiKeyReachesTheServerButNeitherStderrNorTheMetricsFile()
    {
        fake_http_server s(server(1 << 20));
        QVERIFY(s.ok());
        QTemporaryDir dir;
        const QString metrics = dir.filePath(QStringLiteral("m.jsonl"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KVLENS_API_KEY"), QStringLiteral("sk-summarize-secret"));
        const outcome o = runCli({QStringLiteral("summarize"), report(), QStringLiteral("--remote"),
                                  QString::fromStdString(s.url()), QStringLiteral("--metrics-json"), metrics},
                                 env);
        QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.err));
        bool sent = false;
        for (const fake_request& r : s.requests())
            sent = sent || r.headers.find("Bearer sk-summarize-secret") != std::string::npos;
        QVERIFY(sent);
        QVERIFY(!o.err.contains(QStringLiteral("sk-summarize")));
        QFile m(metrics);
        QVERIFY(m.open(QIODevice::ReadOnly));
        QVERIFY(!m.readAll().contains("sk-summarize"));
    }

    void aServerThatDoesNotSayItsContextNeedsCtx()
    {
        fake_http_server s([](const fake_request& r) {
            if (r.path == "/v1/models")
                return kvlens::test::respond(200, "application/json",
                                             R"({"object":"list","data":[{"id":"plain","object":"model"}]})");
            if (r.path == "/v1/chat/completions")
                return answer("");
            return kvlens::test::respond(404, "application/json", "{}");
        });
        QVERIFY(s.ok());
        const QStringList base = {QStringLiteral("summarize"), report(), QStringLiteral("--remote"),
                                  QString::fromStdString(s.url())};
        const outcome no = runCli(base);
        QVERIFY2(no.finished && no.exitCode == 1 && no.err.contains(QStringLiteral("--ctx")), qPrintable(no.err));
        const outcome yes = runCli(base + QStringList{QStringLiteral("--ctx"), QStringLiteral("1000000")});
        QVERIFY2(yes.finished && yes.exitCode == 0, qPrintable(yes.err));
        QCOMPARE(completions(s), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliRemote)
#include "test_cli_remote.moc"
