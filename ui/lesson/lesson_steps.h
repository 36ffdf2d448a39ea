// SPDX-License-Identifier: Apache-2.0
// The lesson (issue 13): the articles' experiments as a sequence of steps.
// Each step says what we change and what to watch, names the runs it needs,
// and after the runs gives a takeaway written from the measured figures, its
// wording following the sign of each measurement (a takeaway never claims an
// effect the numbers do not show). Qt Core only (translated strings), no
// widgets and no engine: the runs are plain LessonRun values, so tests can
// hand in any measurement, including a contrary one.
#pragma once

#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

#include "ui/lesson/line_fit.h"

namespace kvlens::ui {

class RunRecord;
struct ModelSummary;

enum class LessonStepId {
    ShortVsLong,     // (1) a two-word question alone vs the question on the report
    AnswerLength,    // (2) the same report, a one-line vs a detailed answer
    InputSweep,      // (3) 1/8, 1/4, 1/2 and all of the report, cold
    OutputSweep,     // (4) the same report, three answer limits
    KvOffOn,         // (5) KV cache on vs off
    FollowUp,        // (6) a follow-up question: the prefix cache
    BrokenPrefix,    // (7) a timestamp in the system prompt
    Concurrent,      // (8) N requests at once
    KvQ8,            // (9) the KV cache as q8_0
    SlidingWindow,   // (10) a sliding-window model (Gemma 3)
    HiddenReasoning, // (11) <think>…</think> before the answer
    Speculative,     // (12) speculative decoding: drafts from the report checked in one pass
};

// The sizes the lesson runs with, chosen so that the whole lesson takes
// minutes on a 2-core CPU with SmolLM2-135M; the captions quote them.
struct LessonSizes {
    int reportSlices = 8;           // the report cut into this many equal slices (1/8 steps)
    int shortAnswerTokens = 16;     // a one-line answer's max new tokens
    int longAnswerTokens = 96;      // a detailed answer's max new tokens
    int sweepAnswerTokens = 24;     // max new tokens in the input sweep
    QVector<int> outputSweep{8, 32, 96};   // max new tokens of the output sweep
    int kvOffSlices = 1;            // KV off recomputes everything: 1/8 of the report
    int kvOffAnswerTokens = 24;     // each step recomputes the whole prefix: keep it short
    int concurrentRequests = 3;     // with the default 2 decoded together, one queues
    int draftTokens = 4;            // speculative decoding: draft tokens checked per step
    // A question whose answer copies the report: drafts looked up in it are accepted.
    QString copyQuestion = QStringLiteral("Repeat the report's first two paragraphs, word for word, without changing anything.");
    QString twoWordQuestion = QStringLiteral("Main point?");
};

struct LessonStep {
    LessonStepId id = LessonStepId::ShortVsLong;
    int number = 0;     // 1-based, as the articles' experiments are numbered here
    QString key;        // "input-sweep": file names and JSON
    QString title;      // translated
    QString caption;    // translated: what we change, what stays, the sizes
    QString vary;       // translated: what we change
    QString watch;      // translated: what to watch
};

QVector<LessonStepId> lessonStepIds();
// "1/4": `of` slices of `slices`, in lowest terms.
QString lessonSlice(int slices, int of);
LessonStep lessonStep(LessonStepId id, const LessonSizes& sizes = {});
bool lessonStepFromKey(const QString& key, LessonStepId& out);

// Why `id` cannot run with `model` (empty: it can). Steps that need a
// second model or a kind of model that is not open say so here.
QString lessonSkipReason(LessonStepId id, const ModelSummary& model);

// One run's measured values, copied from a finished RunRecord.
struct LessonRun {
    QString label;              // "1/8 of the report", "KV off", ...
    int promptTokens = 0;
    int cachedTokens = 0;
    int generatedTokens = 0;
    int hiddenTokens = 0;       // inside <think>…</think>
    double ttftMs = 0;
    double ttftVisibleMs = 0;   // 0: no visible token
    double prefillMs = 0;
    double prefillTokS = 0;
    double decodeMs = 0;
    double decodeTokS = 0;
    double tpotMs = 0;
    double e2eMs = 0;
    double queueMs = 0;
    qint64 kvPeakBytes = 0;     // largest logical KV held
    qint64 kvTokensAtPeak = 0;  // tokens held at that moment
    qint64 kvBytesPerToken = 0; // the formula's bytes per token, all layers
    qint64 recomputedTokens = 0;
    int draftSteps = 0;             // speculative decoding: steps that checked a draft
    int draftTokens = 0;            // draft tokens proposed
    int acceptedTokens = 0;         // draft tokens accepted
    double acceptanceLength = 0;    // tokens per checking step (1 + accepted / steps); 0 without drafts
    int slidingWindow = 0;          // the model's window, tokens (0: none)
    // The KV by layer group at the run's last step (a sliding-window model;
    // all 0 without local layers): tokens each local layer holds, and the
    // logical bytes of the local and of the global layers.
    qint64 kvTokensAtEnd = 0;
    qint64 localTokensAtEnd = 0;
    qint64 localBytesAtEnd = 0;
    qint64 globalBytesAtEnd = 0;
    QVector<QPointF> kvLocalPoints;     // (tokens held, local layers' bytes), prefill chunks then tokens
    QVector<QPointF> kvGlobalPoints;    // (tokens held, global layers' bytes)
    QVector<double> latenciesMs;    // generated tokens 1.. (the gap to the previous), ms
    QVector<qint32> tokenIds;       // the answer's token ids, in order
    bool ok = true;                 // finished without an error
    QString error;
};
LessonRun lessonRunFrom(const RunRecord& r, const QString& label);

// What the step's slide plots.
struct LessonSeries {
    QString name;
    QVector<QPointF> points;
    bool line = false;          // joined points; otherwise markers
};
struct LessonPlot {
    QString xLabel;
    QString yLabel;
    QVector<LessonSeries> series;
    bool hasFit = false;        // the first series' least-squares line is drawn
    line_fit fit;
    bool bars = false;          // one bar per run (x = run index)
    QStringList barLabels;
    // A callout with the measured number at the point that matters (the
    // last point of series `calloutSeries`); "" for none.
    QString callout;
    int calloutSeries = 0;
};
LessonPlot lessonPlot(LessonStepId id, const QVector<LessonRun>& runs);

// The takeaway from the step's runs, in the order the runner makes them
// (see lesson_runner.h). Empty when a run is missing or failed.
QString lessonTakeaway(LessonStepId id, const QVector<LessonRun>& runs);

// Positions where two answers' tokens differ, over the longer answer
// (a missing token counts as different); -1 in firstDifference when equal.
struct AnswerDiff {
    int changed = 0;
    int compared = 0;
    int firstDifference = -1;
};
AnswerDiff compareAnswers(const QVector<qint32>& a, const QVector<qint32>& b);

}  // namespace kvlens::ui
