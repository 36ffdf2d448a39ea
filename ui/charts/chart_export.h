// SPDX-License-Identifier: Apache-2.0
// The one export path for charts (and any widget): SVG through QSvgGenerator,
// every other suffix through QImageWriter (PNG, JPEG, WebP, ... whatever the
// installed image plugins write). Raster images are drawn at `scale` times the
// widget's size so they stay sharp on slides.
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace kvlens::ui {

// Returns an empty string on success, else the reason (translated).
QString exportWidget(QWidget* widget, const QString& path, double scale = 2.0);
// The suffixes exportWidget can write: "svg" first, then QImageWriter's.
QStringList exportSuffixes();
// A file dialog filter for them, e.g. "PNG image (*.png);;SVG drawing (*.svg);;...".
QString exportFilter();

}  // namespace kvlens::ui
