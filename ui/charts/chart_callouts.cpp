// SPDX-License-Identifier: Apache-2.0
// Callout placement: candidate boxes around the anchor (above-left first,
// where a rising line leaves room), the first inside the plot area that
// covers no data point wins; otherwise the one covering the fewest.
#include "ui/charts/chart_callouts.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>

namespace kvlens::ui {

ChartCallouts::ChartCallouts(QChart* chart) : QObject(chart), chart_(chart)
{
    connect(chart_, &QChart::plotAreaChanged, this, &ChartCallouts::relayout);
}

// The items are child items of the chart, which is this object's parent: the
// chart deletes them (before its QObject children, so not here).
ChartCallouts::~ChartCallouts() = default;

void ChartCallouts::setEnabled(bool on)
{
    if (enabled_ == on)
        return;
    enabled_ = on;
    relayout();
}

void ChartCallouts::show(const QVector<Callout>& callouts)
{
    specs_ = callouts;
    relayout();
}

QVector<QRectF> ChartCallouts::boxes() const
{
    return boxes_;
}

QVector<QPointF> ChartCallouts::avoidedPoints() const
{
    return mappedAvoid_;
}

QStringList ChartCallouts::texts() const
{
    QStringList out;
    if (enabled_)
        for (const Callout& s : specs_)
            out << s.text;
    return out;
}

void ChartCallouts::dropItems()
{
    for (QGraphicsItem* item : items_)
        delete item;
    items_.clear();
    boxes_.clear();
    mappedAvoid_.clear();
}

QString ChartCallouts::fitText(const QString& text, const QFontMetricsF& fm, double width)
{
    // Up to kMaxLines lines, each broken at the last space that lets it fit;
    // the last is cut short only if even then the text does not fit.
    constexpr int kMaxLines = 3;
    QStringList lines;
    QString rest = text;
    while (lines.size() < kMaxLines - 1 && fm.horizontalAdvance(rest) > width) {
        int cut = -1;
        for (int i = int(rest.size()) - 1; i > 0; --i) {
            if (rest[i] == QLatin1Char(' ') && fm.horizontalAdvance(rest.left(i)) <= width) {
                cut = i;
                break;
            }
        }
        if (cut < 0)
            break;
        lines << rest.left(cut);
        rest = rest.mid(cut + 1);
    }
    lines << fm.elidedText(rest, Qt::ElideRight, width);
    return lines.join(QLatin1Char('\n'));
}

QRectF ChartCallouts::placeBox(QPointF anchor, QSizeF size, const QVector<QPointF>& avoid, const QRectF& area)
{
    const double gap = 18;
    const QPointF offsets[] = {
        {-size.width() - gap, -size.height() - gap}, {gap, -size.height() - gap}, {-size.width() - gap, gap},
        {gap, gap}, {-size.width() / 2, -size.height() - 2 * gap}, {-size.width() - gap, -size.height() / 2},
    };
    auto covered = [&](const QRectF& box) {
        int n = 0;
        const QRectF grown = box.adjusted(-kPointMargin, -kPointMargin, kPointMargin, kPointMargin);
        for (const QPointF& p : avoid)
            n += grown.contains(p) ? 1 : 0;
        return n;
    };
    QRectF best;
    int bestCovered = 1 << 30;
    for (const QPointF& o : offsets) {
        QRectF box(anchor + o, size);
        // Inside the plot area: shifted in, never out of it.
        box.moveLeft(std::clamp(box.left(), area.left() + 2, std::max(area.left() + 2, area.right() - box.width() - 2)));
        box.moveTop(std::clamp(box.top(), area.top() + 2, std::max(area.top() + 2, area.bottom() - box.height() - 2)));
        const int n = covered(box) + (box.contains(anchor) ? 1 : 0);
        if (n < bestCovered) {
            best = box;
            bestCovered = n;
        }
        if (n == 0)
            break;
    }
    return best;
}

void ChartCallouts::relayout()
{
    const QRectF area = chart_->plotArea();
    if (!enabled_ || area.isEmpty()) {
        dropItems();
        drawn_ = Drawn();
        return;
    }
    Drawn next;
    next.area = area;
    next.font = chart_->font();
    next.font.setBold(true);
    next.fg = chart_->titleBrush().color().isValid() ? chart_->titleBrush().color() : QColor(Qt::black);
    next.bg = chart_->backgroundBrush().color();
    next.specs = specs_;
    for (const Callout& s : specs_) {
        if (!s.series)
            continue;
        next.anchors << chart_->mapToPosition(s.value, s.series);
        for (const QPointF& v : s.avoid)
            next.avoid << chart_->mapToPosition(v, s.series);
    }
    // The same callouts at the same places: the items drawn stay.
    if (next == drawn_ && !items_.isEmpty())
        return;
    dropItems();
    drawn_ = next;
    const QFont& font = next.font;
    const QFontMetricsF fm(font);
    const QColor fg = next.fg, bg = next.bg;
    int anchorAt = 0, avoidAt = 0;
    for (const Callout& s : specs_) {
        if (!s.series)
            continue;
        const QPointF anchor = next.anchors[anchorAt++];
        const QVector<QPointF> avoid = next.avoid.mid(avoidAt, s.avoid.size());
        avoidAt += int(s.avoid.size());
        mappedAvoid_ += avoid;
        const QString text = fitText(s.text, fm, area.width() - 18);
        const QStringList lines = text.split(QLatin1Char('\n'));
        double textW = 0;
        for (const QString& l : lines)
            textW = std::max(textW, fm.horizontalAdvance(l));
        // The lines as they are drawn: a fallback font (CJK) may make them
        // taller than the callout font's own line height.
        auto* label = new QGraphicsSimpleTextItem(text);
        label->setFont(font);
        label->setBrush(fg);
        const QSizeF drawn = label->boundingRect().size();
        const QSizeF size(std::max(textW, drawn.width()) + 14, std::max(fm.height() * lines.size(), drawn.height()) + 8);
        const QRectF best = placeBox(anchor, size, avoid, area);
        auto* line = new QGraphicsLineItem(chart_);
        const QPointF end(std::clamp(anchor.x(), best.left(), best.right()), std::clamp(anchor.y(), best.top(), best.bottom()));
        line->setLine(QLineF(anchor, end));
        line->setPen(QPen(fg, 1.2));
        auto* rect = new QGraphicsRectItem(best, chart_);
        rect->setPen(QPen(fg, 1.0));
        QColor fill = bg.isValid() ? bg : QColor(Qt::white);
        fill.setAlpha(235);
        rect->setBrush(fill);
        label->setParentItem(rect);
        label->setPos(best.topLeft() + QPointF(7, 4));
        for (QGraphicsItem* item : std::initializer_list<QGraphicsItem*>{line, rect})
            item->setZValue(20);
        items_ << line << rect;
        boxes_ << best;
    }
}

}  // namespace kvlens::ui
