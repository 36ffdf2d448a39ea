// SPDX-License-Identifier: Apache-2.0
// StatsCard.
#include "ui/widgets/stats_card.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include "ui/charts/chart_style.h"
#include "ui/model/run_record.h"
#include "ui/widgets/ui_style.h"

namespace kvlens::ui {

namespace {

QString dash() { return QStringLiteral("—"); }

QString rate(double v, const char* unit)
{
    if (v <= 0)
        return dash();
    const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
    int i = 0;
    while (v >= 1000 && i < 5) {
        v /= 1000;
        ++i;
    }
    return QStringLiteral("%1 %2%3").arg(v, 0, 'f', v >= 100 ? 0 : 1).arg(QLatin1String(prefixes[i]),
                                                                             QLatin1String(unit));
}

}  // namespace

QVector<StatsCard::Figure> StatsCard::figures()
{
    return {
        {QStringLiteral("prompt_tokens"), tr("Prompt"), tr("tokens of the rendered prompt, template included")},
        {QStringLiteral("cached_tokens"), tr("Prefix cache"), tr("prompt tokens whose KV was reused")},
        {QStringLiteral("computed_tokens"), tr("Prefilled"), tr("prompt tokens this run computed")},
        {QStringLiteral("generated_tokens"), tr("Generated"), tr("tokens of the answer")},
        {QStringLiteral("queue_ms"), tr("Queue"), tr("submission → the scheduler took the request")},
        {QStringLiteral("tokenize_ms"), tr("Tokenize"), tr("chat template and tokenizer")},
        {QStringLiteral("prefill_ms"), tr("Prefill"), tr("forward passes over the prompt")},
        {QStringLiteral("ttft_ms"), tr("TTFT"), tr("time to first token: queue + tokenize + prefill + sample")},
        {QStringLiteral("ttft_visible_ms"), tr("First visible"), tr("first token outside hidden reasoning")},
        {QStringLiteral("decode_ms"), tr("Decode"), tr("first token → last token")},
        {QStringLiteral("e2e_ms"), tr("End to end"), tr("submission → done")},
        {QStringLiteral("prefill_tok_s"), tr("Prefill speed"), tr("prefilled tokens / prefill time")},
        {QStringLiteral("decode_tok_s"), tr("Decode speed"), tr("(generated − 1) / decode time")},
        {QStringLiteral("tpot_ms"), tr("Time per token"), tr("decode time per token after the first")},
        {QStringLiteral("kv_bytes_peak"), tr("KV peak"), tr("logical KV bytes at the end of the run")},
        {QStringLiteral("device_memory_peak"), tr("Device memory"), tr("weights + KV pool + scratch")},
        {QStringLiteral("prefill_flop_s"), tr("Prefill compute"), tr("achieved FLOP/s during the prefill")},
        {QStringLiteral("decode_bytes_s"), tr("Decode bandwidth"), tr("achieved bytes read per second in decode")},
        {QStringLiteral("acceptance_rate"), tr("Drafts accepted"),
         tr("speculative decoding: the share of draft tokens the model accepted (vLLM's acceptance rate)")},
        {QStringLiteral("mean_acceptance_length"), tr("Tokens per step"),
         tr("speculative decoding: tokens each checking step gave, its own included (vLLM's mean acceptance "
            "length)")},
    };
}

QString StatsCard::format(const QString& key, const RunRecord& r)
{
    const QLocale loc;
    const bool done = r.hasFigures();
    const RunFigures& f = r.figures();
    // A figure of a finished run is a measurement even when it is 0 ms.
    auto ms = [done](double v) { return done || v > 0 ? formatMs(v) : dash(); };
    if (key == QLatin1String("prompt_tokens"))
        return r.promptTokens() > 0 ? loc.toString(r.promptTokens()) : dash();
    if (key == QLatin1String("cached_tokens"))
        return r.promptTokens() > 0 || done ? loc.toString(r.cachedTokens()) : dash();
    if (key == QLatin1String("computed_tokens")) {
        if (done)
            return loc.toString(f.computed_tokens);
        return r.prefill().isEmpty() ? dash() : loc.toString(r.prefill().last().tokensDone - r.cachedTokens());
    }
    if (key == QLatin1String("generated_tokens"))
        return done ? loc.toString(f.generated_tokens) : loc.toString(int(r.tokens().size()));
    if (key == QLatin1String("queue_ms"))
        return done ? ms(f.queue_ms) : (r.state() >= RunRecord::State::Prefill ? formatMs(r.queueMs()) : dash());
    if (key == QLatin1String("tokenize_ms"))
        return done ? ms(f.tokenize_ms) : (r.state() >= RunRecord::State::Prefill ? formatMs(r.ttftParts().tokenizeMs) : dash());
    if (key == QLatin1String("prefill_ms"))
        return done ? ms(f.prefill_ms) : (r.ttftParts().prefillMs > 0 ? formatMs(r.ttftParts().prefillMs) : dash());
    if (key == QLatin1String("ttft_ms"))
        return r.hasFirstToken() ? formatMs(r.ttftMs()) : dash();
    if (key == QLatin1String("ttft_visible_ms"))
        return done && f.ttft_visible_ms > 0 ? formatMs(f.ttft_visible_ms) : dash();
    if (key == QLatin1String("decode_ms"))
        return done ? ms(f.decode_ms) : dash();
    if (key == QLatin1String("e2e_ms"))
        return done ? ms(f.e2e_ms) : dash();
    if (key == QLatin1String("prefill_tok_s"))
        return r.prefillTokPerSecond() > 0 ? formatTokS(r.prefillTokPerSecond()) : dash();
    if (key == QLatin1String("decode_tok_s"))
        return r.decodeTokPerSecond() > 0 ? formatTokS(r.decodeTokPerSecond()) : dash();
    if (key == QLatin1String("tpot_ms")) {
        const double t = done ? f.tpot_ms : (r.decodeTokPerSecond() > 0 ? 1000.0 / r.decodeTokPerSecond() : 0);
        return ms(t);
    }
    if (key == QLatin1String("kv_bytes_peak")) {
        const double b = done ? double(f.kv_bytes_peak) : double(r.kvPeakBytes(RunRecord::KvKind::Logical));
        return b > 0 ? formatBytes(b) : dash();
    }
    if (key == QLatin1String("device_memory_peak"))
        return done && f.device_memory_peak > 0 ? formatBytes(double(f.device_memory_peak)) : dash();
    if (key == QLatin1String("prefill_flop_s"))
        return done ? rate(f.prefill_flop_s, "FLOP/s") : dash();
    if (key == QLatin1String("decode_bytes_s"))
        return done ? rate(f.decode_bytes_s, "B/s") : dash();
    // Speculative decoding's figures (a dash for a run without drafts).
    if (key == QLatin1String("acceptance_rate"))
        return done && f.draft_steps > 0 ? loc.toString(100.0 * f.acceptance_rate, 'f', 0) + QStringLiteral(" %") : dash();
    if (key == QLatin1String("mean_acceptance_length"))
        return done && f.draft_steps > 0 ? loc.toString(f.mean_acceptance_length, 'f', 2) : dash();
    return dash();
}

QString StatsCard::source(const QString& key, const RunRecord& r)
{
    const RunFigures& f = r.figures();
    const bool remote = r.config().engine.isRemote() || f.source != kvlens::figure_source::engine;
    if (!remote)
        return {};
    static const QStringList kPrefill = {QStringLiteral("prompt_tokens"), QStringLiteral("cached_tokens"),
                                         QStringLiteral("computed_tokens"), QStringLiteral("prefill_ms"),
                                         QStringLiteral("prefill_tok_s")};
    if (r.hasFigures()) {
        for (const std::string& field : f.server_fields) {
            if (key == QLatin1String(field.c_str()))
                return QStringLiteral("server");
        }
        return QStringLiteral("client");
    }
    // Live: prefill figures come from the server's prompt_progress reports.
    return kPrefill.contains(key) ? QStringLiteral("server") : QStringLiteral("client");
}

QString StatsCard::labelled(const QString& key, const RunRecord& r)
{
    const QString from = source(key, r);
    // What kvlens's client cannot see of a remote request is not measured:
    // tokenize and prefill happen on the server, which may not say.
    static const QStringList kServerOnly = {QStringLiteral("tokenize_ms"), QStringLiteral("prefill_ms"),
                                            QStringLiteral("prefill_tok_s")};
    if (from == QLatin1String("client") && kServerOnly.contains(key))
        return dash();
    const QString value = format(key, r);
    if (from.isEmpty() || value == dash())
        return value;
    return value + QStringLiteral(" · ") + (from == QLatin1String("server") ? tr("server") : tr("client"));
}

StatsCard::StatsCard(QWidget* parent) : QWidget(parent)
{
    auto* l = new QVBoxLayout(this);
    // Tight columns: with a compared run the card holds 2 x 3 columns of
    // figures and must fit beside the memory chart at 1280 x 720.
    l->setContentsMargins(style::kSpacing, style::kSpacing, style::kSpacing, style::kSpacing);
    heading_ = new QLabel;
    style::makeHeading(heading_);
    heading_->setWordWrap(true);
    l->addWidget(heading_);
    grid_ = new QGridLayout;
    grid_->setHorizontalSpacing(style::kSpacing - 2);
    grid_->setVerticalSpacing(2);
    l->addLayout(grid_);
    l->addStretch();
    primaryHead_ = new QLabel;
    compareHead_ = new QLabel;
    for (QLabel* h : {primaryHead_, compareHead_}) {
        h->setAlignment(Qt::AlignRight);
        QFont f = h->font();
        f.setWeight(QFont::DemiBold);
        h->setFont(f);
    }
    primaryHead_->setStyleSheet(QStringLiteral("color: %1").arg(ChartStyle::runColor(0).name()));
    compareHead_->setStyleSheet(QStringLiteral("color: %1").arg(ChartStyle::runColor(1).name()));
    const int n = int(figures().size());
    const int half = (n + 1) / 2;
    grid_->addWidget(primaryHead_, 0, 1);
    grid_->addWidget(compareHead_, 0, 2);
    for (int i = 0; i < n; ++i) {
        auto* name = new QLabel;
        auto* value = new QLabel;
        auto* cmp = new QLabel;
        value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        cmp->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        QFont vf = value->font();
        vf.setWeight(QFont::DemiBold);
        value->setFont(vf);
        cmp->setStyleSheet(QStringLiteral("color: %1").arg(ChartStyle::runColor(1).name()));
        const int row = 1 + (i % half), col = (i / half) * 4;
        grid_->addWidget(name, row, col);
        grid_->addWidget(value, row, col + 1);
        grid_->addWidget(cmp, row, col + 2);
        names_.append(name);
        values_.append(value);
        compares_.append(cmp);
    }
    grid_->setColumnMinimumWidth(3, style::kSpacing * 2);   // between the two halves
    rebuild();
}

void StatsCard::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        rebuild();
    QWidget::changeEvent(e);
}

void StatsCard::setPresentation(bool on)
{
    presentation_ = on;
    QFont f = font();
    f.setPointSizeF(on ? 15 : QFont().pointSizeF());
    setFont(f);
    // Labels with a style sheet do not inherit a font change: set each.
    QFont value = f;
    value.setWeight(QFont::DemiBold);
    for (QLabel* l : values_)
        l->setFont(value);
    for (QLabel* l : compares_)
        l->setFont(f);
    for (QLabel* l : {primaryHead_, compareHead_})
        l->setFont(value);
    // From the back of the room: the few figures a class reads, large; the
    // rest stay in the normal view and in run.json.
    // (The draft figures only for a run with drafts: rebuild().)
    static const QStringList kKey = {QStringLiteral("prompt_tokens"), QStringLiteral("cached_tokens"),
                                     QStringLiteral("ttft_ms"), QStringLiteral("prefill_tok_s"),
                                     QStringLiteral("decode_tok_s"), QStringLiteral("kv_bytes_peak"),
                                     QStringLiteral("acceptance_rate"), QStringLiteral("mean_acceptance_length")};
    const auto figs = figures();
    const int half = (int(figs.size()) + 1) / 2;
    int keyRow = 1;
    for (int i = 0; i < figs.size(); ++i) {
        const bool show = !on || kKey.contains(figs[i].key);
        names_[i]->setVisible(show);
        values_[i]->setVisible(show);
        compares_[i]->setVisible(show && compare_);
        // Presentation: the key figures in one column, so the card stays narrow.
        const int row = on ? (show ? keyRow++ : 100 + i) : 1 + (i % half);
        const int col = on ? 0 : (i / half) * 4;
        grid_->addWidget(names_[i], row, col);
        grid_->addWidget(values_[i], row, col + 1);
        grid_->addWidget(compares_[i], row, col + 2);
    }
    rebuild();
}

void StatsCard::showRuns(const RunRecord* primary, const RunRecord* compare)
{
    primary_ = primary;
    compare_ = compare;
    rebuild();
}

QString StatsCard::valueText(const QString& key) const
{
    const auto figs = figures();
    for (int i = 0; i < figs.size(); ++i) {
        if (figs[i].key == key)
            return values_[i]->text();
    }
    return {};
}

void StatsCard::rebuild()
{
    heading_->setText(primary_ ? tr("Figures — %1").arg(primary_->label()) : tr("Figures"));
    const bool remote = (primary_ && !source(QStringLiteral("ttft_ms"), *primary_).isEmpty())
                     || (compare_ && !source(QStringLiteral("ttft_ms"), *compare_).isEmpty());
    heading_->setToolTip(remote ? tr("client: measured by kvlens's HTTP client (network included); "
                                     "server: reported by the server (usage, timings, prompt progress)")
                                : QString());
    primaryHead_->setText(primary_ ? QStringLiteral("#%1").arg(primary_->id()) : QString());
    compareHead_->setText(compare_ ? QStringLiteral("#%1").arg(compare_->id()) : QString());
    compareHead_->setVisible(compare_ != nullptr);
    // Each run's own colour (the same as in the charts and the history).
    if (primary_)
        primaryHead_->setStyleSheet(QStringLiteral("color: %1").arg(ChartStyle::colorForRun(primary_->id()).name()));
    if (compare_) {
        const QString css = QStringLiteral("color: %1").arg(ChartStyle::colorForRun(compare_->id()).name());
        compareHead_->setStyleSheet(css);
        for (QLabel* c : compares_)
            c->setStyleSheet(css);
    }
    const auto figs = figures();
    // Presentation: the draft figures only when a shown run checked drafts.
    const auto drafted = [](const RunRecord* r) { return r && r->hasFigures() && r->figures().draft_steps > 0; };
    const bool drafts = drafted(primary_) || drafted(compare_);
    for (int i = 0; i < figs.size(); ++i) {
        if (presentation_ && (figs[i].key == QLatin1String("acceptance_rate")
                              || figs[i].key == QLatin1String("mean_acceptance_length"))) {
            names_[i]->setVisible(drafts);
            values_[i]->setVisible(drafts);
        }
        names_[i]->setText(figs[i].name);
        names_[i]->setToolTip(figs[i].help);
        values_[i]->setText(primary_ ? labelled(figs[i].key, *primary_) : dash());
        compares_[i]->setText(compare_ ? labelled(figs[i].key, *compare_) : QString());
        compares_[i]->setVisible(compare_ != nullptr && !names_[i]->isHidden());
    }
}

}  // namespace kvlens::ui
