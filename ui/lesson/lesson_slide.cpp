// SPDX-License-Identifier: Apache-2.0
// Painting a lesson slide: a text column on top (title, caption), the plot in
// the middle, the takeaway at the bottom. The plot maps the data's range onto
// round ticks (1, 2, 5 × 10^k) and draws markers, lines or bars per series.
#include "ui/lesson/lesson_slide.h"

#include "ui/charts/chart_callouts.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

#include "ui/charts/chart_style.h"

namespace kvlens::ui {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }

// A round step for about `ticks` intervals over `span`.
double niceStep(double span, int ticks)
{
    if (span <= 0)
        return 1;
    const double raw = span / ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw)
            return m * mag;
    return 10 * mag;
}

QString tickLabel(double v, double step)
{
    const int decimals = step >= 1 ? 0 : std::min(3, int(std::ceil(-std::log10(step))));
    if (std::abs(v) >= 1e6)
        return QString::number(v, 'g', 3);
    return QString::number(v, 'f', decimals);
}

struct Range {
    double lo = 0, hi = 1, step = 1;
};
Range niceRange(double lo, double hi)
{
    lo = std::min(lo, 0.0);
    if (hi <= lo)
        hi = lo + 1;
    Range r;
    r.step = niceStep(hi - lo, 5);
    r.lo = std::floor(lo / r.step) * r.step;
    r.hi = std::ceil(hi / r.step) * r.step;
    return r;
}

QString stateLine(const LessonResult& r)
{
    switch (r.state) {
    case LessonState::NotRun: return tr("Not run yet.");
    case LessonState::Running: return tr("Running…");
    case LessonState::Skipped: return tr("Skipped: %1").arg(r.reason);
    case LessonState::Failed: return tr("Failed: %1").arg(r.reason);
    case LessonState::Done: return r.takeaway;
    }
    return {};
}

}  // namespace

// The callout at the last point of its series, placed by the charts' rule
// (ChartCallouts::placeBox) so it covers no point of any series.
template <class MapX, class MapY>
void paintCallout(QPainter& p, const LessonPlot& plot, const QRectF& area, MapX X, MapY Y, const QColor& fg,
                  const QColor& bg, PlotCalloutGeometry* geometry)
{
    // What is drawn, in pixels: markers, and lines sampled between their
    // vertices; bars over their whole area.
    QVector<QPointF> drawn;
    for (const LessonSeries& s : plot.series) {
        for (int i = 0; i < s.points.size(); ++i) {
            const QPointF pt(X(s.points[i].x()), Y(s.points[i].y()));
            if (plot.bars) {
                for (int k = 0; k <= 8; ++k)
                    for (double dx : {-0.3, 0.0, 0.3})
                        drawn << QPointF(X(s.points[i].x() + dx), Y(s.points[i].y() * k / 8.0));
                continue;
            }
            if (s.line && i > 0) {
                const QPointF prev(X(s.points[i - 1].x()), Y(s.points[i - 1].y()));
                for (int k = 1; k < 10; ++k)
                    drawn << prev + (pt - prev) * (k / 10.0);
            }
            drawn << pt;
        }
    }
    if (geometry) {
        geometry->area = area;
        geometry->points = drawn;
        geometry->box = QRectF();
    }
    if (plot.callout.isEmpty() || plot.calloutSeries >= plot.series.size()
        || plot.series[plot.calloutSeries].points.isEmpty())
        return;
    const QPointF last = plot.series[plot.calloutSeries].points.last();
    const QPointF anchor(X(last.x()), Y(last.y()));
    QFont bold = p.font();
    bold.setBold(true);
    const QFontMetricsF fm(bold);
    const QString text = ChartCallouts::fitText(plot.callout, fm, area.width() - 18);
    double textW = 0;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString& l : lines)
        textW = std::max(textW, fm.horizontalAdvance(l));
    p.save();
    p.setFont(bold);
    // The lines as the painter draws them: a fallback font (CJK) may make
    // them taller than the bold font's own line height.
    const QRectF drawnText = p.boundingRect(area, Qt::AlignLeft | Qt::AlignTop, text);
    const QSizeF size(std::max(textW, drawnText.width()) + 14, std::max(fm.height() * lines.size(), drawnText.height()) + 8);
    const QRectF box = ChartCallouts::placeBox(anchor, size, drawn, area);
    p.setPen(QPen(fg, 1.2));
    p.drawLine(anchor, QPointF(std::clamp(anchor.x(), box.left(), box.right()),
                               std::clamp(anchor.y(), box.top(), box.bottom())));
    QColor fill = bg;
    fill.setAlpha(235);
    p.setBrush(fill);
    p.drawRect(box);
    p.drawText(box.adjusted(7, 4, -7, -4), Qt::AlignLeft | Qt::AlignVCenter, text);
    p.restore();
    if (geometry)
        geometry->box = box;
}

void paintLessonPlot(QPainter& p, const QRectF& rect, const LessonPlot& plot, bool dark, PlotCalloutGeometry* geometry)
{
    const QColor fg = dark ? QColor(230, 230, 230) : QColor(30, 30, 30);
    const QColor grid = dark ? QColor(80, 80, 80) : QColor(220, 220, 220);
    double xlo = 0, xhi = 0, yhi = 0;
    bool any = false;
    for (const LessonSeries& s : plot.series) {
        for (const QPointF& pt : s.points) {
            xlo = any ? std::min(xlo, pt.x()) : pt.x();
            xhi = any ? std::max(xhi, pt.x()) : pt.x();
            yhi = std::max(yhi, pt.y());
            any = true;
        }
    }
    if (!any) {
        p.setPen(fg);
        p.drawText(rect, Qt::AlignCenter, tr("no measurements"));
        return;
    }
    if (plot.bars) {
        xlo = -0.5;
        xhi = double(plot.series.first().points.size()) - 0.5;
    }
    const Range yr = niceRange(0, yhi * 1.05);
    const Range xr = plot.bars ? Range{xlo, xhi, 1} : niceRange(std::min(0.0, xlo), xhi);
    const QFontMetricsF fm(p.font());
    const double left = fm.horizontalAdvance(tickLabel(yr.hi, yr.step)) + fm.height() + 14;
    const QRectF area(rect.left() + left, rect.top() + fm.height(), rect.width() - left - 10,
                      rect.height() - 3 * fm.height() - 12);
    auto X = [&](double x) { return area.left() + (x - xr.lo) / (xr.hi - xr.lo) * area.width(); };
    auto Y = [&](double y) { return area.bottom() - (y - yr.lo) / (yr.hi - yr.lo) * area.height(); };

    // Grid, ticks and axis titles.
    p.setPen(QPen(grid, 1));
    for (double y = yr.lo; y <= yr.hi + yr.step / 2; y += yr.step) {
        p.drawLine(QPointF(area.left(), Y(y)), QPointF(area.right(), Y(y)));
        p.setPen(fg);
        p.drawText(QRectF(rect.left() + fm.height(), Y(y) - fm.height() / 2, left - fm.height() - 6, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, tickLabel(y, yr.step));
        p.setPen(QPen(grid, 1));
    }
    p.setPen(fg);
    if (plot.bars) {
        for (int i = 0; i < plot.barLabels.size(); ++i)
            p.drawText(QRectF(X(i - 0.5), area.bottom() + 4, X(i + 0.5) - X(i - 0.5), fm.height()),
                       Qt::AlignHCenter | Qt::AlignTop, fm.elidedText(plot.barLabels[i], Qt::ElideRight, X(i + 0.5) - X(i - 0.5)));
    } else {
        for (double x = xr.lo; x <= xr.hi + xr.step / 2; x += xr.step)
            p.drawText(QRectF(X(x) - 40, area.bottom() + 4, 80, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                       tickLabel(x, xr.step));
    }
    p.drawLine(area.bottomLeft(), area.bottomRight());
    p.drawLine(area.bottomLeft(), area.topLeft());
    p.drawText(QRectF(area.left(), area.bottom() + fm.height() + 6, area.width(), fm.height()), Qt::AlignHCenter,
               plot.xLabel);
    p.save();
    p.translate(rect.left(), area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-area.height() / 2, 0, area.height(), fm.height()), Qt::AlignHCenter, plot.yLabel);
    p.restore();

    // The series, then the fit, then the legend.
    p.setRenderHint(QPainter::Antialiasing);
    for (int si = 0; si < plot.series.size(); ++si) {
        const LessonSeries& s = plot.series[si];
        const QColor c = ChartStyle::runColor(si);
        if (plot.bars) {
            for (const QPointF& pt : s.points) {
                const QRectF bar(QPointF(X(pt.x() - 0.3), Y(pt.y())), QPointF(X(pt.x() + 0.3), Y(0)));
                p.fillRect(bar, c);
            }
            continue;
        }
        if (s.line && s.points.size() > 1) {
            p.setPen(QPen(c, 2));
            for (int i = 1; i < s.points.size(); ++i)
                p.drawLine(QPointF(X(s.points[i - 1].x()), Y(s.points[i - 1].y())),
                           QPointF(X(s.points[i].x()), Y(s.points[i].y())));
        } else {
            p.setPen(QPen(c, 1.5));
            p.setBrush(c);
            for (const QPointF& pt : s.points)
                p.drawEllipse(QPointF(X(pt.x()), Y(pt.y())), 4.5, 4.5);
            p.setBrush(Qt::NoBrush);
        }
    }
    if (plot.hasFit && plot.fit.valid()) {
        p.setPen(QPen(ChartStyle::runColor(0), 1.5, Qt::DashLine));
        const double x0 = std::max(xr.lo, 0.0), x1 = xr.hi;
        p.drawLine(QPointF(X(x0), Y(std::max(yr.lo, plot.fit.at(x0)))), QPointF(X(x1), Y(std::min(yr.hi, plot.fit.at(x1)))));
    }
    paintCallout(p, plot, area, X, Y, fg, dark ? QColor(32, 32, 36) : QColor(Qt::white), geometry);
    if (!plot.bars) {
        double lx = area.left() + 10;
        const double ly = area.top() - fm.height() - 2;
        for (int si = 0; si < plot.series.size(); ++si) {
            const QString name = plot.series[si].name;
            p.fillRect(QRectF(lx, ly + fm.height() / 2 - 4, 14, 8), ChartStyle::runColor(si));
            p.setPen(fg);
            p.drawText(QPointF(lx + 18, ly + fm.ascent()), name);
            lx += 30 + fm.horizontalAdvance(name);
        }
        if (plot.hasFit && plot.fit.valid()) {
            const QString fit = tr("least-squares line (R² %1)").arg(QString::number(plot.fit.r2, 'f', 2));
            p.setPen(QPen(ChartStyle::runColor(0), 1.5, Qt::DashLine));
            p.drawLine(QPointF(lx, ly + fm.height() / 2), QPointF(lx + 14, ly + fm.height() / 2));
            p.setPen(fg);
            p.drawText(QPointF(lx + 18, ly + fm.ascent()), fit);
        }
    }
}

void paintLessonSlide(QPainter& p, const QRectF& rect, const LessonStep& step, const LessonResult& result,
                      const SlideText& text)
{
    const QColor bg = text.dark ? QColor(32, 32, 36) : QColor(255, 255, 255);
    const QColor fg = text.dark ? QColor(235, 235, 235) : QColor(25, 25, 25);
    p.fillRect(rect, bg);
    const double m = rect.width() * 0.035;
    QRectF r = rect.adjusted(m, m * 0.7, -m, -m * 0.7);
    const double unit = std::max(10.0, rect.height() / 36.0);   // 20 px at 720 lines

    QFont title = p.font();
    title.setPixelSize(int(unit * 1.5));
    title.setBold(true);
    p.setFont(title);
    p.setPen(fg);
    const QString head = tr("Step %1 · %2").arg(step.number).arg(step.title);
    const QRectF headBox = p.boundingRect(r, Qt::TextWordWrap, head);
    p.drawText(r, Qt::TextWordWrap, head);
    r.setTop(headBox.bottom() + unit * 0.4);

    QFont body = p.font();
    body.setPixelSize(int(unit * 0.9));
    body.setBold(false);
    p.setFont(body);
    const QRectF capBox = p.boundingRect(r, Qt::TextWordWrap, step.caption);
    p.drawText(r, Qt::TextWordWrap, step.caption);
    r.setTop(capBox.bottom() + unit * 0.5);

    // The takeaway at the bottom, measured first so the plot takes the rest.
    QFont take = body;
    take.setBold(result.state == LessonState::Done);
    p.setFont(take);
    const QString line = stateLine(result);
    QRectF foot = r;
    QRectF takeBox = p.boundingRect(QRectF(r.left(), 0, r.width(), rect.height()), Qt::TextWordWrap, line);
    const double footH = text.footer.isEmpty() ? 0 : unit * 1.2;
    foot.setTop(r.bottom() - takeBox.height() - footH);
    p.drawText(QRectF(foot.left(), foot.top(), foot.width(), takeBox.height()), Qt::TextWordWrap, line);
    if (!text.footer.isEmpty()) {
        QFont small = body;
        small.setPixelSize(int(unit * 0.65));
        p.setFont(small);
        p.setPen(text.dark ? QColor(170, 170, 170) : QColor(110, 110, 110));
        p.drawText(QRectF(r.left(), r.bottom() - footH, r.width(), footH), Qt::AlignBottom | Qt::AlignLeft, text.footer);
    }

    QFont small = body;
    small.setPixelSize(int(unit * 0.7));
    p.setFont(small);
    const QRectF plotRect(r.left(), r.top(), r.width(), foot.top() - r.top() - unit * 0.5);
    if (plotRect.height() > unit * 4 && (result.state == LessonState::Done || !result.runs.isEmpty()))
        paintLessonPlot(p, plotRect, result.plot.series.isEmpty() ? lessonPlot(step.id, result.runs) : result.plot,
                        text.dark);
}

QString exportLessonSlide(const QString& path, const LessonStep& step, const LessonResult& result,
                          const SlideText& text, QSize size)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(size);
        gen.setViewBox(QRect(QPoint(0, 0), size));
        gen.setTitle(tr("Step %1 · %2").arg(step.number).arg(step.title));
        gen.setDescription(step.caption + QLatin1Char('\n') + result.takeaway);
        QPainter p;
        if (!p.begin(&gen))
            return tr("cannot write %1").arg(path);
        paintLessonSlide(p, QRectF(QPointF(0, 0), size), step, result, text);
        if (!p.end())
            return tr("cannot write %1").arg(path);
        return QFileInfo(path).size() > 0 ? QString() : tr("cannot write %1").arg(path);
    }
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::TextAntialiasing);
        paintLessonSlide(p, QRectF(QPointF(0, 0), size), step, result, text);
    }
    QImageWriter writer(path, suffix.toLatin1());
    if (!writer.write(image))
        return tr("cannot write %1: %2").arg(path, writer.errorString());
    return {};
}

}  // namespace kvlens::ui
