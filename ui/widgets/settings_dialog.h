// SPDX-License-Identifier: Apache-2.0
// SettingsDialog: model file (any GGUF), the engine (this computer's CPU, its
// CUDA GPU when the build has CUDA, or a remote server: RemoteServerBox), KV
// mode, dtype and block size, prefill chunk, context, parallel requests,
// threads, max new tokens and sampling. OK checks the model file (exists, a
// regular file, GGUF magic) and the server's URL before it accepts.
#pragma once

#include <QDialog>

#include "ui/model/run_config.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace kvlens::ui {

class RemoteServerBox;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget* parent = nullptr);
    void setValues(const EngineSettings& e, const SamplingSettings& s);
    EngineSettings engineSettings() const;
    SamplingSettings samplingSettings() const;
    // "" or why `path` is not a model file kvlens can open (a sentence).
    static QString modelFileProblem(const QString& path);
    // What stops OK now ("" when nothing does).
    QString problem() const;
    RemoteServerBox* remoteBox() const { return remote_; }

    void accept() override;

private:
    void engineChosen();

    QLineEdit* model_;
    QComboBox* backend_;
    QLabel* backendNote_;
    RemoteServerBox* remote_;
    QLabel* problem_;
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
    QSpinBox* draft_;   // speculative decoding's draft tokens per step
};

}  // namespace kvlens::ui
