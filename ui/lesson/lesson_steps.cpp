// SPDX-License-Identifier: Apache-2.0
// The lesson's steps: their words (what we change, what to watch, the sizes),
// when a step cannot run, and a finished run's figures as a LessonRun.
#include "ui/lesson/lesson_steps.h"

#include <QCoreApplication>
#include <algorithm>

#include "ui/model/model_summary.h"
#include "ui/model/run_record.h"

namespace kvlens::ui {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }

struct StepWords {
    LessonStepId id;
    const char* key;
};
constexpr StepWords kSteps[] = {
    {LessonStepId::ShortVsLong, "short-vs-long"},   {LessonStepId::AnswerLength, "answer-length"},
    {LessonStepId::InputSweep, "input-sweep"},      {LessonStepId::OutputSweep, "output-sweep"},
    {LessonStepId::KvOffOn, "kv-off-on"},           {LessonStepId::FollowUp, "follow-up"},
    {LessonStepId::BrokenPrefix, "broken-prefix"},  {LessonStepId::Concurrent, "concurrent"},
    {LessonStepId::KvQ8, "kv-q8"},                  {LessonStepId::SlidingWindow, "sliding-window"},
    {LessonStepId::HiddenReasoning, "hidden-reasoning"}, {LessonStepId::Speculative, "speculative"},
};

// "1/4" for 2 of 8 slices (the fraction in lowest terms).
QString slice(int slices, int of)
{
    int a = of, b = slices;
    while (b != 0) {
        const int t = a % b;
        a = b;
        b = t;
    }
    const int g = std::max(1, a);
    return QStringLiteral("%1/%2").arg(of / g).arg(slices / g);
}

}  // namespace

QString lessonSlice(int slices, int of)
{
    return slice(slices, of);
}

QVector<LessonStepId> lessonStepIds()
{
    QVector<LessonStepId> ids;
    for (const StepWords& s : kSteps)
        ids << s.id;
    return ids;
}

bool lessonStepFromKey(const QString& key, LessonStepId& out)
{
    for (const StepWords& s : kSteps) {
        if (key == QLatin1String(s.key)) {
            out = s.id;
            return true;
        }
    }
    return false;
}

LessonStep lessonStep(LessonStepId id, const LessonSizes& z)
{
    LessonStep s;
    s.id = id;
    for (int i = 0; i < int(std::size(kSteps)); ++i) {
        if (kSteps[i].id == id) {
            s.number = i + 1;
            s.key = QLatin1String(kSteps[i].key);
        }
    }
    switch (id) {
    case LessonStepId::ShortVsLong:
        s.title = tr("A two-word question vs the report");
        s.vary = tr("the input: the question alone, then the question after the whole report");
        s.watch = tr("TTFT: the report is read (prefilled) before the first token");
        s.caption = tr("We ask \"%1\" alone, then after the whole report (both cold, greedy, at most %2 new "
                       "tokens). Watch TTFT.")
                        .arg(z.twoWordQuestion).arg(z.shortAnswerTokens);
        break;
    case LessonStepId::AnswerLength:
        s.title = tr("A one-line vs a detailed answer");
        s.vary = tr("the output: a one-line summary, then a detailed one, on the same report");
        s.watch = tr("TTFT stays; the decode time grows with the answer");
        s.caption = tr("The same report (cold) with a one-line summary (at most %1 new tokens), then a detailed one "
                       "(at most %2). Watch TTFT and the decode time.")
                        .arg(z.shortAnswerTokens).arg(z.longAnswerTokens);
        break;
    case LessonStepId::InputSweep:
        s.title = tr("Input-length sweep");
        s.vary = tr("the length of the report: %1, %2, %3 and all of it, cold")
                     .arg(slice(z.reportSlices, 1), slice(z.reportSlices, 2), slice(z.reportSlices, 4));
        s.watch = tr("TTFT against prompt tokens with its least-squares line; time per output token against the "
                     "context (the KV reads)");
        s.caption = tr("The report cut to %1, %2, %3 and all of it, each run cold with at most %4 new tokens. "
                       "Watch TTFT grow with the prompt, and the time per output token grow slowly.")
                        .arg(slice(z.reportSlices, 1), slice(z.reportSlices, 2), slice(z.reportSlices, 4))
                        .arg(z.sweepAnswerTokens);
        break;
    case LessonStepId::OutputSweep: {
        QStringList limits;
        for (int n : z.outputSweep)
            limits << QString::number(n);
        s.title = tr("Output-length sweep");
        s.vary = tr("the answer limit: %1 new tokens").arg(limits.join(QStringLiteral(", ")));
        s.watch = tr("decode time against answer tokens; TTFT");
        s.caption = tr("The same report (cold, a detailed summary) with at most %1 new tokens. Watch the decode "
                       "time follow the answer's length while TTFT stays.")
                        .arg(limits.join(QStringLiteral(", ")));
        break;
    }
    case LessonStepId::KvOffOn:
        s.title = tr("KV cache on vs off");
        s.vary = tr("the KV cache: kept (paged), then off (use_cache=False: every step recomputes the prefix)");
        s.watch = tr("the latency of each token: flat with the cache, climbing without it; the total time");
        s.caption = tr("%1 of the report, at most %2 new tokens, with the KV cache and without it. Watch each "
                       "token's latency.")
                        .arg(slice(z.reportSlices, z.kvOffSlices)).arg(z.kvOffAnswerTokens);
        break;
    case LessonStepId::FollowUp:
        s.title = tr("A follow-up question");
        s.vary = tr("a second question on the same report, after the first answer");
        s.watch = tr("cached prompt tokens and TTFT: the prefix cache");
        s.caption = tr("A one-line summary of the report (at most %1 new tokens), then a follow-up question in the "
                       "same conversation. Watch the cached tokens and TTFT.")
                        .arg(z.shortAnswerTokens);
        break;
    case LessonStepId::BrokenPrefix:
        s.title = tr("A broken prefix");
        s.vary = tr("the first bytes of the prompt: the same request again, then with a timestamp in the system "
                    "prompt");
        s.watch = tr("cached prompt tokens: a change at the start means no reuse");
        s.caption = tr("A one-line summary (cold), the same request again, then the request with a timestamp in "
                       "front of the system prompt. Watch the cached tokens.");
        break;
    case LessonStepId::Concurrent:
        s.title = tr("Requests at once");
        s.vary = tr("concurrency: one request alone, then %1 copies at once").arg(z.concurrentRequests);
        s.watch = tr("the queue time and the KV held together (KV × N)");
        s.caption = tr("A one-line summary of %1 of the report alone, then %2 copies submitted together (the "
                       "engine decodes the number of requests set in Settings together; the rest queue). Watch "
                       "the queue time and the KV.")
                        .arg(slice(z.reportSlices, 2)).arg(z.concurrentRequests);
        break;
    case LessonStepId::KvQ8:
        s.title = tr("The KV cache as q8_0");
        s.vary = tr("the KV cache's number format: f16, then q8_0");
        s.watch = tr("bytes per token and the KV peak; how many answer tokens change");
        s.caption = tr("The same request (cold, greedy, at most %1 new tokens) with the KV cache in f16 and in "
                       "q8_0. Watch the memory and the answer.")
                        .arg(z.longAnswerTokens);
        break;
    case LessonStepId::SlidingWindow:
        s.title = tr("A sliding-window model");
        s.vary = tr("nothing: one run of a model whose local layers attend to a window");
        s.watch = tr("the local layers' KV against the global layers' KV as the tokens grow");
        s.caption = tr("The whole report on a sliding-window model (Gemma 3; a base model gets the report and the "
                       "task as one text to continue), at most %1 new tokens. Watch the local layers' KV flatten at "
                       "the window while the global layers' KV keeps rising.")
                        .arg(z.shortAnswerTokens);
        break;
    case LessonStepId::HiddenReasoning:
        s.title = tr("Hidden reasoning");
        s.vary = tr("nothing: a question to a model that may think in <think>…</think> first");
        s.watch = tr("TTFT against the time to the first visible token");
        s.caption = tr("A question on %1 of the report, at most %2 new tokens. Watch the hidden tokens before the "
                       "first visible one.")
                        .arg(slice(z.reportSlices, 2)).arg(z.longAnswerTokens);
        break;
    case LessonStepId::Speculative:
        s.title = tr("Speculative decoding");
        s.vary = tr("decoding: one token per step, then up to %1 tokens guessed from the report and checked in "
                    "one pass").arg(z.draftTokens);
        s.watch = tr("the draft tokens accepted, tokens per step, the decode speed; the answer stays the same");
        s.caption = tr("A question whose answer repeats the report (\"%1\"), greedy, at most %2 new tokens: "
                       "decoded one token per step, then with drafts looked up in the report. Watch the "
                       "latency: an accepted draft token comes with the step before it.")
                        .arg(z.copyQuestion).arg(z.longAnswerTokens);
        break;
    }
    return s;
}

QString lessonSkipReason(LessonStepId id, const ModelSummary& model)
{
    if (!model.isValid())
        return tr("no model is loaded");
    if (id == LessonStepId::SlidingWindow && model.slidingWindow <= 0)
        return tr("needs a sliding-window model (Gemma 3); %1 (%2) attends to the whole context in every layer")
            .arg(model.name.isEmpty() ? model.architecture : model.name, model.architecture);
    if (id == LessonStepId::Speculative && model.remote)
        return tr("needs the local engine: a server decodes by its own rules");
    // A local model says whether it can think first; a server's model is
    // tried, and the runner skips the step after its run if nothing was hidden.
    if (id == LessonStepId::HiddenReasoning && !model.remote && model.hiddenReasoning.isEmpty())
        return tr("needs a model that thinks before it answers, in <think>…</think> (Qwen3, DeepSeek-R1 distills) "
                  "or in an analysis channel (gpt-oss); %1 has neither")
            .arg(model.name.isEmpty() ? model.architecture : model.name);
    return {};
}

LessonRun lessonRunFrom(const RunRecord& r, const QString& label)
{
    LessonRun o;
    o.label = label;
    o.ok = r.isFinished() && r.finishReason() != FinishReason::Error && r.finishReason() != FinishReason::Cancelled
           && r.hasFigures();
    o.error = r.error();
    const RunFigures& f = r.figures();
    o.promptTokens = f.prompt_tokens;
    o.cachedTokens = f.cached_tokens;
    o.generatedTokens = f.generated_tokens;
    o.ttftMs = f.ttft_ms;
    o.ttftVisibleMs = f.ttft_visible_ms;
    o.prefillMs = f.prefill_ms;
    o.prefillTokS = f.prefill_tok_s;
    o.decodeMs = f.decode_ms;
    o.decodeTokS = f.decode_tok_s;
    o.tpotMs = f.tpot_ms;
    o.e2eMs = f.e2e_ms;
    o.queueMs = f.queue_ms;
    o.kvPeakBytes = f.kv_bytes_peak;
    o.kvBytesPerToken = r.kvBytesPerToken();
    o.recomputedTokens = f.recomputed_tokens;
    o.draftSteps = f.draft_steps;
    o.draftTokens = f.draft_tokens;
    o.acceptedTokens = f.accepted_tokens;
    o.acceptanceLength = f.mean_acceptance_length;
    for (const TokenStep& t : r.tokens()) {
        o.tokenIds << t.id;
        if (!t.visible)
            ++o.hiddenTokens;
        if (t.index > 0)
            o.latenciesMs << t.latencyMs;
        if (t.kv.logicalBytes >= o.kvPeakBytes && t.kv.tokens > o.kvTokensAtPeak)
            o.kvTokensAtPeak = t.kv.tokens;
    }
    for (const PrefillProgress& p : r.prefill()) {
        if (p.kv.logicalBytes >= o.kvPeakBytes && p.kv.tokens > o.kvTokensAtPeak)
            o.kvTokensAtPeak = p.kv.tokens;
    }
    if (r.hasKvGroups()) {
        o.kvLocalPoints = r.kvPoints(RunRecord::KvKind::LocalLogical);
        o.kvGlobalPoints = r.kvPoints(RunRecord::KvKind::GlobalLogical);
        const KvSnapshot& last = !r.tokens().isEmpty() ? r.tokens().last().kv : r.prefill().last().kv;
        o.kvTokensAtEnd = last.tokens;
        o.localTokensAtEnd = last.localTokens;
        o.localBytesAtEnd = last.localBytes;
        o.globalBytesAtEnd = last.globalBytes;
    }
    return o;
}

AnswerDiff compareAnswers(const QVector<qint32>& a, const QVector<qint32>& b)
{
    AnswerDiff d;
    d.compared = int(std::max(a.size(), b.size()));
    for (int i = 0; i < d.compared; ++i) {
        const bool same = i < a.size() && i < b.size() && a[i] == b[i];
        if (!same) {
            ++d.changed;
            if (d.firstDifference < 0)
                d.firstDifference = i;
        }
    }
    return d;
}

}  // namespace kvlens::ui
