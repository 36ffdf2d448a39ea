// SPDX-License-Identifier: Apache-2.0
// TtftChart.
#include "ui/charts/ttft_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>
#include <algorithm>

#include "ui/charts/chart_callouts.h"
#include "ui/charts/chart_setters.h"
#include "ui/model/run_config.h"
#include "ui/model/run_record.h"

namespace kvlens::ui {

TtftChart::TtftChart(QWidget* parent) : ChartPanel(QStringLiteral("ttft"), parent)
{
    callouts_ = addCallouts();
    series_ = new QHorizontalStackedBarSeries;
    queue_ = new QBarSet(QString());
    tokenize_ = new QBarSet(QString());
    prefill_ = new QBarSet(QString());
    sample_ = new QBarSet(QString());
    hidden_ = new QBarSet(QString());
    for (QBarSet* s : {queue_, tokenize_, prefill_, sample_, hidden_})
        series_->append(s);
    series_->setBarWidth(0.6);
    chart_->addSeries(series_);
    runs_ = new QBarCategoryAxis;
    ms_ = new QValueAxis;
    chart_->addAxis(runs_, Qt::AlignLeft);
    chart_->addAxis(ms_, Qt::AlignBottom);
    series_->attachAxis(runs_);
    series_->attachAxis(ms_);
    ms_->setRange(0, 100);
    setHeader(tr("Time to first token"), QString());
    setStyle(style_);
}

void TtftChart::restyle()
{
    callouts_->setEnabled(style_.presentation);
    style_.applyTo(ms_, tr("TTFT (ms)"));
    style_.applyTo(runs_, tr("run"));
    runs_->setTitleVisible(!style_.presentation);   // the run names say it; their width is needed
    const QColor colors[] = {ChartStyle::queueColor(), ChartStyle::tokenizeColor(), ChartStyle::prefillColor(),
                             ChartStyle::sampleColor(), ChartStyle::hiddenReasoningColor()};
    queue_->setLabel(tr("queue"));
    tokenize_->setLabel(tr("tokenize"));
    prefill_->setLabel(tr("prefill"));
    sample_->setLabel(tr("first sample"));
    hidden_->setLabel(tr("hidden reasoning"));
    chart_->legend()->setMarkerShape(QLegend::MarkerShapeRectangle);
    int i = 0;
    for (QBarSet* s : {queue_, tokenize_, prefill_, sample_, hidden_}) {
        s->setColor(colors[i++]);
        s->setBorderColor(style_.backgroundColor());
        s->setLabelFont(style_.labelFont());
    }
}

namespace {
// A remote run's TTFT as the client saw it: its own queue, then the server and
// the network undivided (the server does not split it), drawn in the prefill
// colour, which dominates it; the caption says so.
TtftParts partsOf(const RunRecord* r)
{
    TtftParts parts = r->ttftParts();
    if (r->config().engine.isRemote() && r->hasFirstToken())
        parts = {parts.queueMs, 0, std::max(0.0, r->ttftMs() - parts.queueMs), 0};
    return parts;
}
// First token -> first visible token, ms: the hidden reasoning a reader
// waits through (0 without hidden tokens; until now while none is visible).
double hiddenMsOf(const RunRecord* r)
{
    if (!r->hasFirstToken() || r->hiddenTokens() == 0)
        return 0;
    const double visible = r->firstVisibleMs();
    const double end = visible > 0 ? visible : r->lastEventMs();
    return std::max(0.0, end - r->ttftMs());
}
}  // namespace

void TtftChart::plot(const ChartInput& in)
{
    // The chart follows the overlay: the compared run and the selected one
    // (with its siblings when it is one of several concurrent copies), so a
    // cached follow-up is read against its parent, not among six slivers.
    QVector<const RunRecord*> runs;
    if (in.compare)
        runs.append(in.compare);
    if (in.primary) {
        const RunConfig& pc = in.primary->config();
        const bool concurrent = pc.experiment == Experiment::Concurrent;
        for (const RunRecord* r : in.recent) {
            if (r && r != in.primary && concurrent && r->config().experiment == Experiment::Concurrent
                && r->config().parentRunId == pc.parentRunId && r->createdAt().secsTo(in.primary->createdAt()) <= 1
                && !runs.contains(r))
                runs.append(r);
        }
        runs.append(in.primary);
    }
    if (runs.isEmpty()) {
        for (const RunRecord* r : in.recent) {
            if (r && r->state() != RunRecord::State::Waiting)
                runs.append(r);
        }
        while (runs.size() > kMaxRuns)
            runs.removeFirst();
    }
    double maxMs = 10;
    bool anyHidden = false;
    for (const RunRecord* r : runs) {
        maxMs = std::max(maxMs, partsOf(r).total() + hiddenMsOf(r));
        anyHidden = anyHidden || hiddenMsOf(r) > 0;
    }
    // Seconds once the longest bar passes 10 s: no axis of 400,000 ms.
    const bool seconds = maxMs > 10000;
    const double unit = seconds ? 1000.0 : 1.0;
    chart_set::title(ms_, seconds ? tr("TTFT (s)") : tr("TTFT (ms)"));
    QStringList labels;
    QList<qreal> q, t, p, s, h;
    for (const RunRecord* r : runs) {
        const TtftParts parts = partsOf(r);
        QString label = runName(r);
        if (r == in.primary && runs.size() > 1)
            label = QStringLiteral("▶ ") + label;
        labels << label;
        q << parts.queueMs / unit;
        t << parts.tokenizeMs / unit;
        p << parts.prefillMs / unit;
        s << parts.sampleMs / unit;
        h << hiddenMsOf(r) / unit;
    }
    chart_set::categories(runs_, labels.isEmpty() ? QStringList{QStringLiteral("—")} : labels);
    chart_set::values(queue_, q);
    chart_set::values(tokenize_, t);
    chart_set::values(prefill_, p);
    chart_set::values(sample_, s);
    chart_set::values(hidden_, anyHidden ? h : QList<qreal>());
    for (QLegendMarker* m : chart_->legend()->markers(series_)) {
        if (m->label() == hidden_->label())
            showLegendEntry(m, anyHidden);
    }
    setNiceRange(ms_, maxMs / unit * 1.02);

    // The callout at the top corner of the shown run's bar end; it avoids
    // every bar (sampled over its area, in the series' units: ms, category).
    const int shown = int(runs.indexOf(in.primary));
    if (shown >= 0 && in.primary->hasFigures() && in.primary->figures().computed_tokens > 0) {
        const RunFigures& f = in.primary->figures();
        QVector<QPointF> bars;
        for (int i = 0; i < runs.size(); ++i) {
            const double end = (runs[i]->ttftParts().total() + hiddenMsOf(runs[i])) / unit;
            for (int xs = 0; xs <= 30; ++xs)
                for (int ys = -3; ys <= 3; ++ys)
                    bars << QPointF(end * xs / 30.0, i + 0.1 * ys);
        }
        callouts_->show({{tr("TTFT %1 = prefill of %2 tokens at %3")
                              .arg(formatMs(f.ttft_ms), formatCount(f.computed_tokens), formatTokS(f.prefill_tok_s)),
                          series_, QPointF(in.primary->ttftParts().total() / unit, shown + 0.3), bars}});
    } else {
        callouts_->show({});
    }

    QString fig;
    if (in.primary && in.primary->hasFirstToken() && in.primary->config().engine.isRemote()) {
        const TtftParts t = partsOf(in.primary);
        fig = tr("%1: %2 at the client = queue %3 + server and network %4")
                  .arg(runName(in.primary), formatMs(in.primary->ttftMs()), formatMs(t.queueMs), formatMs(t.prefillMs));
    } else if (in.primary && in.primary->hasFirstToken()) {
        const TtftParts t = in.primary->ttftParts();
        fig = tr("%1: %2 = tokenize %3 + queue %4 + prefill %5 + first sample %6")
                  .arg(runName(in.primary), formatMs(in.primary->ttftMs()), formatMs(t.tokenizeMs),
                       formatMs(t.queueMs), formatMs(t.prefillMs), formatMs(t.sampleMs));
        if (in.primary->hiddenTokens() > 0) {
            const double visible = in.primary->firstVisibleMs();
            fig += QStringLiteral(" · ")
                   + (visible > 0 ? tr("first visible token %1, after %2 hidden tokens")
                                        .arg(formatMs(visible), formatCount(in.primary->hiddenTokens()))
                                  : tr("no visible token yet, %1 hidden tokens")
                                        .arg(formatCount(in.primary->hiddenTokens())));
        }
    } else if (in.primary && in.primary->state() >= RunRecord::State::Prefill) {
        const TtftParts t = in.primary->ttftParts();
        fig = tr("%1: tokenize %2 + queue %3 + prefill %4 so far")
                  .arg(runName(in.primary), formatMs(t.tokenizeMs), formatMs(t.queueMs), formatMs(t.prefillMs));
    }
    setHeader(tr("Time to first token"), fig);
    chart_->setToolTip(tr("tokenize: arrival → tokenized (chat template and tokenizer)\n"
                          "queue: tokenized → scheduled (vLLM's queue time)\n"
                          "prefill: scheduled → last prompt chunk computed\n"
                          "first sample: prefill done → first token sampled\n"
                          "Their sum is the TTFT (vLLM's time_to_first_token; what an OpenAI-compatible client "
                          "measures to the first streamed token).\n"
                          "hidden reasoning (after TTFT): first token → first visible token (text outside "
                          "<think>…</think>)"));
}

}  // namespace kvlens::ui
