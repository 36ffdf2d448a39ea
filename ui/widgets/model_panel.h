// SPDX-License-Identifier: Apache-2.0
// ModelPanel: the loaded model as the articles explain it: architecture,
// layers, heads and KV heads (GQA/MQA ratio), head dimension, context,
// tensor types, parameters, weight bytes, and KV bytes per token with the
// formula written out, plus what the engine runs on.
#pragma once

#include <QWidget>

#include "ui/model/chat_preview.h"
#include "ui/model/model_summary.h"

class QFormLayout;
class QLabel;
class QPushButton;

namespace kvlens::ui {

class ModelPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelPanel(QWidget* parent = nullptr);
    void setSummary(const ModelSummary& s);
    void setLoading(const QString& path);
    void setError(const QString& message);
    // The system prompt the window sends (for the open document's language);
    // shown as the chat template makes the model read it, next to the
    // template's own hidden default.
    void setSystemPrompt(const QString& system);
    const TemplateInfo& templateInfo() const { return template_; }
    const ModelSummary& summary() const { return summary_; }
    QString text() const;   // everything shown, as plain text (tests, copy)
    QPushButton* openModelButton() const { return openModel_; }

signals:
    void openModelRequested();

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    void retranslateFixed();

    ModelSummary summary_;
    TemplateInfo template_;     // read from the model file with the summary
    QString system_;
    QString status_;
    QLabel* heading_;
    QLabel* statusLabel_;
    QFormLayout* form_;
    QLabel* formula_;
    QLabel* systemText_ = nullptr;   // the system prompt sent and the template's default
    QLabel* demo_ = nullptr;
    QLabel* glossary_ = nullptr;
    QPushButton* openModel_ = nullptr;
};

}  // namespace kvlens::ui
