// SPDX-License-Identifier: Apache-2.0
// A document the window has opened: where it is, its text, what the PDF layer
// said about it, and the password that opened it (pages are rendered with it).
#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include "ui/model/document_text.h"

namespace kvlens::ui {

struct OpenedDocument {
    QString path;
    DocumentText text;              // title and cleaned text per page
    QStringList metadata;           // "Author: …" lines for the info box
    QStringList warnings;           // from the PDF layer, for people
    QVector<int> pagesWithoutText;  // 1-based
    QString password;               // "" : not encrypted
    bool isPdf = false;
    // No page has any text (a scanned, image-only PDF).
    bool hasNoText() const
    {
        for (const QString& p : text.pages)
            if (!p.trimmed().isEmpty())
                return false;
        return true;
    }
};

}  // namespace kvlens::ui

Q_DECLARE_METATYPE(kvlens::ui::OpenedDocument)
