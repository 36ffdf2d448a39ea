// SPDX-License-Identifier: Apache-2.0
// The lesson pane: step list, run buttons, the selected step's slide.
#include "ui/lesson/lesson_pane.h"

#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include "ui/i18n.h"
#include "ui/charts/roofline_chart.h"
#include "ui/lesson/lesson_export.h"
#include "ui/model/run_record.h"
#include "ui/lesson/lesson_headless.h"
#include "ui/run_controller.h"

namespace kvlens::ui {

LessonSlideView::LessonSlideView(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(480, 270);
}

void LessonSlideView::show(const LessonStep& step, const LessonResult& result, const QString& footer)
{
    step_ = step;
    result_ = result;
    footer_ = footer;
    update();
}

void LessonSlideView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    SlideText text;
    text.footer = footer_;
    text.dark = palette().color(QPalette::Window).lightness() < 128;
    paintLessonSlide(p, QRectF(rect()), step_, result_, text);
}

LessonPane::LessonPane(RunController* controller, QWidget* parent)
    : QWidget(parent), c_(controller), runner_(new LessonRunner(controller, this))
{
    reportLabel_ = new QLabel(this);
    reportLabel_->setWordWrap(true);
    steps_ = new QListWidget(this);
    runButton_ = new QPushButton(this);
    runAllButton_ = new QPushButton(this);
    cancelButton_ = new QPushButton(this);
    exportButton_ = new QPushButton(this);
    slide_ = new LessonSlideView(this);
    roofline_ = new RooflineChart(this);
    views_ = new QTabWidget(this);
    views_->addTab(slide_, QString());
    views_->addTab(roofline_, QString());

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(runButton_);
    buttons->addWidget(runAllButton_);
    buttons->addWidget(cancelButton_);
    buttons->addWidget(exportButton_);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(reportLabel_);
    leftLayout->addWidget(steps_, 1);
    leftLayout->addLayout(buttons);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(views_);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    for (LessonStepId id : lessonStepIds()) {
        auto* item = new QListWidgetItem(steps_);
        item->setData(Qt::UserRole, int(id));
    }
    connect(steps_, &QListWidget::currentRowChanged, this, &LessonPane::refresh);
    connect(steps_, &QListWidget::itemDoubleClicked, this, [this] { runSelected(); });
    connect(runButton_, &QPushButton::clicked, this, [this] { runSelected(); });
    connect(runAllButton_, &QPushButton::clicked, this, [this] {
        useOpenDocumentOrSample();
        runner_->runSteps();
        refresh();
    });
    connect(cancelButton_, &QPushButton::clicked, runner_, &LessonRunner::cancel);
    connect(exportButton_, &QPushButton::clicked, this, &LessonPane::exportDialog);
    connect(runner_, &LessonRunner::stepStarted, this, [this](LessonStepId id) {
        selectStep(id);
        refresh();
    });
    connect(runner_, &LessonRunner::stepFinished, this, &LessonPane::refresh);
    connect(c_, &RunController::modelChanged, this, &LessonPane::refresh);
    connect(c_, &RunController::runFinished, this, &LessonPane::refreshRoofline);
    connect(c_, &RunController::selectionChanged, this, &LessonPane::refreshRoofline);
    connect(views_, &QTabWidget::currentChanged, this, [this](int index) {
        if (views_->widget(index) == roofline_)
            roofline_->ensureCeilings();   // measured once, then read from the cache folder
    });
    steps_->setCurrentRow(0);
    retranslate();
}

void LessonPane::useOpenDocumentOrSample()
{
    if (runner_->isRunning())
        return;
    if (c_->hasDocument() && !c_->document().path.startsWith(QLatin1String("lesson:"))) {
        runner_->setReport(c_->document().text.title, c_->document().text.pages.join(QStringLiteral("\n\n")));
        return;
    }
    QFile f(lessonBuiltInReportPath());
    if (f.open(QIODevice::ReadOnly)) {
        const QString text = QString::fromUtf8(f.readAll());
        runner_->setReport(text.section(QLatin1Char('\n'), 0, 0).trimmed(), text);
    }
}

void LessonPane::selectStep(LessonStepId id)
{
    const int row = int(lessonStepIds().indexOf(id));
    if (row >= 0)
        steps_->setCurrentRow(row);
}

LessonStepId LessonPane::selectedStep() const
{
    const QListWidgetItem* item = steps_->currentItem();
    return item ? LessonStepId(item->data(Qt::UserRole).toInt()) : LessonStepId::ShortVsLong;
}

bool LessonPane::runSelected()
{
    useOpenDocumentOrSample();
    const bool ok = runner_->runStep(selectedStep());
    refresh();
    return ok;
}

QString LessonPane::footer() const
{
    return tr("kvlens · %1 · %2 · %3").arg(c_->model().name, i18n::backendText(c_->model().backend), runner_->report().title);
}

void LessonPane::refresh()
{
    const bool running = runner_->isRunning();
    for (int row = 0; row < steps_->count(); ++row) {
        QListWidgetItem* item = steps_->item(row);
        const LessonStepId id = LessonStepId(item->data(Qt::UserRole).toInt());
        const LessonStep step = lessonStep(id, runner_->sizes());
        QString state;
        switch (runner_->result(id).state) {
        case LessonState::NotRun: break;
        case LessonState::Running: state = tr("running"); break;
        case LessonState::Done: state = tr("done"); break;
        case LessonState::Skipped: state = tr("skipped"); break;
        case LessonState::Failed: state = tr("failed"); break;
        }
        item->setText(state.isEmpty() ? tr("%1. %2").arg(step.number).arg(step.title)
                                      : tr("%1. %2 (%3)").arg(step.number).arg(step.title, state));
        item->setToolTip(step.caption);
    }
    runButton_->setEnabled(!running && c_->model().isValid());
    runAllButton_->setEnabled(!running && c_->model().isValid());
    cancelButton_->setEnabled(running);
    const LessonStepId id = selectedStep();
    slide_->show(lessonStep(id, runner_->sizes()), runner_->result(id), footer());
    reportLabel_->setText(runner_->report().title.isEmpty()
                              ? tr("Report: the open document, else the built-in sample report.")
                              : tr("Report: %1 (%2 slices)").arg(runner_->report().title).arg(runner_->report().pageCount()));
}

void LessonPane::refreshRoofline()
{
    // The selected run and the one compared with it, as the charts show them.
    QVector<RooflinePoint> points;
    QString note;
    for (const RunRecord* r : {c_->selected(), c_->compared()}) {
        if (!r)
            continue;
        points += rooflinePoints(*r);
        const QString line = decodeExpectation(*r, roofline_->ceilings());
        if (!line.isEmpty())
            note += (note.isEmpty() ? QString() : QStringLiteral("\n")) + line;
    }
    roofline_->setPoints(points, note);
}

void LessonPane::exportDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export the lesson's slides"));
    if (dir.isEmpty())
        return;
    SlideText text;
    text.footer = footer();
    const QString err = exportLesson(dir, *runner_, lessonStepIds(), text);
    if (!err.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), err);
}

void LessonPane::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(e);
}

void LessonPane::retranslate()
{
    runButton_->setText(tr("Run step"));
    runAllButton_->setText(tr("Run all"));
    cancelButton_->setText(tr("Cancel"));
    exportButton_->setText(tr("Export slides…"));
    views_->setTabText(0, tr("Slide"));
    views_->setTabText(1, tr("Roofline"));
    refresh();
}

}  // namespace kvlens::ui
