// SPDX-License-Identifier: Apache-2.0
// ChartStyle: colours, fonts, palette.
#include "ui/charts/chart_style.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFontDatabase>
#include <QGraphicsLayout>
#include <QLegend>
#include <QPalette>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace kvlens::ui {

namespace {

// An installed family with Simplified Chinese glyphs, a sans-serif one for
// Simplified Chinese where there is one (Noto Sans CJK SC), else any; empty
// when none is installed.
QString chineseFamily()
{
    static const QString family = [] {
        QString best, sans;
        for (const QString& f : QFontDatabase::families(QFontDatabase::SimplifiedChinese)) {
            if (f.contains(QLatin1String("Mono")) || f.contains(QLatin1String("Serif")))
                continue;
            if (f.contains(QLatin1String("Sans")) && f.endsWith(QLatin1String(" SC")))
                return f;
            if (sans.isEmpty() && f.contains(QLatin1String("Sans")))
                sans = f;
            if (best.isEmpty())
                best = f;
        }
        return sans.isEmpty() ? best : sans;
    }();
    return family;
}

}  // namespace

QColor ChartStyle::runColor(int slot)
{
    return slot == 0 ? QColor(0x2f, 0x6f, 0xde) : QColor(0xe0, 0x7b, 0x39);
}
QColor ChartStyle::colorForRun(int runId)
{
    // One colour per run for its whole life, whichever slot it is drawn in.
    static const QColor palette[] = {QColor(0x2f, 0x6f, 0xde), QColor(0xe0, 0x7b, 0x39), QColor(0x2f, 0xa5, 0x6f),
                                     QColor(0xb8, 0x3f, 0xa0), QColor(0x8a, 0x6d, 0x1e), QColor(0x1a, 0x9e, 0xb8),
                                     QColor(0xd0, 0x40, 0x40), QColor(0x6a, 0x5a, 0xcd)};
    if (runId <= 0)
        return palette[0];
    return palette[(runId - 1) % int(std::size(palette))];
}
QColor ChartStyle::queueColor() { return QColor(0x9a, 0xa5, 0xb1); }
QColor ChartStyle::tokenizeColor() { return QColor(0x8e, 0x6c, 0xd1); }
QColor ChartStyle::prefillColor() { return QColor(0x2f, 0x6f, 0xde); }
QColor ChartStyle::sampleColor() { return QColor(0x2f, 0xa5, 0x6f); }
QColor ChartStyle::kvLogicalColor() { return QColor(0x2f, 0x6f, 0xde); }
QColor ChartStyle::kvAllocatedColor() { return QColor(0x1a, 0x9e, 0x9e); }
QColor ChartStyle::kvLocalColor() { return QColor(0xc2, 0x18, 0x5b); }
QColor ChartStyle::hiddenReasoningColor() { return QColor(0x7a, 0x6a, 0x58); }
QColor ChartStyle::draftedColor() { return QColor(0x16, 0xa0, 0x85); }
QColor ChartStyle::kvReservedColor() { return QColor(0xc0, 0x39, 0x2b); }
QColor ChartStyle::formulaColor() { return QColor(0x7f, 0x8c, 0x8d); }
QColor ChartStyle::weightsColor() { return QColor(0x5b, 0x6b, 0x7f); }
QColor ChartStyle::scratchColor() { return QColor(0xe0, 0xa8, 0x2e); }

QColor ChartStyle::textColor() const { return dark ? QColor(0xe6, 0xe8, 0xeb) : QColor(0x23, 0x2a, 0x33); }
QColor ChartStyle::gridColor() const { return dark ? QColor(0x3a, 0x40, 0x48) : QColor(0xe3, 0xe6, 0xea); }
QColor ChartStyle::backgroundColor() const { return dark ? QColor(0x1f, 0x23, 0x28) : QColor(0xff, 0xff, 0xff); }

QFont ChartStyle::titleFont() const
{
    QFont f = QApplication::font();
    f.setPointSizeF(presentation ? 18 * scale : 10.5 * normalScale());
    f.setWeight(QFont::DemiBold);
    return f;
}

QFont ChartStyle::axisTitleFont() const
{
    QFont f = QApplication::font();
    f.setPointSizeF(presentation ? 14 * scale : 9 * normalScale());
    // A vertical axis title in Chinese drew as "⋮" (the whole title elided)
    // when its glyphs came from a fallback font the title's sizing did not
    // know of; named as the font's second family, it is measured too.
    if (const QString cjk = chineseFamily(); !cjk.isEmpty() && cjk != f.family())
        f.setFamilies({f.family(), cjk});
    return f;
}

QFont ChartStyle::labelFont() const
{
    QFont f = QApplication::font();
    f.setPointSizeF(presentation ? 13 * scale : 8.5 * normalScale());
    return f;
}

double ChartStyle::normalScale() const
{
    // The desk view shrinks its chart type a little on a 720-line screen
    // (0.85 there, 1 from 1080 lines), where six charts share ~650 px.
    return std::clamp(0.85 + 0.15 * (scale - 0.667) / 0.333, 0.85, 1.0);
}

qreal ChartStyle::lineWidth() const { return presentation ? 3.5 : 2.0; }
qreal ChartStyle::markerSize() const { return presentation ? 9.0 : 5.0; }

QPen ChartStyle::linePen(const QColor& c, Qt::PenStyle s) const
{
    // Round caps only on solid lines: on a dotted or dashed line every dash
    // gets two, and the raster engine fills those curves one by one. The KV
    // chart's dotted formula line with round caps took 55 ms a repaint at
    // 1280x720, most of the GUI thread's time during a prefill, and with it a
    // core from the engine on 2 cores (prefill chunks 1.5-2x slower in the
    // window than headless); with flat caps, under 1 ms.
    if (s != Qt::SolidLine)
        return QPen(c, lineWidth(), s, Qt::FlatCap, Qt::MiterJoin);
    return QPen(c, lineWidth(), s, Qt::RoundCap, Qt::RoundJoin);
}

void ChartStyle::applyTo(QChart* chart) const
{
    chart->setBackgroundBrush(backgroundColor());
    chart->setBackgroundRoundness(0);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleFont(titleFont());
    chart->setTitleBrush(textColor());
    chart->setMargins(QMargins(6, 4, 6, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);   // the panel has its own margins
    chart->setAnimationOptions(QChart::NoAnimation);  // live data: animations lag behind
    QLegend* legend = chart->legend();
    legend->setFont(labelFont());
    legend->setLabelColor(textColor());
    // Placement (below or beside the plot) is the panel's: it depends on the size.
    legend->setMarkerShape(QLegend::MarkerShapeFromSeries);
}

void ChartStyle::applyTo(QAbstractAxis* axis, const QString& title) const
{
    axis->setTitleText(title);
    axis->setTitleFont(axisTitleFont());
    axis->setTitleBrush(textColor());
    axis->setLabelsFont(labelFont());
    axis->setLabelsColor(textColor());
    axis->setGridLineColor(gridColor());
    axis->setLinePenColor(gridColor());
    axis->setMinorGridLineVisible(false);
}

ChartStyle ChartStyle::fromApplication(bool presentation)
{
    ChartStyle s;
    s.presentation = presentation;
    s.dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    return s;
}

double niceCeil(double v)
{
    if (v <= 0)
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (v <= m * p * 1.0000001)
            return m * p;
    }
    return 10 * p;
}

}  // namespace kvlens::ui

namespace kvlens::ui {

void setNiceRange(QValueAxis* axis, double max, int maxTicks)
{
    setNiceRange(axis, 0.0, max, maxTicks);
}

namespace {
// What setNiceRange was last asked for: (lo, max, maxTicks).
constexpr char kAskedRangeProperty[] = "kvlensAskedRange";
}  // namespace

void setNiceRange(QValueAxis* axis, double lo, double max, int maxTicks)
{
    const QVariantList asked{lo, max, maxTicks};
    if (axis->property(kAskedRangeProperty).toList() != asked)
        axis->setProperty(kAskedRangeProperty, asked);
    // The panel says how many labelled intervals its plot has room for.
    const QVariant room = axis->property(kTickRoomProperty);
    if (room.isValid())
        maxTicks = std::max(1, std::min(maxTicks, room.toInt()));
    if (!(max > lo))
        max = lo + 1;
    const double raw = (max - lo) / maxTicks;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * p;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * p >= raw * 0.9999999) {
            step = m * p;
            break;
        }
    }
    const double start = std::floor(lo / step + 1e-9) * step;
    const int n = std::max(1, int(std::ceil((max - start) / step - 1e-9)));
    int decimals = 0;
    while (decimals < 3 && std::abs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    // Each setter re-lays the chart out, even with the value it has: only
    // what changed is set (a live chart is re-plotted several times a second).
    const double end = start + n * step;
    if (axis->min() != start || axis->max() != end)
        axis->setRange(start, end);
    if (axis->tickCount() != n + 1)
        axis->setTickCount(n + 1);
    const QString format = QStringLiteral("%.%1f").arg(decimals);
    if (axis->labelFormat() != format)
        axis->setLabelFormat(format);
}

bool refitNiceRange(QValueAxis* axis)
{
    const QVariantList asked = axis->property(kAskedRangeProperty).toList();
    if (asked.size() != 3)
        return false;
    const double min = axis->min(), max = axis->max();
    const int ticks = axis->tickCount();
    setNiceRange(axis, asked[0].toDouble(), asked[1].toDouble(), asked[2].toInt());
    return axis->min() != min || axis->max() != max || axis->tickCount() != ticks;
}

}  // namespace kvlens::ui
