// SPDX-License-Identifier: Apache-2.0
// SettingsDialog: model file (any GGUF), backend, KV mode, dtype and block
// size, prefill chunk, context, parallel requests, threads, max new tokens
// and sampling. Reads and writes AppSettings (QSettings).
#pragma once

#include <QDialog>

#include "ui/model/run_config.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace kvlens::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget* parent = nullptr);
    void setValues(const EngineSettings& e, const SamplingSettings& s);
    EngineSettings engineSettings() const;
    SamplingSettings samplingSettings() const;

private:
    QLineEdit* model_;
    QComboBox* backend_;
    QComboBox* kvMode_;
    QComboBox* kvDtype_;
    QSpinBox* kvBlock_;
    QSpinBox* chunk_;
    QSpinBox* context_;
    QSpinBox* parallel_;
    QSpinBox* threads_;
    QSpinBox* maxTokens_;
    QDoubleSpinBox* temperature_;
    QSpinBox* topK_;
    QDoubleSpinBox* topP_;
    QDoubleSpinBox* minP_;
    QDoubleSpinBox* repeat_;
    QSpinBox* seed_;
};

}  // namespace kvlens::ui
