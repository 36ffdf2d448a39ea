// SPDX-License-Identifier: Apache-2.0
// TaskPane: what to ask. The preset tasks (one-sentence summary, key points,
// detailed summary), a free question, Run and Cancel, and the one-click
// teaching experiments that vary the selected run, and a preview of the
// prompt as the chat template renders it (system prompt included).
#pragma once

#include <QMap>
#include <QWidget>

#include "ui/model/run_config.h"

class QButtonGroup;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace kvlens::ui {

class TaskPane : public QWidget {
    Q_OBJECT
public:
    explicit TaskPane(QWidget* parent = nullptr);

    TaskKind task() const;
    void setTask(TaskKind t);
    QString question() const;
    void setQuestion(const QString& q);
    void setRunning(bool running);
    void setCanRun(bool can, const QString& why = QString());
    // kvQ8Possible false: the model's heads rule the q8_0 cache out (its button stays off, saying why).
    void setExperimentsEnabled(bool enabled, bool kvQ8Possible = true);
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* experimentButton(Experiment e) const { return experiments_.value(e); }
    // The prompt the task would send, as the model reads it (shown on demand).
    void setPromptPreview(const QString& text);
    QString promptPreview() const;
    QPushButton* promptButton() const { return promptButton_; }

signals:
    void runRequested();
    void cancelRequested();
    void experimentRequested(kvlens::ui::Experiment e);
    void taskChanged();

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();

    QLabel* heading_;
    QButtonGroup* tasks_;
    QLineEdit* question_;
    QPushButton* run_;
    QPushButton* cancel_;
    QLabel* hint_;
    QPushButton* promptButton_;
    QPlainTextEdit* preview_;
    QGroupBox* experimentBox_;
    QLabel* experimentHint_;
    QMap<Experiment, QPushButton*> experiments_;
    bool running_ = false;
    bool canRun_ = false;
};

}  // namespace kvlens::ui
