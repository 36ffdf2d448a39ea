// SPDX-License-Identifier: Apache-2.0
// MainWindow: layout, menus, documents, settings, language, drag and drop.
// (Runs, refresh and export are in main_window_runs.cpp.)
#include "ui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QStyle>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>

#include "ui/app_settings.h"
#include "ui/engine/engine_worker.h"
#include "ui/i18n.h"
#include "ui/model/event_coalescer.h"
#include "ui/model/run_history_model.h"
#include "ui/widgets/answer_pane.h"
#include "ui/widgets/charts_board.h"
#include "ui/widgets/document_pane.h"
#include "ui/widgets/history_pane.h"
#include "ui/widgets/model_panel.h"
#include "ui/widgets/settings_dialog.h"
#include "ui/widgets/task_pane.h"

namespace kvlens::ui {

namespace {

// The status bar's model line: "SmolLM2 135M Instruct (small demo model) ·
// Q4_1 · runs on cpu (2 threads, AVX2)".
QString statusLine(const ModelSummary& m)
{
    QString name = m.name.isEmpty() ? QFileInfo(m.path).completeBaseName() : m.name;
    if (AppSettings::isDefaultModel(m.path))
        name = MainWindow::tr("%1 (small demo model)").arg(name);
    if (m.fileType.isEmpty())   // a remote server's model: no file of ours
        return MainWindow::tr("%1 · runs on %2").arg(name, i18n::backendText(m.backend));
    return MainWindow::tr("%1 · %2 · runs on %3").arg(name, m.fileType, i18n::backendText(m.backend));
}

}  // namespace

MainWindow::MainWindow(EngineWorker* worker, QWidget* parent) : QMainWindow(parent)
{
    controller_ = new RunController(worker, this);
    pdf_ = new PdfBridge(this);

    buildUi();
    buildMenus();
    retranslate();
    setAcceptDrops(true);

    connect(controller_, &RunController::runsChanged, this, &MainWindow::refresh);
    connect(controller_, &RunController::runFinished, this, [this](int id) {
        updateActions();
        emit runFinished(id);
    });
    connect(controller_, &RunController::runStarted, this, [this] { updateActions(); });
    connect(controller_, &RunController::errorShown, this, &MainWindow::showError);
    connect(controller_, &RunController::modelChanged, this, &MainWindow::onModelChanged);
    connect(controller_, &RunController::modelReady, this, &MainWindow::modelReady);
    connect(controller_, &RunController::selectionChanged, this, [this](int selected, int compare) {
        if (compare > 0 && compare != selected)
            historyPane_->setCompareRun(compare);
        historyPane_->selectRun(selected);
        refresh();
        updateActions();
    });
    connect(controller_, &RunController::tokenCountReady, this, [this](quint64 ticket, int tokens, int context) {
        if (ticket != tokenTicket_)
            return;
        document_->setTokenCount(tokens, context, controller_->sampling().maxTokens);
        if (!document_->fitsContext())
            document_->setSuggestedLastPage(controller_->largestFittingLastPage(currentConfig()));
    });
    connect(controller_, &RunController::mapReduceProgress, this, [this](int, const QString& message) {
        statusBar()->showMessage(tr("Map-reduce: %1").arg(message));
    });
    connect(controller_, &RunController::mapReduceFinished, this,
            [this](int, const QString&, const QString& error) {
                if (error.isEmpty())
                    statusBar()->showMessage(tr("Map-reduce finished: the last run holds the answer."), 10000);
                else
                    statusBar()->showMessage(tr("Map-reduce stopped: %1").arg(error), 10000);
                updateActions();
            });

    connect(pdf_, &PdfBridge::opened, this, &MainWindow::onDocumentOpened);
    connect(pdf_, &PdfBridge::failed, this, &MainWindow::onDocumentFailed);
    connect(pdf_, &PdfBridge::thumbnailReady, this, [this](const QString& path, int page, const QImage& img) {
        if (path == document_->document().path)
            document_->setThumbnail(page, img);
    });
    connect(pdf_, &PdfBridge::pageRendered, this, [this](const QString& path, int page, const QImage& img) {
        if (path == document_->document().path)
            document_->setPageImage(page, img);
    });
    connect(pdf_, &PdfBridge::renderFailed, this, [this](const QString& path, const QString& message) {
        if (path == document_->document().path)
            document_->setRenderError(message);
    });
    connect(document_, &DocumentPane::pageRequested, this, [this](int page) {
        pdf_->renderPage(document_->document().path, page, 110.0 * devicePixelRatioF(), document_->document().password);
    });
    connect(document_, &DocumentPane::pageRangeChanged, this, [this] { requestTokenCount(); });
    connect(document_, &DocumentPane::openRequested, this, &MainWindow::openDialog);
    connect(document_, &DocumentPane::openSampleRequested, this, &MainWindow::openSample);
    connect(document_, &DocumentPane::mapReduceRequested, this, &MainWindow::runMapReduce);
    connect(modelPanel_, &ModelPanel::openModelRequested, this, &MainWindow::openModelDialog);
    connect(task_, &TaskPane::runRequested, this, &MainWindow::runFromUi);
    connect(task_, &TaskPane::cancelRequested, this, &MainWindow::cancelAll);
    connect(task_, &TaskPane::experimentRequested, this, [this](Experiment e) { runExperiment(e); });
    connect(task_, &TaskPane::taskChanged, this, [this] { requestTokenCount(); });
    connect(historyPane_, &HistoryPane::selectionChanged, this, [this](int id) {
        if (id != controller_->selectedRun())
            controller_->selectRun(id);
    });
    connect(historyPane_, &HistoryPane::compareChanged, this, [this](int id) {
        if (id != controller_->compareRun())
            controller_->setCompareRun(id);
    });
    connect(answer_, &AnswerPane::tintChanged, this, [](bool on) { AppSettings::setTintTokens(on); });
    for (ChartPanel* c : board_->charts())
        connect(c, &ChartPanel::exportRequested, this, &MainWindow::exportChartDialog);

    if (!AppSettings::windowGeometry().isEmpty())
        restoreGeometry(AppSettings::windowGeometry());
    else
        resize(1600, 980);
    answer_->setTint(AppSettings::tintTokens());
    if (!AppSettings::theme().isEmpty())
        applyTheme(AppSettings::theme());
    setPresentation(AppSettings::presentation());
    controller_->setSampling(AppSettings::sampling());
    controller_->setEngineSettings(AppSettings::engine());
    updateActions();
    refresh();
}

MainWindow::~MainWindow() = default;   // the controller stops the engines and the worker thread

void MainWindow::buildUi()
{
    document_ = new DocumentPane;
    task_ = new TaskPane;
    answer_ = new AnswerPane;
    historyPane_ = new HistoryPane(controller_->history());
    board_ = new ChartsBoard;
    modelPanel_ = new ModelPanel;

    auto* middle = new QSplitter(Qt::Vertical);
    middle->addWidget(task_);
    middle->addWidget(answer_);
    middle->addWidget(historyPane_);
    middle->setStretchFactor(0, 0);
    middle->setStretchFactor(1, 3);
    middle->setStretchFactor(2, 1);
    middle->setChildrenCollapsible(false);
    middle->setSizes({300, 460, 200});
    historyPane_->setMinimumHeight(88);   // two history lines and the overlay row: the window fits 720 lines in Chinese too

    rightTabs_ = new QTabWidget;
    rightTabs_->setDocumentMode(true);
    rightTabs_->addTab(board_, QString());
    // The model's figures scroll on a short screen instead of squeezing.
    auto* modelScroll = new QScrollArea;
    modelScroll->setWidget(modelPanel_);
    modelScroll->setWidgetResizable(true);
    modelScroll->setFrameShape(QFrame::NoFrame);
    rightTabs_->addTab(modelScroll, QString());

    split_ = new QSplitter(Qt::Horizontal);
    split_->addWidget(document_);
    split_->addWidget(middle);
    split_->addWidget(rightTabs_);
    split_->setStretchFactor(0, 3);
    split_->setStretchFactor(1, 3);
    split_->setStretchFactor(2, 6);
    split_->setSizes({400, 420, 780});
    split_->setChildrenCollapsible(false);
    // The three columns fit 1,280 px (a classroom projector; the window test
    // renders it): thumbnails and page share 200 px at least.
    document_->setMinimumWidth(200);
    setCentralWidget(split_);

    modelStatus_ = new QLabel;
    statusBar()->addPermanentWidget(modelStatus_);
}

void MainWindow::buildMenus()
{
    fileMenu_ = menuBar()->addMenu(QString());
    openAct_ = fileMenu_->addAction(QString(), this, &MainWindow::openDialog);
    openAct_->setShortcut(QKeySequence::Open);
    sampleAct_ = fileMenu_->addAction(QString(), this, &MainWindow::openSample);
    openModelAct_ = fileMenu_->addAction(QString(), this, &MainWindow::openModelDialog);
    recentMenu_ = fileMenu_->addMenu(QString());
    fileMenu_->addSeparator();
    exportChartsAct_ = fileMenu_->addAction(QString(), this, &MainWindow::exportAllDialog);
    exportCsvAct_ = fileMenu_->addAction(QString(), this, [this] { exportRunDialog(QStringLiteral("csv")); });
    exportJsonAct_ = fileMenu_->addAction(QString(), this, [this] { exportRunDialog(QStringLiteral("json")); });
    fileMenu_->addSeparator();
    quitAct_ = fileMenu_->addAction(QString(), this, &QWidget::close);
    quitAct_->setShortcut(QKeySequence::Quit);

    runMenu_ = menuBar()->addMenu(QString());
    runAct_ = runMenu_->addAction(QString(), this, &MainWindow::runFromUi);
    runAct_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    cancelAct_ = runMenu_->addAction(QString(), this, &MainWindow::cancelAll);
    cancelAct_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancelAct_->setShortcutContext(Qt::WindowShortcut);
    runMenu_->addSeparator();
    experimentMenu_ = runMenu_->addMenu(QString());
    for (Experiment e : allExperiments()) {
        QAction* a = experimentMenu_->addAction(QString(), this, [this, e] { runExperiment(e); });
        a->setData(int(e));
        experimentActs_ << a;
    }
    lessonAct_ = runMenu_->addAction(QString(), this, &MainWindow::showLesson);
    runMenu_->addSeparator();
    settingsAct_ = runMenu_->addAction(QString(), this, &MainWindow::showSettings);
    settingsAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));

    viewMenu_ = menuBar()->addMenu(QString());
    presentationAct_ = viewMenu_->addAction(QString());
    presentationAct_->setCheckable(true);
    presentationAct_->setShortcut(QKeySequence(Qt::Key_F11));
    connect(presentationAct_, &QAction::toggled, this, &MainWindow::setPresentation);
    themeMenu_ = viewMenu_->addMenu(QString());
    auto* themes = new QActionGroup(this);
    for (const QString& t : {QString(), QStringLiteral("light"), QStringLiteral("dark")}) {
        QAction* a = themeMenu_->addAction(QString());
        a->setCheckable(true);
        a->setData(t);
        a->setChecked(AppSettings::theme() == t);
        themes->addAction(a);
        connect(a, &QAction::triggered, this, [this, t] {
            AppSettings::setTheme(t);
            applyTheme(t);
        });
        themeActs_ << a;
    }
    languageMenu_ = viewMenu_->addMenu(QString());
    auto* group = new QActionGroup(this);
    for (const QString& lang : i18n::available()) {
        QAction* a = languageMenu_->addAction(i18n::nativeName(lang));
        a->setCheckable(true);
        a->setData(lang);
        a->setChecked(lang == i18n::current());
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, lang] { switchLanguage(lang); });
        languageActs_ << a;
    }

    helpMenu_ = menuBar()->addMenu(QString());
    aboutAct_ = helpMenu_->addAction(QString(), this, [this] {
        QMessageBox::about(this, tr("About kvlens"),
                           tr("<h3>kvlens %1</h3><p>A reading assistant that shows its work: the prefill, the "
                              "first token, every decoded token and the KV cache, live.</p>"
                              "<p>Apache License 2.0</p>")
                               .arg(QCoreApplication::applicationVersion()));
    });
    rebuildRecentMenu();
}

void MainWindow::retranslate()
{
    setWindowTitle(document_->hasDocument() ? tr("%1 — kvlens").arg(document_->document().text.title)
                                            : QStringLiteral("kvlens"));
    fileMenu_->setTitle(tr("&File"));
    openAct_->setText(tr("&Open…"));
    sampleAct_->setText(tr("Open the &sample report"));
    openModelAct_->setText(tr("Open another &model (GGUF)…"));
    themeMenu_->setTitle(tr("&Theme"));
    for (QAction* a : themeActs_) {
        const QString t = a->data().toString();
        a->setText(t.isEmpty() ? tr("Follow the system") : t == QLatin1String("dark") ? tr("Dark") : tr("Light"));
    }
    recentMenu_->setTitle(tr("&Recent files"));
    exportChartsAct_->setText(tr("Export all &charts (PNG and SVG)…"));
    exportCsvAct_->setText(tr("Export run as CS&V…"));
    exportJsonAct_->setText(tr("Export run as &JSON…"));
    quitAct_->setText(tr("&Quit"));
    runMenu_->setTitle(tr("&Run"));
    runAct_->setText(tr("&Run the task"));
    cancelAct_->setText(tr("&Cancel"));
    settingsAct_->setText(tr("&Settings…"));
    experimentMenu_->setTitle(tr("&Experiments"));
    for (QAction* a : experimentActs_)
        a->setText(experimentTitle(Experiment(a->data().toInt())));
    lessonAct_->setText(tr("&Lesson mode…"));
    if (lessonDock_)
        lessonDock_->setWindowTitle(tr("Lesson"));
    viewMenu_->setTitle(tr("&View"));
    presentationAct_->setText(tr("&Presentation mode"));
    languageMenu_->setTitle(tr("&Language"));
    helpMenu_->setTitle(tr("&Help"));
    aboutAct_->setText(tr("&About kvlens"));
    rightTabs_->setTabText(0, tr("Live charts"));
    rightTabs_->setTabText(1, tr("Model"));
    rebuildRecentMenu();
    updateActions();
}

void MainWindow::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange && fileMenu_) {
        retranslate();
        refresh();
    }
    QMainWindow::changeEvent(e);
}

void MainWindow::switchLanguage(const QString& lang)
{
    AppSettings::setLanguage(lang);
    i18n::install(lang);
    for (QAction* a : languageActs_)
        a->setChecked(a->data().toString() == lang);
    refresh();
}

void MainWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = AppSettings::recentFiles();
    for (const QString& f : files)
        recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { openFile(f); })->setToolTip(f);
    recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::openDialog()
{
    const QString start = document_->hasDocument() ? QFileInfo(document_->document().path).absolutePath()
                                                   : QDir::homePath();
    const QString f = QFileDialog::getOpenFileName(this, tr("Open a report"), start,
                                                   tr("Reports (*.pdf *.txt *.md);;PDF (*.pdf);;All files (*)"));
    if (!f.isEmpty())
        openFile(f);
}

void MainWindow::openModelDialog()
{
    const QString f = QFileDialog::getOpenFileName(this, tr("Open a model"), AppSettings::lastFolder(),
                                                   tr("GGUF models (*.gguf);;All files (*)"));
    if (f.isEmpty())
        return;
    AppSettings::setLastFolder(QFileInfo(f).absolutePath());
    if (const QString why = SettingsDialog::modelFileProblem(f); !why.isEmpty()) {
        showError(tr("Not a model file"), why);
        return;
    }
    EngineSettings e = controller_->engineSettings();
    e.modelPath = f;
    if (e.isRemote())   // a file of one's own runs here
        e.backend = QStringLiteral("auto");
    AppSettings::setEngine(e);
    controller_->setEngineSettings(e);
}

void MainWindow::applyTheme(const QString& theme)
{
    // Light or dark regardless of the desktop; "" gives the style's own palette back.
    QPalette p = QApplication::style()->standardPalette();
    if (theme == QLatin1String("dark")) {
        p.setColor(QPalette::Window, QColor(37, 37, 40));
        p.setColor(QPalette::WindowText, QColor(230, 230, 230));
        p.setColor(QPalette::Base, QColor(28, 28, 30));
        p.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
        p.setColor(QPalette::Text, QColor(230, 230, 230));
        p.setColor(QPalette::Button, QColor(50, 50, 54));
        p.setColor(QPalette::ButtonText, QColor(230, 230, 230));
        p.setColor(QPalette::ToolTipBase, QColor(50, 50, 54));
        p.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
        p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
        p.setColor(QPalette::Highlight, QColor(64, 128, 200));
        p.setColor(QPalette::HighlightedText, Qt::white);
        p.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
        p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(120, 120, 120));
        p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(120, 120, 120));
    } else if (theme == QLatin1String("light")) {
        p.setColor(QPalette::Window, QColor(246, 246, 246));
        p.setColor(QPalette::Base, Qt::white);
        p.setColor(QPalette::Text, Qt::black);
        p.setColor(QPalette::WindowText, Qt::black);
    }
    QApplication::setPalette(p);
}

void MainWindow::openSample()
{
    const QStringList candidates = {
        QDir::current().filePath(QStringLiteral("resources/sample-report.pdf")),
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/kvlens/sample-report.pdf"),
        QCoreApplication::applicationDirPath() + QStringLiteral("/../../../resources/sample-report.pdf"),
        QCoreApplication::applicationDirPath() + QStringLiteral("/../../resources/sample-report.pdf"),
    };
    for (const QString& c : candidates) {
        if (QFileInfo::exists(c)) {
            openFile(QFileInfo(c).canonicalFilePath());
            return;
        }
    }
    showError(tr("No sample report"), tr("The sample report was not found next to the program."));
}

void MainWindow::openFile(const QString& path, const QString& password)
{
    statusBar()->showMessage(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    pdf_->open(path, password);
}

bool MainWindow::openDocumentNow(const QString& path, QString* error)
{
    const OpenedDocument doc = PdfBridge::readNow(path, QString(), error);
    if (!error->isEmpty())
        return false;
    onDocumentOpened(doc);
    return true;
}

void MainWindow::onDocumentOpened(const OpenedDocument& doc)
{
    statusBar()->clearMessage();
    controller_->setDocument(doc);
    document_->setDocument(doc);
    AppSettings::addRecentFile(doc.path);
    rebuildRecentMenu();
    if (doc.isPdf && isVisible())
        pdf_->renderThumbnails(doc.path, doc.text.pageCount(), doc.password);
    retranslate();
    requestTokenCount();
}

void MainWindow::onDocumentFailed(const QString& path, const QString& message, bool needsPassword)
{
    statusBar()->clearMessage();
    if (needsPassword) {
        // A wrong password is said as such before asking again.
        const bool wrong = message == tr("wrong password") || message.contains(QLatin1String("wrong password"));
        bool ok = false;
        const QString prompt = wrong ? tr("Wrong password for %1. Try again:").arg(QFileInfo(path).fileName())
                                     : tr("%1 is protected. Password:").arg(QFileInfo(path).fileName());
        if (wrong)
            statusBar()->showMessage(tr("Wrong password for %1").arg(QFileInfo(path).fileName()), 10000);
        lastError_ = message;
        if (!isVisible() || QGuiApplication::platformName() == QLatin1String("offscreen"))
            return;   // nobody to ask (tests, headless)
        const QString pw = QInputDialog::getText(this, tr("Password"), prompt, QLineEdit::Password, QString(), &ok);
        if (ok)
            openFile(path, pw);
        return;
    }
    showError(tr("The report could not be opened"), message);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls()) {
        for (const QUrl& u : e->mimeData()->urls()) {
            const QString s = QFileInfo(u.toLocalFile()).suffix().toLower();
            if (u.isLocalFile() && (s == QLatin1String("pdf") || s == QLatin1String("txt") || s == QLatin1String("md"))) {
                e->acceptProposedAction();
                return;
            }
        }
    }
}

void MainWindow::dropEvent(QDropEvent* e)
{
    for (const QUrl& u : e->mimeData()->urls()) {
        if (u.isLocalFile()) {
            openFile(u.toLocalFile());
            e->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    AppSettings::setWindow(saveGeometry(), saveState());
    cancelAll();
    e->accept();
}

void MainWindow::keepHistoryIn(const QString& folder)
{
    const QStringList errors = controller_->keepHistoryIn(folder);
    if (!errors.isEmpty())
        showError(tr("Saved runs skipped"), errors.join(QLatin1Char('\n')));
}

void MainWindow::showError(const QString& title, const QString& message)
{
    lastError_ = message;
    statusBar()->showMessage(title + QStringLiteral(": ") + message, 15000);
    emit errorShown(message);
    // A modal box only when someone is looking; the status bar and the
    // answer pane carry it otherwise (headless, tests).
    if (isVisible() && !qEnvironmentVariableIsSet("KVLENS_NO_DIALOGS")
        && QGuiApplication::platformName() != QLatin1String("offscreen"))
        QMessageBox::warning(this, title, message);
}

void MainWindow::onModelChanged()
{
    const ModelSummary& m = controller_->model();
    if (controller_->modelLoading())
        modelPanel_->setLoading(controller_->engineSettings().modelPath);
    else if (!controller_->modelError().isEmpty())
        modelPanel_->setError(controller_->modelError());
    else if (m.isValid())
        modelPanel_->setSummary(m);
    updateActions();
    requestTokenCount();
}

void MainWindow::setSampling(const SamplingSettings& s)
{
    controller_->setSampling(s);
    requestTokenCount();
}

void MainWindow::showSettings()
{
    SettingsDialog dlg(this);
    dlg.setValues(controller_->engineSettings(), controller_->sampling());
    if (dlg.exec() != QDialog::Accepted)
        return;
    AppSettings::setEngine(dlg.engineSettings());
    AppSettings::setSampling(dlg.samplingSettings());
    setSampling(dlg.samplingSettings());
    setEngineSettings(dlg.engineSettings());
}

void MainWindow::updateActions()
{
    const bool haveDoc = document_->hasDocument();
    const ModelSummary& model = controller_->model();
    const bool haveModel = model.isValid();
    QString why;
    if (!haveDoc)
        why = tr("Open a report first.");
    else if (controller_->modelLoading())
        why = tr("Loading the model…");
    else if (!haveModel)
        why = controller_->modelError().isEmpty() ? tr("No model loaded.")
                                                  : tr("No model: %1").arg(controller_->modelError());
    task_->setCanRun(haveDoc && haveModel, why);
    task_->setRunning(isBusy());
    runAct_->setEnabled(haveDoc && haveModel);
    cancelAct_->setEnabled(isBusy());
    const RunRecord* sel = controller_->selected();
    const bool canVary = sel && sel->isFinished() && haveDoc && haveModel;
    task_->setExperimentsEnabled(canVary, model.kvQ8Possible);
    for (QAction* a : experimentActs_)
        a->setEnabled(canVary && (model.kvQ8Possible || a->data().toInt() != int(Experiment::KvQ8)));
    exportCsvAct_->setEnabled(sel != nullptr);
    exportJsonAct_->setEnabled(sel != nullptr);
    if (haveModel)
        modelStatus_->setText(statusLine(model));
    else
        modelStatus_->setText(controller_->modelLoading() ? tr("loading the model…") : tr("no model"));
}

void MainWindow::setPresentation(bool on)
{
    AppSettings::setPresentation(on);
    if (presentationAct_ && presentationAct_->isChecked() != on)
        presentationAct_->setChecked(on);
    board_->setPresentation(on);
    // The document pane makes room for the charts; the answer stays.
    // In front of a class the charts and the answer fill the screen; the
    // document, the task pane and the history step aside (Run and the
    // experiments stay in the Run menu and on their shortcuts).
    document_->setVisible(!on);
    task_->setVisible(!on);
    historyPane_->setVisible(!on);
    answer_->setPresentation(on);
    if (on)
        split_->setSizes({0, width() / 5, width() - width() / 5});
    else
        split_->setSizes({400, 420, 780});
    refresh();   // the charts' titles and units follow the new style
    // In front of a class: the whole screen (F11 or Esc-free toggle back).
    if (isVisible() && QGuiApplication::platformName() != QLatin1String("offscreen")) {
        if (on && !isFullScreen())
            showFullScreen();
        else if (!on && isFullScreen())
            showNormal();
    }
}

}  // namespace kvlens::ui
