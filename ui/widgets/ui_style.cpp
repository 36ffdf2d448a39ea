// SPDX-License-Identifier: Apache-2.0
// UI style helpers.
#include "ui/widgets/ui_style.h"

#include <QLabel>
#include <QPalette>

namespace kvlens::ui::style {

void makeHeading(QLabel* label, double scale)
{
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * scale);
    f.setWeight(QFont::DemiBold);
    label->setFont(f);
}

void makeSecondary(QLabel* label)
{
    // A role, not a colour copied now: the text follows a later light/dark switch
    // (a copied light-theme grey stayed dark grey on the dark background).
    label->setForegroundRole(QPalette::PlaceholderText);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 0.92);
    label->setFont(f);
}

QColor badgeColor(Badge b)
{
    switch (b) {
    case Badge::Good: return QColor(0x2f, 0xa5, 0x6f);
    case Badge::Warn: return QColor(0xe0, 0xa8, 0x2e);
    case Badge::Bad: return QColor(0xc0, 0x39, 0x2b);
    case Badge::Info: return QColor(0x2f, 0x6f, 0xde);
    case Badge::Neutral: return QColor(0x7f, 0x8c, 0x8d);
    }
    return {};
}

QString badgeStyleSheet(Badge b)
{
    const QColor c = badgeColor(b);
    return QStringLiteral("QLabel { color: white; background: %1; border-radius: 4px; padding: 2px 8px; "
                          "font-weight: 600; }")
        .arg(c.name());
}

}  // namespace kvlens::ui::style
