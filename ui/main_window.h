// SPDX-License-Identifier: Apache-2.0
// MainWindow: wires the panes (document, task, answer, history), the charts
// board, the model panel, the engine worker thread and the PDF bridge. Engine
// events reach it as queued signals, go through the EventCoalescer into the
// run history, and the charts redraw once per coalesced batch (<= ~30/s).
// The headless mode drives the same window without showing it.
#pragma once

#include <QMainWindow>
#include <QPointer>

#include "ui/engine/model_summary.h"
#include "ui/model/run_config.h"
#include "ui/model/run_types.h"
#include "ui/pdf_bridge.h"

class QAction;
class QLabel;
class QMenu;
class QSplitter;
class QTabWidget;
class QThread;

namespace kvlens::ui {

class AnswerPane;
class ChartsBoard;
class DocumentPane;
class EngineWorker;
class EventCoalescer;
class HistoryPane;
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
    bool openDocumentNow(const QString& path, QString* error);  // blocking read
    void setEngineSettings(const EngineSettings& e);
    void setSampling(const SamplingSettings& s);
    const EngineSettings& engineSettings() const { return engine_; }
    // Starts a run of `config`; returns its id (the history's).
    int startRun(const RunConfig& config);
    int runExperiment(Experiment e);
    RunConfig currentConfig() const;
    void cancelAll();
    void flushEvents();              // hands pending events on now
    bool isBusy() const;             // a run not finished
    RunHistoryModel* history() const { return history_; }
    ChartsBoard* charts() const { return board_; }
    AnswerPane* answer() const { return answer_; }
    DocumentPane* documentPane() const { return document_; }
    TaskPane* taskPane() const { return task_; }
    ModelPanel* modelPanel() const { return modelPanel_; }
    HistoryPane* historyPane() const { return historyPane_; }
    EngineWorker* worker() const { return worker_; }
    const ModelSummary& model() const { return model_; }
    void selectRun(int id, int compareId = -1);
    void setPresentation(bool on);
    QString exportRun(int id, const QString& dir);   // run.json + run.csv; "" or the reason
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

private:
    void buildUi();
    void buildMenus();
    void retranslate();
    void rebuildRecentMenu();
    void openFile(const QString& path, const QString& password = QString());
    void openDialog();
    void openSample();
    void onDocumentOpened(const OpenedDocument& doc);
    void onDocumentFailed(const QString& path, const QString& message, bool needsPassword);
    void onBatch(const QVector<RunEvent>& events);
    void refresh();
    void requestTokenCount();
    void loadModel();
    void runFromUi();
    void showSettings();
    void showError(const QString& title, const QString& message);
    void updateActions();
    void exportChartDialog(class ChartPanel* panel);
    void exportAllDialog();
    void exportRunDialog(const QString& suffix);
    void switchLanguage(const QString& lang);

    RunHistoryModel* history_;
    EventCoalescer* coalescer_;
    QThread* workerThread_;
    EngineWorker* worker_;
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

    EngineSettings engine_;
    SamplingSettings sampling_;
    ModelSummary model_;
    bool modelLoading_ = false;
    QString modelError_;
    quint64 tokenTicket_ = 0;
    int selected_ = 0;
    int compare_ = 0;
    QString lastError_;
};

}  // namespace kvlens::ui
