// SPDX-License-Identifier: Apache-2.0
// Chart export: SVG or any QImageWriter format, from one function.
#include "ui/charts/chart_export.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace kvlens::ui {

namespace {
QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }
}

QStringList exportSuffixes()
{
    QStringList out{QStringLiteral("svg")};
    for (const QByteArray& f : QImageWriter::supportedImageFormats()) {
        const QString s = QString::fromLatin1(f).toLower();
        if (!out.contains(s))
            out.append(s);
    }
    // PNG is the default choice in dialogs.
    out.removeAll(QStringLiteral("png"));
    out.prepend(QStringLiteral("png"));
    return out;
}

QString exportFilter()
{
    QStringList parts;
    for (const QString& s : exportSuffixes()) {
        if (s == QLatin1String("png"))
            parts << tr("PNG image (*.png)");
        else if (s == QLatin1String("svg"))
            parts << tr("SVG drawing (*.svg)");
        else
            parts << tr("%1 image (*.%2)").arg(s.toUpper(), s);
    }
    return parts.join(QStringLiteral(";;"));
}

QString exportWidget(QWidget* widget, const QString& path, double scale)
{
    if (!widget)
        return tr("nothing to export");
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QSize size = widget->size();
    if (size.isEmpty())
        return tr("the chart has no size yet");

    if (suffix == QLatin1String("svg")) {
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(size);
        gen.setViewBox(QRect(QPoint(0, 0), size));
        gen.setTitle(widget->windowTitle().isEmpty() ? QStringLiteral("kvlens chart") : widget->windowTitle());
        gen.setDescription(QStringLiteral("Exported by kvlens"));
        QPainter p;
        if (!p.begin(&gen))
            return tr("cannot write %1").arg(path);
        widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
        if (!p.end())
            return tr("cannot write %1").arg(path);
        if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0)
            return tr("cannot write %1").arg(path);
        return {};
    }

    if (!exportSuffixes().contains(suffix))
        return tr("unknown image format \"%1\"").arg(suffix);
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(widget->palette().color(QPalette::Window));
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
    }
    QImageWriter writer(path, suffix.toLatin1());
    if (!writer.write(image))
        return tr("cannot write %1: %2").arg(path, writer.errorString());
    return {};
}

}  // namespace kvlens::ui
