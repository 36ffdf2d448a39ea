// SPDX-License-Identifier: Apache-2.0
// ChartsBoard: the live charts in one grid (prefill progress, TTFT parts,
// decode latency, KV cache, memory) with the stats card, redrawn together
// from one ChartInput, styled together (normal or presentation mode), and
// exported together (every chart as PNG and SVG). The memory chart shares
// its cell with the roofline (a tab): this machine's ceilings, measured the
// first time the tab is shown, and the shown run's prefill and decode points.
#pragma once

#include <QVector>
#include <QWidget>

#include "ui/charts/chart_panel.h"

class QGridLayout;
class QLabel;
class QTabWidget;

namespace kvlens::ui {

class RooflineChart;
class RunController;
class StatsCard;

class ChartsBoard : public QWidget {
    Q_OBJECT
public:
    explicit ChartsBoard(QWidget* parent = nullptr);

    const QVector<ChartPanel*>& charts() const { return charts_; }
    ChartPanel* chart(const QString& key) const;
    StatsCard* stats() const { return stats_; }
    RooflineChart* roofline() const { return roofline_; }
    QTabWidget* memoryTabs() const { return memoryTabs_; }   // memory | roofline
    void plot(const ChartInput& in);
    // Plots the controller's selected run, its overlay and the recent runs.
    // Also captions an experiment with its measured effect.
    void plotFrom(const RunController& controller);
    void setCaption(const QString& text);
    QString caption() const;
    int redraws() const { return redraws_; }
    void setPresentation(bool on);
    bool presentation() const { return presentation_; }
    // Writes <key>.png and <key>.svg for every chart into `dir` (and
    // roofline.png/svg once its ceilings are measured); returns the errors
    // (empty on success).
    // Charts are drawn at `size` (logical pixels; PNG at twice that).
    QStringList exportAll(const QString& dir, QSize size = QSize(880, 540)) const;

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void relayout();

    QGridLayout* grid_;
    QVector<ChartPanel*> charts_;
    StatsCard* stats_;
    RooflineChart* roofline_;
    QTabWidget* memoryTabs_;
    QLabel* caption_;
    bool presentation_ = false;
    double scale_ = 1.0;
    int redraws_ = 0;
};

}  // namespace kvlens::ui
