// SPDX-License-Identifier: Apache-2.0
// AppSettings: QSettings keys and defaults.
#include "ui/app_settings.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace kvlens::ui {

namespace {
const char* kDefaultModel = "models/SmolLM2-135M-Instruct.Q4_1.gguf";
}

QString AppSettings::defaultModelPath()
{
    const QString env = qEnvironmentVariable("KVLENS_MODEL");
    if (!env.isEmpty())
        return env;
    const QStringList roots = {QDir::currentPath(), QCoreApplication::applicationDirPath() + QStringLiteral("/.."),
                               QCoreApplication::applicationDirPath() + QStringLiteral("/../.."),
                               QCoreApplication::applicationDirPath() + QStringLiteral("/../../..")};
    for (const QString& r : roots) {
        const QFileInfo f(r + QLatin1Char('/') + QLatin1String(kDefaultModel));
        if (f.exists())
            return f.canonicalFilePath();
    }
    return {};
}

EngineSettings AppSettings::engine()
{
    QSettings q;
    EngineSettings s;
    q.beginGroup(QStringLiteral("engine"));
    s.modelPath = q.value(QStringLiteral("model")).toString();
    if (s.modelPath.isEmpty() || !QFileInfo::exists(s.modelPath))
        s.modelPath = defaultModelPath();
    s.backend = q.value(QStringLiteral("backend"), s.backend).toString();
    s.kvMode = q.value(QStringLiteral("kvMode"), s.kvMode).toString();
    s.kvDtype = q.value(QStringLiteral("kvDtype"), s.kvDtype).toString();
    s.kvBlock = q.value(QStringLiteral("kvBlock"), s.kvBlock).toInt();
    s.chunk = q.value(QStringLiteral("chunk"), s.chunk).toInt();
    s.contextTokens = q.value(QStringLiteral("context"), s.contextTokens).toInt();
    s.parallel = q.value(QStringLiteral("parallel"), s.parallel).toInt();
    s.threads = q.value(QStringLiteral("threads"), s.threads).toInt();
    q.endGroup();
    return s;
}

void AppSettings::setEngine(const EngineSettings& s)
{
    QSettings q;
    q.beginGroup(QStringLiteral("engine"));
    q.setValue(QStringLiteral("model"), s.modelPath);
    q.setValue(QStringLiteral("backend"), s.backend);
    q.setValue(QStringLiteral("kvMode"), s.kvMode);
    q.setValue(QStringLiteral("kvDtype"), s.kvDtype);
    q.setValue(QStringLiteral("kvBlock"), s.kvBlock);
    q.setValue(QStringLiteral("chunk"), s.chunk);
    q.setValue(QStringLiteral("context"), s.contextTokens);
    q.setValue(QStringLiteral("parallel"), s.parallel);
    q.setValue(QStringLiteral("threads"), s.threads);
    q.endGroup();
}

SamplingSettings AppSettings::sampling()
{
    QSettings q;
    SamplingSettings s;
    q.beginGroup(QStringLiteral("sampling"));
    s.maxTokens = q.value(QStringLiteral("maxTokens"), s.maxTokens).toInt();
    s.temperature = q.value(QStringLiteral("temperature"), s.temperature).toDouble();
    s.topK = q.value(QStringLiteral("topK"), s.topK).toInt();
    s.topP = q.value(QStringLiteral("topP"), s.topP).toDouble();
    s.minP = q.value(QStringLiteral("minP"), s.minP).toDouble();
    s.repeatPenalty = q.value(QStringLiteral("repeatPenalty"), s.repeatPenalty).toDouble();
    s.seed = q.value(QStringLiteral("seed"), s.seed).toULongLong();
    q.endGroup();
    return s;
}

void AppSettings::setSampling(const SamplingSettings& s)
{
    QSettings q;
    q.beginGroup(QStringLiteral("sampling"));
    q.setValue(QStringLiteral("maxTokens"), s.maxTokens);
    q.setValue(QStringLiteral("temperature"), s.temperature);
    q.setValue(QStringLiteral("topK"), s.topK);
    q.setValue(QStringLiteral("topP"), s.topP);
    q.setValue(QStringLiteral("minP"), s.minP);
    q.setValue(QStringLiteral("repeatPenalty"), s.repeatPenalty);
    q.setValue(QStringLiteral("seed"), s.seed);
    q.endGroup();
}

QStringList AppSettings::recentFiles()
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void AppSettings::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
}

QString AppSettings::language() { return QSettings().value(QStringLiteral("language")).toString(); }
void AppSettings::setLanguage(const QString& lang) { QSettings().setValue(QStringLiteral("language"), lang); }
bool AppSettings::presentation() { return QSettings().value(QStringLiteral("presentation"), false).toBool(); }
void AppSettings::setPresentation(bool on) { QSettings().setValue(QStringLiteral("presentation"), on); }
bool AppSettings::tintTokens() { return QSettings().value(QStringLiteral("tintTokens"), true).toBool(); }
void AppSettings::setTintTokens(bool on) { QSettings().setValue(QStringLiteral("tintTokens"), on); }
QByteArray AppSettings::windowState() { return QSettings().value(QStringLiteral("windowState")).toByteArray(); }
QByteArray AppSettings::windowGeometry() { return QSettings().value(QStringLiteral("windowGeometry")).toByteArray(); }

void AppSettings::setWindow(const QByteArray& geometry, const QByteArray& state)
{
    QSettings q;
    q.setValue(QStringLiteral("windowGeometry"), geometry);
    q.setValue(QStringLiteral("windowState"), state);
}

}  // namespace kvlens::ui
