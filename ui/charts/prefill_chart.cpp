// SPDX-License-Identifier: Apache-2.0
// PrefillChart.
#include "ui/charts/prefill_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QLocale>
#include <QValueAxis>
#include <algorithm>

#include "ui/charts/chart_callouts.h"
#include "ui/charts/chart_setters.h"
#include "ui/model/run_record.h"

namespace kvlens::ui {

PrefillChart::PrefillChart(QWidget* parent) : ChartPanel(QStringLiteral("prefill"), parent)
{
    primary_ = new QLineSeries;
    compare_ = new QLineSeries;
    total_ = new QLineSeries;
    cached_ = new QLineSeries;
    callouts_ = addCallouts();
    x_ = new QValueAxis;
    y_ = new QValueAxis;
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    for (QLineSeries* s : {total_, cached_, compare_, primary_}) {
        chart_->addSeries(s);
        s->attachAxis(x_);
        s->attachAxis(y_);
    }
    x_->setRange(0, 1000);
    y_->setRange(0, 100);
    setHeader(tr("Prefill progress"), QString());
    setStyle(style_);
}

void PrefillChart::restyle()
{
    style_.applyTo(x_, tr("time (ms)"));
    style_.applyTo(y_, tr("tokens"));
    total_->setName(tr("prompt"));
    primary_->setPen(style_.linePen(ChartStyle::runColor(0)));
    primary_->setPointsVisible(true);
    primary_->setMarkerSize(style_.markerSize() * 1.4);
    compare_->setPen(style_.linePen(ChartStyle::runColor(1), Qt::DashLine));
    compare_->setPointsVisible(true);
    compare_->setMarkerSize(style_.markerSize() * 1.4);
    QPen thin = style_.linePen(style_.textColor(), Qt::DotLine);
    thin.setWidthF(style_.lineWidth() / 2);
    total_->setPen(thin);
    cached_->setPen(style_.linePen(ChartStyle::sampleColor(), Qt::DashDotLine));
    callouts_->setEnabled(style_.presentation);
}

void PrefillChart::plot(const ChartInput& in)
{
    const RunRecord* p = in.primary;
    const RunRecord* c = in.compare;
    double maxT = 100, maxTokens = 10;
    for (const RunRecord* r : {p, c}) {
        if (!r)
            continue;
        for (const QPointF& pt : r->prefillPoints())
            maxT = std::max(maxT, pt.x());
        maxTokens = std::max<double>(maxTokens, r->promptTokens());
        if (r->hasFirstToken())
            maxT = std::max(maxT, r->ttftMs());
    }
    // Seconds once the prefill passes 10 s.
    const bool seconds = maxT > 10000;
    const double unit = seconds ? 1000.0 : 1.0;
    chart_set::title(x_, seconds ? tr("time (s)") : tr("time (ms)"));
    auto scaled = [unit](const RunRecord* r) {
        QList<QPointF> pts;
        if (r) {
            for (const QPointF& pt : r->prefillPoints())
                pts.append(QPointF(pt.x() / unit, pt.y()));
        }
        return pts;
    };
    maxT /= unit;
    chart_set::points(primary_, scaled(p));
    chart_set::points(compare_, scaled(c));
    chart_set::pen(primary_, style_.linePen(colorOf(p, 0)));
    chart_set::pen(compare_, style_.linePen(colorOf(c, 1), Qt::DashLine));
    chart_set::name(primary_, p ? runName(p) : tr("no run yet"));
    chart_set::name(compare_, c ? runName(c) : QString());
    chart_set::visible(compare_, c != nullptr);
    setNiceRange(x_, maxT * 1.02);
    setNiceRange(y_, maxTokens * 1.02);
    const int total = p ? p->promptTokens() : 0;
    chart_set::points(total_, total > 0 ? QList<QPointF>{{0, double(total)}, {x_->max(), double(total)}}
                                        : QList<QPointF>());
    chart_set::visible(total_, total > 0);
    const int cached = p ? p->cachedTokens() : 0;
    chart_set::points(cached_, cached > 0 ? QList<QPointF>{{0, double(cached)}, {x_->max(), double(cached)}}
                                          : QList<QPointF>());
    chart_set::visible(cached_, cached > 0);
    chart_set::name(cached_, tr("cached"));

    QStringList fig;
    if (p && p->promptTokens() > 0) {
        fig << QStringLiteral("%1 %2 %").arg(runName(p)).arg(qRound(p->prefillFraction() * 100));
        const double rate = p->prefillTokPerSecond();
        if (rate > 0)
            fig << formatTokS(rate);
        const double eta = p->prefillEtaMs();
        if (p->prefillFraction() < 1.0 && !p->isFinished())
            fig << (eta >= 0 ? tr("ETA %1").arg(formatMs(eta)) : tr("ETA …"));
        else if (p->hasFirstToken())
            fig << tr("%1 of %2 tokens computed").arg(formatCount(p->promptTokens() - p->cachedTokens()),
                                                      formatCount(p->promptTokens()));
    }
    setHeader(tr("Prefill progress"), fig.join(QStringLiteral(" · ")));

    // The throughput callout at the last chunk, once the run's figures say it:
    // computed tokens over the forward passes that held them.
    const QList<QPointF> pts = primary_->points();
    if (p && p->hasFigures() && p->figures().computed_tokens > 0 && p->figures().prefill_tok_s > 0
        && !pts.isEmpty()) {
        const RunFigures& f = p->figures();
        QVector<QPointF> avoid(pts.begin(), pts.end());
        const QList<QPointF> other = compare_->isVisible() ? compare_->points() : QList<QPointF>();
        avoid += QVector<QPointF>(other.begin(), other.end());
        callouts_->show({{tr("%1 = %2 tokens in %3")
                              .arg(formatTokS(f.prefill_tok_s), formatCount(f.computed_tokens),
                                   formatMs(f.prefill_forward_ms)),
                          primary_, pts.last(), avoid}});
    } else {
        callouts_->show({});
    }
}

}  // namespace kvlens::ui
