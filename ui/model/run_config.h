// SPDX-License-Identifier: Apache-2.0
// What a run asked for: the task, the part of the document, the engine
// settings it ran with, and, for a teaching experiment, which run it varies.
// Plain values, no widgets; the history shows them and run.json records them.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace kvlens::ui {

enum class TaskKind { OneLine, KeyPoints, Detailed, Question };
QString taskKey(TaskKind t);                    // "one-line", "key-points", "detailed", "question"
bool parseTaskKey(const QString& key, TaskKind& out);

// One-click variations of a run (docs/design.md, "What must be visible").
enum class Experiment {
    None,
    KvOff,          // same request, KV mode "off": every step recomputes the prefix
    HalfDocument,   // the first half of the selected text, cold (no prefix reuse): TTFT falls
    LongerAnswer,   // a detailed summary, max new tokens x 2: TTFT flat, decode grows
    ShorterAnswer,  // a one-line summary, max new tokens / 4: TTFT does not get shorter
    FollowUp,       // a follow-up question on the same document: prefix cache hit
    BrokenCache,    // a timestamp in front of the system prompt: no prefix reuse
    Concurrent,     // several copies at once: queueing and KV multiplied
    KvQ8,           // the KV cache stored as q8_0: about half the bytes per token
    Speculative,    // speculative decoding by prompt lookup: same text, fewer decode steps
};
QString experimentKey(Experiment e);            // "kv-off", "half-document", ...
// Every experiment but None, in the order the window offers them.
QVector<Experiment> allExperiments();
// Draft tokens per step the Speculative experiment checks (when its run had none).
constexpr int kExperimentDraftTokens = 4;

struct EngineSettings {
    QString modelPath;
    QString backend = QStringLiteral("auto");   // "auto", "cpu", "cuda", "remote" (an OpenAI-compatible server)
    QString kvMode = QStringLiteral("paged");   // "paged", "static", "off"
    QString kvDtype = QStringLiteral("f16");    // "f16", "q8_0"
    int kvBlock = 16;           // tokens per KV block
    int chunk = 256;            // prefill chunk, tokens
    int contextTokens = 0;      // n_ctx per sequence, tokens (0: the model's, capped by the engine)
    int parallel = 2;           // requests decoded together at most (a third one queues)
    int threads = 0;            // CPU threads, 0: one per core
    // backend "remote" (issue 17): the server and how to reach it. The API key
    // itself is never here: it is read from apiKeyFile or $KVLENS_API_KEY when
    // the engine is made, and lives only in the request header.
    QString remoteUrl;          // http(s)://host:port[/v1]
    QString remoteModel;        // "": the server's first model
    QString apiKeyFile;         // "": $KVLENS_API_KEY, else no key
    double stallTimeoutS = 60;  // no byte for this long ends a run with an error
    bool isRemote() const { return backend == QLatin1String("remote"); }
    // Engine options above need a reload when they change; the rest is per request.
    bool sameEngine(const EngineSettings& o) const;
};

struct SamplingSettings {
    int maxTokens = 192;        // max new tokens
    double temperature = 0.0;   // 0: greedy
    int topK = 40;
    double topP = 0.95;
    double minP = 0.05;
    double repeatPenalty = 1.1;
    quint64 seed = 0;
    int draftTokens = 0;        // speculative decoding: draft tokens checked per step (0: off)
};

struct RunConfig {
    TaskKind task = TaskKind::OneLine;
    QString question;               // TaskKind::Question, and follow-ups
    QString documentTitle;          // shown in the history
    int firstPage = 1;              // 1-based, inclusive
    int lastPage = 1;
    double documentFraction = 1.0;  // < 1: only the leading part (HalfDocument)
    Experiment experiment = Experiment::None;
    int parentRunId = 0;            // the run this one varies (0: none)
    int concurrentIndex = 0;        // Concurrent: which copy (0-based)
    bool timestampSystemPrompt = false;  // BrokenCache
    QString timestamp;              // BrokenCache: the prefix that was put in front
    EngineSettings engine;
    SamplingSettings sampling;
    // Map-reduce: the stage this run is ("map 2/6", "reduce"); empty otherwise.
    QString stage;
    int mapReduceId = 0;            // the map-reduce job it belongs to (0: none)
    // Follow-up: the earlier exchange kept in the conversation.
    QStringList history;            // alternating user, assistant texts after the document
};

// The one-line label of a run in the history and chart legends, e.g.
// "#3 Key points · paged" or "#4 Follow-up of #3".
QString runLabel(int id, const RunConfig& c);
// The short name in chart legends and axes: "#3 follow-up", "#4 KV off".
QString runShortLabel(int id, const RunConfig& c);
QString taskTitle(TaskKind t);      // translated, e.g. "Key points"
QString experimentTitle(Experiment e);
// Translated names of the stored keys: "paged" -> "paged" / "分页",
// "map 2/6" -> "map 2/6" / "映射 2/6", "reduce" -> "reduce" / "归并".
QString kvModeTitle(const QString& mode);
QString stageTitle(const QString& stage);

}  // namespace kvlens::ui
