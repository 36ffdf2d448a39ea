// SPDX-License-Identifier: Apache-2.0
// PdfBridge: the one file that talks to the PDF layer (pdf/reader_process.h,
// pdf/page_render.h). Reads a document's text and renders pages in
// background threads (the PDF layer itself runs poppler in a helper
// process), and hands results to the GUI thread as Qt values. Plain text
// files (.txt, .md; pages split at form feeds) open without the PDF layer.
#pragma once

#include <QImage>
#include <QMetaType>
#include <QObject>
#include <QStringList>
#include <QVector>
#include <functional>

#include "ui/model/opened_document.h"

namespace kvlens::ui {

class PdfBridge : public QObject {
    Q_OBJECT
public:
    explicit PdfBridge(QObject* parent = nullptr);
    ~PdfBridge() override;

    static bool pdfAvailable();     // built with the PDF layer
    // Blocking read, for the headless mode and tests. "" error on success.
    static OpenedDocument readNow(const QString& path, const QString& password, QString* error,
                                  bool* needsPassword = nullptr);

public slots:
    void open(const QString& path, const QString& password = QString());
    void renderThumbnails(const QString& path, int pageCount, const QString& password = QString());
    void renderPage(const QString& path, int page, double dpi, const QString& password = QString());

signals:
    void opened(const kvlens::ui::OpenedDocument& doc);
    void failed(const QString& path, const QString& message, bool needsPassword);
    void thumbnailReady(const QString& path, int page, const QImage& image);
    void pageRendered(const QString& path, int page, const QImage& image);
    void renderFailed(const QString& path, const QString& message);

private:
    void runInThread(std::function<void()> job);
    QList<QThread*> threads_;
};

}  // namespace kvlens::ui
