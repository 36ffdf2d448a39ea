// SPDX-License-Identifier: Apache-2.0
// The text of an opened document as the window holds it: its title and the
// cleaned text of each page, as the PDF layer extracted it. A Qt value; the
// tasks layer sees it as a pdf::document_text (toTasksDocument).
#pragma once

#include <QString>
#include <algorithm>
#include <QStringList>

#include "pdf/document.h"

namespace kvlens::ui {

struct DocumentText {
    QString title;
    QStringList pages;  // cleaned text of page 1, 2, ...
    int pageCount() const { return int(pages.size()); }
};

// Pages first..last (1-based, inclusive, clamped) as the tasks layer's
// document: page numbers kept, UTF-8 text.
inline kvlens::pdf::document_text toTasksDocument(const DocumentText& doc, int first = 1, int last = 1 << 30)
{
    kvlens::pdf::document_text out;
    for (int p = std::max(1, first); p <= std::min(last, doc.pageCount()); ++p) {
        const QByteArray utf8 = doc.pages[p - 1].toUtf8();
        out.pages.push_back({p, std::string(utf8.constData(), std::size_t(utf8.size())),
                             std::size_t(doc.pages[p - 1].size())});
    }
    out.metadata.title = doc.title.toStdString();
    return out;
}

}  // namespace kvlens::ui
