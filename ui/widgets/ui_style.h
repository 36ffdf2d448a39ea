// SPDX-License-Identifier: Apache-2.0
// Small helpers that keep the panes consistent: spacing, section headings,
// secondary text, the status badge colours, and the scale factor of the
// presentation mode.
#pragma once

#include <QColor>
#include <QString>

class QLabel;
class QWidget;

namespace kvlens::ui::style {

constexpr int kSpacing = 8;         // px between related controls
constexpr int kMargin = 12;         // px around a pane's content

// A section heading (semi-bold, a little larger than body text).
void makeHeading(QLabel* label, double scale = 1.15);
// Secondary text: the palette's placeholder colour, slightly smaller.
void makeSecondary(QLabel* label);
// A rounded badge with a meaning: good (green), warn (amber), bad (red), info (blue).
enum class Badge { Good, Warn, Bad, Info, Neutral };
QString badgeStyleSheet(Badge b);
QColor badgeColor(Badge b);

}  // namespace kvlens::ui::style
