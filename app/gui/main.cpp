// SPDX-License-Identifier: Apache-2.0
// kvlens: the window, or with --headless its twin that writes the figures
// without a display. Wiring only.
#include <QApplication>
#include <QIcon>
#include <QScreen>
#include <QStandardPaths>
#include <algorithm>
#include <QStyleFactory>
#include <cstdio>
#include <string>

#include "ui/app_settings.h"
#include "ui/headless_runner.h"
#include "ui/i18n.h"
#include "ui/main_window.h"

namespace {

// The offscreen platform warns about window hints it cannot honour; in the
// headless mode that is expected, so those lines are dropped.
QtMessageHandler previousHandler = nullptr;
void quietHandler(QtMsgType type, const QMessageLogContext& ctx, const QString& msg)
{
    if (msg.contains(QLatin1String("propagateSizeHints")))
        return;
    previousHandler(type, ctx, msg);
}

}  // namespace

const char* kUsage =
    "Usage: kvlens [REPORT.pdf]\n"
    "       kvlens --headless REPORT.pdf --out DIR [--model FILE.gguf] [--task one-line|key-points|detailed]\n"
    "              [--question TEXT] [--pages A-B] [--max-tokens N] [--kv paged|static|off] [--draft N]\n"
    "              [--long map-reduce|fit]\n"
    "       kvlens --lesson                      the window in lesson mode\n"
    "       kvlens --headless [REPORT] --lesson --out DIR [--model FILE.gguf] [--lesson-steps KEY,...]\n"
    "\n"
    "The window: open a report, run a task and watch the prefill, the first token, every decoded\n"
    "token and the KV cache, live. With --headless: the same run without a window; writes\n"
    "summary.txt, every chart as PNG and SVG, run.json and run.csv into DIR, progress on stderr.\n"
    "Pages that do not fit the context: map-reduce over all of them (every stage a run, each in\n"
    "DIR/stages/), or with --long fit the largest range from the first page that fits.\n"
    "With --lesson: the lesson's steps (TTFT vs input, decode vs output, KV off/on, prefix cache,\n"
    "concurrency, q8_0 KV, ...) measured on REPORT (default: the built-in sample report); headless\n"
    "writes one slide per step (PNG, SVG), handout.md and lesson.json into DIR.\n"
    "\n"
    "  -h, --help     this text\n"
    "  --version      the version\n"
    "Environment: KVLENS_MODEL (the model when none is set), LANGUAGE=zh_CN (Chinese).\n";

int main(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (a == "--version") {
            std::printf("kvlens %s\n", KVLENS_VERSION);
            return 0;
        }
    }
    // Headless, or no display at all: the offscreen platform, set before
    // QApplication reads it.
    bool headless = false;
    for (int i = 1; i < argc; ++i)
        headless = headless || std::string(argv[i]) == "--headless";
    if ((headless || (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")))
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    if (headless)
        previousHandler = qInstallMessageHandler(quietHandler);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("kvlens"));
    QApplication::setApplicationName(QStringLiteral("kvlens"));
    QApplication::setApplicationVersion(QStringLiteral(KVLENS_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.kvlens.kvlens"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/kvlens.svg")));
    kvlens::ui::i18n::install(kvlens::ui::i18n::resolve(kvlens::ui::AppSettings::language()));

    kvlens::ui::HeadlessOptions options;
    bool wanted = false;
    QString error;
    if (!kvlens::ui::parseHeadlessArgs(QApplication::arguments().mid(1), options, wanted, error)) {
        std::fprintf(stderr, "kvlens: %s\n", error.toUtf8().constData());
        return 2;
    }
    if (wanted)
        return kvlens::ui::runHeadless(options);

    kvlens::ui::MainWindow window;
    window.keepHistoryIn(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/runs"));
    // Never larger than the screen it opens on; presentation mode full screen.
    if (QScreen* screen = QGuiApplication::primaryScreen()) {
        const QRect avail = screen->availableGeometry();
        if (window.width() > avail.width() || window.height() > avail.height())
            window.resize(std::min(window.width(), avail.width()), std::min(window.height(), avail.height()));
    }
    if (kvlens::ui::AppSettings::presentation())
        window.showFullScreen();
    else
        window.show();
    if (QApplication::arguments().contains(QStringLiteral("--lesson")))
        window.showLesson();
    for (const QString& a : QApplication::arguments().mid(1)) {
        if (a == QLatin1String("--lesson"))
            continue;
        if (a.startsWith(QLatin1Char('-'))) {
            std::fprintf(stderr, "kvlens: unknown option %s (see kvlens --help)\n", a.toUtf8().constData());
            return 2;
        }
        QString err;
        if (!window.openDocumentNow(a, &err))
            std::fprintf(stderr, "kvlens: cannot read %s: %s\n", a.toUtf8().constData(), err.toUtf8().constData());
        break;
    }
    return app.exec();
}
