// SPDX-License-Identifier: Apache-2.0
// TtftChart.
#include "ui/charts/ttft_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>
#include <algorithm>

#include "ui/model/run_record.h"

namespace kvlens::ui {

TtftChart::TtftChart(QWidget* parent) : ChartPanel(QStringLiteral("ttft"), parent)
{
    series_ = new QHorizontalStackedBarSeries;
    queue_ = new QBarSet(QString());
    tokenize_ = new QBarSet(QString());
    prefill_ = new QBarSet(QString());
    sample_ = new QBarSet(QString());
    for (QBarSet* s : {queue_, tokenize_, prefill_, sample_})
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
    style_.applyTo(ms_, tr("time to first token (ms)"));
    style_.applyTo(runs_, tr("run"));
    const QColor colors[] = {ChartStyle::queueColor(), ChartStyle::tokenizeColor(), ChartStyle::prefillColor(),
                             ChartStyle::sampleColor()};
    queue_->setLabel(tr("queue"));
    tokenize_->setLabel(tr("tokenize"));
    prefill_->setLabel(tr("prefill"));
    sample_->setLabel(tr("first sample"));
    chart_->legend()->setMarkerShape(QLegend::MarkerShapeRectangle);
    int i = 0;
    for (QBarSet* s : {queue_, tokenize_, prefill_, sample_}) {
        s->setColor(colors[i++]);
        s->setBorderColor(style_.backgroundColor());
        s->setLabelFont(style_.labelFont());
    }
}

void TtftChart::plot(const ChartInput& in)
{
    QVector<const RunRecord*> runs;
    for (const RunRecord* r : in.recent) {
        if (r && (r->state() != RunRecord::State::Waiting))
            runs.append(r);
    }
    // Keep the selected and compared runs even when they are older.
    while (runs.size() > kMaxRuns) {
        auto it = std::find_if(runs.begin(), runs.end(),
                               [&](const RunRecord* r) { return r != in.primary && r != in.compare; });
        if (it == runs.end())
            break;
        runs.erase(it);
    }
    QStringList labels;
    QList<qreal> q, t, p, s;
    double maxMs = 10;
    for (const RunRecord* r : runs) {
        const TtftParts parts = r->ttftParts();
        QString label = runName(r);
        if (r == in.primary)
            label = QStringLiteral("▶ ") + label;
        labels << label;
        q << parts.queueMs;
        t << parts.tokenizeMs;
        p << parts.prefillMs;
        s << parts.sampleMs;
        maxMs = std::max(maxMs, parts.total());
    }
    runs_->clear();
    runs_->append(labels.isEmpty() ? QStringList{QStringLiteral("—")} : labels);
    auto fill = [](QBarSet* set, const QList<qreal>& v) {
        set->remove(0, set->count());
        set->append(v);
    };
    fill(queue_, q);
    fill(tokenize_, t);
    fill(prefill_, p);
    fill(sample_, s);
    setNiceRange(ms_, maxMs * 1.02);

    QString fig;
    if (in.primary && in.primary->hasFirstToken()) {
        const TtftParts t = in.primary->ttftParts();
        fig = tr("%1: %2 = queue %3 + tokenize %4 + prefill %5 + sample %6")
                  .arg(runName(in.primary), formatMs(in.primary->ttftMs()), formatMs(t.queueMs),
                       formatMs(t.tokenizeMs), formatMs(t.prefillMs), formatMs(t.sampleMs));
    }
    setHeader(tr("Time to first token"), fig);
}

}  // namespace kvlens::ui
