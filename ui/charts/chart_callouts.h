// SPDX-License-Identifier: Apache-2.0
// Callouts: figures that explain themselves. A callout is a short sentence
// with the measured numbers ("98.9 MiB = 4,503 tokens × 23,040 B") in a box
// with a leader line to the point it explains. The box is placed around its
// anchor where it covers none of the data points it must avoid and stays
// inside the plot area; it follows the chart when the plot area changes.
// On by default in presentation mode (the charts decide when).
#pragma once

#include <QObject>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QColor>
#include <QFont>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QVector>

class QAbstractSeries;
class QFontMetricsF;
class QChart;
class QGraphicsItem;

namespace kvlens::ui {

class ChartCallouts : public QObject {
    Q_OBJECT
public:
    explicit ChartCallouts(QChart* chart);
    ~ChartCallouts() override;

    // A callout at `value` of `series` (in the series' units); its box avoids
    // every point of `avoid` (same units and series).
    struct Callout {
        QString text;
        QAbstractSeries* series = nullptr;
        QPointF value;
        QVector<QPointF> avoid;
        bool operator==(const Callout&) const = default;
    };

    void setEnabled(bool on);
    bool isEnabled() const { return enabled_; }
    // The chart's callouts now (none: an empty list). Drawn again only when
    // something of them, the plot area or the chart's font and colours changed.
    void show(const QVector<Callout>& callouts);

    // Geometry as drawn, in the chart's coordinates (tests check it).
    QVector<QRectF> boxes() const;
    QVector<QPointF> avoidedPoints() const;   // the data points, mapped
    QStringList texts() const;

    // Marker size around each avoided point that a box must not touch, px.
    static constexpr double kPointMargin = 5.0;
    // Where a box of `size` goes near `anchor` (all in pixels): the first of
    // the candidate places around it that stays inside `area` and covers no
    // point of `avoid` (nor the anchor), else the one covering the fewest.
    // The one rule for the charts and the lesson's painted slides.
    static QRectF placeBox(QPointF anchor, QSizeF size, const QVector<QPointF>& avoid, const QRectF& area);
    // The text as drawn in `width` px: whole, or on up to three lines, the
    // last cut short only when even three do not hold it.
    static QString fitText(const QString& text, const QFontMetricsF& fm, double width);

private:
    // What the drawn items were made from, in pixels.
    struct Drawn {
        QRectF area;
        QFont font;
        QColor fg, bg;
        QVector<Callout> specs;
        QVector<QPointF> anchors;
        QVector<QPointF> avoid;
        bool operator==(const Drawn&) const = default;
    };
    void relayout();
    void dropItems();

    QChart* chart_;
    bool enabled_ = false;
    QVector<Callout> specs_;
    Drawn drawn_;
    QVector<QGraphicsItem*> items_;
    QVector<QRectF> boxes_;
    QVector<QPointF> mappedAvoid_;
};

}  // namespace kvlens::ui
