// SPDX-License-Identifier: Apache-2.0
// MainWindow: starting runs and experiments, cancelling, taking event
// batches, redrawing, counting tokens, exporting.
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

#include "ui/charts/chart_export.h"
#include "ui/engine/engine_worker.h"
#include "ui/main_window.h"
#include "ui/model/event_coalescer.h"
#include "ui/model/run_export.h"
#include "ui/model/run_history_model.h"
#include "ui/widgets/answer_pane.h"
#include "ui/widgets/charts_board.h"
#include "ui/widgets/document_pane.h"
#include "ui/widgets/history_pane.h"
#include "ui/widgets/task_pane.h"

namespace kvlens::ui {

RunConfig MainWindow::currentConfig() const
{
    RunConfig c;
    c.task = task_->task();
    c.question = task_->question();
    if (c.task == TaskKind::Question && c.question.trimmed().isEmpty())
        c.task = TaskKind::OneLine;
    c.documentTitle = document_->document().text.title;
    c.firstPage = document_->firstPage();
    c.lastPage = document_->lastPage();
    c.engine = engine_;
    c.sampling = sampling_;
    return c;
}

int MainWindow::startRun(const RunConfig& config)
{
    if (!document_->hasDocument())
        return 0;
    RunRecord* run = history_->addRun(config);
    const qint64 perToken = config.engine.kvDtype == QLatin1String("q8_0") ? model_.kvBytesPerTokenQ8
                                                                            : model_.kvBytesPerTokenF16;
    run->setKvBytesPerToken(perToken);
    const QVector<ChatTurn> chat = buildChat(document_->document().text, config);
    EngineWorker* w = worker_;
    const int id = run->id();
    QMetaObject::invokeMethod(
        worker_, [w, id, config, chat] { w->submit(id, config.engine, chat, config.sampling); },
        Qt::QueuedConnection);
    const int compare = config.parentRunId > 0 ? config.parentRunId : compare_;
    if (config.concurrentIndex == 0)
        selectRun(id, compare);
    updateActions();
    return id;
}

void MainWindow::runFromUi()
{
    // Said before running: a prompt that does not fit would only fail in the engine.
    if (!document_->fitsContext()) {
        showError(tr("The selected pages are too long"),
                  tr("They need %1 tokens plus %2 for the answer; the context holds %3. Choose fewer pages.")
                      .arg(document_->promptTokens())
                      .arg(sampling_.maxTokens)
                      .arg(document_->contextLength()));
        return;
    }
    startRun(currentConfig());
}

int MainWindow::runExperiment(Experiment e)
{
    const RunRecord* base = history_->run(selected_);
    if (!base)
        return 0;
    // An experiment varies the run it starts from; for a run that is itself
    // an experiment, that run's settings are the base.
    const RunConfig c = experimentConfig(base->config(), base->id(), base->text(), e, task_->question(),
                                         QDateTime::currentDateTime());
    if (e != Experiment::Concurrent)
        return startRun(c);
    int first = 0;
    for (int i = 0; i < kConcurrentCopies; ++i) {
        RunConfig copy = c;
        copy.concurrentIndex = i;
        const int id = startRun(copy);
        if (i == 0)
            first = id;
    }
    selectRun(first, base->id());
    return first;
}

void MainWindow::cancelAll()
{
    worker_->cancelAll();   // thread-safe: reaches the engine directly
    statusBar()->showMessage(tr("Cancelling…"), 2000);
}

void MainWindow::flushEvents()
{
    coalescer_->flushNow();
}

bool MainWindow::isBusy() const
{
    for (int row = 0; row < history_->count(); ++row) {
        if (!history_->runAt(row)->isFinished())
            return true;
    }
    return false;
}

void MainWindow::onBatch(const QVector<RunEvent>& events)
{
    history_->ingest(events);
    bool finished = false;
    for (const RunEvent& e : events) {
        if (e.kind != RunEvent::Kind::Done)
            continue;
        finished = true;
        if (e.reason == FinishReason::Error) {
            const RunRecord* r = history_->run(e.runId);
            showError(tr("Run %1 failed").arg(e.runId), r ? r->error() : e.error);
        }
    }
    refresh();
    if (finished) {
        updateActions();
        for (const RunEvent& e : events) {
            if (e.kind == RunEvent::Kind::Done)
                emit runFinished(e.runId);
        }
    }
}

void MainWindow::selectRun(int id, int compareId)
{
    selected_ = id;
    if (compareId >= 0 && compareId != id)
        historyPane_->setCompareRun(compareId);
    historyPane_->selectRun(id);
    refresh();
    updateActions();
}

void MainWindow::refresh()
{
    const RunRecord* primary = history_->run(selected_);
    const RunRecord* compare = compare_ != selected_ ? history_->run(compare_) : nullptr;
    ChartInput in;
    in.primary = primary;
    in.compare = compare;
    for (int row = 0; row < history_->count(); ++row)
        in.recent.append(history_->runAt(row));
    if (model_.isValid())
        in.kvFormula = model_.kvFormula();
    board_->plot(in);
    answer_->showRun(primary);
}

void MainWindow::requestTokenCount()
{
    if (!document_->hasDocument() || !model_.isValid())
        return;
    document_->setTokenCountPending();
    const QVector<ChatTurn> chat = buildChat(document_->document().text, currentConfig());
    const quint64 ticket = ++tokenTicket_;
    EngineWorker* w = worker_;
    const EngineSettings settings = engine_;
    QMetaObject::invokeMethod(worker_, [w, ticket, settings, chat] { w->countTokens(ticket, settings, chat); },
                              Qt::QueuedConnection);
}

QString MainWindow::exportRun(int id, const QString& dir)
{
    const RunRecord* r = history_->run(id);
    if (!r)
        return tr("no such run: %1").arg(id);
    QDir().mkpath(dir);
    QString err = writeRunJson(*r, QDir(dir).filePath(QStringLiteral("run.json")));
    if (err.isEmpty())
        err = writeRunCsv(*r, QDir(dir).filePath(QStringLiteral("run.csv")));
    return err;
}

void MainWindow::exportChartDialog(ChartPanel* panel)
{
    const QString f = QFileDialog::getSaveFileName(this, tr("Export chart"),
                                                   QDir::home().filePath(panel->key() + QStringLiteral(".png")),
                                                   exportFilter());
    if (f.isEmpty())
        return;
    const QString err = panel->exportTo(f);
    if (!err.isEmpty())
        showError(tr("Export failed"), err);
    else
        statusBar()->showMessage(tr("Saved %1").arg(f), 5000);
}

void MainWindow::exportAllDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export all charts to"), QDir::homePath());
    if (dir.isEmpty())
        return;
    const QStringList errors = board_->exportAll(dir);
    if (!errors.isEmpty())
        showError(tr("Export failed"), errors.join(QLatin1Char('\n')));
    else
        statusBar()->showMessage(tr("Saved the charts in %1").arg(dir), 5000);
}

void MainWindow::exportRunDialog(const QString& suffix)
{
    const RunRecord* r = history_->run(selected_);
    if (!r)
        return;
    const QString f = QFileDialog::getSaveFileName(
        this, tr("Export run"), QDir::home().filePath(QStringLiteral("run-%1.%2").arg(r->id()).arg(suffix)),
        suffix == QLatin1String("csv") ? tr("CSV (*.csv)") : tr("JSON (*.json)"));
    if (f.isEmpty())
        return;
    const QString err = suffix == QLatin1String("csv") ? writeRunCsv(*r, f) : writeRunJson(*r, f);
    if (!err.isEmpty())
        showError(tr("Export failed"), err);
    else
        statusBar()->showMessage(tr("Saved %1").arg(f), 5000);
}

}  // namespace kvlens::ui
