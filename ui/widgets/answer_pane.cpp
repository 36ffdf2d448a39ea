// SPDX-License-Identifier: Apache-2.0
// AnswerPane and its latency legend.
#include "ui/i18n.h"
#include "ui/widgets/answer_pane.h"

#include "tasks/answer_check.h"
#include "ui/model/run_config.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/charts/chart_style.h"
#include "ui/model/run_record.h"
#include "ui/widgets/ui_style.h"

namespace kvlens::ui {

namespace {

bool isDark(const QWidget* w) { return w->palette().color(QPalette::Base).lightness() < 128; }

// The p-th percentile (0..1) of the decode latencies (first token excluded).
double percentile(QVector<double> v, double p)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::clamp(int(p * (v.size() - 1) + 0.5), 0, int(v.size()) - 1)];
}

}  // namespace

// A small gradient bar between the fastest and the slowest token's latency:
// "2.2 ▬▬▬ 4.6 ms" (the unit once, when both ends have it). It asks for the
// room its two figures and a short bar need, so neither is cut.
class LatencyLegend : public QWidget {
public:
    explicit LatencyLegend(QWidget* parent = nullptr) : QWidget(parent) {}
    void setRange(double lo, double hi)
    {
        lo_ = lo;
        hi_ = hi;
        updateGeometry();
        update();
    }
    QSize sizeHint() const override { return QSize(std::max(220, minimumSizeHint().width()), fontMetrics().height() + 6); }
    QSize minimumSizeHint() const override
    {
        const QFontMetrics fm = fontMetrics();
        return QSize(fm.horizontalAdvance(leftText()) + fm.horizontalAdvance(rightText()) + 12 + kMinBar,
                     fm.height() + 6);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const bool dark = isDark(this);
        const QString left = leftText(), right = rightText();
        const QFontMetrics fm = fontMetrics();
        const int lw = fm.horizontalAdvance(left) + 6, rw = fm.horizontalAdvance(right) + 6;
        const QRect bar(lw, height() / 2 - 5, std::max(kMinBar, width() - lw - rw), 10);
        QLinearGradient g(bar.topLeft(), bar.topRight());
        for (double t : {0.0, 0.5, 1.0})
            g.setColorAt(t, AnswerPane::tintColor(lo_ + t * (hi_ - lo_), lo_, hi_, dark));
        p.setPen(palette().color(QPalette::Mid));
        p.setBrush(g);
        p.drawRoundedRect(bar, 3, 3);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, 0, lw, height()), Qt::AlignVCenter | Qt::AlignLeft, left);
        p.drawText(QRect(bar.right() + 4, 0, rw, height()), Qt::AlignVCenter | Qt::AlignLeft, right);
    }

private:
    static constexpr int kMinBar = 24;   // px
    QString rightText() const { return formatMs(hi_); }
    QString leftText() const
    {
        // "2.2" before "4.6 ms": the unit once, where the two share it.
        const QString lo = formatMs(lo_), hi = formatMs(hi_);
        const QString unit = hi.section(QLatin1Char(' '), 1);
        return !unit.isEmpty() && lo.endsWith(QLatin1Char(' ') + unit) ? lo.section(QLatin1Char(' '), 0, 0) : lo;
    }

private:
    double lo_ = 0, hi_ = 0;
};

AnswerPane::AnswerPane(QWidget* parent) : QWidget(parent)
{
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(style::kMargin, style::kSpacing, style::kMargin, style::kSpacing);
    l->setSpacing(style::kSpacing);
    heading_ = new QLabel;
    style::makeHeading(heading_);
    status_ = new QLabel;
    style::makeSecondary(status_);
    // Both may be long: they shrink with the pane instead of widening it.
    heading_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    l->addWidget(heading_);
    l->addWidget(status_);
    l->setSpacing(style::kSpacing / 2);
    text_ = new QTextBrowser;
    text_->setOpenLinks(false);
    text_->setUndoRedoEnabled(false);   // the answer is appended token by token: no undo history to keep
    QFont f = text_->font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    text_->setFont(f);
    l->addWidget(text_, 1);
    auto* bottom = new QHBoxLayout;
    tint_ = new QCheckBox;
    tint_->setChecked(true);
    legend_ = new LatencyLegend;
    copy_ = new QPushButton;
    bottom->addWidget(tint_);
    bottom->addWidget(legend_, 1);
    bottom->addStretch();
    bottom->addWidget(copy_);
    l->addLayout(bottom);
    connect(tint_, &QCheckBox::toggled, this, [this](bool on) {
        render();   // drawn again: the tint is part of what is shown
        emit tintChanged(on);
    });
    connect(copy_, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(plainText()); });
    retranslate();
    render();
}

void AnswerPane::retranslate()
{
    tint_->setText(tr("Tint tokens by latency"));
    tint_->setToolTip(tr("Each token's background shows how long it took to decode, from this run's fast "
                         "tokens (10th percentile) to its slow ones (90th). The first token is blue: its time "
                         "is the TTFT."));
    copy_->setText(tr("Copy"));
    shown_ = Shown();   // an error line is in the language
    render();
}

void AnswerPane::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslate();
    else if (e->type() == QEvent::PaletteChange) {
        shown_ = Shown();   // the tints and the hidden tokens' grey follow the palette
        render();
    }
    QWidget::changeEvent(e);
}

void AnswerPane::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    fitHeading();
}

void AnswerPane::fitHeading()
{
    const int width = contentsRect().width() - 2 * style::kMargin;
    const QString shown = heading_->fontMetrics().elidedText(headingText_, Qt::ElideRight, std::max(width, 40));
    heading_->setText(shown);
    heading_->setToolTip(shown == headingText_ ? QString() : headingText_);
}

bool AnswerPane::tint() const { return tint_->isChecked(); }

void AnswerPane::setPresentation(bool on)
{
    presentation_ = on;
    QFont f = QApplication::font();
    f.setPointSizeF(f.pointSizeF() * (on ? 1.9 : 1.1));
    text_->setFont(f);
    QFont h = QApplication::font();
    h.setPointSizeF(h.pointSizeF() * (on ? 1.6 : 1.15));
    h.setWeight(QFont::DemiBold);
    heading_->setFont(h);
    fitHeading();
}
void AnswerPane::setTint(bool on) { tint_->setChecked(on); }
QString AnswerPane::plainText() const { return run_ ? run_->text() : QString(); }
QString AnswerPane::statusText() const { return status_->text(); }

QColor AnswerPane::tintColor(double latencyMs, double lo, double hi, bool dark)
{
    const double t = hi > lo ? std::clamp((latencyMs - lo) / (hi - lo), 0.0, 1.0) : 0.0;
    // Green -> amber -> red, as pale backgrounds (light) or deep ones (dark).
    const QColor light[] = {QColor(0xd3, 0xf0, 0xdf), QColor(0xfc, 0xeb, 0xb6), QColor(0xf6, 0xc6, 0xc0)};
    const QColor deep[] = {QColor(0x1f, 0x4d, 0x36), QColor(0x5c, 0x4a, 0x14), QColor(0x6b, 0x25, 0x1f)};
    const QColor* c = dark ? deep : light;
    const int i = t < 0.5 ? 0 : 1;
    const double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
    return QColor::fromRgbF(c[i].redF() + (c[i + 1].redF() - c[i].redF()) * u,
                            c[i].greenF() + (c[i + 1].greenF() - c[i].greenF()) * u,
                            c[i].blueF() + (c[i + 1].blueF() - c[i].blueF()) * u);
}

void AnswerPane::showRun(const RunRecord* run)
{
    run_ = run;
    render();
}


void AnswerPane::render()
{
    headingText_ = run_ ? tr("Answer — %1").arg(presentation_ ? runShortLabel(run_->id(), run_->config()) : run_->label())
                        : tr("Answer");
    fitHeading();
    if (!run_) {
        status_->clear();
        text_->setHtml(QStringLiteral("<p style='color:%1'>%2</p>")
                           .arg(palette().color(QPalette::PlaceholderText).name(),
                                tr("Choose a task and press Run (Ctrl+Enter): the answer streams in here.").toHtmlEscaped()));
        legend_->setRange(0, 0);
        legend_->setVisible(false);
        shown_ = Shown();
        return;
    }
    // Status line.
    QString status;
    switch (run_->state()) {
    case RunRecord::State::Waiting: status = tr("loading the model…"); break;
    case RunRecord::State::Queued: status = tr("queued"); break;
    case RunRecord::State::Prefill:
        status = tr("reading the report: %1 %").arg(qRound(run_->prefillFraction() * 100));
        break;
    case RunRecord::State::Decode:
        status = tr("writing: %n token(s)", nullptr, int(run_->tokens().size()));
        break;
    case RunRecord::State::Finished:
        switch (run_->finishReason()) {
        case FinishReason::Stop: status = tr("done"); break;
        case FinishReason::Length: status = tr("done: reached the max new tokens"); break;
        case FinishReason::Cancelled: status = tr("cancelled"); break;
        case FinishReason::Error: status = tr("failed"); break;
        case FinishReason::None: break;
        }
        break;
    }
    // A small model may loop on one phrase; say so rather than let it pass as an answer.
    repetitive_ = run_->isFinished() && tasks::is_degenerate_repetition(run_->text().toStdString());
    if (repetitive_)
        status += QStringLiteral(" · ") + tr("⚠ the answer repeats itself (a small model looping): "
                                             "try fewer pages or a larger model");
    status_->setText(status);

    QVector<double> lat;
    for (const TokenStep& t : run_->tokens()) {
        if (t.index > 0)
            lat.append(t.latencyMs);
    }
    renderText(percentile(lat, 0.1), percentile(lat, 0.9), isDark(this));
    legend_->setRange(shown_.lo, shown_.hi);
    legend_->setVisible(tint_->isChecked() && lat.size() >= 2);
}

const QTextDocument* AnswerPane::document() const { return text_->document(); }

void AnswerPane::renderText(double lo, double hi, bool dark)
{
    // The document is edited, not set again as HTML at every batch: the
    // window re-draws several times a second while the engine decodes on
    // the same cores, and a long answer's HTML took most of that time.
    const bool tinted = tint_->isChecked();
    const bool error = run_->finishReason() == FinishReason::Error;
    const bool finished = run_->isFinished();
    const int n = int(run_->tokens().size());
    const bool textOnly = n == 0 && !run_->text().isEmpty();
    const bool same = !textOnly && shown_.runId == run_->id() && shown_.tinted == tinted && shown_.dark == dark
                      && shown_.error == error && shown_.tokens <= n;
    const double span = std::max(shown_.hi - shown_.lo, 1e-9);
    const bool sameScale = !tinted || (std::abs(lo - shown_.lo) <= kRescaleShare * span
                                       && std::abs(hi - shown_.hi) <= kRescaleShare * span);
    if (same && shown_.tokens == n && shown_.finished == finished && (!finished || (lo == shown_.lo && hi == shown_.hi)))
        return;   // nothing new
    QScrollBar* bar = text_->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 4;
    if (same && !finished && sameScale) {
        appendTokens(shown_.tokens, dark);
    } else {
        text_->clear();
        shown_ = Shown{run_->id(), 0, lo, hi, tinted, dark, finished, error};
        QTextCursor cursor(text_->document());
        if (error) {
            QTextCharFormat f;
            f.setForeground(style::badgeColor(style::Badge::Bad));
            f.setFontWeight(QFont::Bold);
            cursor.insertText(tr("Error:"), f);
            f.setFontWeight(QFont::Normal);
            cursor.insertText(QStringLiteral(" ") + i18n::engineMessage(run_->error()), f);
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        }
        if (textOnly)
            cursor.insertText(run_->text(), QTextCharFormat());
        appendTokens(0, dark);
    }
    shown_.finished = finished;
    if (atEnd)
        bar->setValue(bar->maximum());
}

void AnswerPane::appendTokens(int from, bool dark)
{
    const QVector<TokenStep>& tokens = run_->tokens();
    const QColor first = dark ? QColor(0x1d, 0x3a, 0x6b) : QColor(0xd6, 0xe4, 0xfb);
    QTextCharFormat hidden;
    hidden.setForeground(palette().color(QPalette::PlaceholderText));
    hidden.setFontItalic(true);
    QTextCursor cursor(text_->document());
    cursor.movePosition(QTextCursor::End);
    cursor.beginEditBlock();
    for (int i = from; i < tokens.size(); ++i) {
        const TokenStep& t = tokens[i];
        QTextCharFormat f;
        if (!t.visible)
            f = hidden;
        else if (shown_.tinted)
            f.setBackground(t.index == 0 ? first : tintColor(t.latencyMs, shown_.lo, shown_.hi, dark));
        cursor.insertText(t.text, f);
    }
    cursor.endEditBlock();
    shown_.tokens = int(tokens.size());
}

}  // namespace kvlens::ui
