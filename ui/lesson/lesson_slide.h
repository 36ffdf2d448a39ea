// SPDX-License-Identifier: Apache-2.0
// A lesson step as a slide: its number and title, the caption (what we
// change, what to watch, the sizes), the step's plot drawn from the measured
// runs, and the takeaway. Painted with QPainter on any device, so the window
// shows exactly what the PNG and SVG exports contain.
#pragma once

#include <QRectF>
#include <QString>
#include <QVector>
#include <QPointF>

#include "ui/lesson/lesson_runner.h"

class QPainter;

namespace kvlens::ui {

struct SlideText {
    QString footer;     // e.g. the model and the backend
    bool dark = false;
};

// Paints the slide for `step` and its `result` into `rect`.
void paintLessonSlide(QPainter& p, const QRectF& rect, const LessonStep& step, const LessonResult& result,
                      const SlideText& text = {});

// Where the plot's callout went (pixels of the painter): its box, and every
// data point drawn (markers, line vertices, bar tops), which the box avoids.
struct PlotCalloutGeometry {
    QRectF box;                 // empty: no callout
    QRectF area;                // the plot area
    QVector<QPointF> points;
};

// The plot alone (axes, series, fit line, legend, callout) in `rect`.
void paintLessonPlot(QPainter& p, const QRectF& rect, const LessonPlot& plot, bool dark = false,
                     PlotCalloutGeometry* geometry = nullptr);

// Writes the slide to `path` (.png or .svg) at `size` (pixels / SVG units);
// empty on success, else the reason.
QString exportLessonSlide(const QString& path, const LessonStep& step, const LessonResult& result,
                          const SlideText& text = {}, QSize size = QSize(1280, 720));

}  // namespace kvlens::ui
