// SPDX-License-Identifier: Apache-2.0
// The answer pane on hand-made event sequences (no engine): an answer that
// streams in token by token ends as the same text with the same tints as the
// whole answer drawn at once; while it streams, every token's tint is on the
// scale its legend shows, and that scale stays near the run's own
// percentiles; hidden reasoning is grey italics; an error is said first.
#include <QtTest>

#include <QTextCursor>
#include <QTextDocument>
#include <algorithm>
#include <cmath>

#include "event_script.h"
#include "ui/model/run_record.h"
#include "ui/widgets/answer_pane.h"

using namespace kvlens::ui;

namespace {

// 80 tokens: words, spaces and a line break, latencies from 4 to 25 ms with
// slow spells (the percentiles move while it streams: 13 of the 80 tokens
// move them by more than AnswerPane::kRescaleShare); tokens 1-3 hidden.
QString streamScript(const QString& end = QStringLiteral("done reason=stop prompt=16 computed=16 generated=80 "
                                                         "ttft=20 decode=700 e2e=721 tpot=8.9"))
{
    QString s = QStringLiteral("queued prompt=16\nstarted queue=1 tokenize=2 t=3\n"
                               "chunk done=16 total=16 ms=10 t=13 kv=16 bytes=224 alloc=224 res=224\n"
                               "first ttft=20 id=1 text=The tokenize=2 queue=1 prefill=10 sample=7\n");
    double t = 20;
    for (int i = 0; i < 80; ++i) {
        const double lat = i == 0 ? 20 : 4 + (i * 37 % 11) * 0.6 + (i % 7) * 0.05 + (i % 17 == 0 ? 15 : 0);
        t += lat;
        const QString text = i == 0 ? QStringLiteral("The") : i == 40 ? QStringLiteral(".\\n") : QStringLiteral("\\sw%1").arg(i);
        s += QStringLiteral("token i=%1 id=%2 text=%3 lat=%4 t=%5 visible=%6 kv=%7 bytes=%8 alloc=%8 res=%8\n")
                 .arg(i).arg(10 + i).arg(text).arg(lat).arg(t).arg(i >= 1 && i <= 3 ? 0 : 1).arg(17 + i)
                 .arg((17 + i) * 14);
    }
    return s + end + QLatin1Char('\n');
}

double percentile(QVector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0 : v[std::clamp(int(p * (v.size() - 1) + 0.5), 0, int(v.size()) - 1)];
}

// The character format each token was drawn with, from where the run's text
// starts in the document (after an error line, if any).
QVector<QTextCharFormat> tokenFormats(const AnswerPane& pane, const RunRecord& r, int start = 0)
{
    QVector<QTextCharFormat> out;
    QTextCursor c(const_cast<QTextDocument*>(pane.document()));
    int pos = start;
    for (const TokenStep& t : r.tokens()) {
        c.setPosition(pos + 1);   // the format of the character at pos
        out << c.charFormat();
        pos += int(t.text.size());
    }
    return out;
}

}  // namespace

class TstAnswerPane : public QObject {
    Q_OBJECT
private slots:
    void aStreamedAnswerEndsAsTheWholeAnswerDrawnAtOnce()
    {
        const QVector<RunEvent> events = kvlens::test::parseEvents(streamScript());
        RunRecord streamed(1, RunConfig()), whole(1, RunConfig());
        AnswerPane live, once;
        QVector<double> lat;
        for (const RunEvent& e : events) {
            if (e.as<kvlens::event_done>()) {
                // The last tokens went on the scale drawn before them.
                QVERIFY(live.tintLowMs() != percentile(lat, 0.1) || live.tintHighMs() != percentile(lat, 0.9));
            }
            streamed.ingest(e);
            whole.ingest(e);
            live.showRun(&streamed);
            if (const auto* t = e.as<kvlens::event_token>(); t && t->index > 0)
                lat << t->latency_ms;
        }
        once.showRun(&whole);
        QCOMPARE(live.document()->toPlainText(), once.document()->toPlainText());
        QVERIFY(live.document()->toPlainText().startsWith(QStringLiteral("The w1 w2")));
        QCOMPARE(live.document()->blockCount(), 2);   // the token ".\n" ended a paragraph
        const QVector<QTextCharFormat> a = tokenFormats(live, streamed), b = tokenFormats(once, whole);
        QCOMPARE(a.size(), 80);
        for (int i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].background(), b[i].background());
            QCOMPARE(a[i].fontItalic(), b[i].fontItalic());
        }
        // Once done, the scale is the run's own 10th and 90th percentiles.
        QCOMPARE(live.tintLowMs(), percentile(lat, 0.1));
        QCOMPARE(live.tintHighMs(), percentile(lat, 0.9));
    }

    void whileStreamingEveryTintIsOnTheScaleItsLegendShows()
    {
        RunRecord r(1, RunConfig());
        AnswerPane pane;
        int appendedOnTheOldScale = 0;
        for (const RunEvent& e : kvlens::test::parseEvents(streamScript(QString()))) {
            r.ingest(e);
            const double lowBefore = pane.tintLowMs(), highBefore = pane.tintHighMs();
            pane.showRun(&r);
            QVector<double> lat;
            for (const TokenStep& t : r.tokens())
                if (t.index > 0)
                    lat << t.latencyMs;
            if (lat.size() < 2)
                continue;
            const double lo = pane.tintLowMs(), hi = pane.tintHighMs();
            const double span = std::max(hi - lo, 1e-9);
            QVERIFY(std::abs(lo - percentile(lat, 0.1)) <= AnswerPane::kRescaleShare * span);
            QVERIFY(std::abs(hi - percentile(lat, 0.9)) <= AnswerPane::kRescaleShare * span);
            if (lo == lowBefore && hi == highBefore && (lo != percentile(lat, 0.1) || hi != percentile(lat, 0.9)))
                ++appendedOnTheOldScale;
            const QVector<QTextCharFormat> f = tokenFormats(pane, r);
            for (int i = 1; i < r.tokens().size(); ++i) {
                const TokenStep& t = r.tokens()[i];
                if (!t.visible) {
                    QVERIFY(f[i].fontItalic());
                    QCOMPARE(f[i].background().style(), Qt::NoBrush);
                    continue;
                }
                QCOMPARE(f[i].background().color(), AnswerPane::tintColor(t.latencyMs, lo, hi, false));
            }
        }
        QVERIFY(!r.isFinished());
        QVERIFY(appendedOnTheOldScale > 0);   // the scale was kept, not redrawn every time
    }

    void anErrorIsSaidBeforeTheTokens()
    {
        RunRecord r(1, RunConfig());
        for (const RunEvent& e : kvlens::test::parseEvents(
                 streamScript(QStringLiteral("done reason=error error=out\\sof\\smemory prompt=16 generated=80"))))
            r.ingest(e);
        AnswerPane pane;
        pane.showRun(&r);
        const QString text = pane.document()->toPlainText();
        QVERIFY2(text.startsWith(QStringLiteral("Error: ")), qPrintable(text.left(60)));
        QVERIFY(text.contains(QStringLiteral("\nThe w1")));
        QTextCursor c(const_cast<QTextDocument*>(pane.document()));
        c.setPosition(1);
        QCOMPARE(c.charFormat().fontWeight(), int(QFont::Bold));
    }
};

QTEST_MAIN(TstAnswerPane)
#include "tst_answer_pane.moc"
