// SPDX-License-Identifier: Apache-2.0
// The lesson's takeaways and plots from measured runs. Every claim is chosen
// by the sign of its measurement: "grew" only when the second figure is
// larger, "stayed about the same" only within kFlatBand of each other, and
// otherwise the sentence says what was measured instead.
#include "ui/lesson/lesson_steps.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "ui/model/format.h"

namespace kvlens::ui {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }
QString arrow(const QString& a, const QString& b) { return a + QStringLiteral(" → ") + b; }
QString ms(double v) { return formatMs(v); }
QString count(qint64 n) { return formatCount(n); }
QString bytes(qint64 b) { return formatBytes(double(b)); }
QString pct(double f) { return QString::number(f * 100.0, 'f', 0) + QLatin1Char('%'); }

// Two figures within this fraction of the smaller are "about the same".
constexpr double kFlatBand = 0.10;
enum class Trend { Down, Flat, Up };
Trend trend(double a, double b)
{
    const double lo = std::min(std::abs(a), std::abs(b));
    if (std::abs(b - a) <= kFlatBand * lo)
        return Trend::Flat;
    return b > a ? Trend::Up : Trend::Down;
}

std::vector<double> xs(const QVector<LessonRun>& runs, double (*f)(const LessonRun&))
{
    std::vector<double> v;
    for (const LessonRun& r : runs)
        v.push_back(f(r));
    return v;
}

bool allOk(const QVector<LessonRun>& runs, int n)
{
    if (runs.size() < n)
        return false;
    return std::all_of(runs.begin(), runs.end(), [](const LessonRun& r) { return r.ok; });
}

QString ttftTrend(const LessonRun& a, const LessonRun& b)
{
    switch (trend(a.ttftMs, b.ttftMs)) {
    case Trend::Up: return tr("TTFT grew %1").arg(arrow(ms(a.ttftMs), ms(b.ttftMs)));
    case Trend::Down: return tr("TTFT fell %1").arg(arrow(ms(a.ttftMs), ms(b.ttftMs)));
    case Trend::Flat: break;
    }
    return tr("TTFT stayed about the same (%1)").arg(arrow(ms(a.ttftMs), ms(b.ttftMs)));
}

QString shortVsLong(const LessonRun& a, const LessonRun& b)
{
    const QString prompt = arrow(count(a.promptTokens), count(b.promptTokens));
    if (trend(a.ttftMs, b.ttftMs) == Trend::Up)
        return tr("%1 as the prompt grew %2 tokens: the whole report is prefilled before the first token "
                  "(%3 tokens at %4).")
            .arg(ttftTrend(a, b), prompt, count(b.promptTokens - b.cachedTokens), formatTokS(b.prefillTokS));
    return tr("%1 although the prompt grew %2 tokens: here the input did not lengthen the wait.")
        .arg(ttftTrend(a, b), prompt);
}

QString answerLength(const LessonRun& a, const LessonRun& b)
{
    const QString tokens = arrow(count(a.generatedTokens), count(b.generatedTokens));
    const QString decode = arrow(ms(a.decodeMs), ms(b.decodeMs));
    QString second;
    switch (trend(a.decodeMs, b.decodeMs)) {
    case Trend::Up: second = tr("the decode time grew %1 with the answer (%2 tokens)").arg(decode, tokens); break;
    case Trend::Down: second = tr("the decode time fell %1 (answers of %2 tokens)").arg(decode, tokens); break;
    case Trend::Flat: second = tr("the decode time stayed about the same %1 (answers of %2 tokens)").arg(decode, tokens); break;
    }
    return tr("%1 (the same report), while %2.").arg(ttftTrend(a, b), second);
}

QString inputSweep(const QVector<LessonRun>& runs)
{
    const line_fit ttft = fit_line(xs(runs, [](const LessonRun& r) { return double(r.promptTokens); }),
                                   xs(runs, [](const LessonRun& r) { return r.ttftMs; }));
    const line_fit tpot = fit_line(xs(runs, [](const LessonRun& r) { return double(r.promptTokens); }),
                                   xs(runs, [](const LessonRun& r) { return r.tpotMs; }));
    if (!ttft.valid())
        return tr("The prompts all had the same length: no line to fit.");
    const LessonRun& lo = runs.first();
    const LessonRun& hi = runs.last();
    QString first;
    const QString fit = tr("fit: TTFT ≈ %1 + %2 ms × tokens, R² %3")
                            .arg(ms(ttft.intercept), QString::number(ttft.slope, 'g', 3), QString::number(ttft.r2, 'f', 2));
    if (ttft.slope > 0)
        first = tr("Each prompt token added %1 ms to TTFT (%2; %3 → %4 tokens: %5).")
                    .arg(QString::number(ttft.slope, 'g', 3), fit, count(lo.promptTokens), count(hi.promptTokens),
                         arrow(ms(lo.ttftMs), ms(hi.ttftMs)));
    else
        first = tr("TTFT did not grow with the prompt in these runs (%1; %2 → %3 tokens: %4).")
                    .arg(fit, count(lo.promptTokens), count(hi.promptTokens), arrow(ms(lo.ttftMs), ms(hi.ttftMs)));
    QString second;
    const double growth = lo.tpotMs > 0 ? hi.tpotMs / lo.tpotMs - 1.0 : 0.0;
    if (tpot.valid() && tpot.slope > 0)
        second = tr("The time per output token grew slowly with the context, %1 (+%2, %3 ms per 1,000 tokens "
                    "of context): each step reads the KV of every earlier token.")
                     .arg(arrow(ms(lo.tpotMs), ms(hi.tpotMs)), pct(growth), QString::number(tpot.slope * 1000.0, 'f', 2));
    else
        second = tr("The time per output token did not grow with the context here (%1): at these lengths "
                    "reading the weights costs far more than reading the KV.")
                     .arg(arrow(ms(lo.tpotMs), ms(hi.tpotMs)));
    return first + QLatin1Char(' ') + second;
}

QString outputSweep(const QVector<LessonRun>& runs)
{
    const line_fit decode = fit_line(xs(runs, [](const LessonRun& r) { return double(r.generatedTokens); }),
                                     xs(runs, [](const LessonRun& r) { return r.decodeMs; }));
    const LessonRun& lo = runs.first();
    const LessonRun& hi = runs.last();
    QString first;
    if (!decode.valid())
        first = tr("The answers all had %1 tokens (the model stopped on its own): no line to fit.")
                    .arg(count(lo.generatedTokens));
    else if (decode.slope > 0)
        first = tr("The decode time followed the answer: %1 ms per token (fit, R² %2; %3 tokens: %4).")
                    .arg(QString::number(decode.slope, 'f', 1), QString::number(decode.r2, 'f', 2),
                         arrow(count(lo.generatedTokens), count(hi.generatedTokens)), arrow(ms(lo.decodeMs), ms(hi.decodeMs)));
    else
        first = tr("The decode time did not grow with the answer in these runs (%1 tokens: %2).")
                    .arg(arrow(count(lo.generatedTokens), count(hi.generatedTokens)), arrow(ms(lo.decodeMs), ms(hi.decodeMs)));
    return first + QLatin1Char(' ') + ttftTrend(lo, hi) + QLatin1Char('.');
}

line_fit latencyFit(const LessonRun& r)
{
    std::vector<double> x, y;
    for (int i = 0; i < r.latenciesMs.size(); ++i) {
        x.push_back(i + 1);
        y.push_back(r.latenciesMs[i]);
    }
    return fit_line(x, y);
}

QString kvOffOn(const LessonRun& on, const LessonRun& off)
{
    const line_fit fOn = latencyFit(on);
    const line_fit fOff = latencyFit(off);
    const QString slopes = tr("%1 ms per token without the cache, %2 ms per token with it")
                               .arg(QString::number(fOff.slope, 'g', 3), QString::number(fOn.slope, 'g', 3));
    QString first;
    if (fOff.valid() && fOn.valid() && fOff.slope > fOn.slope)
        first = tr("Without the cache each token's latency climbed faster (%1): every step ran all %2 earlier "
                   "tokens again (%3 recomputed in all).")
                    .arg(slopes, count(off.promptTokens), count(off.recomputedTokens));
        else
        first = tr("Without the cache the latency did not climb faster than with it (%1).").arg(slopes);
    QString second;
    switch (trend(on.e2eMs, off.e2eMs)) {
    case Trend::Up: second = tr("Total time %1: the cache saved the recomputation.").arg(arrow(ms(on.e2eMs), ms(off.e2eMs))); break;
    case Trend::Down: second = tr("Total time %1: without the cache it was faster here.").arg(arrow(ms(on.e2eMs), ms(off.e2eMs))); break;
    case Trend::Flat: second = tr("Total time about the same: %1.").arg(arrow(ms(on.e2eMs), ms(off.e2eMs))); break;
    }
    return first + QLatin1Char(' ') + second;
}

QString followUp(const LessonRun& a, const LessonRun& b)
{
    QString first;
    if (b.cachedTokens > 0)
        first = tr("The follow-up reused %1 of its %2 prompt tokens from the prefix cache (the report and the "
                   "first answer).")
                    .arg(count(b.cachedTokens), count(b.promptTokens));
    else
        first = tr("The follow-up reused none of its %1 prompt tokens: no prefix cache hit.").arg(count(b.promptTokens));
    return first + QLatin1Char(' ') + ttftTrend(a, b) + tr(", prefilling %1 tokens instead of %2.")
                                                             .arg(count(b.promptTokens - b.cachedTokens),
                                                                  count(a.promptTokens - a.cachedTokens));
}

QString brokenPrefix(const LessonRun& repeat, const LessonRun& broken)
{
    const QString figures = tr("the same request again reused %1 of %2 prompt tokens (TTFT %3); with a timestamp "
                               "in the system prompt %4 of %5 (TTFT %6)")
                                .arg(count(repeat.cachedTokens), count(repeat.promptTokens), ms(repeat.ttftMs),
                                     count(broken.cachedTokens), count(broken.promptTokens), ms(broken.ttftMs));
    if (broken.cachedTokens < repeat.cachedTokens)
        return tr("A changed first block breaks reuse: %1. Keep what changes at the end of the prompt.").arg(figures);
    return tr("The timestamp did not reduce reuse here: %1.").arg(figures);
}

QString concurrent(const QVector<LessonRun>& runs)
{
    const LessonRun& alone = runs.first();
    double queueMax = 0;
    qint64 kvTotal = 0;
    for (int i = 1; i < runs.size(); ++i) {
        queueMax = std::max(queueMax, runs[i].queueMs);
        kvTotal += runs[i].kvPeakBytes;
    }
    const int n = int(runs.size()) - 1;
    const double ratio = alone.kvPeakBytes > 0 ? double(kvTotal) / double(alone.kvPeakBytes) : 0.0;
    QString first;
    if (queueMax > alone.queueMs)
        first = tr("With %1 requests at once the longest queue time was %2 (alone: %3): the ones beyond the "
                   "engine's parallel slots waited.")
                    .arg(n).arg(ms(queueMax), ms(alone.queueMs));
    else
        first = tr("With %1 requests at once no request waited longer than alone (queue %2, alone %3).")
                    .arg(n).arg(ms(queueMax), ms(alone.queueMs));
    const QString second = tr("Together they held %1 of KV at their peaks, %2× one request alone (%3).")
                               .arg(bytes(kvTotal), QString::number(ratio, 'f', 1), bytes(alone.kvPeakBytes));
    return first + QLatin1Char(' ') + second;
}

QString kvQ8(const LessonRun& f16, const LessonRun& q8)
{
    const double ratio = f16.kvBytesPerToken > 0 ? double(q8.kvBytesPerToken) / double(f16.kvBytesPerToken) : 0.0;
    const double peakRatio = f16.kvPeakBytes > 0 ? double(q8.kvPeakBytes) / double(f16.kvPeakBytes) : 0.0;
    QString first;
    const QString figures = tr("%1 per token (%2 of f16), peak %3")
                                .arg(arrow(bytes(f16.kvBytesPerToken), bytes(q8.kvBytesPerToken)), pct(ratio),
                                     arrow(bytes(f16.kvPeakBytes), bytes(q8.kvPeakBytes)));
    if (peakRatio > 0 && peakRatio < 0.6)
        first = tr("q8_0 held about half the KV memory: %1.").arg(figures);
    else
        first = tr("q8_0 did not halve the KV memory here: %1.").arg(figures);
    const AnswerDiff d = compareAnswers(f16.tokenIds, q8.tokenIds);
    QString second;
    if (d.changed == 0)
        second = tr("The greedy answer was the same, token for token (%1 tokens).").arg(count(d.compared));
    else
        second = tr("The greedy answer changed at %1 of %2 token positions, first at token %3.")
                     .arg(count(d.changed), count(d.compared)).arg(d.firstDifference + 1);
    return first + QLatin1Char(' ') + second;
}

// With the per-group figures: the local layers against the window, the
// global ones against the tokens held.
QString slidingWindowGroups(const LessonRun& r)
{
    const qint64 full = r.kvTokensAtEnd * r.kvBytesPerToken;
    const QString figures =
        tr("at %1 tokens held the local layers held %2 (%3 tokens each, window %4) and the global layers %5 (%1 "
           "tokens each); every layer for every token would be %6")
            .arg(count(r.kvTokensAtEnd), bytes(r.localBytesAtEnd), count(r.localTokensAtEnd), count(r.slidingWindow),
                 bytes(r.globalBytesAtEnd), bytes(full));
    if (r.kvTokensAtEnd <= r.slidingWindow)
        return tr("The run stayed inside the window, so the local layers' KV has not flattened yet: %1.").arg(figures);
    if (r.localTokensAtEnd <= r.slidingWindow)
        return tr("The local layers capped their KV at the window while the global layers' KV kept growing: %1.")
            .arg(figures);
    return tr("The local layers did not cap their KV: %1.").arg(figures);
}

QString slidingWindow(const LessonRun& r)
{
    if (r.localTokensAtEnd > 0)
        return slidingWindowGroups(r);
    const qint64 full = r.kvTokensAtPeak * r.kvBytesPerToken;
    const QString figures = tr("at %1 tokens held (window %2) the engine held %3; every layer for every token would "
                               "be %4 (%1 × %5)")
                                .arg(count(r.kvTokensAtPeak), count(r.slidingWindow), bytes(r.kvPeakBytes),
                                     bytes(full), bytes(r.kvBytesPerToken));
    if (r.kvTokensAtPeak <= r.slidingWindow)
        return tr("The run stayed inside the window, so no cap can show: %1.").arg(figures);
    if (r.kvPeakBytes < full)
        return tr("The local layers capped their KV: %1.").arg(figures);
    return tr("The engine does not cap the local layers' KV yet: %1.").arg(figures);
}

QString hiddenReasoning(const LessonRun& r)
{
    if (r.hiddenTokens == 0)
        return tr("The model emitted no <think> block: 0 of %1 tokens were hidden, TTFT %2.")
            .arg(count(r.generatedTokens), ms(r.ttftMs));
    if (r.ttftVisibleMs <= 0)
        return tr("All %1 tokens were hidden reasoning: TTFT %2, and no visible token within the limit.")
            .arg(count(r.generatedTokens), ms(r.ttftMs));
    return tr("%1 of %2 tokens were hidden reasoning: TTFT %3, but the first visible token came at %4.")
        .arg(count(r.hiddenTokens), count(r.generatedTokens), ms(r.ttftMs), ms(r.ttftVisibleMs));
}

QString speculative(const LessonRun& plain, const LessonRun& drafted)
{
    QString first;
    if (drafted.draftSteps == 0)
        first = tr("No draft was checked: nothing the model wrote had occurred in the prompt.");
    else
        first = tr("%1 of %2 draft tokens were accepted: %3 tokens per checking step.")
                    .arg(count(drafted.acceptedTokens), count(drafted.draftTokens))
                    .arg(QLocale().toString(drafted.acceptanceLength, 'f', 2));
    const QString speeds = arrow(formatTokS(plain.decodeTokS), formatTokS(drafted.decodeTokS));
    QString second;
    switch (trend(plain.decodeTokS, drafted.decodeTokS)) {
    case Trend::Up: second = tr("Decode %1: fewer steps for the same tokens.").arg(speeds); break;
    case Trend::Down:
        second = tr("Decode %1: checking the drafts cost more than the accepted ones saved.").arg(speeds);
        break;
    case Trend::Flat: second = tr("Decode about the same: %1.").arg(speeds); break;
    }
    const AnswerDiff d = compareAnswers(plain.tokenIds, drafted.tokenIds);
    const QString third = d.changed == 0
                              ? tr("The answer was the same, token for token (%1 tokens).").arg(count(d.compared))
                              : tr("The answer changed at %1 of %2 token positions, first at token %3.")
                                    .arg(count(d.changed), count(d.compared)).arg(d.firstDifference + 1);
    return first + QLatin1Char(' ') + second + QLatin1Char(' ') + third;
}

}  // namespace

QString lessonTakeaway(LessonStepId id, const QVector<LessonRun>& runs)
{
    switch (id) {
    case LessonStepId::ShortVsLong: return allOk(runs, 2) ? shortVsLong(runs[0], runs[1]) : QString();
    case LessonStepId::AnswerLength: return allOk(runs, 2) ? answerLength(runs[0], runs[1]) : QString();
    case LessonStepId::InputSweep: return allOk(runs, 2) ? inputSweep(runs) : QString();
    case LessonStepId::OutputSweep: return allOk(runs, 2) ? outputSweep(runs) : QString();
    case LessonStepId::KvOffOn: return allOk(runs, 2) ? kvOffOn(runs[0], runs[1]) : QString();
    case LessonStepId::FollowUp: return allOk(runs, 2) ? followUp(runs[0], runs[1]) : QString();
    case LessonStepId::BrokenPrefix: return allOk(runs, 3) ? brokenPrefix(runs[1], runs[2]) : QString();
    case LessonStepId::Concurrent: return allOk(runs, 2) ? concurrent(runs) : QString();
    case LessonStepId::KvQ8: return allOk(runs, 2) ? kvQ8(runs[0], runs[1]) : QString();
    case LessonStepId::Speculative: return allOk(runs, 2) ? speculative(runs[0], runs[1]) : QString();
    case LessonStepId::SlidingWindow: return allOk(runs, 1) ? slidingWindow(runs[0]) : QString();
    case LessonStepId::HiddenReasoning: return allOk(runs, 1) ? hiddenReasoning(runs[0]) : QString();
    }
    return {};
}

LessonPlot lessonPlot(LessonStepId id, const QVector<LessonRun>& runs)
{
    LessonPlot p;
    auto bars = [&](const QString& y, double (*f)(const LessonRun&)) {
        p.bars = true;
        p.yLabel = y;
        LessonSeries s{y, {}, false};
        for (int i = 0; i < runs.size(); ++i) {
            s.points << QPointF(i, f(runs[i]));
            p.barLabels << runs[i].label;
        }
        p.series << s;
    };
    auto latencies = [&] {
        p.xLabel = tr("token");
        p.yLabel = tr("latency, ms");
        for (const LessonRun& r : runs) {
            LessonSeries s{r.label, {}, true};
            for (int i = 0; i < r.latenciesMs.size(); ++i)
                s.points << QPointF(i + 1, r.latenciesMs[i]);
            p.series << s;
        }
    };
    // The latency steps: the mean time per output token of each run, on the first run's last point.
    auto tpotCallout = [&] {
        QStringList parts;
        for (const LessonRun& r : runs) {
            if (r.tpotMs > 0)
                parts << tr("%1: %2 per token").arg(r.label, ms(r.tpotMs));
        }
        p.callout = parts.join(QStringLiteral(" · "));
    };
    switch (id) {
    case LessonStepId::ShortVsLong:
    case LessonStepId::FollowUp:
    case LessonStepId::BrokenPrefix: bars(tr("TTFT, ms"), [](const LessonRun& r) { return r.ttftMs; }); break;
    case LessonStepId::AnswerLength:
    case LessonStepId::OutputSweep: {
        p.xLabel = tr("answer tokens");
        p.yLabel = tr("ms");
        LessonSeries decode{tr("decode time"), {}, false}, ttft{tr("TTFT"), {}, false};
        std::vector<double> x, y;
        for (const LessonRun& r : runs) {
            decode.points << QPointF(r.generatedTokens, r.decodeMs);
            ttft.points << QPointF(r.generatedTokens, r.ttftMs);
            x.push_back(r.generatedTokens);
            y.push_back(r.decodeMs);
        }
        p.series << decode << ttft;
        p.fit = fit_line(x, y);
        p.hasFit = p.fit.valid();
        if (p.hasFit && !runs.isEmpty())
            p.callout = tr("decode %1 for %2 tokens: %3 ms per token")
                            .arg(ms(runs.last().decodeMs), count(runs.last().generatedTokens))
                            .arg(p.fit.slope, 0, 'f', 1);
        break;
    }
    case LessonStepId::InputSweep: {
        p.xLabel = tr("prompt tokens");
        p.yLabel = tr("ms");
        LessonSeries ttft{tr("TTFT"), {}, false}, tpot{tr("time per output token × 10"), {}, true};
        std::vector<double> x, y;
        for (const LessonRun& r : runs) {
            ttft.points << QPointF(r.promptTokens, r.ttftMs);
            tpot.points << QPointF(r.promptTokens, r.tpotMs * 10.0);
            x.push_back(r.promptTokens);
            y.push_back(r.ttftMs);
        }
        p.series << ttft << tpot;
        p.fit = fit_line(x, y);
        p.hasFit = p.fit.valid();
        if (p.hasFit && !runs.isEmpty())
            p.callout = tr("TTFT %1 at %2 prompt tokens: %3 ms per token")
                            .arg(ms(runs.last().ttftMs), count(runs.last().promptTokens))
                            .arg(p.fit.slope, 0, 'f', 1);
        break;
    }
    case LessonStepId::KvOffOn:
    case LessonStepId::KvQ8:
    case LessonStepId::Speculative:
        latencies();
        tpotCallout();
        break;
    case LessonStepId::HiddenReasoning:
        latencies();
        if (!runs.isEmpty() && runs[0].ttftVisibleMs > 0)
            p.callout = tr("TTFT %1, first visible token %2").arg(ms(runs[0].ttftMs), ms(runs[0].ttftVisibleMs));
        break;
    case LessonStepId::Concurrent: bars(tr("queue, ms"), [](const LessonRun& r) { return r.queueMs; }); break;
    case LessonStepId::SlidingWindow:
        if (!runs.isEmpty() && !runs[0].kvLocalPoints.isEmpty()) {
            // The two layer groups' KV against the tokens held, MiB.
            p.xLabel = tr("tokens held");
            p.yLabel = tr("KV, MiB");
            auto mib = [](const QVector<QPointF>& pts) {
                QVector<QPointF> out;
                for (const QPointF& q : pts)
                    out << QPointF(q.x(), q.y() / (1024.0 * 1024.0));
                return out;
            };
            p.series << LessonSeries{tr("local layers"), mib(runs[0].kvLocalPoints), true}
                     << LessonSeries{tr("global layers"), mib(runs[0].kvGlobalPoints), true};
            const LessonRun& r = runs[0];
            if (r.localTokensAtEnd > 0 && r.localBytesAtEnd % r.localTokensAtEnd == 0)
                p.callout = tr("local %1 = %2 tokens × %3 B")
                                .arg(bytes(r.localBytesAtEnd), count(r.localTokensAtEnd),
                                     count(r.localBytesAtEnd / r.localTokensAtEnd));
        } else {
            bars(tr("KV peak, bytes"), [](const LessonRun& r) { return double(r.kvPeakBytes); });
        }
        break;
    }
    return p;
}

}  // namespace kvlens::ui
