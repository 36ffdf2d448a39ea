// SPDX-License-Identifier: Apache-2.0
// Translator installation.
#include "ui/i18n.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace kvlens::ui::i18n {

namespace {
QTranslator* appTranslator = nullptr;
QTranslator* qtTranslator = nullptr;
QString currentLang = QStringLiteral("en");
}

QStringList available() { return {QStringLiteral("en"), QStringLiteral("zh_CN")}; }

QString nativeName(const QString& lang)
{
    return lang == QLatin1String("zh_CN") ? QStringLiteral("简体中文") : QStringLiteral("English");
}

QString resolve(const QString& setting)
{
    if (available().contains(setting))
        return setting;
    const QLocale sys = QLocale::system();
    if (sys.language() == QLocale::Chinese)
        return QStringLiteral("zh_CN");
    return QStringLiteral("en");
}

QString current() { return currentLang; }

bool install(const QString& lang)
{
    QCoreApplication* app = QCoreApplication::instance();
    if (appTranslator) {
        app->removeTranslator(appTranslator);
        delete appTranslator;
        appTranslator = nullptr;
    }
    if (qtTranslator) {
        app->removeTranslator(qtTranslator);
        delete qtTranslator;
        qtTranslator = nullptr;
    }
    currentLang = lang;
    // English is the source language; its file holds only the plural forms.
    appTranslator = new QTranslator;
    const bool ok = appTranslator->load(QStringLiteral(":/i18n/kvlens_%1.qm").arg(lang));
    if (ok)
        app->installTranslator(appTranslator);
    if (lang == QLatin1String("en"))
        return ok;
    qtTranslator = new QTranslator;
    if (qtTranslator->load(QStringLiteral("qtbase_%1").arg(lang), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        app->installTranslator(qtTranslator);
    return ok;
}

}  // namespace kvlens::ui::i18n
