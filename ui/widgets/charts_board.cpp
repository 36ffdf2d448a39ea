// SPDX-License-Identifier: Apache-2.0
// ChartsBoard.
#include "ui/widgets/charts_board.h"

#include "ui/model/run_history_model.h"
#include "ui/run_controller.h"
#include "ui/model/experiment_caption.h"
#include "ui/model/prompt_builder.h"

#include <QLabel>
#include <QResizeEvent>
#include <algorithm>
#include <cmath>
#include <QLayoutItem>

#include <QDir>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>

#include "ui/charts/kv_chart.h"
#include "ui/charts/latency_chart.h"
#include "ui/charts/memory_chart.h"
#include "ui/charts/prefill_chart.h"
#include "ui/charts/roofline_chart.h"
#include <QTabWidget>
#include "ui/charts/ttft_chart.h"
#include "ui/widgets/stats_card.h"

namespace kvlens::ui {

ChartsBoard::ChartsBoard(QWidget* parent) : QWidget(parent)
{
    grid_ = new QGridLayout(this);
    grid_->setContentsMargins(4, 4, 4, 4);
    grid_->setSpacing(4);
    charts_ = {new PrefillChart, new TtftChart, new LatencyChart, new KvChart, new MemoryChart};
    stats_ = new StatsCard;
    stats_->setAutoFillBackground(true);
    stats_->setBackgroundRole(QPalette::Base);
    // The roofline beside the memory chart; its probes run the first time it is shown.
    roofline_ = new RooflineChart;
    roofline_->setMinimumSize(160, 120);
    memoryTabs_ = new QTabWidget;
    memoryTabs_->setDocumentMode(true);
    memoryTabs_->addTab(charts_[4], tr("Memory"));
    memoryTabs_->addTab(roofline_, tr("Roofline"));
    connect(memoryTabs_, &QTabWidget::currentChanged, this, [this](int index) {
        if (memoryTabs_->widget(index) == roofline_)
            roofline_->ensureCeilings();
    });
    caption_ = new QLabel;
    caption_->setWordWrap(true);
    caption_->setTextFormat(Qt::PlainText);
    caption_->setVisible(false);
    caption_->setContentsMargins(8, 2, 8, 2);
    relayout();
}

ChartPanel* ChartsBoard::chart(const QString& key) const
{
    for (ChartPanel* c : charts_) {
        if (c->key() == key)
            return c;
    }
    return nullptr;
}

void ChartsBoard::relayout()
{
    // Normal: three rows, prefill | TTFT, latency | KV (equal halves), and
    // memory | stats card, where the card takes the room its two columns of
    // figures need. Presentation: two rows of three, so every chart is tall
    // enough for its axis titles in large type (the window hides the
    // document, the task and the history to give the board the room).
    while (QLayoutItem* item = grid_->takeAt(0)) {
        if (QLayout* l = item->layout()) {
            while (QLayoutItem* inner = l->takeAt(0))
                delete inner;
        }
        delete item;
    }
    for (int r = 0; r < 4; ++r)
        grid_->setRowStretch(r, 0);
    auto row = [this](const QList<QPair<QWidget*, int>>& cells, int r) {
        auto* h = new QHBoxLayout;
        h->setSpacing(4);
        for (const auto& [w, stretch] : cells)
            h->addWidget(w, stretch);
        grid_->addLayout(h, r, 0);
        grid_->setRowStretch(r, 1);
    };
    // The experiment's caption above them all.
    grid_->addWidget(caption_, 0, 0);
    if (presentation_) {
        row({{charts_[0], 1}, {charts_[1], 1}, {charts_[3], 1}}, 1);
        row({{charts_[2], 3}, {memoryTabs_, 4}, {stats_, 3}}, 2);
    } else {
        row({{charts_[0], 1}, {charts_[1], 1}}, 1);
        row({{charts_[2], 1}, {charts_[3], 1}}, 2);
        row({{memoryTabs_, 2}, {stats_, 3}}, 3);
    }
}

void ChartsBoard::plotFrom(const RunController& controller)
{
    ChartInput in;
    in.primary = controller.selected();
    in.compare = controller.compared();
    const RunHistoryModel* h = controller.history();
    for (int row = 0; row < h->count(); ++row)
        in.recent.append(h->runAt(row));
    if (controller.model().isValid()) {
        in.kvFormula = controller.model().kvFormula();
        in.kvGroupFormula = controller.model().kvGroupFormula();
    }
    plot(in);
    // The roofline: the shown run's points (and the compared run's), with the
    // decode step's expected time against the measured one.
    QVector<RooflinePoint> points;
    QStringList notes;
    for (const RunRecord* r : {in.primary, in.compare}) {
        if (!r)
            continue;
        points += rooflinePoints(*r);
        const QString note = decodeExpectation(*r, roofline_->ceilings());
        if (!note.isEmpty())
            notes << note;
    }
    roofline_->setPoints(points, notes.join(QLatin1Char('\n')));
    // After an experiment: what changed and the measured effect.
    QString caption;
    if (in.primary && in.primary->config().parentRunId > 0) {
        if (const RunRecord* parent = h->run(in.primary->config().parentRunId)) {
            QVector<const RunRecord*> siblings;
            if (in.primary->config().experiment == Experiment::Concurrent) {
                for (const RunRecord* r : in.recent) {
                    if (r != in.primary && r->config().experiment == Experiment::Concurrent
                        && r->config().parentRunId == in.primary->config().parentRunId
                        && qAbs(r->id() - in.primary->id()) < kConcurrentCopies)
                        siblings.append(r);
                }
            }
            caption = experimentCaption(*in.primary, *parent, siblings);
        }
    }
    setCaption(caption);
}

void ChartsBoard::setCaption(const QString& text)
{
    caption_->setText(text);
    caption_->setVisible(!text.isEmpty());
}

QString ChartsBoard::caption() const
{
    return caption_->text();
}

void ChartsBoard::plot(const ChartInput& in)
{
    for (ChartPanel* c : charts_) {
        c->plot(in);
        c->placeLegend();   // the entries may have changed
        if (c->fitTicks())
            c->plot(in);    // lines that span an axis reach its new end
    }
    stats_->showRuns(in.primary, in.compare);
    ++redraws_;
}

void ChartsBoard::setPresentation(bool on)
{
    const bool changed = presentation_ != on;
    presentation_ = on;
    if (changed)
        relayout();
    ChartStyle s = ChartStyle::fromApplication(on);
    s.scale = scale_;
    for (ChartPanel* c : charts_)
        c->setStyle(s);
    stats_->setPresentation(on);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * (on ? 1.5 : 1.1));
    f.setWeight(QFont::DemiBold);
    caption_->setFont(f);
}

void ChartsBoard::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    // In front of a class the type follows the screen: full size at 1080
    // lines, about two thirds at 720, so less is cut short on a small projector.
    const double scale = std::clamp(window()->height() / 1080.0, 0.62, 1.0);
    if (std::abs(scale - scale_) > 0.02) {
        scale_ = scale;
        setPresentation(presentation_);
    }
}

void ChartsBoard::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange)
        setPresentation(presentation_);
    QWidget::changeEvent(e);
}

QStringList ChartsBoard::exportAll(const QString& dir, QSize size) const
{
    QStringList errors;
    QDir().mkpath(dir);
    for (ChartPanel* c : charts_) {
        for (const char* suffix : {"png", "svg"}) {
            const QString path = QDir(dir).filePath(c->key() + QLatin1Char('.') + QLatin1String(suffix));
            const QString err = c->exportTo(path, size);
            if (!err.isEmpty())
                errors << err;
        }
    }
    if (roofline_->ceilings().valid()) {
        for (const char* suffix : {"png", "svg"}) {
            const QString err = roofline_->exportTo(QDir(dir).filePath(QStringLiteral("roofline.") + QLatin1String(suffix)),
                                                    size * 2);
            if (!err.isEmpty())
                errors << err;
        }
    }
    return errors;
}

}  // namespace kvlens::ui
