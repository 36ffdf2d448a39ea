// SPDX-License-Identifier: Apache-2.0
// The look shared by every chart: the meaning of each colour (one per run,
// one per TTFT part, one per KV line, one per memory kind), fonts and line
// widths for the normal and the presentation mode, and the light/dark palette
// taken from the application's palette.
#pragma once

#include <QColor>
#include <QFont>
#include <QPen>

#include "ui/model/format.h"   // formatBytes, formatMs: used by every chart

class QChart;
class QAbstractAxis;
class QValueAxis;

namespace kvlens::ui {

struct ChartStyle {
    bool presentation = false;  // classroom: everything larger and thicker
    bool dark = false;          // follows the window palette
    double scale = 1.0;         // the window's height / 1080 (clamped 0.62..1): presentation type follows it
    double normalScale() const; // the normal view's milder scale: 0.85 at 720 lines, 1 at 1080

    // Colours with a meaning, the same in every chart and in the legends.
    static QColor runColor(int slot);       // 0: the selected run, 1: the compared run (no run known)
    static QColor colorForRun(int runId);   // the run's own colour, the same in every chart for its life
    static QColor queueColor();
    static QColor tokenizeColor();
    static QColor prefillColor();
    static QColor sampleColor();
    static QColor kvLogicalColor();
    static QColor kvAllocatedColor();
    static QColor kvLocalColor();      // a sliding-window model's local layers
    static QColor hiddenReasoningColor();   // tokens inside <think>…</think>
    static QColor draftedColor();           // accepted draft tokens (speculative decoding)
    static QColor kvReservedColor();
    static QColor formulaColor();
    static QColor weightsColor();
    static QColor scratchColor();

    QColor textColor() const;
    QColor gridColor() const;
    QColor backgroundColor() const;
    QFont titleFont() const;
    QFont axisTitleFont() const;
    QFont labelFont() const;
    qreal lineWidth() const;       // px, data lines
    qreal markerSize() const;      // px, scatter points
    QPen linePen(const QColor& c, Qt::PenStyle s = Qt::SolidLine) const;

    // Applies background, fonts and legend placement to a chart, and fonts,
    // colours and grid to an axis (with its title, which names the unit).
    void applyTo(QChart* chart) const;
    void applyTo(QAbstractAxis* axis, const QString& title) const;

    static ChartStyle fromApplication(bool presentation);
};

// Rounds an axis maximum up to 1, 2 or 5 x 10^k so ticks land on round values.
double niceCeil(double v);
// An axis property the chart panel sets from its plot's size: the most
// labelled intervals whose labels fit side by side (setNiceRange honours it).
inline constexpr const char* kTickRoomProperty = "kvlensTickRoom";

// Sets the axis to 0..max rounded up to whole steps of 1, 2, 2.5 or 5 x 10^k,
// with at most `maxTicks` intervals, and a label format with the decimals
// the step needs.
void setNiceRange(QValueAxis* axis, double max, int maxTicks = 5);
// The same for lo..hi, lo rounded down to a whole step.
void setNiceRange(QValueAxis* axis, double lo, double hi, int maxTicks);
// The axis's range again from what it was last asked for (after its tick
// room changed), so that it is what the next plot of the same data sets:
// a re-plot then leaves the axis as it is. True when the range changed.
bool refitNiceRange(QValueAxis* axis);

}  // namespace kvlens::ui
