// SPDX-License-Identifier: Apache-2.0
// TaskPane.
#include "ui/widgets/task_pane.h"

#include <QButtonGroup>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QFontDatabase>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/widgets/ui_style.h"

namespace kvlens::ui {

TaskPane::TaskPane(QWidget* parent) : QWidget(parent)
{
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(style::kMargin, style::kMargin, style::kMargin, style::kSpacing);
    l->setSpacing(style::kSpacing);
    heading_ = new QLabel;
    style::makeHeading(heading_);
    l->addWidget(heading_);

    auto* row = new QHBoxLayout;
    row->setSpacing(0);
    tasks_ = new QButtonGroup(this);
    int id = 0;
    for (TaskKind t : {TaskKind::OneLine, TaskKind::KeyPoints, TaskKind::Detailed, TaskKind::Question}) {
        auto* b = new QPushButton;
        b->setCheckable(true);
        b->setFocusPolicy(Qt::TabFocus);
        tasks_->addButton(b, id++);
        row->addWidget(b);
        Q_UNUSED(t);
    }
    tasks_->button(0)->setChecked(true);
    l->addLayout(row);
    question_ = new QLineEdit;
    question_->setClearButtonEnabled(true);
    l->addWidget(question_);
    connect(tasks_, &QButtonGroup::idClicked, this, [this](int id) {
        if (id == int(TaskKind::Question))
            question_->setFocus();
        emit taskChanged();
    });
    connect(question_, &QLineEdit::textEdited, this, [this](const QString& t) {
        if (!t.isEmpty() && task() != TaskKind::Question) {
            tasks_->button(int(TaskKind::Question))->setChecked(true);
            emit taskChanged();
        }
    });
    connect(question_, &QLineEdit::returnPressed, this, [this] {
        if (run_->isEnabled())
            emit runRequested();
    });

    auto* actions = new QHBoxLayout;
    run_ = new QPushButton;
    run_->setDefault(true);
    run_->setMinimumHeight(32);
    QFont bf = run_->font();
    bf.setWeight(QFont::DemiBold);
    run_->setFont(bf);
    cancel_ = new QPushButton;
    cancel_->setMinimumHeight(32);
    hint_ = new QLabel;
    style::makeSecondary(hint_);
    actions->addWidget(run_, 2);
    actions->addWidget(cancel_, 1);
    l->addLayout(actions);
    l->addWidget(hint_);
    connect(run_, &QPushButton::clicked, this, &TaskPane::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &TaskPane::cancelRequested);

    promptButton_ = new QPushButton;
    promptButton_->setCheckable(true);
    promptButton_->setFlat(true);
    preview_ = new QPlainTextEdit;
    preview_->setReadOnly(true);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    preview_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    preview_->setMinimumHeight(120);
    preview_->setVisible(false);
    l->addWidget(promptButton_, 0, Qt::AlignLeft);
    l->addWidget(preview_, 1);
    connect(promptButton_, &QPushButton::toggled, preview_, &QWidget::setVisible);

    experimentBox_ = new QGroupBox;
    auto* grid = new QGridLayout(experimentBox_);
    grid->setSpacing(style::kSpacing / 2);
    experimentHint_ = new QLabel;
    experimentHint_->setWordWrap(true);
    style::makeSecondary(experimentHint_);
    grid->addWidget(experimentHint_, 0, 0, 1, 2);
    const QVector<Experiment> all = allExperiments();
    for (int i = 0; i < all.size(); ++i) {
        const Experiment e = all[i];
        auto* b = new QPushButton;
        experiments_.insert(e, b);
        // Two to a row; an odd last one takes the whole row.
        const bool lastAlone = i + 1 == all.size() && i % 2 == 0;
        grid->addWidget(b, 1 + i / 2, i % 2, 1, lastAlone ? 2 : 1);
        connect(b, &QPushButton::clicked, this, [this, e] { emit experimentRequested(e); });
    }
    l->addWidget(experimentBox_);
    setRunning(false);
    setExperimentsEnabled(false);
    retranslate();
}

void TaskPane::retranslate()
{
    heading_->setText(tr("Task"));
    tasks_->button(int(TaskKind::OneLine))->setText(tr("One line"));
    tasks_->button(int(TaskKind::KeyPoints))->setText(tr("Key points"));
    tasks_->button(int(TaskKind::Detailed))->setText(tr("Detailed"));
    tasks_->button(int(TaskKind::Question))->setText(tr("Question"));
    question_->setPlaceholderText(tr("Ask a question about the report…"));
    run_->setText(tr("Run"));
    run_->setToolTip(tr("Run the task (Ctrl+Enter)"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Cancel the running requests (Esc)"));
    promptButton_->setText(tr("Prompt as the model reads it"));
    promptButton_->setToolTip(tr("The chat template's rendering of this task: the system prompt (and the template's "
                                 "own default, if it has one), the document and the instruction"));
    experimentBox_->setTitle(tr("Experiments"));
    experimentHint_->setText(tr("Re-run the selected run with one thing changed; the result is overlaid on it."));
    const QMap<Experiment, QPair<QString, QString>> texts = {
        {Experiment::KvOff, {tr("KV cache off"), tr("Every step recomputes the whole prefix: watch the latency climb.")}},
        {Experiment::HalfDocument,
         {tr("Half the document"), tr("Half the prompt, run cold (no prefix reuse): prefill and TTFT shrink.")}},
        {Experiment::LongerAnswer,
         {tr("Detailed answer"), tr("Asks for a detailed summary instead: TTFT stays flat, decode time grows.")}},
        {Experiment::ShorterAnswer,
         {tr("One-line answer"), tr("Asks for one sentence instead: decode time falls, TTFT does not get shorter.")}},
        {Experiment::KvQ8,
         {tr("KV as q8_0"), tr("The KV cache stored in 8 bits: about half the bytes per token, same answer length.")}},
        {Experiment::FollowUp,
         {tr("Follow-up question"), tr("Same document, a new question: the prefix cache skips the prefill.")}},
        {Experiment::BrokenCache,
         {tr("Break the cache"), tr("A timestamp in front of the system prompt: no prefix matches any more.")}},
        {Experiment::Concurrent,
         {tr("3 requests at once"), tr("Three copies together: each one's queue time and their total KV memory add up.")}},
        {Experiment::Speculative,
         {tr("Speculative decoding"),
          tr("Guesses a few tokens per step from the report's own words and checks them in one pass: the same "
             "text, faster only when the guesses are accepted.")}},
    };
    for (auto it = texts.begin(); it != texts.end(); ++it) {
        experiments_[it.key()]->setText(it.value().first);
        experiments_[it.key()]->setToolTip(it.value().second);
    }
    setCanRun(canRun_, hint_->toolTip());
}

void TaskPane::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(e);
}

void TaskPane::setPromptPreview(const QString& text)
{
    if (preview_->toPlainText() != text)
        preview_->setPlainText(text);
}

QString TaskPane::promptPreview() const { return preview_->toPlainText(); }

TaskKind TaskPane::task() const { return TaskKind(std::max(0, tasks_->checkedId())); }
void TaskPane::setTask(TaskKind t) { tasks_->button(int(t))->setChecked(true); }
QString TaskPane::question() const { return question_->text(); }
void TaskPane::setQuestion(const QString& q) { question_->setText(q); }

void TaskPane::setRunning(bool running)
{
    running_ = running;
    cancel_->setEnabled(running);
    run_->setEnabled(canRun_);
}

void TaskPane::setCanRun(bool can, const QString& why)
{
    canRun_ = can;
    run_->setEnabled(can);
    hint_->setToolTip(why);
    hint_->setText(why);
    hint_->setVisible(!why.isEmpty());
}

void TaskPane::setExperimentsEnabled(bool enabled, bool kvQ8Possible)
{
    for (QPushButton* b : experiments_)
        b->setEnabled(enabled);
    QPushButton* q8 = experiments_.value(Experiment::KvQ8);
    if (!q8)
        return;
    q8->setEnabled(enabled && kvQ8Possible);
    q8->setToolTip(kvQ8Possible ? tr("The KV cache stored in 8 bits: about half the bytes per token, same answer length.")
                                : tr("This model's heads are not a multiple of 32 dimensions, so q8_0's blocks of 32 "
                                     "would straddle two heads: its KV cache stays f16."));
}

}  // namespace kvlens::ui
