// SPDX-License-Identifier: Apache-2.0
// The headless lesson: the run controller, the lesson runner over it, the
// slide set at the end. Progress on stderr, written files on stdout.
#include "ui/lesson/lesson_headless.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <cstdio>

#include "ui/app_settings.h"
#include "ui/charts/roofline_chart.h"
#include "ui/i18n.h"
#include "ui/model/run_history_model.h"
#include "ui/model/run_record.h"
#include "ui/headless_runner.h"
#include "ui/lesson/lesson_export.h"
#include "ui/lesson/lesson_runner.h"
#include "ui/pdf_bridge.h"
#include "ui/run_controller.h"

namespace kvlens::ui {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }

void say(const QString& message)
{
    std::fprintf(stderr, "kvlens: %s\n", message.toUtf8().constData());
    std::fflush(stderr);
}

// Runs the event loop until `done()` or `limitMs` passes.
template <class Done>
bool spinUntil(Done done, int limitMs)
{
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    poll.start(50);
    QTimer::singleShot(limitMs, &loop, &QEventLoop::quit);
    if (!done())
        loop.exec();
    return done();
}

}  // namespace

QString lessonBuiltInReportPath()
{
    return QStringLiteral(":/lesson/sample-report.txt");
}

int runLessonHeadless(const HeadlessOptions& o, EngineWorker* worker)
{
    const QString reportPath = o.report.isEmpty() ? lessonBuiltInReportPath() : o.report;
    if (!QFileInfo::exists(reportPath)) {
        say(tr("no such report: %1").arg(reportPath));
        return 2;
    }
    QVector<LessonStepId> steps;
    for (const QString& key : o.lessonSteps) {
        LessonStepId id;
        if (!lessonStepFromKey(key, id)) {
            say(tr("unknown lesson step \"%1\"").arg(key));
            return 2;
        }
        steps << id;
    }
    if (steps.isEmpty())
        steps = lessonStepIds();
    if (!QDir().mkpath(o.outDir)) {
        say(tr("cannot create %1").arg(o.outDir));
        return 2;
    }
    EngineSettings engine = AppSettings::engine();
    if (!o.model.isEmpty())
        engine.modelPath = QFileInfo(o.model).absoluteFilePath();
    if (engine.modelPath.isEmpty() || !QFileInfo::exists(engine.modelPath)) {
        say(tr("no model: pass --model FILE.gguf (or run scripts/fetch-model)"));
        return 2;
    }

    // The report's text: a .txt (or the built-in one) as it is, a PDF through the PDF layer.
    QString title, text;
    if (reportPath.endsWith(QLatin1String(".txt"), Qt::CaseInsensitive)) {
        QFile f(reportPath);
        if (!f.open(QIODevice::ReadOnly)) {
            say(tr("cannot read %1").arg(reportPath));
            return 1;
        }
        text = QString::fromUtf8(f.readAll());
        title = text.section(QLatin1Char('\n'), 0, 0).trimmed();
    } else {
        QString error;
        const OpenedDocument doc = PdfBridge::readNow(reportPath, QString(), &error);
        if (!error.isEmpty() || doc.hasNoText()) {
            say(tr("cannot read %1: %2").arg(reportPath, error.isEmpty() ? tr("no extractable text") : error));
            return 1;
        }
        title = doc.text.title;
        text = doc.text.pages.join(QStringLiteral("\n\n"));
    }

    RunController c(worker);
    SamplingSettings sampling = AppSettings::sampling();
    c.setSampling(sampling);
    c.setEngineSettings(engine);
    say(tr("loading %1…").arg(QFileInfo(engine.modelPath).fileName()));
    spinUntil([&] { return !c.modelLoading(); }, 600000);
    if (!c.model().isValid()) {
        say(tr("the model could not be loaded: %1").arg(c.modelError().isEmpty() ? c.lastError() : c.modelError()));
        return 1;
    }

    LessonRunner runner(&c);
    runner.setReport(title, text);
    QObject::connect(&runner, &LessonRunner::progress, &runner, [](const QString& m) { say(m); });
    bool finished = false;
    QObject::connect(&runner, &LessonRunner::allFinished, &runner, [&] { finished = true; });
    runner.runSteps(steps);
    if (!spinUntil([&] { return finished; }, 3600000)) {
        runner.cancel();
        say(tr("the lesson did not finish"));
        return 1;
    }

    SlideText slide;
    slide.footer = tr("kvlens · %1 · %2 · %3").arg(c.model().name, i18n::backendText(c.model().backend), QFileInfo(reportPath).fileName());
    QStringList written;
    const QString err = exportLesson(o.outDir, runner, steps, slide, &written);
    if (!err.isEmpty()) {
        say(err);
        return 1;
    }
    // The roofline of the input sweep (else of the first step that ran):
    // each run's prefill and decode at their counted intensity.
    QString roofErr;
    const kvlens::machine_ceilings ceilings = cachedMachineCeilings(&roofErr);
    if (!roofErr.isEmpty())
        say(tr("the machine's ceilings could not be measured: %1").arg(roofErr));
    QVector<int> ids = runner.result(LessonStepId::InputSweep).runIds;
    for (LessonStepId id : steps) {
        if (ids.isEmpty() && runner.result(id).state == LessonState::Done)
            ids = runner.result(id).runIds;
    }
    RooflineChart roof;
    roof.setCeilings(ceilings);
    QVector<RooflinePoint> points;
    QString note;
    for (int id : ids) {
        if (const RunRecord* r = c.history()->run(id)) {
            points += rooflinePoints(*r);
            note = decodeExpectation(*r, ceilings);
        }
    }
    roof.setPoints(points, note);
    for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("svg")}) {
        const QString path = QDir(o.outDir).filePath(QStringLiteral("roofline.") + suffix);
        const QString e = roof.exportTo(path);
        if (!e.isEmpty()) {
            say(e);
            return 1;
        }
        written << path;
    }
    for (const QString& f : written)
        std::printf("%s\n", f.toUtf8().constData());
    for (LessonStepId id : steps) {
        if (runner.result(id).state == LessonState::Failed)
            return 1;
    }
    return 0;
}

}  // namespace kvlens::ui
