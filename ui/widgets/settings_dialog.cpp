// SPDX-License-Identifier: Apache-2.0
// SettingsDialog.
#include "ui/widgets/settings_dialog.h"

#include "engine/runtime/prompt_lookup.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "engine/backend/cpu/thread_pool.h"
#include "ui/widgets/remote_server_box.h"
#if KVLENS_HAVE_CUDA
#include "engine/backend/cuda/cuda_device.h"
#endif

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
    // Where the model runs. A CUDA choice whose device is missing still runs,
    // on the CPU, and the engine says why; the note says it here first.
    backend_ = new QComboBox;
    backend_->setObjectName(QStringLiteral("engineChoice"));
    backend_->addItem(tr("This computer (CPU)"), QStringLiteral("cpu"));
#if KVLENS_HAVE_CUDA
    backend_->addItem(tr("This computer (GPU, CUDA)"), QStringLiteral("cuda"));
#endif
    backend_->addItem(tr("Remote server…"), QStringLiteral("remote"));
    ef->addRow(tr("Engine:"), backend_);
    backendNote_ = new QLabel;
    backendNote_->setWordWrap(true);
    backendNote_->setVisible(false);
#if KVLENS_HAVE_CUDA
    std::string why;
    if (!kvlens::cuda_probe_device(why)) {
        backendNote_->setText(tr("No usable CUDA device: %1. A CUDA choice runs on the CPU.")
                                  .arg(QString::fromStdString(why)));
        backendNote_->setVisible(true);
    }
#endif
    ef->addRow(QString(), backendNote_);
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
    threads_ = spin(0, kvlens::thread_pool::max_threads());   // the engine refuses more
    threads_->setSpecialValueText(tr("one per core"));
    ef->addRow(tr("CPU threads:"), threads_);
    l->addWidget(engineBox);
    remote_ = new RemoteServerBox;
    l->addWidget(remote_);
    connect(backend_, &QComboBox::currentIndexChanged, this, &SettingsDialog::engineChosen);

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
    draft_ = spin(0, kvlens::k_max_draft_tokens, tr(" per step"));
    draft_->setSpecialValueText(tr("off"));
    draft_->setToolTip(tr("Speculative decoding: tokens guessed from the report's own words and checked in one pass "
                          "(a local engine; the greedy text stays the same)"));
    sf->addRow(tr("Draft tokens:"), draft_);
    l->addWidget(sampleBox);

    problem_ = new QLabel;
    problem_->setObjectName(QStringLiteral("settingsProblem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #c0392b"));
    problem_->setVisible(false);
    l->addWidget(problem_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    l->addWidget(buttons);
    setValues(EngineSettings{}, SamplingSettings{});
}

void SettingsDialog::setValues(const EngineSettings& e, const SamplingSettings& s)
{
    model_->setText(e.modelPath);
    // "auto" (the older setting): CUDA where the build has it, else the CPU.
    const int cuda = backend_->findData(QStringLiteral("cuda"));
    select(backend_, e.backend == QLatin1String("auto") && cuda < 0 ? QStringLiteral("cpu")
                     : e.backend == QLatin1String("auto")           ? QStringLiteral("cuda")
                                                                    : e.backend);
    remote_->setValues(e);
    engineChosen();
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
    draft_->setValue(s.draftTokens);
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
    remote_->apply(e);
    return e;
}

void SettingsDialog::engineChosen()
{
    const bool remote = backend_->currentData().toString() == QLatin1String("remote");
    remote_->setVisible(remote);
    // The server decides these for its own engine.
    for (QWidget* w : {static_cast<QWidget*>(kvMode_), static_cast<QWidget*>(kvDtype_),
                       static_cast<QWidget*>(kvBlock_), static_cast<QWidget*>(chunk_),
                       static_cast<QWidget*>(context_), static_cast<QWidget*>(threads_)})
        w->setEnabled(!remote);
    problem_->setVisible(false);
}

QString SettingsDialog::modelFileProblem(const QString& path)
{
    if (path.trimmed().isEmpty())
        return tr("Choose a model file (a .gguf file).");
    const QFileInfo info(path);
    if (!info.exists())
        return tr("The model file %1 does not exist.").arg(path);
    if (!info.isFile())
        return tr("%1 is not a regular file.").arg(path);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return tr("The model file %1 cannot be read: %2").arg(path, f.errorString());
    if (f.read(4) != QByteArrayLiteral("GGUF"))
        return tr("%1 is not a GGUF model (its first bytes are not \"GGUF\").").arg(path);
    return {};
}

QString SettingsDialog::problem() const
{
    // A remote engine needs no local file; a path given anyway must be a model.
    const bool remote = backend_->currentData().toString() == QLatin1String("remote");
    if (remote) {
        const QString why = remote_->problem();
        if (!why.isEmpty())
            return why;
        return model_->text().trimmed().isEmpty() ? QString() : modelFileProblem(model_->text().trimmed());
    }
    return modelFileProblem(model_->text().trimmed());
}

void SettingsDialog::accept()
{
    const QString why = problem();
    problem_->setText(why);
    problem_->setVisible(!why.isEmpty());
    if (why.isEmpty())
        QDialog::accept();
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
    s.draftTokens = draft_->value();
    return s;
}

}  // namespace kvlens::ui
