// SPDX-License-Identifier: Apache-2.0
// SettingsDialog.
#include "ui/widgets/settings_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace kvlens::ui {

namespace {

QComboBox* combo(const QStringList& keys, const QStringList& names)
{
    auto* c = new QComboBox;
    for (int i = 0; i < keys.size(); ++i)
        c->addItem(names[i], keys[i]);
    return c;
}

void select(QComboBox* c, const QString& key) { c->setCurrentIndex(std::max(0, c->findData(key))); }

QSpinBox* spin(int lo, int hi, const QString& suffix = QString())
{
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setSuffix(suffix);
    return s;
}

QDoubleSpinBox* dspin(double lo, double hi, double step, int decimals)
{
    auto* s = new QDoubleSpinBox;
    s->setRange(lo, hi);
    s->setSingleStep(step);
    s->setDecimals(decimals);
    return s;
}

}  // namespace

SettingsDialog::SettingsDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Settings"));
    auto* l = new QVBoxLayout(this);

    auto* engineBox = new QGroupBox(tr("Engine"));
    auto* ef = new QFormLayout(engineBox);
    model_ = new QLineEdit;
    auto* browse = new QPushButton(tr("Browse…"));
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(model_, 1);
    modelRow->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Model file"), model_->text(),
                                                       tr("GGUF models (*.gguf);;All files (*)"));
        if (!f.isEmpty())
            model_->setText(f);
    });
    ef->addRow(tr("Model file:"), modelRow);
    backend_ = combo({QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("cuda")},
                     {tr("Automatic (CUDA if present)"), tr("CPU"), tr("CUDA")});
    ef->addRow(tr("Backend:"), backend_);
    kvMode_ = combo({QStringLiteral("paged"), QStringLiteral("static"), QStringLiteral("off")},
                    {tr("Paged blocks"), tr("Static reservation"), tr("Off (recompute every step)")});
    ef->addRow(tr("KV cache:"), kvMode_);
    kvDtype_ = combo({QStringLiteral("f16"), QStringLiteral("q8_0")}, {tr("f16"), tr("q8_0 (about half)")});
    ef->addRow(tr("KV type:"), kvDtype_);
    kvBlock_ = spin(1, 1024, tr(" tokens"));
    ef->addRow(tr("KV block size:"), kvBlock_);
    chunk_ = spin(1, 8192, tr(" tokens"));
    ef->addRow(tr("Prefill chunk:"), chunk_);
    context_ = spin(0, 1 << 20, tr(" tokens"));
    context_->setSpecialValueText(tr("the model's"));
    ef->addRow(tr("Context:"), context_);
    parallel_ = spin(1, 64);
    ef->addRow(tr("Parallel requests:"), parallel_);
    threads_ = spin(0, 256);
    threads_->setSpecialValueText(tr("one per core"));
    ef->addRow(tr("CPU threads:"), threads_);
    l->addWidget(engineBox);

    auto* sampleBox = new QGroupBox(tr("Generation"));
    auto* sf = new QFormLayout(sampleBox);
    maxTokens_ = spin(1, 32768, tr(" tokens"));
    sf->addRow(tr("Max new tokens:"), maxTokens_);
    temperature_ = dspin(0, 2, 0.05, 2);
    temperature_->setSpecialValueText(tr("0 (greedy)"));
    sf->addRow(tr("Temperature:"), temperature_);
    topK_ = spin(0, 1000);
    topK_->setSpecialValueText(tr("off"));
    sf->addRow(tr("Top-k:"), topK_);
    topP_ = dspin(0, 1, 0.01, 2);
    sf->addRow(tr("Top-p:"), topP_);
    minP_ = dspin(0, 1, 0.01, 2);
    sf->addRow(tr("Min-p:"), minP_);
    repeat_ = dspin(1, 2, 0.01, 2);
    sf->addRow(tr("Repeat penalty:"), repeat_);
    seed_ = spin(0, 2147483647);
    sf->addRow(tr("Seed:"), seed_);
    l->addWidget(sampleBox);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    l->addWidget(buttons);
    setValues(EngineSettings{}, SamplingSettings{});
}

void SettingsDialog::setValues(const EngineSettings& e, const SamplingSettings& s)
{
    model_->setText(e.modelPath);
    select(backend_, e.backend);
    select(kvMode_, e.kvMode);
    select(kvDtype_, e.kvDtype);
    kvBlock_->setValue(e.kvBlock);
    chunk_->setValue(e.chunk);
    context_->setValue(e.contextTokens);
    parallel_->setValue(e.parallel);
    threads_->setValue(e.threads);
    maxTokens_->setValue(s.maxTokens);
    temperature_->setValue(s.temperature);
    topK_->setValue(s.topK);
    topP_->setValue(s.topP);
    minP_->setValue(s.minP);
    repeat_->setValue(s.repeatPenalty);
    seed_->setValue(int(s.seed));
}

EngineSettings SettingsDialog::engineSettings() const
{
    EngineSettings e;
    e.modelPath = model_->text().trimmed();
    e.backend = backend_->currentData().toString();
    e.kvMode = kvMode_->currentData().toString();
    e.kvDtype = kvDtype_->currentData().toString();
    e.kvBlock = kvBlock_->value();
    e.chunk = chunk_->value();
    e.contextTokens = context_->value();
    e.parallel = parallel_->value();
    e.threads = threads_->value();
    return e;
}

SamplingSettings SettingsDialog::samplingSettings() const
{
    SamplingSettings s;
    s.maxTokens = maxTokens_->value();
    s.temperature = temperature_->value();
    s.topK = topK_->value();
    s.topP = topP_->value();
    s.minP = minP_->value();
    s.repeatPenalty = repeat_->value();
    s.seed = quint64(seed_->value());
    return s;
}

}  // namespace kvlens::ui
