// SPDX-License-Identifier: Apache-2.0
// RemoteServerBox: the "Remote server…" part of the Settings dialog (issue
// 17): the server's URL, the model (a list filled from its /v1/models), the
// API key file (else $KVLENS_API_KEY; the key itself is never shown or
// stored), the stall timeout, and "Test connection", which runs on its own
// thread so the dialog never waits, then reports the server, the model and
// its context, or the named error.
#pragma once

#include <QGroupBox>

#include "ui/model/run_config.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace kvlens::ui {

struct ConnectionReport;

class RemoteServerBox : public QGroupBox {
    Q_OBJECT
public:
    explicit RemoteServerBox(QWidget* parent = nullptr);
    void setValues(const EngineSettings& e);
    void apply(EngineSettings& e) const;       // URL, model, key file, stall timeout
    // "" or why the values cannot be used (no URL, not http(s)).
    QString problem() const;
    QString statusText() const;
    bool testing() const { return testing_; }

public slots:
    void testConnection();

signals:
    void connectionTested(bool ok, const QString& message);

private:
    void showReport(const ConnectionReport& r);

    QLineEdit* url_;
    QComboBox* model_;
    QLineEdit* keyFile_;
    QLabel* keyHint_;
    QDoubleSpinBox* stall_;
    QPushButton* test_;
    QLabel* status_;
    bool testing_ = false;
};

}  // namespace kvlens::ui
