// SPDX-License-Identifier: Apache-2.0
// The window's headless twin (ui/headless_runner.h) with a fake engine behind
// its worker (fake_engine.h): its arguments, the files it writes, and a report
// longer than the context, summarized by map-reduce (the default, as
// `kvlens-cli summarize` does) or cut to the largest range that fits.
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "fake_engine.h"
#include "ui/headless_runner.h"

using namespace kvlens::ui;
using kvlens::test::FakeTiming;
using kvlens::test::fakeWorker;

namespace {

// run.json's config object.
QJsonObject runConfig(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("config")).toObject();
}

}  // namespace

class TestHeadless : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString report_;
    QString longReport_;   // more than the fake model's context (writeLongReport)
    QString model_;

    // The options of a headless run of `report` into `out` on the fake model.
    HeadlessOptions options(const QString& report, const QTemporaryDir& out) const
    {
        HeadlessOptions o;
        o.report = report;
        o.outDir = out.path();
        o.model = model_;
        return o;
    }

    static FakeTiming quick()
    {
        FakeTiming t;
        t.promptTokens = 200;
        t.chunkMs = 5;
        t.generate = 8;
        t.tokenMs = 2;
        return t;
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("kvlens-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_headless"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        report_ = dir_.filePath(QStringLiteral("report.txt"));
        QVERIFY(kvlens::test::writeShortReport(report_));
        longReport_ = dir_.filePath(QStringLiteral("long.txt"));
        QVERIFY(kvlens::test::writeLongReport(longReport_));
        model_ = dir_.filePath(QStringLiteral("fake.gguf"));
        QVERIFY(kvlens::test::writeFakeModel(model_));
    }

    void headlessWritesItsFiles()
    {
        QTemporaryDir out;
        QVERIFY(out.isValid());
        HeadlessOptions o = options(report_, out);
        o.task = QStringLiteral("key-points");
        FakeTiming t;
        t.promptTokens = 300;
        t.generate = 10;
        t.chunkMs = 5;
        t.tokenMs = 2;
        QCOMPARE(runHeadless(o, fakeWorker(t)), 0);
        for (const QString& f : headlessOutputs()) {
            QFileInfo fi(out.filePath(f));
            QVERIFY2(fi.exists() && fi.size() > 0, qPrintable(f));
        }
        QFile summary(out.filePath(QStringLiteral("summary.txt")));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(summary.readAll()).trimmed(), QStringLiteral("The word1 word2 word3 word4 word5 word6 word7 word8 word9"));
    }

    void headlessArgs_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<bool>("wanted");
        QTest::newRow("window") << QStringList{} << true << false;
        QTest::newRow("full") << QStringList{"--headless", "r.pdf", "--out", "d", "--task", "detailed"} << true << true;
        QTest::newRow("no out") << QStringList{"--headless", "r.pdf"} << false << true;
        QTest::newRow("bad task") << QStringList{"--headless", "r.pdf", "--out", "d", "--task", "poem"} << false << true;
        QTest::newRow("missing value") << QStringList{"--headless"} << false << true;
        QTest::newRow("pages") << QStringList{"--headless", "r.pdf", "--out", "d", "--pages", "2-3"} << true << true;
        QTest::newRow("bad pages") << QStringList{"--headless", "r.pdf", "--out", "d", "--pages", "3-2"} << false << true;
        QTest::newRow("long fit") << QStringList{"--headless", "r.pdf", "--out", "d", "--long", "fit"} << true << true;
        QTest::newRow("long map-reduce") << QStringList{"--headless", "r.pdf", "--out", "d", "--long", "map-reduce"} << true << true;
        QTest::newRow("long other") << QStringList{"--headless", "r.pdf", "--out", "d", "--long", "all"} << false << true;
    }
    void headlessArgs()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, ok);
        QFETCH(bool, wanted);
        HeadlessOptions o;
        bool w = false;
        QString error;
        QCOMPARE(parseHeadlessArgs(args, o, w, error), ok);
        QCOMPARE(w, wanted);
        QCOMPARE(error.isEmpty(), ok);
    }

    // Pages that do not fit the context: map-reduce over all of them, every
    // stage a run. summary.txt is the reduce's answer, run.json the reduce's
    // run, and stages/ holds every stage's run in the order they ran.
    void headlessSummarizesALongReportByMapReduce()
    {
        QTemporaryDir out;
        QVERIFY(out.isValid());
        HeadlessOptions o = options(longReport_, out);
        QCOMPARE(runHeadless(o, fakeWorker(quick())), 0);
        for (const QString& f : headlessOutputs())
            QVERIFY2(QFileInfo(out.filePath(f)).size() > 0, qPrintable(f));
        const QJsonObject reduce = runConfig(out.filePath(QStringLiteral("run.json")));
        QCOMPARE(reduce.value(QStringLiteral("stage")).toString(), QStringLiteral("reduce"));
        QCOMPARE(reduce.value(QStringLiteral("first_page")).toInt(), 1);
        QCOMPARE(reduce.value(QStringLiteral("last_page")).toInt(), 6);
        // At least two map stages and the reduce, the first map from page 1, the reduce last.
        int stages = 0;
        while (QFileInfo::exists(out.filePath(QStringLiteral("stages/%1.json").arg(stages + 1, 2, 10, QLatin1Char('0')))))
            ++stages;
        QVERIFY(stages >= 3);
        QVERIFY(QFileInfo(out.filePath(QStringLiteral("stages/01.csv"))).size() > 0);
        const QJsonObject first = runConfig(out.filePath(QStringLiteral("stages/01.json")));
        QVERIFY(first.value(QStringLiteral("stage")).toString().startsWith(QStringLiteral("map 1/")));
        QCOMPARE(first.value(QStringLiteral("first_page")).toInt(), 1);
        const QJsonObject last = runConfig(out.filePath(QStringLiteral("stages/%1.json").arg(stages, 2, 10, QLatin1Char('0'))));
        QCOMPARE(last.value(QStringLiteral("stage")).toString(), QStringLiteral("reduce"));
        QFile summary(out.filePath(QStringLiteral("summary.txt")));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        QVERIFY(!summary.readAll().trimmed().isEmpty());
    }

    // --long fit: one run over the largest range from the first page that
    // fits, and no stages.
    void headlessRunsTheLargestFittingRangeWithLongFit()
    {
        QTemporaryDir out;
        QVERIFY(out.isValid());
        HeadlessOptions o = options(longReport_, out);
        o.fitLongReport = true;
        QCOMPARE(runHeadless(o, fakeWorker(quick())), 0);
        const QJsonObject run = runConfig(out.filePath(QStringLiteral("run.json")));
        QCOMPARE(run.value(QStringLiteral("first_page")).toInt(), 1);
        const int last = run.value(QStringLiteral("last_page")).toInt();
        QVERIFY2(last >= 1 && last < 6, qPrintable(QString::number(last)));
        QVERIFY(!run.contains(QStringLiteral("stage")));
        QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("stages"))));
    }

    // A report that fits takes one run, whatever --long says.
    void headlessRunsAReportThatFitsOnce()
    {
        QTemporaryDir out;
        QVERIFY(out.isValid());
        HeadlessOptions o = options(report_, out);
        QCOMPARE(runHeadless(o, fakeWorker(quick())), 0);
        const QJsonObject run = runConfig(out.filePath(QStringLiteral("run.json")));
        QCOMPARE(run.value(QStringLiteral("last_page")).toInt(), 3);
        QVERIFY(!run.contains(QStringLiteral("stage")));
        QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("stages"))));
    }
};

QTEST_MAIN(TestHeadless)
#include "tst_headless.moc"
