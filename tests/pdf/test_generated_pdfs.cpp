// SPDX-License-Identifier: Apache-2.0
// PDFs with known content, drawn here with QPdfWriter, read back through the
// helper: hyphenation across lines, running headers and footers, two columns,
// Chinese text. The expected text is what was drawn.
#include "pdf/reader_process.h"

#include <QFontDatabase>
#include <QPainter>
#include <QPdfWriter>
#include <QtTest>

using namespace kvlens::pdf;

namespace {

// Draws pages of lines; each page is a list of (x, y, text) in points.
struct placed_line {
    double x, y;
    QString text;
};

bool write_pdf(const QString& path, const QList<QList<placed_line>>& pages, const QFont& font) {
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(72);  // painter units are PDF points
    writer.setTitle("kvlens generated test");
    QPainter painter(&writer);
    if (!painter.isActive()) return false;
    painter.setFont(font);
    for (int p = 0; p < pages.size(); ++p) {
        if (p > 0) writer.newPage();
        for (const placed_line& l : pages[p]) painter.drawText(QPointF(l.x, l.y), l.text);
    }
    return painter.end();
}

QFont latin_font() {
    QFont f("DejaVu Sans");
    f.setPixelSize(11);
    return f;
}

document_text read_back(const QString& path) {
    read_options o;
    o.helper_path = KVLENS_PDF_HELPER_PATH;
    auto doc = read_document(path.toStdString(), o);
    if (!doc) qWarning("%s", doc.message().c_str());
    return doc ? *doc : document_text{};
}

QString text_of(const document_text& d) {
    QStringList pages;
    for (const auto& p : d.pages) pages << QString::fromStdString(p.text);
    return pages.join("\n\n");
}

}  // namespace

class TestGeneratedPdfs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void hyphenatedWordsRejoined() {
        const QString path = dir_.filePath("hyphen.pdf");
        const QStringList lines = {"The measurement of prefill throughput on the new accel-",
                                   "erator was repeated three times, and every single run",
                                   "gave a similar figure for the number of tokens per sec-",
                                   "ond, which was the point of the whole exercise."};
        QList<placed_line> page;
        for (int i = 0; i < lines.size(); ++i) page.append({72, 100.0 + 14 * i, lines[i]});
        QVERIFY(write_pdf(path, {page}, latin_font()));
        const QString text = text_of(read_back(path));
        QCOMPARE(text, QString("The measurement of prefill throughput on the new accelerator was repeated three times, "
                               "and every single run gave a similar figure for the number of tokens per second, which "
                               "was the point of the whole exercise."));
    }

    void runningHeadersAndFootersDropped() {
        const QString path = dir_.filePath("headers.pdf");
        const QStringList bodies = {"Prefill reads the whole prompt in parallel.", "Decode writes one token per step.",
                                    "The KV cache keeps keys and values.", "Queueing delays the first token.",
                                    "Paged blocks grow like a staircase."};
        QList<QList<placed_line>> pages;
        for (int p = 0; p < bodies.size(); ++p)
            pages.append({{72, 40, "Quarterly Inference Report"},
                          {72, 120, bodies[p]},
                          {260, 800, QString("Page %1 of %2").arg(p + 1).arg(bodies.size())}});
        QVERIFY(write_pdf(path, pages, latin_font()));
        const document_text doc = read_back(path);
        QCOMPARE(doc.pages.size(), std::size_t(5));
        for (int p = 0; p < bodies.size(); ++p) {
            QCOMPARE(doc.pages[p].number, p + 1);
            QCOMPARE(QString::fromStdString(doc.pages[p].text), bodies[p]);  // page boundaries kept
        }
    }

    void twoColumnsReadInOrder() {
        const QString path = dir_.filePath("columns.pdf");
        const QStringList words = {"prefill", "decode", "cache", "tokens", "latency", "memory", "blocks", "queue",
                                   "prefix", "window", "heads", "layers"};
        QList<placed_line> page;
        for (int i = 0; i < 24; ++i) {
            const QString w = words[i % words.size()];
            page.append({50, 80.0 + 14 * i, QString("left %1 line about %2 and more of it").arg(i, 2, 10, QChar('0')).arg(w)});
            page.append({320, 80.0 + 14 * i, QString("right %1 line about %2 and more of it").arg(i, 2, 10, QChar('0')).arg(w)});
        }
        QVERIFY(write_pdf(path, {page}, latin_font()));
        const QString text = text_of(read_back(path));
        QVERIFY(text.contains("left 00 line about prefill"));
        QVERIFY(text.contains("right 23 line about layers"));
        // Column by column: every left line comes before the first right line.
        QVERIFY(text.lastIndexOf("left ") < text.indexOf("right "));
        QVERIFY(text.indexOf("left 00") < text.indexOf("left 23"));
        QVERIFY(text.indexOf("right 00") < text.indexOf("right 23"));
    }

    void chineseTextJoinedWithoutSpaces() {
        if (!QFontDatabase::families().contains("Droid Sans Fallback"))
            QSKIP("the Droid Sans Fallback font (fonts-droid-fallback) is not installed");
        const QString path = dir_.filePath("chinese.pdf");
        QFont font("Droid Sans Fallback");
        font.setPixelSize(12);
        const QStringList lines = {QString::fromUtf8("大模型推理分为预填充和解码两个阶段，预填充阶段"),
                                   QString::fromUtf8("一次处理整个输入，解码阶段每一步只生成一个词元，"),
                                   QString::fromUtf8("所以长报告会推迟第一个词元出现的时间。")};
        QList<placed_line> page;
        for (int i = 0; i < lines.size(); ++i) page.append({72, 100.0 + 18 * i, lines[i]});
        QVERIFY(write_pdf(path, {page}, font));
        const QString text = text_of(read_back(path));
        QCOMPARE(text, lines.join(""));
    }
};

QTEST_MAIN(TestGeneratedPdfs)
#include "test_generated_pdfs.moc"
