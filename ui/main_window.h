// SPDX-License-Identifier: Apache-2.0
// MainWindow: lays out the panes (document, task, answer, history), the
// charts board and the model panel, builds the menus, and wires them to the
// RunController (which owns the engine worker, the history, the coalescer,
// the selection and the exports) and to the PDF bridge. The charts redraw
// once per coalesced batch (<= ~30/s, fewer when redraws are costly).
// Headless mode and the tests drive the controller, not this window.
#pragma once

#include <QMainWindow>
#include <QPointer>

#include "ui/model/model_summary.h"
#include "ui/model/run_config.h"
#include "ui/model/run_types.h"
#include "ui/pdf_bridge.h"
#include "ui/run_controller.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QSplitter;
class QTabWidget;

namespace kvlens::ui {

class AnswerPane;
class ChartsBoard;
class DocumentPane;
class EngineWorker;
class EventCoalescer;
class HistoryPane;
class LessonPane;
class ModelPanel;
class RunHistoryModel;
class RunRecord;
class TaskPane;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // `worker` may be given by tests (a fake engine behind it); null: a real one.
    explicit MainWindow(EngineWorker* worker = nullptr, QWidget* parent = nullptr);
    ~MainWindow() override;

    // ---- for the headless mode and tests
    RunController* controller() const { return controller_; }
    bool openDocumentNow(const QString& path, QString* error);  // blocking read
    // The history across restarts (the app: the data folder's runs/; tests:
    // a temporary folder). Saved files that cannot be read are named in a
    // message, and skipped.
    void keepHistoryIn(const QString& folder);
    void setEngineSettings(const EngineSettings& e) { controller_->setEngineSettings(e); }
    void setSampling(const SamplingSettings& s);
    const EngineSettings& engineSettings() const { return controller_->engineSettings(); }
    // Starts a run of `config`; returns its id (the history's).
    int startRun(const RunConfig& config) { return controller_->startRun(config); }
    int runExperiment(Experiment e);
    RunConfig currentConfig() const;
    void cancelAll();
    void flushEvents() { controller_->flushEvents(); }
    bool isBusy() const { return controller_->isBusy(); }
    RunHistoryModel* history() const { return controller_->history(); }
    ChartsBoard* charts() const { return board_; }
    AnswerPane* answer() const { return answer_; }
    DocumentPane* documentPane() const { return document_; }
    TaskPane* taskPane() const { return task_; }
    ModelPanel* modelPanel() const { return modelPanel_; }
    HistoryPane* historyPane() const { return historyPane_; }
    EngineWorker* worker() const { return controller_->worker(); }
    const ModelSummary& model() const { return controller_->model(); }
    void selectRun(int id, int compareId = -1);
    void setPresentation(bool on);
    // Lesson mode (ui/lesson/): the lesson pane in a dock, shown and raised.
    // In a window shorter than the panes and the lesson need together (and
    // than kLessonBesidePanesHeight px) the lesson takes the window's height
    // alone; the panes come back when it closes or the window grows. At
    // 1280 x 720 the two squashed each other; at 1920 x 1080 the charts kept
    // about 120 px each, their time axis cut to "...".
    void showLesson();
    static constexpr int kLessonBesidePanesHeight = 1200;
    bool panesShown() const;
    LessonPane* lessonPane() const { return lessonPane_; }
    QString exportRun(int id, const QString& dir) { return controller_->exportRun(id, dir); }
    QString lastError() const { return lastError_; }

signals:
    void runFinished(int runId);
    void modelReady(bool ok);
    void errorShown(const QString& message);

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void fitLessonToHeight();
    bool lessonCrowdsPanes() const;
    void buildUi();
    void buildMenus();
    void retranslate();
    void rebuildRecentMenu();
    void openFile(const QString& path, const QString& password = QString());
    void openDialog();
    void openSample();
    void openModelDialog();
    void applyTheme(const QString& theme);
    void onDocumentOpened(const OpenedDocument& doc);
    void onDocumentFailed(const QString& path, const QString& message, bool needsPassword);
    void refresh();
    void requestTokenCount();
    void onModelChanged();
    void runFromUi();
    void runLargestFittingRange();
    void runMapReduce();
    void showSettings();
    void showError(const QString& title, const QString& message);
    void updateActions();
    void exportChartDialog(class ChartPanel* panel);
    void exportAllDialog();
    void exportRunDialog(const QString& suffix);
    void switchLanguage(const QString& lang);

    RunController* controller_;
    PdfBridge* pdf_;

    DocumentPane* document_;
    TaskPane* task_;
    AnswerPane* answer_;
    HistoryPane* historyPane_;
    ChartsBoard* board_;
    ModelPanel* modelPanel_;
    QTabWidget* rightTabs_;
    QSplitter* split_;
    QLabel* modelStatus_;

    QMenu* fileMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* runMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QMenu* languageMenu_ = nullptr;
    QMenu* themeMenu_ = nullptr;
    QList<QAction*> themeActs_;
    QAction* openModelAct_ = nullptr;
    QMenu* helpMenu_ = nullptr;
    QAction* openAct_ = nullptr;
    QAction* sampleAct_ = nullptr;
    QAction* exportChartsAct_ = nullptr;
    QAction* exportCsvAct_ = nullptr;
    QAction* exportJsonAct_ = nullptr;
    QAction* quitAct_ = nullptr;
    QAction* runAct_ = nullptr;
    QAction* cancelAct_ = nullptr;
    QAction* settingsAct_ = nullptr;
    QAction* presentationAct_ = nullptr;
    QAction* aboutAct_ = nullptr;
    QList<QAction*> languageActs_;
    QMenu* experimentMenu_ = nullptr;
    QList<QAction*> experimentActs_;

    QAction* lessonAct_ = nullptr;
    QDockWidget* lessonDock_ = nullptr;
    LessonPane* lessonPane_ = nullptr;

    quint64 tokenTicket_ = 0;
    QString lastError_;
};

}  // namespace kvlens::ui
