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

#include "ui/model/run_record.h"

namespace kvlens::ui {

namespace {

// Points and moving average of a run, without the first token.
void fill(const RunRecord* r, QScatterSeries* pts, QLineSeries* avg, double& maxX, double& maxY)
{
    QList<QPointF> p, a;
    if (r) {
        const QVector<QPointF> lat = r->latencyPoints();
        // The record's moving average (the tested one), first token excluded.
        const QVector<double> mean = r->movingAverageLatency(LatencyChart::kAverageWindow, 1);
        for (int i = 1; i < lat.size(); ++i) {
            p.append(lat[i]);
            a.append(QPointF(lat[i].x(), mean.value(i - 1)));
            maxX = std::max(maxX, lat[i].x());
            maxY = std::max(maxY, lat[i].y());
        }
    }
    pts->replace(p);
    avg->replace(a);
}

}  // namespace

LatencyChart::LatencyChart(QWidget* parent) : ChartPanel(QStringLiteral("latency"), parent)
{
    points_ = new QScatterSeries;
    average_ = new QLineSeries;
    comparePoints_ = new QScatterSeries;
    compareAverage_ = new QLineSeries;
    x_ = new QValueAxis;
    y_ = new QValueAxis;
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{comparePoints_, compareAverage_, points_, average_}) {
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
}

void LatencyChart::plot(const ChartInput& in)
{
    // Each run in its own colour, whichever slot it is in.
    QColor c0 = colorOf(in.primary, 0), c1 = colorOf(in.compare, 1);
    average_->setPen(style_.linePen(c0));
    compareAverage_->setPen(style_.linePen(c1, Qt::DashLine));
    c0.setAlpha(110);
    c1.setAlpha(90);
    points_->setColor(c0);
    comparePoints_->setColor(c1);
    double maxX = 16, maxY = 1;
    fill(in.primary, points_, average_, maxX, maxY);
    fill(in.compare, comparePoints_, compareAverage_, maxX, maxY);
    const QString p = runName(in.primary), c = runName(in.compare);
    points_->setName(p);
    average_->setName(tr("%1 mean").arg(p));
    comparePoints_->setName(c);
    compareAverage_->setName(tr("%1 mean").arg(c));
    comparePoints_->setVisible(in.compare != nullptr);
    compareAverage_->setVisible(in.compare != nullptr);
    points_->setVisible(in.primary != nullptr);
    average_->setVisible(in.primary != nullptr);
    // The mean lines are named in the heading ("lines: mean of N tokens"), not
    // in the legend: two entries, not four, so none is cut short.
    for (QLineSeries* s : {average_, compareAverage_}) {
        for (QLegendMarker* m : chart_->legend()->markers(s))
            m->setVisible(false);
    }
    setNiceRange(x_, maxX + 1);
    setNiceRange(y_, maxY * 1.1);

    QStringList fig;
    for (const RunRecord* r : {in.primary, in.compare}) {
        if (!r || r->tokens().size() < 2)
            continue;
        const double tokS = r->decodeTokPerSecond();
        fig << tr("%1: %2 tok/s, %3 per token").arg(runName(r)).arg(tokS, 0, 'f', 1).arg(formatMs(tokS > 0 ? 1000.0 / tokS : 0));
    }
    if (!fig.isEmpty())
        fig << tr("lines: mean of %1 tokens").arg(kAverageWindow);
    setHeader(tr("Decode latency per token"), fig.join(QStringLiteral(" · ")));
}

}  // namespace kvlens::ui
