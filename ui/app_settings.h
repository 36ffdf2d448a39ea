// SPDX-License-Identifier: Apache-2.0
// The window's persistent settings through QSettings: engine and sampling
// settings (a remote server's URL, model and API key *file*, never the key),
// recent files, language, presentation mode, window geometry.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "ui/model/run_config.h"

namespace kvlens::ui {

class AppSettings {
public:
    static EngineSettings engine();
    static void setEngine(const EngineSettings& s);
    static SamplingSettings sampling();
    static void setSampling(const SamplingSettings& s);

    static QStringList recentFiles();
    static void addRecentFile(const QString& path);   // most recent first, at most 8
    static constexpr int kMaxRecent = 8;

    static QString language();          // "" (follow the system), "en" or "zh_CN"
    static void setLanguage(const QString& lang);
    static bool presentation();
    static void setPresentation(bool on);
    static bool tintTokens();
    static void setTintTokens(bool on);
    static QByteArray windowState();
    static QByteArray windowGeometry();
    static void setWindow(const QByteArray& geometry, const QByteArray& state);
    // The folder file dialogs open in: the last one used, else home.
    static QString lastFolder();
    static void setLastFolder(const QString& dir);
    // "" (follow the system), "light" or "dark".
    static QString theme();
    static void setTheme(const QString& theme);
    // The small demo model the project fetches (SmolLM2 135M).
    static bool isDefaultModel(const QString& path);

    // The model used when none is set: $KVLENS_MODEL, else the default model
    // under models/ next to the working directory or the executable.
    static QString defaultModelPath();
};

}  // namespace kvlens::ui
