// SPDX-License-Identifier: Apache-2.0
// The lesson's slide set, handout and JSON.
#include "ui/lesson/lesson_export.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include "ui/model/format.h"

namespace kvlens::ui {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("kvlens::ui", s); }

QString cell(const QString& s)
{
    QString t = s;
    return t.replace(QLatin1Char('|'), QStringLiteral("\\|"));
}

QString runTable(const QVector<LessonRun>& runs)
{
    QStringList lines;
    lines << tr("| run | prompt tokens | cached | answer tokens | TTFT | prefill | decode | time per token | queue | "
                "KV peak | total |")
          << QStringLiteral("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const LessonRun& r : runs) {
        lines << QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 | %10 | %11 |")
                     .arg(cell(r.label), formatCount(r.promptTokens), formatCount(r.cachedTokens),
                          formatCount(r.generatedTokens), formatMs(r.ttftMs), formatTokS(r.prefillTokS),
                          formatTokS(r.decodeTokS), formatMs(r.tpotMs), formatMs(r.queueMs))
                     .arg(formatBytes(double(r.kvPeakBytes)), formatMs(r.e2eMs));
    }
    return lines.join(QLatin1Char('\n'));
}

QJsonObject runJson(const LessonRun& r)
{
    QJsonArray lat;
    for (double v : r.latenciesMs)
        lat.append(v);
    return QJsonObject{{QStringLiteral("label"), r.label},
                       {QStringLiteral("ok"), r.ok},
                       {QStringLiteral("prompt_tokens"), r.promptTokens},
                       {QStringLiteral("cached_tokens"), r.cachedTokens},
                       {QStringLiteral("generated_tokens"), r.generatedTokens},
                       {QStringLiteral("hidden_tokens"), r.hiddenTokens},
                       {QStringLiteral("ttft_ms"), r.ttftMs},
                       {QStringLiteral("ttft_visible_ms"), r.ttftVisibleMs},
                       {QStringLiteral("prefill_ms"), r.prefillMs},
                       {QStringLiteral("prefill_tok_s"), r.prefillTokS},
                       {QStringLiteral("decode_ms"), r.decodeMs},
                       {QStringLiteral("decode_tok_s"), r.decodeTokS},
                       {QStringLiteral("tpot_ms"), r.tpotMs},
                       {QStringLiteral("e2e_ms"), r.e2eMs},
                       {QStringLiteral("queue_ms"), r.queueMs},
                       {QStringLiteral("kv_bytes_peak"), double(r.kvPeakBytes)},
                       {QStringLiteral("kv_bytes_per_token"), double(r.kvBytesPerToken)},
                       {QStringLiteral("recomputed_tokens"), double(r.recomputedTokens)},
                       {QStringLiteral("draft_tokens"), r.draftTokens},
                       {QStringLiteral("accepted_tokens"), r.acceptedTokens},
                       {QStringLiteral("mean_acceptance_length"), r.acceptanceLength},
                       {QStringLiteral("latencies_ms"), lat}};
}

QString save(const QString& path, const QByteArray& bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        return tr("cannot write %1").arg(path);
    return {};
}

}  // namespace

QString lessonSlideBaseName(const LessonStep& step)
{
    return QStringLiteral("step-%1-%2").arg(step.number, 2, 10, QLatin1Char('0')).arg(step.key);
}

QString exportLesson(const QString& dir, const LessonRunner& runner, const QVector<LessonStepId>& steps,
                     const SlideText& text, QStringList* written)
{
    if (!QDir().mkpath(dir))
        return tr("cannot create %1").arg(dir);
    const QDir d(dir);
    QStringList md;
    md << tr("# The lesson: prefill, decode and the KV cache, measured") << QString();
    if (!text.footer.isEmpty())
        md << text.footer << QString();
    QJsonArray jsteps;
    for (LessonStepId id : steps) {
        const LessonStep step = lessonStep(id, runner.sizes());
        const LessonResult& r = runner.result(id);
        const QString base = lessonSlideBaseName(step);
        for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("svg")}) {
            const QString path = d.filePath(base + QLatin1Char('.') + suffix);
            const QString err = exportLessonSlide(path, step, r, text);
            if (!err.isEmpty())
                return err;
            if (written)
                *written << path;
        }
        md << tr("## %1. %2").arg(step.number).arg(step.title) << QString() << step.caption << QString()
           << tr("*What we change:* %1. *What to watch:* %2.").arg(step.vary, step.watch) << QString();
        if (r.state == LessonState::Skipped)
            md << tr("**Skipped:** %1").arg(r.reason) << QString();
        else if (r.state == LessonState::Failed)
            md << tr("**Failed:** %1").arg(r.reason) << QString();
        else if (r.state == LessonState::NotRun)
            md << tr("Not run.") << QString();
        if (!r.runs.isEmpty())
            md << runTable(r.runs) << QString();
        if (r.state == LessonState::Done)
            md << tr("**Takeaway:** %1").arg(r.takeaway) << QString();
        md << QStringLiteral("![%1](%2.png)").arg(step.title, base) << QString();

        QJsonArray jruns;
        for (const LessonRun& run : r.runs)
            jruns.append(runJson(run));
        jsteps.append(QJsonObject{{QStringLiteral("number"), step.number},
                                  {QStringLiteral("key"), step.key},
                                  {QStringLiteral("title"), step.title},
                                  {QStringLiteral("caption"), step.caption},
                                  {QStringLiteral("state"), lessonStateName(r.state)},
                                  {QStringLiteral("reason"), r.reason},
                                  {QStringLiteral("takeaway"), r.takeaway},
                                  {QStringLiteral("slide_png"), base + QStringLiteral(".png")},
                                  {QStringLiteral("slide_svg"), base + QStringLiteral(".svg")},
                                  {QStringLiteral("runs"), jruns}});
    }
    const QString handout = d.filePath(QStringLiteral("handout.md"));
    QString err = save(handout, md.join(QLatin1Char('\n')).toUtf8());
    if (!err.isEmpty())
        return err;
    const QString json = d.filePath(QStringLiteral("lesson.json"));
    err = save(json, QJsonDocument(QJsonObject{{QStringLiteral("footer"), text.footer},
                                               {QStringLiteral("steps"), jsteps}})
                         .toJson(QJsonDocument::Indented));
    if (!err.isEmpty())
        return err;
    if (written)
        *written << handout << json;
    return {};
}

}  // namespace kvlens::ui
