// SPDX-License-Identifier: Apache-2.0
// The roofline chart: ceilings from the probes, points from the runs' counts.
#include "ui/charts/roofline_chart.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QPointer>
#include <QSaveFile>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QSysInfo>
#include <QThread>
#include <cmath>

#include "ui/charts/chart_style.h"
#include "ui/model/format.h"
#include "ui/model/run_record.h"

namespace kvlens::ui {

namespace {

QString si(double v, const char* unit)
{
    const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
    int i = 0;
    while (std::abs(v) >= 1000 && i < 5) {
        v /= 1000;
        ++i;
    }
    return QStringLiteral("%1 %2%3").arg(QString::number(v, 'g', 3), QLatin1String(prefixes[i]), QLatin1String(unit));
}

}  // namespace

QVector<RooflinePoint> rooflinePoints(const RunRecord& run)
{
    QVector<RooflinePoint> out;
    if (!run.hasFigures())
        return out;
    const RunFigures& f = run.figures();
    const QString name = QStringLiteral("#%1").arg(run.id());
    if (f.prefill_flop > 0 && f.prefill_bytes > 0 && f.prefill_forward_ms > 0)
        out.append({RooflineChart::tr("%1 prefill").arg(name), f.prefill_flop / f.prefill_bytes, f.prefill_flop_s, false});
    if (f.decode_flop > 0 && f.decode_bytes > 0 && f.decode_ms > 0)
        out.append({RooflineChart::tr("%1 decode").arg(name), f.decode_flop / f.decode_bytes,
                    f.decode_flop / (f.decode_ms / 1000.0), true});
    return out;
}

QString decodeExpectation(const RunRecord& run, const kvlens::machine_ceilings& c)
{
    if (!run.hasFigures() || c.read_bytes_s <= 0)
        return {};
    const RunFigures& f = run.figures();
    const int steps = f.generated_tokens - 1;   // the first token comes from the prefill
    if (steps < 1 || f.decode_bytes <= 0)
        return {};
    const double perStep = f.decode_bytes / steps;
    return RooflineChart::tr("#%1 decode: %2 read per step → at least %3 at the measured %4/s; measured %5 per token")
        .arg(run.id())
        .arg(formatBytes(perStep), formatMs(kvlens::expected_read_ms(perStep, c)), si(c.read_bytes_s, "B"),
             formatMs(f.tpot_ms));
}

QString machineCeilingsCachePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
        .filePath(QStringLiteral("machine-ceilings.txt"));
}

QString machineIdentity(int threads)
{
    QString cpu;
    QFile info(QStringLiteral("/proc/cpuinfo"));
    if (info.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : info.readAll().split('\n')) {
            if (line.startsWith("model name")) {
                cpu = QString::fromUtf8(line.mid(line.indexOf(':') + 1)).trimmed();
                break;
            }
        }
    }
    if (cpu.isEmpty())
        cpu = QSysInfo::currentCpuArchitecture();
    return QStringLiteral("%1 · %2 threads").arg(cpu).arg(threads);
}

// The cache file: "machine=<identity>" on the first line, the ceilings on the second.
kvlens::machine_ceilings cachedMachineCeilings(QString* error)
{
    const QString path = machineCeilingsCachePath();
    const int threads = QThread::idealThreadCount();
    const QString identity = machineIdentity(threads);
    QFile in(path);
    if (in.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> lines = in.readAll().trimmed().split('\n');
        if (lines.size() == 2 && QString::fromUtf8(lines[0]) == QStringLiteral("machine=") + identity) {
            auto c = kvlens::machine_ceilings_from_text(lines[1].trimmed().toStdString());
            if (c && c->threads == threads)
                return *c;   // measured before on this CPU with as many threads
        }
    }
    kvlens::ceiling_probe_options o;
    o.threads = QThread::idealThreadCount();
    auto c = kvlens::measure_machine_ceilings(o);
    if (!c) {
        if (error)
            *error = QString::fromStdString(c.err().message);
        return {};
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile out(path);
    if (out.open(QIODevice::WriteOnly)) {
        out.write((QStringLiteral("machine=") + identity).toUtf8() + '\n');
        out.write(QByteArray::fromStdString(kvlens::to_text(*c)) + '\n');
        out.commit();
    }
    return *c;
}

RooflineChart::RooflineChart(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(400, 260);
}

void RooflineChart::setCeilings(const kvlens::machine_ceilings& c)
{
    ceilings_ = c;
    update();
}

void RooflineChart::setPoints(const QVector<RooflinePoint>& points, const QString& note)
{
    points_ = points;
    note_ = note;
    update();
}

void RooflineChart::ensureCeilings()
{
    if (ceilings_.valid() || measuring_)
        return;
    measuring_ = true;
    QPointer<RooflineChart> self(this);
    QThread* t = QThread::create([self] {
        QString error;
        const kvlens::machine_ceilings c = cachedMachineCeilings(&error);
        QMetaObject::invokeMethod(qApp, [self, c] {
            if (self) {
                self->measuring_ = false;
                self->setCeilings(c);
            }
        }, Qt::QueuedConnection);
    });
    connect(t, &QThread::finished, t, &QObject::deleteLater);
    t->start(QThread::LowPriority);
}

void RooflineChart::paint(QPainter& p, const QRectF& rect) const
{
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const QColor bg = dark ? QColor(32, 32, 36) : Qt::white;
    const QColor fg = dark ? QColor(230, 230, 230) : QColor(30, 30, 30);
    const QColor grid = dark ? QColor(75, 75, 75) : QColor(225, 225, 225);
    p.fillRect(rect, bg);
    p.setRenderHint(QPainter::Antialiasing);
    QFont font = p.font();
    font.setPixelSize(std::max(11, int(rect.height() / 50)));
    p.setFont(font);
    const QFontMetricsF fm(font);
    p.setPen(fg);
    const QRectF titleBox(rect.left() + 10, rect.top() + 6, rect.width() - 20, fm.height() * 1.4);
    QFont bold = font;
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(titleBox, Qt::AlignLeft | Qt::AlignVCenter, tr("Roofline: this machine's measured ceilings"));
    p.setFont(font);

    // Axes: intensity 10^-2..10^4 FLOP/B, throughput 10^8..10^13 FLOP/s (widened to the data).
    double x0 = -2, x1 = 4, y0 = 8, y1 = 13;
    auto widen = [](double v, double& lo, double& hi) {
        if (v > 0) {
            lo = std::min(lo, std::floor(std::log10(v)));
            hi = std::max(hi, std::ceil(std::log10(v)));
        }
    };
    for (const RooflinePoint& pt : points_) {
        widen(pt.intensity, x0, x1);
        widen(pt.flopS, y0, y1);
    }
    widen(ceilings_.f32_flop_s, y0, y1);
    widen(ceilings_.int8_op_s, y0, y1);
    const double noteH = note_.isEmpty() ? 0 : fm.height() * 2.6;
    const QRectF area(rect.left() + fm.horizontalAdvance(QStringLiteral("10¹³ FLOP/s")) + 16, titleBox.bottom() + 8,
                      rect.width() - fm.horizontalAdvance(QStringLiteral("10¹³ FLOP/s")) - 56,
                      rect.height() - titleBox.height() - 3 * fm.height() - noteH - 24);
    auto X = [&](double v) { return area.left() + (std::log10(v) - x0) / (x1 - x0) * area.width(); };
    auto Y = [&](double v) { return area.bottom() - (std::log10(v) - y0) / (y1 - y0) * area.height(); };
    // Every grid line; a tick label only where it has room (a small cell
    // on the board labels every second or third decade).
    const double decadeW = area.width() / std::max(1.0, x1 - x0);
    const double decadeH = area.height() / std::max(1.0, y1 - y0);
    const int xEvery = std::max(1, int(std::ceil(fm.horizontalAdvance(QStringLiteral("10^-2")) * 1.3 / decadeW)));
    const int yEvery = std::max(1, int(std::ceil(fm.height() * 1.1 / decadeH)));
    for (int e = int(x0); e <= int(x1); ++e) {
        const double x = X(std::pow(10.0, e));
        p.setPen(grid);
        p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        p.setPen(fg);
        if ((e - int(x0)) % xEvery == 0)
            p.drawText(QRectF(x - 40, area.bottom() + 3, 80, fm.height()), Qt::AlignHCenter,
                       QStringLiteral("10^%1").arg(e));
    }
    for (int e = int(y0); e <= int(y1); ++e) {
        const double y = Y(std::pow(10.0, e));
        p.setPen(grid);
        p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
        p.setPen(fg);
        if ((e - int(y0)) % yEvery == 0)
            p.drawText(QRectF(rect.left(), y - fm.height() / 2, area.left() - rect.left() - 6, fm.height()),
                       Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("10^%1").arg(e));
    }
    // A small cell gets the short title rather than a cut one.
    const QString xTitle = tr("arithmetic intensity, FLOP per byte read (counted)");
    p.drawText(QRectF(area.left(), area.bottom() + fm.height() + 4, area.width(), fm.height()), Qt::AlignHCenter,
               fm.horizontalAdvance(xTitle) <= area.width() ? xTitle : tr("FLOP per byte"));
    p.save();
    p.translate(rect.left() + 2, area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-area.height() / 2, 0, area.height(), fm.height()), Qt::AlignHCenter, tr("achieved FLOP/s"));
    p.restore();
    p.setClipRect(area);

    // The roofs: bandwidth × intensity up to each peak.
    if (ceilings_.valid()) {
        auto roof = [&](double peak, const QColor& c, Qt::PenStyle style, const QString& label) {
            const double ridge = peak / ceilings_.read_bytes_s;
            const double xl = std::pow(10.0, x0), xr = std::pow(10.0, x1);
            p.setPen(QPen(c, 2.5, style));
            p.drawLine(QPointF(X(xl), Y(xl * ceilings_.read_bytes_s)), QPointF(X(ridge), Y(peak)));
            p.drawLine(QPointF(X(ridge), Y(peak)), QPointF(X(xr), Y(peak)));
            p.drawText(QPointF(X(ridge) + 6, Y(peak) - 4), label);
        };
        roof(ceilings_.f32_flop_s, ChartStyle::prefillColor(), Qt::SolidLine,
             tr("f32 peak %1/s (%2)").arg(si(ceilings_.f32_flop_s, "FLOP"), QString::fromStdString(ceilings_.isa)));
        roof(ceilings_.int8_op_s, ChartStyle::formulaColor(), Qt::DashLine,
             tr("int8 peak %1/s").arg(si(ceilings_.int8_op_s, "op")));
        // The bandwidth label where its roof is inside the plot, low on the left.
        p.setPen(fg);
        const double xb = std::max(std::pow(10.0, x0 + 0.1),
                                   std::pow(10.0, y0 + (y1 - y0) / 6.0) / ceilings_.read_bytes_s);
        p.drawText(QPointF(X(xb) + 8, Y(xb * ceilings_.read_bytes_s) + fm.height()),
                   tr("memory %1/s (read probe)").arg(si(ceilings_.read_bytes_s, "B")));
    } else {
        p.setPen(fg);
        p.drawText(area, Qt::AlignCenter, measuring_ ? tr("measuring this machine's ceilings…") : tr("no ceilings measured"));
    }
    for (const RooflinePoint& pt : points_) {
        if (pt.intensity <= 0 || pt.flopS <= 0)
            continue;
        const QColor c = pt.decode ? ChartStyle::runColor(1) : ChartStyle::runColor(0);
        const QPointF at(X(pt.intensity), Y(pt.flopS));
        p.setPen(QPen(c.darker(130), 1.5));
        p.setBrush(c);
        if (pt.decode)
            p.drawRect(QRectF(at - QPointF(5, 5), QSizeF(10, 10)));
        else
            p.drawEllipse(at, 5.5, 5.5);
        p.setBrush(Qt::NoBrush);
        p.setPen(fg);
        p.drawText(at + QPointF(9, 4), pt.label);
    }
    p.setClipping(false);
    if (!note_.isEmpty()) {
        p.setPen(fg);
        p.drawText(QRectF(rect.left() + 10, rect.bottom() - noteH - 4, rect.width() - 20, noteH), Qt::TextWordWrap,
                   note_);
    }
}

void RooflineChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p, QRectF(rect()));
}

QString RooflineChart::exportTo(const QString& path, QSize size) const
{
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(size);
        gen.setViewBox(QRect(QPoint(0, 0), size));
        gen.setTitle(tr("Roofline"));
        QPainter p;
        if (!p.begin(&gen))
            return tr("cannot write %1").arg(path);
        paint(p, QRectF(QPointF(0, 0), size));
        return p.end() ? QString() : tr("cannot write %1").arg(path);
    }
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&image);
        paint(p, QRectF(QPointF(0, 0), size));
    }
    QImageWriter w(path);
    return w.write(image) ? QString() : tr("cannot write %1: %2").arg(path, w.errorString());
}

}  // namespace kvlens::ui
