// SPDX-License-Identifier: Apache-2.0
// Number formats shared by every view.
#include "ui/model/format.h"

#include <QCoreApplication>
#include <QLocale>

namespace kvlens::ui {

QString formatBytes(double bytes)
{
    const double kib = 1024.0, mib = kib * 1024, gib = mib * 1024;
    const QLocale loc;
    if (bytes >= gib)
        return QStringLiteral("%1 GiB").arg(loc.toString(bytes / gib, 'f', 2));
    if (bytes >= mib)
        return QStringLiteral("%1 MiB").arg(loc.toString(bytes / mib, 'f', bytes >= 100 * mib ? 0 : 1));
    if (bytes >= kib)
        return QStringLiteral("%1 KiB").arg(loc.toString(bytes / kib, 'f', 0));
    return QStringLiteral("%1 B").arg(loc.toString(bytes, 'f', 0));
}

QString formatMs(double ms)
{
    const QLocale loc;
    if (ms >= 1000)
        return QStringLiteral("%1 s").arg(loc.toString(ms / 1000, 'f', ms >= 10000 ? 1 : 2));
    return QStringLiteral("%1 ms").arg(loc.toString(ms, 'f', ms >= 10 ? 0 : 1));
}

QString formatCount(qint64 n)
{
    return QLocale().toString(n);
}

QString formatTokS(double tokPerSecond)
{
    return QCoreApplication::translate("kvlens::ui", "%1 tok/s")
        .arg(QLocale().toString(tokPerSecond, 'f', tokPerSecond >= 100 ? 0 : 1));
}

}  // namespace kvlens::ui
