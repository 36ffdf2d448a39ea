// SPDX-License-Identifier: Apache-2.0
// MainWindow: layout, menus, documents, settings, language, drag and drop.
// (Runs, refresh and export are in main_window_runs.cpp.)
#include "ui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
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

MainWindow::MainWindow(EngineWorker* worker, QWidget* parent) : QMainWindow(parent)
{
    qRegisterMetaType<RunEvent>();
    qRegisterMetaType<QVector<RunEvent>>();
    qRegisterMetaType<MemorySnapshot>();
    qRegisterMetaType<ModelSummary>();
    qRegisterMetaType<OpenedDocument>();

    history_ = new RunHistoryModel(this);
    coalescer_ = new EventCoalescer(this);
    pdf_ = new PdfBridge(this);
    workerThread_ = new QThread(this);
    workerThread_->setObjectName(QStringLiteral("kvlens-engine-worker"));
    worker_ = worker ? worker : new EngineWorker;
    worker_->moveToThread(workerThread_);
    connect(workerThread_, &QThread::finished, worker_, &QObject::deleteLater);
    workerThread_->start();

    engine_ = AppSettings::engine();
    sampling_ = AppSettings::sampling();

    buildUi();
    buildMenus();
    retranslate();
    setAcceptDrops(true);

    // Engine -> GUI: every event is queued to this thread, then coalesced.
    connect(worker_, &EngineWorker::runEvent, coalescer_, &EventCoalescer::push, Qt::QueuedConnection);
    connect(coalescer_, &EventCoalescer::batchReady, this, &MainWindow::onBatch);
    connect(worker_, &EngineWorker::memory, this, [this](int runId, const MemorySnapshot& m) {
        if (RunRecord* r = history_->run(runId))
            r->setMemory(m);
    }, Qt::QueuedConnection);
    connect(worker_, &EngineWorker::loaded, this, [this](const ModelSummary& s) {
        if (!s.path.isEmpty() && QFileInfo(s.path) != QFileInfo(engine_.modelPath))
            return;  // an experiment's engine, or a model since replaced
        modelLoading_ = false;
        modelError_.clear();
        model_ = s;
        modelPanel_->setSummary(s);
        updateActions();
        requestTokenCount();
        emit modelReady(true);
    }, Qt::QueuedConnection);
    connect(worker_, &EngineWorker::loadFailed, this, [this](const QString& message) {
        modelLoading_ = false;
        modelError_ = message;
        modelPanel_->setError(message);
        updateActions();
        showError(tr("The model could not be loaded"), message);
        emit modelReady(false);
    }, Qt::QueuedConnection);
    connect(worker_, &EngineWorker::tokenCount, this, [this](quint64 ticket, int tokens, int context) {
        if (ticket != tokenTicket_ || tokens < 0)
            return;
        document_->setTokenCount(tokens, context, sampling_.maxTokens);
    }, Qt::QueuedConnection);

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
    connect(document_, &DocumentPane::pageRequested, this, [this](int page) {
        pdf_->renderPage(document_->document().path, page, 110.0 * devicePixelRatioF());
    });
    connect(document_, &DocumentPane::pageRangeChanged, this, [this] { requestTokenCount(); });
    connect(document_, &DocumentPane::openRequested, this, &MainWindow::openDialog);
    connect(document_, &DocumentPane::openSampleRequested, this, &MainWindow::openSample);
    connect(task_, &TaskPane::runRequested, this, &MainWindow::runFromUi);
    connect(task_, &TaskPane::cancelRequested, this, &MainWindow::cancelAll);
    connect(task_, &TaskPane::experimentRequested, this, [this](Experiment e) { runExperiment(e); });
    connect(task_, &TaskPane::taskChanged, this, [this] { requestTokenCount(); });
    connect(historyPane_, &HistoryPane::selectionChanged, this, [this](int id) {
        selected_ = id;
        refresh();
        updateActions();
    });
    connect(historyPane_, &HistoryPane::compareChanged, this, [this](int id) {
        compare_ = id;
        refresh();
    });
    connect(answer_, &AnswerPane::tintChanged, this, [](bool on) { AppSettings::setTintTokens(on); });
    for (ChartPanel* c : board_->charts())
        connect(c, &ChartPanel::exportRequested, this, &MainWindow::exportChartDialog);

    if (!AppSettings::windowGeometry().isEmpty())
        restoreGeometry(AppSettings::windowGeometry());
    else
        resize(1600, 980);
    answer_->setTint(AppSettings::tintTokens());
    setPresentation(AppSettings::presentation());
    loadModel();
    updateActions();
    refresh();
}

MainWindow::~MainWindow()
{
    // Stop the engines before the thread: their callbacks emit on the worker.
    QMetaObject::invokeMethod(worker_, &EngineWorker::shutdown, Qt::BlockingQueuedConnection);
    workerThread_->quit();
    workerThread_->wait();
}

void MainWindow::buildUi()
{
    document_ = new DocumentPane;
    task_ = new TaskPane;
    answer_ = new AnswerPane;
    historyPane_ = new HistoryPane(history_);
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
    historyPane_->setMinimumHeight(150);

    rightTabs_ = new QTabWidget;
    rightTabs_->setDocumentMode(true);
    rightTabs_->addTab(board_, QString());
    rightTabs_->addTab(modelPanel_, QString());

    split_ = new QSplitter(Qt::Horizontal);
    split_->addWidget(document_);
    split_->addWidget(middle);
    split_->addWidget(rightTabs_);
    split_->setStretchFactor(0, 3);
    split_->setStretchFactor(1, 3);
    split_->setStretchFactor(2, 6);
    split_->setSizes({400, 420, 780});
    split_->setChildrenCollapsible(false);
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
    for (Experiment e : {Experiment::KvOff, Experiment::HalfDocument, Experiment::LongerAnswer,
                         Experiment::ShorterAnswer, Experiment::FollowUp, Experiment::BrokenCache,
                         Experiment::Concurrent}) {
        QAction* a = experimentMenu_->addAction(QString(), this, [this, e] { runExperiment(e); });
        a->setData(int(e));
        experimentActs_ << a;
    }
    runMenu_->addSeparator();
    settingsAct_ = runMenu_->addAction(QString(), this, &MainWindow::showSettings);
    settingsAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));

    viewMenu_ = menuBar()->addMenu(QString());
    presentationAct_ = viewMenu_->addAction(QString());
    presentationAct_->setCheckable(true);
    presentationAct_->setShortcut(QKeySequence(Qt::Key_F11));
    connect(presentationAct_, &QAction::toggled, this, &MainWindow::setPresentation);
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
    document_->setDocument(doc);
    AppSettings::addRecentFile(doc.path);
    rebuildRecentMenu();
    if (doc.isPdf && isVisible())
        pdf_->renderThumbnails(doc.path, doc.text.pageCount());
    retranslate();
    requestTokenCount();
}

void MainWindow::onDocumentFailed(const QString& path, const QString& message, bool needsPassword)
{
    statusBar()->clearMessage();
    if (needsPassword) {
        bool ok = false;
        const QString pw = QInputDialog::getText(this, tr("Password"),
                                                 tr("%1 is protected. Password:").arg(QFileInfo(path).fileName()),
                                                 QLineEdit::Password, QString(), &ok);
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

void MainWindow::loadModel()
{
    if (engine_.modelPath.isEmpty()) {
        modelPanel_->setError(tr("no model file chosen (Settings → Model file)"));
        modelError_ = tr("no model file chosen");
        updateActions();
        return;
    }
    modelLoading_ = true;
    modelError_.clear();
    modelPanel_->setLoading(engine_.modelPath);
    EngineWorker* w = worker_;
    const EngineSettings settings = engine_;
    QMetaObject::invokeMethod(worker_, [w, settings] { w->load(settings); }, Qt::QueuedConnection);
    updateActions();
}

void MainWindow::setEngineSettings(const EngineSettings& e)
{
    const bool reload = !e.sameEngine(engine_) || !model_.isValid();
    engine_ = e;
    if (reload)
        loadModel();
}

void MainWindow::setSampling(const SamplingSettings& s)
{
    sampling_ = s;
    requestTokenCount();
}

void MainWindow::showSettings()
{
    SettingsDialog dlg(this);
    dlg.setValues(engine_, sampling_);
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
    const bool haveModel = model_.isValid();
    QString why;
    if (!haveDoc)
        why = tr("Open a report first.");
    else if (modelLoading_)
        why = tr("Loading the model…");
    else if (!haveModel)
        why = modelError_.isEmpty() ? tr("No model loaded.") : tr("No model: %1").arg(modelError_);
    task_->setCanRun(haveDoc && haveModel, why);
    task_->setRunning(isBusy());
    runAct_->setEnabled(haveDoc && haveModel);
    cancelAct_->setEnabled(isBusy());
    const RunRecord* sel = history_->run(selected_);
    const bool canVary = sel && sel->isFinished() && haveDoc && haveModel;
    task_->setExperimentsEnabled(canVary);
    for (QAction* a : experimentActs_)
        a->setEnabled(canVary);
    exportCsvAct_->setEnabled(sel != nullptr);
    exportJsonAct_->setEnabled(sel != nullptr);
    if (haveModel)
        modelStatus_->setText(QStringLiteral("%1 · %2 · %3").arg(model_.name, model_.fileType, model_.backend));
    else
        modelStatus_->setText(modelLoading_ ? tr("loading the model…") : tr("no model"));
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
        split_->setSizes({0, 420, 1180});
    else
        split_->setSizes({400, 420, 780});
}

}  // namespace kvlens::ui
