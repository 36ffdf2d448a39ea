// SPDX-License-Identifier: Apache-2.0
// Translator installation.
#include "ui/i18n.h"

#include <QCoreApplication>
#include <QHash>
#include <QLibraryInfo>
#include <QLocale>
#include <QRegularExpression>
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

namespace {

// An engine sentence's pattern and its translatable wording, %1, %2, ... for
// the figures the pattern captures, in order.
struct Pattern {
    const char* re;
    const char* text;
};

// A pattern's expression, compiled on its first use (the tables are static;
// the memory chart asks for the fallback note at every redraw). GUI thread only.
const QRegularExpression& compiled(const char* re)
{
    static QHash<const char*, QRegularExpression> cache;
    auto at = cache.constFind(re);
    if (at == cache.constEnd())
        at = cache.insert(re, QRegularExpression(QString::fromLatin1(re)));
    return *at;
}

// The first pattern that matches, translated with its captures; a null QString when none does.
template <std::size_t N>
QString translatedPattern(const QString& english, const Pattern (&patterns)[N])
{
    for (const Pattern& p : patterns) {
        const QRegularExpressionMatch m = compiled(p.re).match(english);
        if (!m.hasMatch())
            continue;
        QString out = QCoreApplication::translate("kvlens::ui::i18n", p.text);
        for (int i = 1; i <= m.lastCapturedIndex(); ++i)
            out = out.arg(m.captured(i));
        return out;
    }
    return {};
}

}  // namespace

QString engineMessage(const QString& english)
{
    if (english.isEmpty() || currentLang == QLatin1String("en"))
        return english;
    // Engine wording (engine/runtime, engine/gguf, engine/kv) -> a translated
    // sentence with the same figures (%1, %2, ... in the order captured).
    static const Pattern patterns[] = {
        {R"(^prompt of (\d+) tokens does not fit the context of (\d+) tokens)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "the prompt of %1 tokens does not fit the context of %2 tokens")},
        {R"(^KV pool full: (\d+) tokens need (\d+) more blocks, (\d+) available)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "KV pool full: %1 tokens need %2 more blocks, %3 available")},
        {R"(^KV pool full: a static reservation of (\d+) tokens needs (\d+) blocks, (\d+) available)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "KV pool full: a static reservation of %1 tokens needs %2 blocks, %3 available")},
        {R"(out of memory allocating .*\(([\d.]+) MiB in all\))",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "out of memory while allocating the KV cache (%1 MiB)")},
        {R"(^cannot open (.+): (.+)$)", QT_TRANSLATE_NOOP("kvlens::ui::i18n", "cannot open %1: %2")},
        {R"(^(.+) is not a regular file$)", QT_TRANSLATE_NOOP("kvlens::ui::i18n", "%1 is not a regular file")},
        {R"(^(.+) is empty, not a GGUF file$)", QT_TRANSLATE_NOOP("kvlens::ui::i18n", "%1 is empty, not a GGUF file")},
        {R"(^(.+): bad magic 0x[0-9a-f]+: not a GGUF file$)", QT_TRANSLATE_NOOP("kvlens::ui::i18n", "%1 is not a GGUF file")},
        {R"(^(.+): file too short to be GGUF)", QT_TRANSLATE_NOOP("kvlens::ui::i18n", "%1 is too short to be a GGUF file")},
        {R"(^(.+): unsupported GGUF version (\d+))", QT_TRANSLATE_NOOP("kvlens::ui::i18n", "%1: unsupported GGUF version %2")},
        {R"(^the prompt is empty$)", QT_TRANSLATE_NOOP("kvlens::ui::i18n", "the prompt is empty")},
        {R"(^max_tokens must be positive \(got (-?\d+)\))",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "the maximum of new tokens must be positive (got %1)")},
    };
    if (QString out = translatedPattern(english, patterns); !out.isNull())
        return out;
    return QCoreApplication::translate("kvlens::ui::i18n", "the engine reports: %1").arg(english);
}

QString pdfWarning(const QString& english)
{
    if (english.isEmpty() || currentLang == QLatin1String("en"))
        return english;
    // pdf/reader_process.cpp's wording.
    static const Pattern patterns[] = {
        {R"(^all (\d+) pages have no text layer: scanned\?$)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "none of the %1 pages has a text layer: scanned?")},
        {R"(^the page has no text layer: scanned\?$)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "the page has no text layer: scanned?")},
        {R"(^pages? (.+) (?:has|have) no text layer: scanned\?$)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "no text layer on page(s) %1: scanned?")},
        {R"(^dropped running headers/footers: (.+) and more$)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "running headers and footers left out: %1 and more")},
        {R"(^dropped running headers/footers: (.+)$)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "running headers and footers left out: %1")},
    };
    if (QString out = translatedPattern(english, patterns); !out.isNull())
        return out;
    return english;
}

QString deviceReason(const QString& english)
{
    if (english.isEmpty() || currentLang == QLatin1String("en"))
        return english;
    // The CUDA probe's and the backend choice's usual reasons
    // (engine/backend/cuda/cuda_device.cpp, engine/runtime/backend_choice.cpp);
    // others (a CUDA error's own text) stay as the engine wrote them.
    static const Pattern patterns[] = {
        {R"(^no NVIDIA driver found \(libcuda is not installed or not loadable\)$)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "no NVIDIA driver found (libcuda is not installed or not loadable)")},
        {R"(^no CUDA device found$)", QT_TRANSLATE_NOOP("kvlens::ui::i18n", "no CUDA device found")},
        {R"(^the NVIDIA driver supports CUDA ([\d.]+), older than this build's runtime ([\d.]+)$)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "the NVIDIA driver supports CUDA %1, older than this build's runtime %2")},
        {R"(^this build has no CUDA backend \(built with KVLENS_CUDA=OFF\)$)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "this build has no CUDA backend")},
        {R"(^(.+) of weights \+ (.+) KV pool do not fit in (.+) free of (.+)$)",
         QT_TRANSLATE_NOOP("kvlens::ui::i18n", "%1 of weights and a %2 KV pool do not fit in the %3 free of %4")},
    };
    if (QString out = translatedPattern(english, patterns); !out.isNull())
        return out;
    return english;
}

QString backendText(const QString& english)
{
    if (english.isEmpty() || currentLang == QLatin1String("en"))
        return english;
    QString out = english;
    static const QRegularExpression cpu(QStringLiteral(R"(^cpu: (\d+) threads, (\w+) kernels( \+ amx)?)"));
    if (const QRegularExpressionMatch m = cpu.match(out); m.hasMatch()) {
        const QString text = m.captured(3).isEmpty()
            ? QCoreApplication::translate("kvlens::ui::i18n", "CPU: %1 threads, %2 kernels").arg(m.captured(1), m.captured(2))
            : QCoreApplication::translate("kvlens::ui::i18n", "CPU: %1 threads, %2 kernels + AMX").arg(m.captured(1), m.captured(2));
        out.replace(0, m.capturedLength(0), text);
    }
    static const QRegularExpression fallback(QStringLiteral(R"(\(cuda: (.*); using the CPU\)$)"));
    if (const QRegularExpressionMatch m = fallback.match(out); m.hasMatch())
        out.replace(m.capturedStart(0), m.capturedLength(0),
                    QCoreApplication::translate("kvlens::ui::i18n", "(CUDA not used: %1; running on the CPU)")
                        .arg(deviceReason(m.captured(1))));
    return out;
}

QString fallbackText(const QString& english)
{
    if (english.isEmpty() || currentLang == QLatin1String("en"))
        return english;
    static const QRegularExpression fallback(QStringLiteral(R"(^cuda: (.*); using the CPU$)"));
    const QRegularExpressionMatch m = fallback.match(english);
    if (!m.hasMatch())
        return english;
    return QCoreApplication::translate("kvlens::ui::i18n", "CUDA not used: %1; running on the CPU").arg(deviceReason(m.captured(1)));
}

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
