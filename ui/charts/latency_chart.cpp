// SPDX-License-Identifier: Apache-2.0
// LatencyChart.
#include "ui/charts/latency_chart.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>

#include "ui/charts/chart_callouts.h"
#include "ui/charts/chart_setters.h"
#include "ui/model/run_record.h"

namespace kvlens::ui {

namespace {

// Points and moving average of a run, without the first token. With
// `hidden`, the tokens of hidden reasoning go there instead of into `pts`;
// with `drafted`, the accepted draft tokens (speculative decoding: they came
// in the same step as the token before them).
void fill(const RunRecord* r, QScatterSeries* pts, QLineSeries* avg, QScatterSeries* hidden, QScatterSeries* drafted,
          double& maxX, double& maxY)
{
    QList<QPointF> p, a, h, d;
    if (r) {
        const QVector<QPointF> lat = r->latencyPoints();
        // The record's moving average (the tested one), first token excluded.
        const QVector<double> mean = r->movingAverageLatency(LatencyChart::kAverageWindow, 1);
        for (int i = 1; i < lat.size(); ++i) {
            const TokenStep& t = r->tokens()[i];
            (hidden && !t.visible ? h : drafted && t.drafted ? d : p).append(lat[i]);
            a.append(QPointF(lat[i].x(), mean.value(i - 1)));
            maxX = std::max(maxX, lat[i].x());
            maxY = std::max(maxY, lat[i].y());
        }
    }
    chart_set::points(pts, p);
    chart_set::points(avg, a);
    if (hidden)
        chart_set::points(hidden, h);
    if (drafted)
        chart_set::points(drafted, d);
}

}  // namespace

LatencyChart::LatencyChart(QWidget* parent) : ChartPanel(QStringLiteral("latency"), parent)
{
    points_ = new QScatterSeries;
    average_ = new QLineSeries;
    comparePoints_ = new QScatterSeries;
    compareAverage_ = new QLineSeries;
    hidden_ = new QScatterSeries;
    drafted_ = new QScatterSeries;
    firstVisible_ = new QLineSeries;
    callouts_ = addCallouts();
    x_ = new QValueAxis;
    y_ = new QValueAxis;
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    for (QXYSeries* s :
         std::initializer_list<QXYSeries*>{comparePoints_, compareAverage_, firstVisible_, hidden_, drafted_, points_,
                                           average_}) {
        chart_->addSeries(s);
        s->attachAxis(x_);
        s->attachAxis(y_);
    }
    x_->setRange(0, 16);
    y_->setRange(0, 10);
    setHeader(tr("Decode latency per token"), QString());
    setStyle(style_);
}

void LatencyChart::restyle()
{
    style_.applyTo(x_, tr("generated token"));
    style_.applyTo(y_, tr("latency (ms)"));
    QColor c0 = ChartStyle::runColor(0);
    QColor c1 = ChartStyle::runColor(1);
    QColor p0 = c0;
    p0.setAlpha(110);
    QColor p1 = c1;
    p1.setAlpha(90);
    points_->setColor(p0);
    points_->setBorderColor(Qt::transparent);
    points_->setMarkerSize(style_.markerSize() * 1.3);
    comparePoints_->setColor(p1);
    comparePoints_->setBorderColor(Qt::transparent);
    comparePoints_->setMarkerSize(style_.markerSize() * 1.3);
    average_->setPen(style_.linePen(c0));
    compareAverage_->setPen(style_.linePen(c1, Qt::DashLine));
    // Hidden tokens: hollow squares in the text colour, whichever run it is.
    hidden_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    hidden_->setMarkerSize(style_.markerSize() * 1.3);
    hidden_->setColor(Qt::transparent);
    hidden_->setBorderColor(ChartStyle::hiddenReasoningColor());
    firstVisible_->setPen(style_.linePen(ChartStyle::hiddenReasoningColor(), Qt::DashLine));
    // Accepted drafts: green triangles, whichever run it is, at the foot of
    // the chart (they came in the step of the token before them).
    drafted_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    drafted_->setMarkerSize(style_.markerSize() * 1.6);
    drafted_->setBorderColor(Qt::transparent);
    drafted_->setColor(ChartStyle::draftedColor());
    callouts_->setEnabled(style_.presentation);
}

void LatencyChart::plot(const ChartInput& in)
{
    // Each run in its own colour, whichever slot it is in.
    QColor c0 = colorOf(in.primary, 0), c1 = colorOf(in.compare, 1);
    chart_set::pen(average_, style_.linePen(c0));
    chart_set::pen(compareAverage_, style_.linePen(c1, Qt::DashLine));
    c0.setAlpha(110);
    c1.setAlpha(90);
    chart_set::color(points_, c0);
    chart_set::color(comparePoints_, c1);
    double maxX = 16, maxY = 1;
    fill(in.primary, points_, average_, hidden_, drafted_, maxX, maxY);
    fill(in.compare, comparePoints_, compareAverage_, nullptr, nullptr, maxX, maxY);
    const QString p = runName(in.primary), c = runName(in.compare);
    chart_set::name(points_, p);
    chart_set::name(average_, tr("%1 mean").arg(p));
    chart_set::name(comparePoints_, c);
    chart_set::name(compareAverage_, tr("%1 mean").arg(c));
    chart_set::visible(comparePoints_, in.compare != nullptr);
    chart_set::visible(compareAverage_, in.compare != nullptr);
    chart_set::visible(points_, in.primary != nullptr);
    chart_set::visible(average_, in.primary != nullptr);
    // The mean lines are named in the heading ("lines: mean of N tokens"), not
    // in the legend: two entries, not four, so none is cut short.
    for (QLineSeries* s : {average_, compareAverage_}) {
        for (QLegendMarker* m : chart_->legend()->markers(s))
            showLegendEntry(m, false);
    }
    setNiceRange(x_, maxX + 1);
    setNiceRange(y_, maxY * 1.1);
    // Hidden reasoning: its tokens apart, and where the answer begins.
    const int hidden = in.primary ? in.primary->hiddenTokens() : 0;
    const int firstVisible = in.primary && hidden > 0 ? in.primary->firstVisibleIndex() : -1;
    chart_set::name(hidden_, tr("hidden reasoning"));
    chart_set::visible(hidden_, hidden > 0);
    chart_set::name(firstVisible_, tr("first visible token"));
    chart_set::points(firstVisible_, firstVisible >= 0 ? QList<QPointF>{{double(firstVisible), y_->min()},
                                                                        {double(firstVisible), y_->max()}}
                                                       : QList<QPointF>());
    chart_set::visible(firstVisible_, firstVisible >= 0);
    const int drafted = in.primary ? in.primary->draftedTokens() : 0;
    chart_set::name(drafted_, tr("accepted drafts"));
    chart_set::visible(drafted_, drafted > 0);

    QStringList fig;
    for (const RunRecord* r : {in.primary, in.compare}) {
        if (!r || r->tokens().size() < 2)
            continue;
        const double tokS = r->decodeTokPerSecond();
        fig << tr("%1: %2 tok/s, %3 per token").arg(runName(r)).arg(tokS, 0, 'f', 1).arg(formatMs(tokS > 0 ? 1000.0 / tokS : 0));
    }
    if (!fig.isEmpty())
        fig << tr("lines: mean of %1 tokens").arg(kAverageWindow);
    if (hidden > 0) {
        const double visibleMs = in.primary->firstVisibleMs();
        fig << (visibleMs > 0 ? tr("%1 hidden tokens: TTFT %2, first visible token %3")
                                    .arg(formatCount(hidden), formatMs(in.primary->ttftMs()), formatMs(visibleMs))
                              : tr("%1 hidden tokens: TTFT %2, no visible token yet")
                                    .arg(formatCount(hidden), formatMs(in.primary->ttftMs())));
    }
    if (drafted > 0)
        fig << tr("%1 tokens from accepted drafts (no step of their own)").arg(formatCount(drafted));
    setHeader(tr("Decode latency per token"), fig.join(QStringLiteral(" · ")));

    // The callout on the mean line: the run's time per output token (the
    // engine's figure once done), over the decode time it comes from.
    const RunRecord* r = in.primary;
    if (r && r->hasFigures() && r->figures().generated_tokens >= 2 && !average_->points().isEmpty()) {
        const RunFigures& f = r->figures();
        QVector<QPointF> avoid;
        for (QXYSeries* s : std::initializer_list<QXYSeries*>{points_, average_, hidden_, drafted_, comparePoints_,
                                                          compareAverage_}) {
            if (s->isVisible()) {
                const QList<QPointF> pts = s->points();
                avoid += QVector<QPointF>(pts.begin(), pts.end());
            }
        }
        callouts_->show({{tr("mean TPOT %1 = %2 over %3 tokens")
                              .arg(formatMs(f.tpot_ms), formatMs(f.decode_ms), formatCount(f.generated_tokens - 1)),
                          average_, average_->points().last(), avoid}});
    } else {
        callouts_->show({});
    }
}

}  // namespace kvlens::ui
