// SPDX-License-Identifier: Apache-2.0
// RemoteServerBox.
#include "ui/widgets/remote_server_box.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QThread>
#include <algorithm>
#include <memory>

#include "ui/engine/remote_connection.h"

namespace kvlens::ui {

RemoteServerBox::RemoteServerBox(QWidget* parent) : QGroupBox(tr("Remote server"), parent)
{
    auto* f = new QFormLayout(this);
    url_ = new QLineEdit;
    url_->setPlaceholderText(QStringLiteral("http://127.0.0.1:8080"));
    url_->setObjectName(QStringLiteral("remoteUrl"));
    f->addRow(tr("URL:"), url_);
    model_ = new QComboBox;
    model_->setEditable(true);
    model_->setObjectName(QStringLiteral("remoteModel"));
    model_->setToolTip(tr("Empty: the server's first model. Test connection fills the list."));
    f->addRow(tr("Model:"), model_);
    keyFile_ = new QLineEdit;
    keyFile_->setObjectName(QStringLiteral("apiKeyFile"));
    keyFile_->setPlaceholderText(tr("a file whose first line is the key"));
    auto* browse = new QPushButton(tr("Browse…"));
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(keyFile_, 1);
    keyRow->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("API key file"), keyFile_->text());
        if (!file.isEmpty())
            keyFile_->setText(file);
    });
    f->addRow(tr("API key file:"), keyRow);
    keyHint_ = new QLabel;
    keyHint_->setWordWrap(true);
    f->addRow(QString(), keyHint_);
    auto updateHint = [this] {
        const bool env = !qEnvironmentVariableIsEmpty("KVLENS_API_KEY");
        keyHint_->setText(!keyFile_->text().trimmed().isEmpty()
                              ? tr("The key is read from this file when the engine connects; it is never stored.")
                              : env ? tr("No file: the key comes from KVLENS_API_KEY (set).")
                                    : tr("No file and KVLENS_API_KEY is not set: no key is sent."));
    };
    connect(keyFile_, &QLineEdit::textChanged, this, updateHint);
    updateHint();
    stall_ = new QDoubleSpinBox;
    stall_->setRange(0.5, 3600);
    stall_->setDecimals(1);
    stall_->setSuffix(tr(" s"));
    stall_->setToolTip(tr("A server that sends nothing for this long ends the run with an error"));
    f->addRow(tr("Stall timeout:"), stall_);
    test_ = new QPushButton(tr("Test connection"));
    test_->setObjectName(QStringLiteral("testConnection"));
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("connectionStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    f->addRow(test_);
    f->addRow(status_);   // the whole width: a report or an error is a few lines
    connect(test_, &QPushButton::clicked, this, &RemoteServerBox::testConnection);
}

void RemoteServerBox::setValues(const EngineSettings& e)
{
    url_->setText(e.remoteUrl);
    model_->setCurrentText(e.remoteModel);
    keyFile_->setText(e.apiKeyFile);
    stall_->setValue(e.stallTimeoutS);
}

void RemoteServerBox::apply(EngineSettings& e) const
{
    e.remoteUrl = url_->text().trimmed();
    e.remoteModel = model_->currentText().trimmed();
    e.apiKeyFile = keyFile_->text().trimmed();
    e.stallTimeoutS = stall_->value();
}

QString RemoteServerBox::problem() const
{
    const QString url = url_->text().trimmed();
    if (url.isEmpty())
        return tr("Enter the server's URL, e.g. http://127.0.0.1:8080");
    if (!url.startsWith(QLatin1String("http://")) && !url.startsWith(QLatin1String("https://")))
        return tr("The server's URL must start with http:// or https://");
    return {};
}

QString RemoteServerBox::statusText() const { return status_->text(); }

void RemoteServerBox::testConnection()
{
    if (testing_)
        return;
    const QString why = problem();
    if (!why.isEmpty()) {
        status_->setText(why);
        emit connectionTested(false, why);
        return;
    }
    EngineSettings settings;
    apply(settings);
    settings.backend = QStringLiteral("remote");
    testing_ = true;
    test_->setEnabled(false);
    status_->setText(tr("Connecting to %1…").arg(settings.remoteUrl));
    // The test blocks for up to the connect timeout: on its own thread, which
    // outlives the dialog if need be (the connection to `this` then drops).
    auto report = std::make_shared<ConnectionReport>();
    QThread* thread = QThread::create([settings, report] { *report = kvlens::ui::testConnection(settings); });
    connect(thread, &QThread::finished, this, [this, report] { showReport(*report); });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

void RemoteServerBox::showReport(const ConnectionReport& r)
{
    testing_ = false;
    test_->setEnabled(true);
    if (!r.models.isEmpty()) {
        const QString keep = model_->currentText();
        model_->clear();
        model_->addItems(r.models);
        model_->setCurrentText(keep);
    }
    QString text;
    if (r.ok) {
        const QString context = r.contextTokens > 0 ? tr("context %1 tokens").arg(QLocale().toString(r.contextTokens))
                                                    : tr("the server does not say its context");
        text = tr("Connected: model %1, %2. %3").arg(r.model, context, r.server);
    } else {
        text = tr("Failed: %1").arg(r.error);
    }
    status_->setText(text);
    // Room for the report's lines (a word-wrapped label does not ask for it).
    status_->setMinimumHeight(status_->heightForWidth(std::max(200, status_->width())));
    if (QWidget* dialog = window(); dialog && dialog != this)
        dialog->adjustSize();
    emit connectionTested(r.ok, text);
}

}  // namespace kvlens::ui
