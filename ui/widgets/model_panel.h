// SPDX-License-Identifier: Apache-2.0
// ModelPanel: the loaded model as the articles explain it: architecture,
// layers, heads and KV heads (GQA/MQA ratio), head dimension, context,
// tensor types, parameters, weight bytes, and KV bytes per token with the
// formula written out, plus what the engine runs on.
#pragma once

#include <QWidget>

#include "ui/engine/model_summary.h"

class QFormLayout;
class QLabel;

namespace kvlens::ui {

class ModelPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelPanel(QWidget* parent = nullptr);
    void setSummary(const ModelSummary& s);
    void setLoading(const QString& path);
    void setError(const QString& message);
    const ModelSummary& summary() const { return summary_; }
    QString text() const;   // everything shown, as plain text (tests, copy)

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();

    ModelSummary summary_;
    QString status_;
    QLabel* heading_;
    QLabel* statusLabel_;
    QFormLayout* form_;
    QLabel* formula_;
};

}  // namespace kvlens::ui
