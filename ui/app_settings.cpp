// SPDX-License-Identifier: Apache-2.0
// AppSettings: QSettings keys (each spelled once, in namespace key) and defaults.
#include "ui/app_settings.h"

#include <algorithm>

#include "engine/runtime/prompt_lookup.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace kvlens::ui {

namespace {

namespace key {
// Every QSettings key, spelled once (groups: "engine", "sampling").
inline QString backend() { return QStringLiteral("backend"); }
inline QString chunk() { return QStringLiteral("chunk"); }
inline QString context() { return QStringLiteral("context"); }
inline QString engine() { return QStringLiteral("engine"); }
inline QString kvBlock() { return QStringLiteral("kvBlock"); }
inline QString kvDtype() { return QStringLiteral("kvDtype"); }
inline QString kvMode() { return QStringLiteral("kvMode"); }
inline QString language() { return QStringLiteral("language"); }
inline QString maxTokens() { return QStringLiteral("maxTokens"); }
inline QString minP() { return QStringLiteral("minP"); }
inline QString model() { return QStringLiteral("model"); }
inline QString parallel() { return QStringLiteral("parallel"); }
inline QString apiKeyFile() { return QStringLiteral("apiKeyFile"); }
inline QString remoteModel() { return QStringLiteral("remoteModel"); }
inline QString remoteUrl() { return QStringLiteral("remoteUrl"); }
inline QString stallTimeout() { return QStringLiteral("stallTimeout"); }
inline QString presentation() { return QStringLiteral("presentation"); }
inline QString recentFiles() { return QStringLiteral("recentFiles"); }
inline QString repeatPenalty() { return QStringLiteral("repeatPenalty"); }
inline QString sampling() { return QStringLiteral("sampling"); }
inline QString seed() { return QStringLiteral("seed"); }
inline QString draftTokens() { return QStringLiteral("draftTokens"); }
inline QString temperature() { return QStringLiteral("temperature"); }
inline QString threads() { return QStringLiteral("threads"); }
inline QString tintTokens() { return QStringLiteral("tintTokens"); }
inline QString topK() { return QStringLiteral("topK"); }
inline QString topP() { return QStringLiteral("topP"); }
inline QString windowGeometry() { return QStringLiteral("windowGeometry"); }
inline QString windowState() { return QStringLiteral("windowState"); }
inline QString lastFolder() { return QStringLiteral("lastFolder"); }
inline QString theme() { return QStringLiteral("theme"); }
}  // namespace key

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
    q.beginGroup(key::engine());
    s.modelPath = q.value(key::model()).toString();
    if (s.modelPath.isEmpty() || !QFileInfo::exists(s.modelPath))
        s.modelPath = defaultModelPath();
    s.backend = q.value(key::backend(), s.backend).toString();
    s.kvMode = q.value(key::kvMode(), s.kvMode).toString();
    s.kvDtype = q.value(key::kvDtype(), s.kvDtype).toString();
    s.kvBlock = q.value(key::kvBlock(), s.kvBlock).toInt();
    s.chunk = q.value(key::chunk(), s.chunk).toInt();
    s.contextTokens = q.value(key::context(), s.contextTokens).toInt();
    s.parallel = q.value(key::parallel(), s.parallel).toInt();
    s.threads = q.value(key::threads(), s.threads).toInt();
    s.remoteUrl = q.value(key::remoteUrl()).toString();
    s.remoteModel = q.value(key::remoteModel()).toString();
    s.apiKeyFile = q.value(key::apiKeyFile()).toString();   // a path; the key is never stored
    s.stallTimeoutS = q.value(key::stallTimeout(), s.stallTimeoutS).toDouble();
    q.endGroup();
    return s;
}

void AppSettings::setEngine(const EngineSettings& s)
{
    QSettings q;
    q.beginGroup(key::engine());
    q.setValue(key::model(), s.modelPath);
    q.setValue(key::backend(), s.backend);
    q.setValue(key::kvMode(), s.kvMode);
    q.setValue(key::kvDtype(), s.kvDtype);
    q.setValue(key::kvBlock(), s.kvBlock);
    q.setValue(key::chunk(), s.chunk);
    q.setValue(key::context(), s.contextTokens);
    q.setValue(key::parallel(), s.parallel);
    q.setValue(key::threads(), s.threads);
    q.setValue(key::remoteUrl(), s.remoteUrl);
    q.setValue(key::remoteModel(), s.remoteModel);
    q.setValue(key::apiKeyFile(), s.apiKeyFile);
    q.setValue(key::stallTimeout(), s.stallTimeoutS);
    q.endGroup();
}

SamplingSettings AppSettings::sampling()
{
    QSettings q;
    SamplingSettings s;
    q.beginGroup(key::sampling());
    s.maxTokens = q.value(key::maxTokens(), s.maxTokens).toInt();
    s.temperature = q.value(key::temperature(), s.temperature).toDouble();
    s.topK = q.value(key::topK(), s.topK).toInt();
    s.topP = q.value(key::topP(), s.topP).toDouble();
    s.minP = q.value(key::minP(), s.minP).toDouble();
    s.repeatPenalty = q.value(key::repeatPenalty(), s.repeatPenalty).toDouble();
    s.seed = q.value(key::seed(), s.seed).toULongLong();
    s.draftTokens = std::clamp(q.value(key::draftTokens(), s.draftTokens).toInt(), 0, kvlens::k_max_draft_tokens);
    q.endGroup();
    return s;
}

void AppSettings::setSampling(const SamplingSettings& s)
{
    QSettings q;
    q.beginGroup(key::sampling());
    q.setValue(key::maxTokens(), s.maxTokens);
    q.setValue(key::temperature(), s.temperature);
    q.setValue(key::topK(), s.topK);
    q.setValue(key::topP(), s.topP);
    q.setValue(key::minP(), s.minP);
    q.setValue(key::repeatPenalty(), s.repeatPenalty);
    q.setValue(key::seed(), s.seed);
    q.setValue(key::draftTokens(), s.draftTokens);
    q.endGroup();
}

QStringList AppSettings::recentFiles()
{
    return QSettings().value(key::recentFiles()).toStringList();
}

void AppSettings::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(key::recentFiles(), files);
}

QString AppSettings::language() { return QSettings().value(key::language()).toString(); }
void AppSettings::setLanguage(const QString& lang) { QSettings().setValue(key::language(), lang); }
bool AppSettings::presentation() { return QSettings().value(key::presentation(), false).toBool(); }
void AppSettings::setPresentation(bool on) { QSettings().setValue(key::presentation(), on); }
bool AppSettings::tintTokens() { return QSettings().value(key::tintTokens(), true).toBool(); }
void AppSettings::setTintTokens(bool on) { QSettings().setValue(key::tintTokens(), on); }
QByteArray AppSettings::windowState() { return QSettings().value(key::windowState()).toByteArray(); }
QByteArray AppSettings::windowGeometry() { return QSettings().value(key::windowGeometry()).toByteArray(); }

QString AppSettings::lastFolder()
{
    const QString f = QSettings().value(key::lastFolder()).toString();
    return !f.isEmpty() && QFileInfo(f).isDir() ? f : QDir::homePath();
}
void AppSettings::setLastFolder(const QString& dir) { QSettings().setValue(key::lastFolder(), dir); }
QString AppSettings::theme() { return QSettings().value(key::theme()).toString(); }
void AppSettings::setTheme(const QString& theme) { QSettings().setValue(key::theme(), theme); }

bool AppSettings::isDefaultModel(const QString& path)
{
    return QFileInfo(path).fileName() == QFileInfo(QLatin1String(kDefaultModel)).fileName();
}

void AppSettings::setWindow(const QByteArray& geometry, const QByteArray& state)
{
    QSettings q;
    q.setValue(key::windowGeometry(), geometry);
    q.setValue(key::windowState(), state);
}

}  // namespace kvlens::ui
