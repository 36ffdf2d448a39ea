// SPDX-License-Identifier: Apache-2.0
// ModelPanel.
#include "ui/widgets/model_panel.h"

#include <cmath>

#include <QHBoxLayout>
#include <QPushButton>

#include "ui/app_settings.h"
#include "ui/i18n.h"

#include <QEvent>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include "ui/charts/chart_style.h"
#include "ui/widgets/ui_style.h"

namespace kvlens::ui {

ModelPanel::ModelPanel(QWidget* parent) : QWidget(parent)
{
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(style::kMargin, style::kMargin, style::kMargin, style::kMargin);
    l->setSpacing(style::kSpacing);
    heading_ = new QLabel;
    style::makeHeading(heading_, 1.25);
    heading_->setWordWrap(true);
    statusLabel_ = new QLabel;
    statusLabel_->setWordWrap(true);
    style::makeSecondary(statusLabel_);
    form_ = new QFormLayout;
    form_->setLabelAlignment(Qt::AlignRight);
    form_->setHorizontalSpacing(style::kSpacing * 2);
    formula_ = new QLabel;
    formula_->setWordWrap(true);
    formula_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    formula_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    formula_->setFrameShape(QFrame::StyledPanel);
    formula_->setMargin(style::kSpacing);
    demo_ = new QLabel;
    demo_->setWordWrap(true);
    openModel_ = new QPushButton;
    connect(openModel_, &QPushButton::clicked, this, &ModelPanel::openModelRequested);
    glossary_ = new QLabel;
    glossary_->setWordWrap(true);
    glossary_->setTextFormat(Qt::RichText);
    style::makeSecondary(glossary_);
    auto* top = new QHBoxLayout;
    top->addWidget(heading_, 1);
    top->addWidget(openModel_, 0, Qt::AlignTop);
    l->addLayout(top);
    l->addWidget(demo_);
    l->addWidget(statusLabel_);
    l->addLayout(form_);
    systemText_ = new QLabel;
    systemText_->setWordWrap(true);
    systemText_->setTextFormat(Qt::PlainText);
    systemText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    systemText_->setVisible(false);
    l->addWidget(systemText_);
    l->addWidget(formula_);
    l->addWidget(glossary_);
    l->addStretch();
    rebuild();
}

void ModelPanel::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange && openModel_)
        retranslateFixed();
    if (e->type() == QEvent::LanguageChange)
        rebuild();
    QWidget::changeEvent(e);
}

void ModelPanel::setSummary(const ModelSummary& s)
{
    summary_ = s;
    template_ = s.isValid() ? readTemplateInfo(s.path) : TemplateInfo{};
    status_.clear();
    rebuild();
}

void ModelPanel::setSystemPrompt(const QString& system)
{
    if (system == system_)
        return;
    system_ = system;
    rebuild();
}

void ModelPanel::setLoading(const QString& path)
{
    status_ = tr("Loading %1…").arg(QFileInfo(path).fileName());
    rebuild();
}

void ModelPanel::setError(const QString& message)
{
    status_ = tr("Could not load the model: %1").arg(message);
    rebuild();
}

QString ModelPanel::text() const
{
    QStringList lines{heading_->text(), statusLabel_->text()};
    for (int i = 0; i < form_->rowCount(); ++i) {
        auto* label = qobject_cast<QLabel*>(form_->itemAt(i, QFormLayout::LabelRole)->widget());
        auto* value = qobject_cast<QLabel*>(form_->itemAt(i, QFormLayout::FieldRole)->widget());
        if (label && value)
            lines << label->text() + QLatin1Char(' ') + value->text();
    }
    if (systemText_->isVisibleTo(this))
        lines << systemText_->text();
    lines << formula_->text();
    return lines.join(QLatin1Char('\n'));
}

void ModelPanel::rebuild()
{
    retranslateFixed();
    while (form_->rowCount() > 0)
        form_->removeRow(0);
    const ModelSummary& s = summary_;
    if (!s.isValid()) {
        heading_->setText(tr("No model loaded"));
        statusLabel_->setText(status_.isEmpty() ? tr("Choose a GGUF file in Settings.") : status_);
        formula_->setVisible(false);
        systemText_->setVisible(false);
        return;
    }
    const QLocale loc;
    heading_->setText(s.name.isEmpty() ? QFileInfo(s.path).fileName() : s.name);
    statusLabel_->setText(status_.isEmpty() ? s.path : status_);
    auto row = [this](const QString& name, const QString& value) {
        auto* v = new QLabel(value);
        v->setTextInteractionFlags(Qt::TextSelectableByMouse);
        v->setWordWrap(true);
        form_->addRow(name + QLatin1Char(':'), v);
    };
    if (s.remote) {
        // A server's model: what it says, and nothing made up for the rest.
        row(tr("Runs on"), s.backend);
        row(tr("Context"), s.contextLength > 0 ? tr("%1 tokens").arg(loc.toString(s.contextLength))
                                               : tr("the server does not say"));
        if (s.nParams > 0)
            row(tr("Parameters"), tr("%1 M").arg(loc.toString(double(s.nParams) / 1e6, 'f', 1)));
        if (s.weightBytes > 0)
            row(tr("Weights"), formatBytes(double(s.weightBytes)));
        row(tr("Shape"), tr("not reported by the server: layers, heads, KV bytes per token and the KV pool are "
                            "the server's own"));
        formula_->setVisible(false);
        return;
    }
    row(tr("Architecture"), s.architecture);
    row(tr("Runs on"), i18n::backendText(s.backend));   // as the status bar says it, in the current language
    const QString file = QFileInfo(s.modelFile.isEmpty() ? s.path : s.modelFile).fileName();
    row(tr("Model file"), s.nFileParts > 1 ? tr("%1 (the first of %2 parts)").arg(file, loc.toString(s.nFileParts)) : file);
    if (s.nConvLayers > 0)   // LFM2: short convolutions in place of attention in some layers
        row(tr("Layers"), tr("%1: %2 short convolutions (%3 taps), %4 attention")
                              .arg(loc.toString(s.nLayer))
                              .arg(s.nConvLayers)
                              .arg(s.convTaps)
                              .arg(s.nLayer - s.nConvLayers));
    else
        row(tr("Layers"), loc.toString(s.nLayer));
    QString heads = tr("%1 query heads, %2 KV heads").arg(s.nHead).arg(s.nHeadKv);
    if (s.nHeadKv > 0 && s.nHead > s.nHeadKv)
        heads += QStringLiteral(" (") + (s.nHeadKv == 1 ? tr("MQA") : tr("GQA")) + QStringLiteral(", ")
                 + tr("KV %1× smaller").arg(s.nHead / s.nHeadKv) + QStringLiteral(")");
    row(tr("Heads"), heads);
    row(tr("Head dimension"), loc.toString(s.headDim));
    row(tr("Embedding"), loc.toString(s.nEmbd));
    row(tr("Context"), tr("%1 tokens (trained: %2)").arg(loc.toString(s.contextLength), loc.toString(s.nCtxTrain)));
    if (s.slidingWindow > 0)
        row(tr("Sliding window"), s.nWindowLayers > 0 ? tr("%1 tokens, in %2 of %3 layers")
                                                             .arg(loc.toString(s.slidingWindow))
                                                             .arg(s.nWindowLayers)
                                                             .arg(s.nLayer)
                                                       : tr("%1 tokens").arg(loc.toString(s.slidingWindow)));
    // Two layer groups: the local layers' KV stops at the window, the global layers' keeps growing.
    if (s.nLocalLayers > 0 && s.localIsConv) {
        // LFM2: each convolution keeps its taps' B*X rows (f32); the attention layers every token's K/V.
        row(tr("KV layer groups"),
            tr("%1 convolution layers: %2 per token, the last %3 tokens (%4 in all) · %5 attention layers: %6 per "
               "token, every token")
                .arg(s.nLocalLayers)
                .arg(formatBytes(double(s.localKvBytesPerToken)), loc.toString(s.convTaps),
                     formatBytes(double(s.localKvBytesPerToken) * s.convTaps))
                .arg(s.nGlobalLayers)
                .arg(formatBytes(double(s.globalKvBytesPerToken))));
    } else if (s.nLocalLayers > 0) {
        row(tr("KV layer groups"),
            tr("%1 local layers: %2 per token, capped at %3 tokens (%4 at most) · %5 global layers: %6 per token, "
               "every token")
                .arg(s.nLocalLayers)
                .arg(formatBytes(double(s.localKvBytesPerToken)), loc.toString(s.slidingWindow),
                     formatBytes(double(s.localKvBytesPerToken) * s.slidingWindow))
                .arg(s.nGlobalLayers)
                .arg(formatBytes(double(s.globalKvBytesPerToken))));
    }
    // GPT-2: no rotation; each position has a learned row of its own, and there are only so many.
    if (s.learnedPositions)
        row(tr("Positions"), tr("learned: position p's row of a table is added to token p's embedding (no RoPE); "
                                "%1 rows, so no context is longer").arg(loc.toString(s.nCtxTrain)));
    if (s.ropeBase > 0) {
        QString rope = tr("base %1").arg(loc.toString(s.ropeBase, 'f', 0));
        if (s.ropeDims > 0 && s.ropeDims < s.headDim)   // Pythia, GLM-4: part of each head turns, the rest keeps no position
            rope += tr(", over the first %1 of each head's %2 dimensions").arg(s.ropeDims).arg(s.headDim);
        if (s.ropeLlama3Factors)
            rope += tr(", Llama 3.1 frequency factors (rope_freqs.weight)");
        if (s.ropeLinearFactor != 1.0)
            rope += tr(", linear scaling ×%1").arg(loc.toString(s.ropeLinearFactor, 'g', 4));
        // LongRoPE: the engine applies the long factors when its context passes the original one.
        if (s.ropeLongRopeFactors)
            rope += s.contextLength > s.ropeOriginalCtx
                        ? tr(", LongRoPE long factors (this context of %1 tokens passes the original %2)")
                              .arg(loc.toString(s.contextLength), loc.toString(s.ropeOriginalCtx))
                        : tr(", LongRoPE short factors (this context of %1 tokens fits the original %2)")
                              .arg(loc.toString(s.contextLength), loc.toString(s.ropeOriginalCtx));
        // YaRN: slow pairs' angles scaled by the factor, fast ones kept, a blend between.
        if (s.ropeYarnFactor > 0)
            rope += tr(", YaRN ×%1 from an original %2 tokens")
                        .arg(loc.toString(s.ropeYarnFactor, 'g', 4), loc.toString(s.ropeOriginalCtx));
        // Ministral 3: YaRN's magnitude set by the file's log multiplier (x1 for its 1).
        if (s.ropeYarnLogMul != 0.0)
            rope += tr(", magnitude ×%1 (log multiplier %2)")
                        .arg(loc.toString(s.ropeMagnitude, 'g', 4), loc.toString(s.ropeYarnLogMul, 'g', 4));
        else if (s.ropeAttnFactor != 1.0)
            rope += tr(", attention factor ×%1").arg(loc.toString(s.ropeAttnFactor, 'g', 4));
        // OLMo 3: the windowed layers rotate plainly, only the full ones take the scaling.
        if (s.ropePlainInWindows)
            rope += tr(", the scaling only in the full layers (the windowed ones rotate plainly)");
        // Ministral 3: Llama 4's query temperature past the original context.
        if (s.attnTempScale != 0.0)
            rope += tr(", then queries ×(1 + %1·ln(⌊position / %2⌋ + 1)): sharper past every %2 tokens")
                        .arg(loc.toString(s.attnTempScale, 'g', 4), loc.toString(s.attnTempFloor));
        // Layers without RoPE see no positions: SmolLM3's NoPE layers, or none rotating at all.
        if (!s.unrotatedLayers.isEmpty() && s.unrotatedLayers.size() == s.nLayer) {
            rope += tr(", in no layer (the file turns it off)");
        } else if (!s.unrotatedLayers.isEmpty()) {
            QStringList layers;
            for (const int il : s.unrotatedLayers)
                layers << loc.toString(il);
            rope += tr(", not in %1 of %2 layers (NoPE, no positions: layers %3)")
                        .arg(s.unrotatedLayers.size())
                        .arg(s.nLayer)
                        .arg(layers.join(QStringLiteral(", ")));
        }
        row(tr("RoPE"), rope);
    }
    // Cohere: one norm per layer, read by attention and the feed-forward block at once.
    QString norms = s.parallelBlocks && s.sharedBlockNorm
                        ? tr("one per layer, read by attention and the feed-forward block side by side")
                    : s.parallelBlocks        ? tr("one per block, the blocks side by side from the same input")
                    : s.preNorms && s.postNorms ? tr("before and after each block")
                    : s.preNorms              ? tr("before each block")
                                              : tr("after each block");
    if (s.qkNorm == 1)
        norms += tr(", Q and K per head");
    else if (s.qkNorm == 2)
        norms += tr(", Q and K over whole rows");
    else if (s.qkNorm == 3)   // Hunyuan: normed after the rotation
        norms += tr(", Q and K per head after RoPE");
    if (s.normBias)
        norms += tr(", each with a bias");
    row(s.layerNorm ? tr("LayerNorms") : tr("RMS norms"), norms);
    QStringList scales;
    if (s.embeddingScale != 1.0)
        scales << tr("embeddings ×%1").arg(loc.toString(s.embeddingScale, 'g', 6));
    if (s.attentionScale > 0 && s.headDim > 0)
        scales << tr("attention scores ×%1 (instead of 1/√%2 = %3)")
                      .arg(loc.toString(s.attentionScale, 'g', 6), loc.toString(s.headDim),
                           loc.toString(1.0 / std::sqrt(double(s.headDim)), 'g', 4));
    if (s.residualScale != 1.0)
        scales << tr("block outputs ×%1 before the residual add").arg(loc.toString(s.residualScale, 'g', 6));
    if (s.logitScale != 1.0)
        scales << tr("logits ÷%1").arg(loc.toString(s.logitScale, 'g', 6));
    if (s.logitMul != 1.0)
        scales << tr("logits ×%1").arg(loc.toString(s.logitMul, 'g', 6));
    if (!scales.isEmpty())
        row(tr("Scales"), scales.join(QStringLiteral(", ")));
    if (s.attnSinks)   // gpt-oss: part of each softmax goes to no token
        row(tr("Attention sinks"), tr("a learned logit per head joins each softmax, so a head can attend to nothing"));
    if (s.attnSoftcap > 0 || s.finalSoftcap > 0) {
        QStringList caps;
        if (s.attnSoftcap > 0)
            caps << tr("attention scores at ±%1 before the softmax").arg(loc.toString(s.attnSoftcap, 'g', 4));
        if (s.finalSoftcap > 0)
            caps << tr("logits at ±%1").arg(loc.toString(s.finalSoftcap, 'g', 4));
        row(tr("Soft-capping"), caps.join(QStringLiteral(", ")));
    }
    if (s.nExpert > 0) {
        // A mixture of experts: a token runs through its router's few experts, not all of them.
        QString experts = tr("%1 per layer, %2 per token, %3 rows each")
                              .arg(loc.toString(s.nExpert), loc.toString(s.nExpertUsed), loc.toString(s.nFfExp));
        if (s.nFfShared > 0)
            experts += tr(", and a shared expert of %1 rows every token runs").arg(loc.toString(s.nFfShared));
        if (s.expertSigmoid)   // LFM2-MoE: each expert's sigmoid, plus a bias when choosing
            experts += tr("; chosen by sigmoid plus an expert bias");
        if (s.expertSoftmaxBias)   // ERNIE 4.5: the bias chooses, the softmax weighs
            experts += tr("; chosen by the softmax plus an expert bias");
        if (s.expertSoftmaxChosen)   // gpt-oss
            experts += tr("; weighted by the softmax of the chosen experts' logits, with biases");
        if (s.nDenseLead > 0)
            experts += tr("; the first %n layer(s) dense", nullptr, s.nDenseLead);
        row(tr("Experts"), experts);
        row(tr("Parameters"), tr("%1 M, %2 M of them per token").arg(loc.toString(double(s.nParams) / 1e6, 'f', 1),
                                                                     loc.toString(double(s.nParamsActive) / 1e6, 'f', 1)));
    } else {
        row(tr("Parameters"), tr("%1 M").arg(loc.toString(double(s.nParams) / 1e6, 'f', 1)));
    }
    // The file type as general.file_type names it; files without the key (synthetic ones) name none.
    row(tr("Weights"), s.fileType.isEmpty() ? formatBytes(double(s.weightBytes))
                                            : formatBytes(double(s.weightBytes)) + QStringLiteral(" (") + s.fileType + QLatin1Char(')'));
    QStringList types;
    for (auto it = s.tensorTypes.begin(); it != s.tensorTypes.end(); ++it)
        types << QStringLiteral("%1 × %2").arg(it.key()).arg(it.value());
    row(tr("Tensor types"), types.join(QStringLiteral(", ")));
    row(tr("Vocabulary"), s.baseModel ? tr("%1 tokens; no chat template in the file (a base model): runs send "
                                           "the report and the task as one text to continue")
                                            .arg(loc.toString(s.nVocab))
                                      : tr("%1 tokens, %2 chat format").arg(loc.toString(s.nVocab), s.chatTemplate));
    if (!s.hiddenReasoning.isEmpty())
        row(tr("Hidden reasoning"),
            s.hiddenReasoning == QLatin1String("vocabulary")
                ? tr("may think in <think>…</think> first (the tags are tokens of its vocabulary)")
            : s.hiddenReasoning == QLatin1String("harmony_channels")
                ? tr("reasons in its analysis channel first, then answers in its final channel (Harmony format)")
                : tr("may think in <think>…</think> first (its chat template writes the tags)"));
    if (s.kvQ8Possible)
        row(tr("KV cache per token"), tr("%1 (f16) · %2 (q8_0)")
                                          .arg(formatBytes(double(s.kvBytesPerTokenF16)),
                                               formatBytes(double(s.kvBytesPerTokenQ8))));
    else   // Phi-2: a q8_0 block of 32 would straddle two heads of 80
        row(tr("KV cache per token"), tr("%1 (f16) · q8_0 not possible: its blocks of 32 would straddle heads of %2")
                                          .arg(formatBytes(double(s.kvBytesPerTokenF16)), loc.toString(s.headDim)));
    if (s.kvPoolBytes > 0)
        row(tr("KV pool"), formatBytes(double(s.kvPoolBytes)));
    formula_->setVisible(true);
    formula_->setText(tr("KV bytes per token = %1").arg(s.kvFormula()));
    // The system prompt as the template makes the model read it, and the one
    // the template would put in on its own (issue 15: a hidden default). A
    // label of its own under the form: long texts wrap there.
    QStringList lines;
    if (template_.error.isEmpty()) {
        const QString sent = system_.isEmpty() ? systemPrompt() : system_;
        QString seen = systemAsSeen(template_, sent);
        if (s.baseModel)   // completion style: no template renders it
            seen = sent + QLatin1Char(' ') + tr("(a base model: the first paragraph of the text it continues)");
        else if (template_.format.llama3_dated_system)
            seen += QLatin1Char(' ') + tr("(the template always puts the knowledge-cutoff lines in front)");
        using place = kvlens::chat_format::system_place;
        if (!s.baseModel) {
            switch (template_.format.where_system_goes()) {
            case place::first_user_turn:
                seen += QLatin1Char(' ') + tr("(no system role in this format: it opens the first user turn)");
                break;
            case place::last_user_turn:
                seen += QLatin1Char(' ') + tr("(no system role in this format: it opens the last user turn)");
                break;
            case place::dropped:
            case place::own_turn:
                if (seen.isEmpty() && !sent.trimmed().isEmpty())
                    seen = tr("nothing: this model's chat template leaves the system prompt out");
                break;
            }
        }
        lines << tr("System prompt sent") + QStringLiteral(": ") + seen;
        lines << tr("Template's default") + QStringLiteral(": ")
                     + (template_.defaultSystem().isEmpty() && template_.format.dated_default_left_out
                            ? tr("one holding today's date, inserted when a chat brings no system prompt; "
                                 "kvlens always sends its own, so the model does not see it")
                        : template_.defaultSystem().isEmpty()
                            ? tr("none (the template adds no system prompt of its own)")
                            : tr("“%1” — inserted when a chat brings no system prompt; "
                                 "kvlens always sends its own, so the model does not see it")
                                  .arg(template_.defaultSystem()));
    }
    systemText_->setText(lines.join(QLatin1Char('\n')));
    systemText_->setVisible(!lines.isEmpty());
}

void ModelPanel::retranslateFixed()
{
    openModel_->setText(tr("Open another GGUF…"));
    openModel_->setToolTip(tr("Load a different model file (File → Open another model)"));
    const bool demo = AppSettings::isDefaultModel(summary_.path);
    demo_->setText(tr("This is a small demo model (135 M parameters): it shows every figure live even on a laptop, "
                      "but its answers are simple and it may repeat itself. Open a larger GGUF for better answers."));
    demo_->setVisible(demo);
    // The TTFT segments and the other figures, with what serving engines call them.
    glossary_->setText(tr(
        "<b>What the figures mean</b> (each measured by the engine between two moments; "
        "the four TTFT parts add up to TTFT):<br>"
        "<b>tokenize</b>: arrival → tokenized (chat template and tokenizer; vLLM does this in its API server)<br>"
        "<b>queue</b>: tokenized → scheduled (vLLM's request_queue_time)<br>"
        "<b>prefill</b>: scheduled → the last prompt chunk computed<br>"
        "<b>first sample</b>: prefill done → first token sampled (vLLM's prefill time is prefill + first sample)<br>"
        "<b>TTFT</b>: arrival → first token (vLLM's time_to_first_token; what an OpenAI-compatible client "
        "measures to the first streamed token, less the network)<br>"
        "<b>ITL</b>: the gap between two tokens (the latency chart); <b>TPOT</b>: decode time ÷ (tokens − 1)<br>"
        "<b>prompt / cached / generated tokens</b>: OpenAI's usage.prompt_tokens, "
        "prompt_tokens_details.cached_tokens and completion_tokens"));
}

}  // namespace kvlens::ui
