// SPDX-License-Identifier: Apache-2.0
// ChartPanel: view, context menu, restyling.
#include "ui/charts/chart_panel.h"

#include <QChart>
#include <QChartView>
#include <QContextMenuEvent>
#include <QLabel>
#include <QLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QMenu>
#include <QHBoxLayout>
#include <QToolButton>
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
    view_->setMinimumSize(160, 100);
    title_ = new QLabel;
    figures_ = new QLabel;
    title_->setTextFormat(Qt::PlainText);
    figures_->setTextFormat(Qt::PlainText);
    figures_->setMinimumWidth(10);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 4);
    layout->setSpacing(0);
    headerRow_ = new QHBoxLayout;
    headerRow_->setContentsMargins(0, 0, 0, 0);
    headerRow_->addWidget(title_, 1);
    layout->addLayout(headerRow_);
    layout->addWidget(figures_);
    layout->addWidget(view_, 1);
    setMinimumSize(200, 160);   // six of them and the stats card fit a 1280×720 screen
    setAutoFillBackground(true);
    style_ = ChartStyle::fromApplication(false);
}

QColor ChartPanel::colorOf(const RunRecord* r, int slot)
{
    return r ? ChartStyle::colorForRun(r->id()) : ChartStyle::runColor(slot);
}

QToolButton* ChartPanel::addHeaderToggle(const QString& text)
{
    auto* b = new QToolButton;
    b->setText(text);
    b->setCheckable(true);
    b->setAutoRaise(true);
    headerRow_->addWidget(b);
    return b;
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
    styleHeader();
    restyle();
    placeLegend();
}

void ChartPanel::placeLegend()
{
    QLegend* legend = chart_->legend();
    const QFontMetricsF fm(legend->font());
    double row = 0;
    for (QLegendMarker* m : legend->markers()) {
        if (m->isVisible() && !m->label().isEmpty())
            row += fm.horizontalAdvance(m->label()) + fm.height() * 2.4;   // marker, gaps
    }
    const QSize room = view_->size();
    // Below: one row must fit, and the chart must be tall enough to give a
    // legend row away (a short cell keeps its height for the plot).
    const bool fitsBelow = row < room.width() - 24 && room.height() > 16 * fm.height();
    const Qt::Alignment want = fitsBelow || room.width() < room.height() ? Qt::AlignBottom : Qt::AlignRight;
    if (legend->alignment() != want)
        legend->setAlignment(want);
}

void ChartPanel::styleHeader()
{
    QPalette p = palette();
    p.setColor(QPalette::Window, style_.backgroundColor());
    p.setColor(QPalette::WindowText, style_.textColor());
    setPalette(p);
    title_->setFont(style_.titleFont());
    QFont f = style_.axisTitleFont();
    figures_->setFont(f);
    QPalette fp = figures_->palette();
    QColor c = style_.textColor();
    c.setAlpha(170);
    fp.setColor(QPalette::WindowText, c);
    figures_->setPalette(fp);
}

void ChartPanel::setHeader(const QString& title, const QString& figures)
{
    title_->setText(title);
    // Long figure lines are elided to the panel's width; the tooltip has all.
    figures_->setToolTip(figures);
    figuresText_ = figures;
    const int w = std::max(50, width() - 20);
    figures_->setText(figures_->fontMetrics().elidedText(figures.isEmpty() ? QStringLiteral(" ") : figures,
                                                         Qt::ElideRight, w));
}

void ChartPanel::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    setHeader(title_->text(), figuresText_);
    placeLegend();
}

QString ChartPanel::title() const
{
    return title_->text() + QStringLiteral(" — ") + figures_->toolTip();
}

QString ChartPanel::exportTo(const QString& path, QSize size) const
{
    auto* self = const_cast<ChartPanel*>(this);
    if (!size.isValid() || size == this->size())
        return exportWidget(self, path);
    // Drawn at the asked size, then given back to its layout.
    const QSize before = this->size();
    self->resize(size);
    const QString err = exportWidget(self, path);
    self->resize(before);
    if (parentWidget() && parentWidget()->layout())
        parentWidget()->layout()->invalidate();
    return err;
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
    else if (e->type() == QEvent::LanguageChange)
        restyle();   // axis titles and legend names; the window re-plots the figures
    QWidget::changeEvent(e);
}

QString ChartPanel::runName(const RunRecord* r)
{
    // What differs, short enough for a legend: "#3 follow-up", "#4 KV off".
    return r ? runShortLabel(r->id(), r->config()) : QString();
}

}  // namespace kvlens::ui
