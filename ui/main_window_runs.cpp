// SPDX-License-Identifier: Apache-2.0
// MainWindow: the Run button and the experiments handed to the controller,
// the long-report choices (the largest range that fits, map-reduce),
// redrawing from the controller's selection, the token count, and the
// export dialogs. The runs themselves are the RunController's.
#include <QDateTime>
#include <QDir>
#include <QGuiApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include "tasks/context_fit.h"
#include "ui/app_settings.h"
#include "ui/charts/chart_export.h"
#include "ui/main_window.h"
#include "ui/model/format.h"
#include "ui/model/prompt_builder.h"
#include "ui/model/run_history_model.h"
#include "ui/model/run_record.h"
#include "ui/widgets/answer_pane.h"
#include "ui/widgets/charts_board.h"
#include "ui/widgets/document_pane.h"
#include "ui/widgets/history_pane.h"
#include "ui/widgets/model_panel.h"
#include "ui/widgets/task_pane.h"

namespace kvlens::ui {

RunConfig MainWindow::currentConfig() const
{
    return controller_->configFor(task_->task(), task_->question(), document_->firstPage(), document_->lastPage());
}

void MainWindow::runFromUi()
{
    // Said before running: a prompt that does not fit would only fail in the
    // engine. Offered instead: the largest page range that fits, or map-reduce.
    if (!document_->fitsContext()) {
        const QString message =
            tr("They need %1 tokens plus %2 for the answer; the context holds %3. Choose fewer pages, "
               "run the largest range that fits, or summarize all of them by map-reduce.")
                .arg(document_->promptTokens())
                .arg(controller_->sampling().maxTokens)
                .arg(document_->contextLength());
        lastError_ = message;
        if (isVisible() && !qEnvironmentVariableIsSet("KVLENS_NO_DIALOGS")
            && QGuiApplication::platformName() != QLatin1String("offscreen")) {
            QMessageBox box(QMessageBox::Question, tr("The selected pages are too long"), message,
                            QMessageBox::Cancel, this);
            QPushButton* fit = box.addButton(tr("Run the pages that fit"), QMessageBox::AcceptRole);
            QPushButton* mr = box.addButton(tr("Map-reduce all pages"), QMessageBox::AcceptRole);
            box.exec();
            if (box.clickedButton() == fit)
                runLargestFittingRange();
            else if (box.clickedButton() == mr)
                runMapReduce();
            return;
        }
        showError(tr("The selected pages are too long"), message);
        return;
    }
    controller_->startRun(currentConfig());
}

void MainWindow::runLargestFittingRange()
{
    const int last = document_->suggestedLastPage();
    if (last < document_->firstPage())
        return;
    document_->setPageRange(document_->firstPage(), last);
    RunConfig c = currentConfig();
    c.lastPage = last;
    controller_->startRun(c);
}

void MainWindow::runMapReduce()
{
    if (controller_->startMapReduce(currentConfig()) > 0)
        updateActions();
}

int MainWindow::runExperiment(Experiment e)
{
    // KV off recomputes the whole sequence at every step: estimated from the
    // selected run's measured prefill rate, a long prompt takes minutes. Say
    // so first and offer the first tokens only.
    const RunRecord* base = controller_->selected();
    if (e == Experiment::KvOff && base && base->hasFigures() && base->figures().prefill_tok_s > 0 && isVisible()
        && !qEnvironmentVariableIsSet("KVLENS_NO_DIALOGS") && QGuiApplication::platformName() != QLatin1String("offscreen")) {
        const RunFigures& f = base->figures();
        const int steps = std::max(1, f.generated_tokens);
        const double perStepMs = f.prompt_tokens * 1000.0 / f.prefill_tok_s;
        const double estimateMs = steps * perStepMs;
        if (estimateMs > 60000) {
            const int firstTokens = std::max(64, int(f.prefill_tok_s * 60.0 / steps));
            QMessageBox box(QMessageBox::Question, tr("KV cache off"),
                            tr("Without the cache every one of the %1 steps recomputes about %2 tokens: about %3 in all, "
                               "estimated from run #%4's prefill speed (%5). Run it on the first %6 tokens instead?")
                                .arg(steps).arg(formatCount(f.prompt_tokens), formatMs(estimateMs))
                                .arg(base->id()).arg(formatTokS(f.prefill_tok_s), formatCount(firstTokens)),
                            QMessageBox::Cancel, this);
            QPushButton* shorter = box.addButton(tr("First %1 tokens").arg(formatCount(firstTokens)), QMessageBox::AcceptRole);
            QPushButton* all = box.addButton(tr("Run it all"), QMessageBox::DestructiveRole);
            box.exec();
            if (box.clickedButton() == all)
                return controller_->runExperiment(e, task_->question());
            if (box.clickedButton() != shorter)
                return 0;
            RunConfig c = experimentConfig(base->config(), base->id(), base->text(), e, task_->question(),
                                           QDateTime::currentDateTime());
            c.documentFraction = std::clamp(double(firstTokens) / f.prompt_tokens, 0.01, 1.0) * base->config().documentFraction;
            return controller_->startRun(c);
        }
    }
    return controller_->runExperiment(e, task_->question());
}

void MainWindow::cancelAll()
{
    controller_->cancelAll();
    statusBar()->showMessage(tr("Cancelling…"), 2000);
}

void MainWindow::selectRun(int id, int compareId)
{
    controller_->selectRun(id, compareId);
}

void MainWindow::refresh()
{
    board_->plotFrom(*controller_);
    answer_->showRun(controller_->selected());
}

void MainWindow::requestTokenCount()
{
    if (!document_->hasDocument() || !controller_->model().isValid())
        return;
    document_->setTokenCountPending();
    const RunConfig config = currentConfig();
    tokenTicket_ = controller_->requestTokenCount(config);
    // The same chat, as the template renders it: the task pane's preview, and
    // the system prompt (in the document's language) on the Model tab.
    const QVector<ChatTurn> chat = buildChat(controller_->document().text, config);
    if (!chat.isEmpty() && chat.first().role == QLatin1String("system"))
        modelPanel_->setSystemPrompt(chat.first().content);
    const TemplateInfo& t = modelPanel_->templateInfo();
    // A base model is sent the turns as one text to continue (engine worker: completionPrompt).
    if (controller_->model().baseModel) {
        task_->setPromptPreview(tr("No chat template (a base model): the turns as one text to continue")
                                + QStringLiteral("\n\n") + completionPrompt(chat));
        return;
    }
    QString preview = tr("Chat format: %1").arg(t.kind()) + QLatin1Char('\n');
    if (!t.defaultSystem().isEmpty())
        preview += tr("The template's own system prompt, used only when a chat has none (not sent here): “%1”")
                       .arg(t.defaultSystem()) + QLatin1Char('\n');
    preview += QLatin1Char('\n') + renderedPrompt(t, chat);
    task_->setPromptPreview(preview);
}

void MainWindow::exportChartDialog(ChartPanel* panel)
{
    const QString f = QFileDialog::getSaveFileName(this, tr("Export chart"),
                                                   QDir(AppSettings::lastFolder()).filePath(panel->key() + QStringLiteral(".png")),
                                                   exportFilter());
    if (f.isEmpty())
        return;
    AppSettings::setLastFolder(QFileInfo(f).absolutePath());
    const QString err = panel->exportTo(f);
    if (!err.isEmpty())
        showError(tr("Export failed"), err);
    else
        statusBar()->showMessage(tr("Saved %1").arg(f), 5000);
}

void MainWindow::exportAllDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export all charts to"), AppSettings::lastFolder());
    if (dir.isEmpty())
        return;
    AppSettings::setLastFolder(dir);
    const QStringList errors = board_->exportAll(dir);
    if (!errors.isEmpty())
        showError(tr("Export failed"), errors.join(QLatin1Char('\n')));
    else
        statusBar()->showMessage(tr("Saved the charts in %1").arg(dir), 5000);
}

void MainWindow::exportRunDialog(const QString& suffix)
{
    const RunRecord* r = controller_->selected();
    if (!r)
        return;
    const QString f = QFileDialog::getSaveFileName(
        this, tr("Export run"), QDir(AppSettings::lastFolder()).filePath(QStringLiteral("run-%1.%2").arg(r->id()).arg(suffix)),
        suffix == QLatin1String("csv") ? tr("CSV (*.csv)") : tr("JSON (*.json)"));
    if (f.isEmpty())
        return;
    AppSettings::setLastFolder(QFileInfo(f).absolutePath());
    const QString err = controller_->exportRunFile(r->id(), f);
    if (!err.isEmpty())
        showError(tr("Export failed"), err);
    else
        statusBar()->showMessage(tr("Saved %1").arg(f), 5000);
}

}  // namespace kvlens::ui
