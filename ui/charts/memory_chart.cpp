// SPDX-License-Identifier: Apache-2.0
// MemoryChart.
#include "ui/charts/memory_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>
#include <algorithm>

#include "ui/i18n.h"
#include "ui/model/prompt_builder.h"
#include "ui/model/run_record.h"
#include "ui/charts/chart_setters.h"

namespace kvlens::ui {

MemoryChart::MemoryChart(QWidget* parent) : ChartPanel(QStringLiteral("memory"), parent)
{
    series_ = new QHorizontalStackedBarSeries;
    weights_ = new QBarSet(QString());
    kvUsed_ = new QBarSet(QString());
    kvFree_ = new QBarSet(QString());
    scratch_ = new QBarSet(QString());
    for (QBarSet* s : {weights_, kvUsed_, kvFree_, scratch_})
        series_->append(s);
    series_->setBarWidth(0.55);
    chart_->addSeries(series_);
    runs_ = new QBarCategoryAxis;
    mib_ = new QValueAxis;
    chart_->addAxis(runs_, Qt::AlignLeft);
    chart_->addAxis(mib_, Qt::AlignBottom);
    series_->attachAxis(runs_);
    series_->attachAxis(mib_);
    mib_->setRange(0, 100);
    setHeader(tr("Memory"), QString());
    setStyle(style_);
}

void MemoryChart::restyle()
{
    style_.applyTo(mib_, tr("MiB"));
    style_.applyTo(runs_, tr("run"));
    QColor free = ChartStyle::kvLogicalColor();
    free.setAlpha(70);
    const QColor colors[] = {ChartStyle::weightsColor(), ChartStyle::kvLogicalColor(), free,
                             ChartStyle::scratchColor()};
    weights_->setLabel(tr("weights"));
    kvUsed_->setLabel(tr("KV used"));
    kvFree_->setLabel(tr("KV free"));
    scratch_->setLabel(tr("scratch"));
    // Four kinds and the run names leave no room for a legend beside or
    // below the bars in a small cell: the legend wraps under the chart, and
    // the run names say what the axis is.
    setWrappedLegend({{colors[0], tr("weights")}, {colors[1], tr("KV used")}, {colors[2], tr("KV free")},
                      {colors[3], tr("scratch")}});
    runs_->setTitleVisible(false);
    int i = 0;
    for (QBarSet* s : {weights_, kvUsed_, kvFree_, scratch_}) {
        s->setColor(colors[i++]);
        s->setBorderColor(style_.backgroundColor());
    }
}

void MemoryChart::plot(const ChartInput& in)
{
    const double mib = 1024.0 * 1024.0;
    QStringList labels;
    QList<qreal> w, used, freeKv, scratch;
    double maxMib = 1;
    for (const RunRecord* r : {in.compare, in.primary}) {
        if (!r || r->memory().weightBytes == 0)
            continue;
        const MemorySnapshot& m = r->memory();
        const double peak = double(std::max<qint64>(r->kvPeakBytes(RunRecord::KvKind::Logical),
                                            r->hasFigures() ? r->figures().kv_bytes_peak : 0));
        // A narrow cell (the desk view at 1280 px) names the runs by number;
        // the figures line above names the selected one in full.
        labels << (width() < 300 ? QStringLiteral("#%1").arg(r->id()) : runName(r));
        w << m.weightBytes / mib;
        used << peak / mib;
        freeKv << std::max(0.0, double(m.kvPoolBytes) - peak) / mib;
        scratch << m.scratchBytes / mib;
        maxMib = std::max(maxMib, (m.weightBytes + std::max<double>(m.kvPoolBytes, peak) + m.scratchBytes) / mib);
    }
    // Several requests at once share the pool: their KV adds up.
    if (in.primary && in.primary->config().experiment == Experiment::Concurrent && in.primary->memory().weightBytes > 0) {
        double total = 0;
        int n = 0;
        for (const RunRecord* r : in.recent) {
            if (r && r->config().experiment == Experiment::Concurrent
                && r->config().parentRunId == in.primary->config().parentRunId
                && qAbs(r->id() - in.primary->id()) < kConcurrentCopies) {
                total += double(std::max<qint64>(r->kvPeakBytes(RunRecord::KvKind::Logical),
                                         r->hasFigures() ? r->figures().kv_bytes_peak : 0));
                ++n;
            }
        }
        if (n > 1) {
            const MemorySnapshot& m = in.primary->memory();
            labels << tr("%1 at once").arg(n);
            w << m.weightBytes / mib;
            used << total / mib;
            freeKv << std::max(0.0, double(m.kvPoolBytes) - total) / mib;
            scratch << m.scratchBytes / mib;
            maxMib = std::max(maxMib, (m.weightBytes + std::max<double>(m.kvPoolBytes, total) + m.scratchBytes) / mib);
        }
    }
    chart_set::categories(runs_, labels.isEmpty() ? QStringList{QStringLiteral("—")} : labels);
    chart_set::values(weights_, w);
    chart_set::values(kvUsed_, used);
    chart_set::values(kvFree_, freeKv);
    chart_set::values(scratch_, scratch);
    setNiceRange(mib_, maxMib * 1.02, 3);   // few ticks: the legend sits beside the bars

    QString fig;
    if (in.primary && in.primary->memory().weightBytes > 0) {
        const MemorySnapshot& m = in.primary->memory();
        fig = tr("%1: weights %2 · KV pool %3 · scratch %4")
                  .arg(runName(in.primary), formatBytes(double(m.weightBytes)), formatBytes(double(m.kvPoolBytes)),
                       formatBytes(double(m.scratchBytes)));
        if (m.onDevice && m.deviceTotalBytes > 0)
            fig += tr(" · on %1: %2 free of %3").arg(m.device, formatBytes(double(m.deviceFreeBytes)),
                                                     formatBytes(double(m.deviceTotalBytes)));
    } else if (in.primary && in.primary->config().engine.isRemote()) {
        fig = tr("%1: the server does not report its memory").arg(runName(in.primary));
    }
    // CUDA was asked for and the CPU runs: why, with the sizes that did not fit.
    if (in.primary && !in.primary->memory().fallback.isEmpty())
        fig += (fig.isEmpty() ? QString() : QStringLiteral(" · ")) + i18n::fallbackText(in.primary->memory().fallback);
    setHeader(tr("Memory"), fig);
}

}  // namespace kvlens::ui
