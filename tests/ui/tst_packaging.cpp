// SPDX-License-Identifier: Apache-2.0
// Packaging: `cmake --install` into a temporary root and the .deb from CPack
// extracted into another; from each, the installed kvlens-cli reads the tiny
// test model (`info --json`), and the desktop files and icons are in place.
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/tiny_model.h"

namespace {

struct Ran {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Ran run(const QString& program, const QStringList& args, int timeoutMs = 300000)
{
    QProcess p;
    p.start(program, args);
    Ran r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out or did not start: " + program.toUtf8();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// Runs <root>/usr/bin/kvlens-cli info MODEL --json and returns the JSON.
QJsonObject infoFrom(const QString& usr, QString* error)
{
    const QString model = QString::fromStdString(kvlens::test::tiny_model_path("Q8_0"));
    const Ran r = run(usr + QStringLiteral("/bin/kvlens-cli"), {QStringLiteral("info"), model, QStringLiteral("--json")});
    if (r.code != 0) {
        *error = QString::fromUtf8(r.err);
        return {};
    }
    return QJsonDocument::fromJson(r.out).object();
}

}  // namespace

class TestPackaging : public QObject {
    Q_OBJECT
private slots:
    void installIntoTemporaryRoot()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QString usr = root.filePath(QStringLiteral("usr"));
        const Ran inst = run(QStringLiteral(KVLENS_CMAKE),
                             {QStringLiteral("--install"), QStringLiteral(KVLENS_BUILD_DIR), QStringLiteral("--prefix"), usr});
        QVERIFY2(inst.code == 0, inst.err.constData());
        for (const char* f : {"bin/kvlens", "bin/kvlens-cli", "libexec/kvlens/kvlens-pdf-helper",
                              "share/applications/io.github.kvlens.kvlens.desktop",
                              "share/metainfo/io.github.kvlens.kvlens.metainfo.xml",
                              "share/icons/hicolor/scalable/apps/io.github.kvlens.kvlens.svg"})
            QVERIFY2(QFileInfo::exists(usr + QLatin1Char('/') + QLatin1String(f)), f);
        const QImage icon(usr + QStringLiteral("/share/icons/hicolor/48x48/apps/io.github.kvlens.kvlens.png"));
        QCOMPARE(icon.size(), QSize(48, 48));
        QString error;
        const QJsonObject info = infoFrom(usr, &error);
        QVERIFY2(!info.isEmpty(), qPrintable(error));
        QCOMPARE(info.value(QStringLiteral("architecture")).toString(), QStringLiteral("llama"));
        QCOMPARE(info.value(QStringLiteral("n_layer")).toInt(), 2);
    }

    void debianPackage()
    {
        QTemporaryDir work;
        QVERIFY(work.isValid());
        const Ran pack = run(QStringLiteral(KVLENS_CPACK),
                             {QStringLiteral("--config"), QStringLiteral(KVLENS_BUILD_DIR "/CPackConfig.cmake"),
                              QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("-B"), work.path()},
                             600000);
        QVERIFY2(pack.code == 0, (pack.out + pack.err).constData());
        const QStringList debs = QDir(work.path()).entryList({QStringLiteral("*.deb")});
        QCOMPARE(debs.size(), 1);
        const QString deb = work.filePath(debs.first());
        const Ran depends = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), deb, QStringLiteral("Depends")});
        QCOMPARE(depends.code, 0);
        for (const char* d : {"libqt6widgets6", "libqt6charts6", "libpoppler-cpp", "libfmt", "qt6-qpa-plugins"})
            QVERIFY2(depends.out.contains(d), depends.out.constData());
        const QString root = work.filePath(QStringLiteral("root"));
        QCOMPARE(run(QStringLiteral("dpkg-deb"), {QStringLiteral("-x"), deb, root}).code, 0);
        QVERIFY(QFileInfo::exists(root + QStringLiteral("/usr/bin/kvlens")));
        QVERIFY(QFileInfo::exists(root + QStringLiteral("/usr/libexec/kvlens/kvlens-pdf-helper")));
        QString error;
        const QJsonObject info = infoFrom(root + QStringLiteral("/usr"), &error);
        QVERIFY2(!info.isEmpty(), qPrintable(error));
        QCOMPARE(info.value(QStringLiteral("architecture")).toString(), QStringLiteral("llama"));
    }
};

QTEST_GUILESS_MAIN(TestPackaging)
#include "tst_packaging.moc"
