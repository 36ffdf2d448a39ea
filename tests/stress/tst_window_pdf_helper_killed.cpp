// SPDX-License-Identifier: Apache-2.0
// The window's side of a PDF helper killed at random moments (issue 15,
// stress): PdfBridge, the window's only door to the PDF layer, reports a
// killed read or render as a failure naming the helper (never a spinner that
// waits forever, never a crash), and the next document opens.
#include <QSignalSpy>
#include <QTest>

#include <signal.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>

#include "ui/pdf_bridge.h"

using kvlens::ui::OpenedDocument;
using kvlens::ui::PdfBridge;

namespace {

const char* const thesis = "../shared/testdata/pdfs/sample-files/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf";
const char* const refcard = "../shared/testdata/pdfs/debian-refcard-en.pdf";

// SIGKILLs this process's children running the helper; how many it hit.
int killHelpers() {
    int killed = 0;
    const QString self = QString::number(getpid());
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs)) {
        bool isPid = false;
        pid.toInt(&isPid);
        if (!isPid) continue;
        QFile stat("/proc/" + pid + "/stat");
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QByteArray line = stat.readAll();
        const int open = line.indexOf('('), close = line.lastIndexOf(')');
        if (open < 0 || close < 0) continue;
        const QByteArray comm = line.mid(open + 1, close - open - 1);
        const QList<QByteArray> rest = line.mid(close + 2).split(' ');
        if (rest.size() < 2 || rest[1] != self.toLatin1()) continue;
        if (!comm.isEmpty() && QByteArray("kvlens-pdf-helper").startsWith(comm) && ::kill(pid.toInt(), SIGKILL) == 0)
            ++killed;
    }
    return killed;
}

// Kills the helper as soon as one is running (polled every millisecond, up to 5 s) after `delayMs`.
void killSoon(int delayMs) {
    QThread* t = QThread::create([delayMs] {
        QThread::msleep(static_cast<unsigned long>(delayMs));
        for (int i = 0; i < 5000 && killHelpers() == 0; ++i) QThread::msleep(1);
    });
    QObject::connect(t, &QThread::finished, t, &QObject::deleteLater);
    t->start();
}

}  // namespace

class TestWindowPdfHelperKilled : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qRegisterMetaType<OpenedDocument>();
        qputenv("KVLENS_PDF_HELPER", KVLENS_PDF_HELPER_PATH);
        QVERIFY2(QFile::exists(thesis), "run from the project root with ../shared beside it");
    }

    void aReadKilledMidwayIsReportedAndTheNextDocumentOpens() {
        int reportedKilled = 0;
        for (int round = 0; round < 6; ++round) {
            PdfBridge bridge;
            QSignalSpy opened(&bridge, &PdfBridge::opened);
            QSignalSpy failed(&bridge, &PdfBridge::failed);
            killSoon(static_cast<int>(QRandomGenerator::global()->bounded(60)));
            bridge.open(thesis);
            QTRY_VERIFY_WITH_TIMEOUT(opened.count() + failed.count() == 1, 60000);
            if (failed.count() == 1) {
                ++reportedKilled;
                const QString message = failed.first().at(1).toString();
                QVERIFY2(message.contains("helper"), qPrintable(message));
            }
            bridge.open(refcard);
            QTRY_VERIFY_WITH_TIMEOUT(opened.count() + failed.count() == 2, 60000);
            QCOMPARE(opened.count() - (failed.count() == 1 ? 0 : 1), 1);
        }
        QVERIFY2(reportedKilled >= 3, "the kills did not land while the helper was reading");
    }

    void aRenderKilledMidwayIsAFailureNotAForeverSpinner() {
        int reportedKilled = 0;
        for (int round = 0; round < 4; ++round) {
            PdfBridge bridge;
            QSignalSpy rendered(&bridge, &PdfBridge::pageRendered);
            QSignalSpy renderFailed(&bridge, &PdfBridge::renderFailed);
            killSoon(static_cast<int>(QRandomGenerator::global()->bounded(20)));
            bridge.renderPage(thesis, 40, 300);
            QTRY_VERIFY_WITH_TIMEOUT(rendered.count() + renderFailed.count() == 1, 60000);
            if (renderFailed.count() == 1) {
                ++reportedKilled;
                QVERIFY2(renderFailed.first().at(1).toString().contains("helper"),
                         qPrintable(renderFailed.first().at(1).toString()));
            }
            bridge.renderPage(refcard, 1, 48);
            QTRY_VERIFY_WITH_TIMEOUT(rendered.count() + renderFailed.count() == 2, 60000);
            QCOMPARE(rendered.last().at(1).toInt(), 1);
        }
        QVERIFY2(reportedKilled >= 2, "the kills did not land while the helper was rendering");
    }
};

QTEST_GUILESS_MAIN(TestWindowPdfHelperKilled)
#include "tst_window_pdf_helper_killed.moc"
