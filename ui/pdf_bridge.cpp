// SPDX-License-Identifier: Apache-2.0
// PdfBridge: the PDF layer, off the GUI thread.
#include "ui/pdf_bridge.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QThread>

#ifdef KVLENS_HAVE_PDF
#include "pdf/page_render.h"
#include "pdf/reader_process.h"
#endif

namespace kvlens::ui {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }
QString fromStd(const std::string& s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

OpenedDocument readText(const QString& path, QString* error)
{
    OpenedDocument doc;
    doc.path = path;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("cannot open %1: %2").arg(path, f.errorString());
        return doc;
    }
    const QString text = QString::fromUtf8(f.readAll());
    doc.text.title = QFileInfo(path).completeBaseName();
    doc.text.pages = text.split(QLatin1Char('\f'));
    for (QString& p : doc.text.pages)
        p = p.trimmed();
    return doc;
}

#ifdef KVLENS_HAVE_PDF
QImage toImage(const kvlens::pdf::page_image& img)
{
    return QImage(img.pixels.data(), img.width, img.height, img.stride, QImage::Format_RGBA8888).copy();
}
#endif

}  // namespace

PdfBridge::PdfBridge(QObject* parent) : QObject(parent) {}

PdfBridge::~PdfBridge()
{
    for (QThread* t : threads_) {
        t->wait();
        delete t;
    }
}

bool PdfBridge::pdfAvailable()
{
#ifdef KVLENS_HAVE_PDF
    return true;
#else
    return false;
#endif
}

OpenedDocument PdfBridge::readNow(const QString& path, const QString& password, QString* error,
                                  bool* needsPassword)
{
    error->clear();
    if (needsPassword)
        *needsPassword = false;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("txt") || suffix == QLatin1String("md"))
        return readText(path, error);
#ifdef KVLENS_HAVE_PDF
    kvlens::pdf::read_options opt;
    opt.password = password.toStdString();
    kvlens::pdf::failure_kind why{};
    auto read = kvlens::pdf::read_document(path.toStdString(), opt, &why);
    OpenedDocument doc;
    doc.path = path;
    doc.isPdf = true;
    doc.password = password;   // pages and thumbnails are rendered with it
    if (!read.ok()) {
        *error = why == kvlens::pdf::failure_kind::wrong_password ? tr("wrong password") : fromStd(read.message());
        if (needsPassword)
            *needsPassword = why == kvlens::pdf::failure_kind::needs_password
                || why == kvlens::pdf::failure_kind::wrong_password;
        return doc;
    }
    const kvlens::pdf::document_text& d = read.value();
    doc.text.title = fromStd(d.metadata.title);
    if (doc.text.title.isEmpty())
        doc.text.title = QFileInfo(path).completeBaseName();
    for (const auto& p : d.pages)
        doc.text.pages.append(fromStd(p.text));
    const auto& m = d.metadata;
    auto add = [&doc](const QString& label, const std::string& v) {
        if (!v.empty())
            doc.metadata << label + QStringLiteral(": ") + fromStd(v);
    };
    add(tr("Title"), m.title);
    add(tr("Author"), m.author);
    add(tr("Subject"), m.subject);
    add(tr("Created"), m.creation_date);
    add(tr("Producer"), m.producer);
    add(tr("PDF version"), m.pdf_version);
    for (const auto& w : d.warnings)
        doc.warnings << fromStd(w);
    for (int p : d.pages_without_text)
        doc.pagesWithoutText << p;
    return doc;
#else
    Q_UNUSED(password);
    *error = tr("this build has no PDF support; open a .txt file instead");
    return {};
#endif
}

void PdfBridge::runInThread(std::function<void()> job)
{
    // Reap finished threads, then start the job on a new one.
    for (auto it = threads_.begin(); it != threads_.end();) {
        if ((*it)->isFinished()) {
            delete *it;
            it = threads_.erase(it);
        } else {
            ++it;
        }
    }
    QThread* t = QThread::create(std::move(job));
    threads_.append(t);
    t->start();
}

void PdfBridge::open(const QString& path, const QString& password)
{
    QPointer<PdfBridge> self(this);
    runInThread([self, path, password] {
        QString error;
        bool needsPassword = false;
        OpenedDocument doc = readNow(path, password, &error, &needsPassword);
        QMetaObject::invokeMethod(
            self.data(),
            [self, doc, error, needsPassword, path] {
                if (!self)
                    return;
                if (error.isEmpty())
                    emit self->opened(doc);
                else
                    emit self->failed(path, error, needsPassword);
            },
            Qt::QueuedConnection);
    });
}

void PdfBridge::renderThumbnails(const QString& path, int pageCount, const QString& password)
{
#ifdef KVLENS_HAVE_PDF
    QPointer<PdfBridge> self(this);
    runInThread([self, path, pageCount, password] {
        kvlens::pdf::render_options opt;
        opt.password = password.toStdString();
        // Thumbnails ~130 px wide for a Letter/A4 page.
        auto pages = kvlens::pdf::render_pages(path.toStdString(), kvlens::pdf::page_range{1, pageCount}, 16.0, opt);
        QVector<QImage> images;
        QString error;
        if (pages.ok()) {
            for (const auto& p : pages.value())
                images.append(toImage(p));
        } else {
            error = fromStd(pages.message());
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, path, images, error] {
                if (!self)
                    return;
                if (!error.isEmpty())
                    emit self->renderFailed(path, error);
                for (int i = 0; i < images.size(); ++i)
                    emit self->thumbnailReady(path, i + 1, images[i]);
            },
            Qt::QueuedConnection);
    });
#else
    Q_UNUSED(path);
    Q_UNUSED(pageCount);
    Q_UNUSED(password);
#endif
}

void PdfBridge::renderPage(const QString& path, int page, double dpi, const QString& password)
{
#ifdef KVLENS_HAVE_PDF
    QPointer<PdfBridge> self(this);
    runInThread([self, path, page, dpi, password] {
        kvlens::pdf::render_options opt;
        opt.password = password.toStdString();
        auto img = kvlens::pdf::render_page(path.toStdString(), page, dpi, opt);
        const QImage image = img.ok() ? toImage(img.value()) : QImage();
        const QString error = img.ok() ? QString() : fromStd(img.message());
        QMetaObject::invokeMethod(
            self.data(),
            [self, path, page, image, error] {
                if (!self)
                    return;
                if (error.isEmpty())
                    emit self->pageRendered(path, page, image);
                else
                    emit self->renderFailed(path, error);
            },
            Qt::QueuedConnection);
    });
#else
    Q_UNUSED(path);
    Q_UNUSED(page);
    Q_UNUSED(dpi);
    Q_UNUSED(password);
#endif
}

}  // namespace kvlens::ui
