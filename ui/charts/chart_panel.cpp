// SPDX-License-Identifier: Apache-2.0
// ChartPanel: view, context menu, restyling.
#include "ui/charts/chart_panel.h"

#include "ui/charts/chart_callouts.h"

#include <QChart>
#include <QChartView>
#include <QContextMenuEvent>
#include <QLabel>
#include <QLayout>
#include <QBarCategoryAxis>
#include <QLegend>
#include <QValueAxis>
#include <algorithm>
#include <QLegendMarker>
#include <QMenu>
#include <QScopeGuard>
#include <QHBoxLayout>
#include <QToolButton>
#include <QVBoxLayout>
#include <QScatterSeries>
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
    legendLabel_ = new QLabel;
    legendLabel_->setWordWrap(true);
    legendLabel_->setTextFormat(Qt::RichText);
    legendLabel_->setVisible(false);
    layout->addWidget(legendLabel_);
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

bool ChartPanel::fitTicks()
{
    // Qt Charts cuts a tick label that is wider (or taller) than its share of
    // the axis to "...": ask for no more intervals than whole labels fit.
    const QRectF plot = chart_->plotArea();
    if (plot.width() < 10 || plot.height() < 10)
        return false;
    bool refitted = false;
    for (QAbstractAxis* a : chart_->axes()) {
        auto* axis = qobject_cast<QValueAxis*>(a);
        if (!axis)
            continue;
        const QFontMetricsF fm(axis->labelsFont());
        const QByteArray format = axis->labelFormat().toLatin1();
        const double label = std::max(fm.horizontalAdvance(QString::asprintf(format.constData(), axis->max())),
                                      fm.horizontalAdvance(QString::asprintf(format.constData(), axis->min())));
        const bool horizontal = axis->orientation() == Qt::Horizontal;
        const double each = horizontal ? label + fm.height() * 1.2 : fm.height() * 1.8;
        const int room = std::clamp(int((horizontal ? plot.width() : plot.height()) / each), 1, 8);
        const int before = axis->property(kTickRoomProperty).toInt();
        axis->setProperty(kTickRoomProperty, room);
        if (room != before && refitNiceRange(axis))
            refitted = true;
    }
    return refitted;
}

namespace {

// A legend entry as text: the series' mark in its colour, then its name.
QString entryHtml(const QString& glyph, const QColor& color, const QString& text)
{
    return QStringLiteral("<span style='color:%1'>%2</span>&nbsp;%3")
        .arg(color.name(), glyph, text.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
}

QString markerHtml(QLegendMarker* m)
{
    QString glyph = QStringLiteral("&#9632;");   // a square: bars
    QColor color = m->brush().color();
    if (auto* xy = qobject_cast<QXYSeries*>(m->series())) {
        if (qobject_cast<QScatterSeries*>(xy)) {
            glyph = QStringLiteral("&#9679;");
        } else {
            color = xy->pen().color();
            glyph = xy->pen().style() == Qt::SolidLine ? QStringLiteral("&#9473;&#9473;") : QStringLiteral("&#9476;&#9476;");
        }
    }
    return entryHtml(glyph, color, m->label());
}

}  // namespace

void ChartPanel::showWrappedLegend(const QStringList& entries)
{
    // Only what changed: each setter would lay the panel out again.
    if (chart_->legend()->isVisible() != entries.isEmpty())
        chart_->legend()->setVisible(entries.isEmpty());
    const QString text = entries.join(QStringLiteral(" &nbsp; "));
    if (legendLabel_->text() != text)
        legendLabel_->setText(text);
    if (legendLabel_->font() != style_.labelFont())
        legendLabel_->setFont(style_.labelFont());
    if (legendLabel_->isVisibleTo(this) == entries.isEmpty())
        legendLabel_->setVisible(!entries.isEmpty());
}

void ChartPanel::setWrappedLegend(const QVector<QPair<QColor, QString>>& items)
{
    wrappedAlways_ = !items.isEmpty();
    QStringList entries;
    for (const auto& [color, text] : items)
        entries << entryHtml(QStringLiteral("&#9632;"), color, text);
    showWrappedLegend(entries);
}

namespace {
// Set on a legend marker that its chart hides (QLegendMarker::isVisible is
// also false while Qt's legend is hidden for the wrapped text).
constexpr char kEntryHiddenProperty[] = "kvlensEntryHidden";
}  // namespace

void ChartPanel::showLegendEntry(QLegendMarker* marker, bool shown)
{
    // Set whatever isVisible() says: while Qt's legend is hidden it says
    // false for every entry, and the entry must come back hidden with it.
    marker->setProperty(kEntryHiddenProperty, !shown);
    marker->setVisible(shown);
}

bool ChartPanel::legendEntryShown(QLegendMarker* marker)
{
    return marker->series()->isVisible() && !marker->property(kEntryHiddenProperty).toBool();
}

bool ChartPanel::legendWrapped() const
{
    return legendLabel_->isVisibleTo(this);
}

void ChartPanel::placeLegend()
{
    if (wrappedAlways_ || placing_)
        return;
    placing_ = true;   // showing the wrapped text resizes this panel: no nested call
    const auto done = qScopeGuard([this] { placing_ = false; });
    QLegend* legend = chart_->legend();
    const QFontMetricsF fm(legend->font());
    double row = 0, widest = 0;
    QStringList entries;
    for (QLegendMarker* m : legend->markers()) {
        if (!legendEntryShown(m) || m->label().isEmpty())
            continue;
        const double w = fm.horizontalAdvance(m->label()) + fm.height() * 3.4;   // marker, gaps (as Qt lays them)
        row += w;
        widest = std::max(widest, w);
        entries << markerHtml(m);
    }
    // The room of the view and the wrapped legend together: the choice must
    // not change the room it was made for (or it would flip on every resize).
    const QSize room(width() - 20, height() - title_->sizeHint().height() - figures_->sizeHint().height() - 12);
    // Below: one row must fit, and the chart must be tall enough to give a
    // legend row away (a short cell keeps its height for the plot) -- unless
    // run names label the vertical axis (bars): they need the width more.
    // Beside: Qt gives a side legend about a third of the width. Neither:
    // the entries wrap under the chart as text.
    bool runNamesLeft = false;
    for (QAbstractAxis* a : chart_->axes(Qt::Vertical))
        runNamesLeft = runNamesLeft || qobject_cast<QBarCategoryAxis*>(a);
    // Once wrapped, Qt's legend comes back only with a margin: showing or
    // hiding the text changes the panel's size hint, and the grid's answer
    // must not flip the choice back (a layout loop).
    const double margin = legendLabel_->isVisible() ? 1.15 : 1.0;
    const bool fitsBelow = row * margin < room.width() - 24 && (runNamesLeft || room.height() > 16 * fm.height() * margin);
    const bool fitsBeside = !runNamesLeft && widest * margin < room.width() * 0.28 && room.width() >= room.height();
    if (entries.isEmpty() || fitsBelow || fitsBeside) {
        showWrappedLegend({});
        const Qt::Alignment want = fitsBelow || !fitsBeside ? Qt::AlignBottom : Qt::AlignRight;
        if (legend->alignment() != want)
            legend->setAlignment(want);
    } else {
        showWrappedLegend(entries);
    }
}

void ChartPanel::styleHeader()
{
    // On a 720-line screen the desk view puts the figures beside the chart's
    // name, so the plot keeps the line (decided by the window's height, not
    // by this panel's, so it cannot feed back into the layout).
    const bool compact = !style_.presentation && style_.scale < 0.75;
    if (compact != compactHeader_) {
        compactHeader_ = compact;
        auto* column = static_cast<QVBoxLayout*>(layout());
        column->removeWidget(figures_);
        headerRow_->removeWidget(figures_);
        headerRow_->setStretchFactor(title_, compact ? 0 : 1);
        if (compact)
            headerRow_->insertWidget(1, figures_, 1);
        else
            column->insertWidget(1, figures_);
        figures_->setAlignment(compact ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    }
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
    if (title_->text() != title)
        title_->setText(title);
    // Long figure lines are elided to the room they have; the tooltip has all.
    figures_->setToolTip(figures);
    figuresText_ = figures;
    int w = width() - 20;
    if (compactHeader_) {
        for (int i = 0; i < headerRow_->count(); ++i) {
            QWidget* other = headerRow_->itemAt(i)->widget();
            if (other && other != figures_)
                w -= other->sizeHint().width() + headerRow_->spacing() + 6;
        }
    }
    w = std::max(50, w);
    const QString shown = figures_->fontMetrics().elidedText(figures.isEmpty() ? QStringLiteral(" ") : figures,
                                                             Qt::ElideRight, w);
    if (figures_->text() != shown)
        figures_->setText(shown);
}

void ChartPanel::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    setHeader(title_->text(), figuresText_);
    placeLegend();
    fitTicks();
}

QString ChartPanel::title() const
{
    return title_->text() + QStringLiteral(" — ") + figures_->toolTip();
}

ChartCallouts* ChartPanel::addCallouts()
{
    auto* c = new ChartCallouts(chart_);
    callouts_.append(c);
    return c;
}

QString ChartPanel::exportTo(const QString& path, QSize size) const
{
    auto* self = const_cast<ChartPanel*>(this);
    // Callouts on for the file, as they were afterwards.
    QVector<bool> shown;
    for (ChartCallouts* c : callouts_) {
        shown.append(c->isEnabled());
        c->setEnabled(true);
    }
    QString err;
    if (!size.isValid() || size == this->size()) {
        err = exportWidget(self, path);
    } else {
        // Drawn at the asked size, then given back to its layout.
        const QSize before = this->size();
        self->resize(size);
        err = exportWidget(self, path);
        self->resize(before);
        if (parentWidget() && parentWidget()->layout())
            parentWidget()->layout()->invalidate();
    }
    for (int i = 0; i < callouts_.size(); ++i)
        callouts_[i]->setEnabled(shown[i]);
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
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) {
        ChartStyle s = ChartStyle::fromApplication(style_.presentation);
        s.scale = style_.scale;   // the board's, from the window's height
        setStyle(s);
    } else if (e->type() == QEvent::LanguageChange) {
        restyle();   // axis titles and legend names; the window re-plots the figures
    }
    QWidget::changeEvent(e);
}

QString ChartPanel::runName(const RunRecord* r)
{
    // What differs, short enough for a legend: "#3 follow-up", "#4 KV off".
    return r ? runShortLabel(r->id(), r->config()) : QString();
}

}  // namespace kvlens::ui
