// SPDX-License-Identifier: Apache-2.0
// ChartPanel: view, context menu, restyling.
#include "ui/charts/chart_panel.h"

#include <QChart>
#include <QChartView>
#include <QContextMenuEvent>
#include <QMenu>
#include <QVBoxLayout>
#include <QXYSeries>

#include "ui/charts/chart_export.h"
#include "ui/model/run_record.h"

namespace kvlens::ui {

ChartPanel::ChartPanel(const QString& key, QWidget* parent) : QWidget(parent), key_(key)
{
    chart_ = new QChart;
    view_ = new QChartView(chart_, this);
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
    setMinimumSize(320, 220);
    style_ = ChartStyle::fromApplication(false);
}

int ChartPanel::pointCount() const
{
    int n = 0;
    for (QAbstractSeries* s : chart_->series()) {
        if (auto* xy = qobject_cast<QXYSeries*>(s))
            n += xy->count();
    }
    return n;
}

void ChartPanel::setStyle(const ChartStyle& style)
{
    style_ = style;
    style_.applyTo(chart_);
    restyle();
}

QString ChartPanel::exportTo(const QString& path) const
{
    return exportWidget(view_, path);
}

void ChartPanel::contextMenuEvent(QContextMenuEvent* e)
{
    QMenu menu(this);
    menu.addAction(tr("Export chart…"), this, [this] { emit exportRequested(this); });
    menu.exec(e->globalPos());
}

void ChartPanel::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange)
        setStyle(ChartStyle::fromApplication(style_.presentation));
    QWidget::changeEvent(e);
}

QString ChartPanel::runName(const RunRecord* r)
{
    return r ? QStringLiteral("#%1").arg(r->id()) : QString();
}

}  // namespace kvlens::ui
