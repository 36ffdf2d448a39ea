// SPDX-License-Identifier: Apache-2.0
// Translations: English (the source texts) and Simplified Chinese, compiled
// from resources/translations/*.ts into the program's resources. The language
// comes from the settings, else from the system locale, and can be switched
// while the window is open (widgets retranslate on LanguageChange).
#pragma once

#include <QString>
#include <QStringList>

namespace kvlens::ui::i18n {

// "en" or "zh_CN" for a setting ("" : the system's).
QString resolve(const QString& setting);
// Installs the translators for `lang` ("en", "zh_CN"), replacing earlier ones.
// Returns false when the translation could not be loaded.
bool install(const QString& lang);
QString current();
QStringList available();        // {"en", "zh_CN"}
QString nativeName(const QString& lang);   // "English", "简体中文"

// An engine's error message (English, from engine/ which never sees Qt) in
// the current language: the causes a reader meets (a missing or broken model
// file, a prompt longer than the context, a full KV pool, out of memory) are
// translated with their numbers; any other keeps its exact English detail
// behind a translated lead, so nothing is lost.
QString engineMessage(const QString& english);
// A note of the PDF reader (English, from pdf/ which never sees Qt: pages
// without a text layer, running headers and footers it dropped) in the
// current language, with its page numbers and quoted lines; a note it does
// not know stays as the reader wrote it.
QString pdfWarning(const QString& english);
// The engine's backend description for the status bar ("cpu: 2 threads, avx2
// kernels (cuda: <the driver's reason>; using the CPU)") in the current
// language; the reason CUDA was not used through deviceReason().
QString backendText(const QString& english);

// The engine's note that CUDA was not used ("cuda: <reason>; using the CPU")
// in the current language.
QString fallbackText(const QString& english);

// Why CUDA was not used (the CUDA probe's and the backend choice's usual
// reasons) in the current language; a reason it does not know stays as the
// engine wrote it.
QString deviceReason(const QString& english);

}  // namespace kvlens::ui::i18n
