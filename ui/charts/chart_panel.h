// SPDX-License-Identifier: Apache-2.0
// ChartPanel: the base of the five live charts. Holds a QChartView, restyles
// on palette and presentation changes, offers "Export..." in its context menu
// and redraws from the run records when told (the window tells it at most ~30
// times a second). Subclasses build their series once and replace the points
// in plot().
#pragma once

#include <QPointer>
#include <QVector>
#include <QWidget>

#include "ui/charts/chart_style.h"

class QChart;
class QChartView;
class QLabel;
class QLegendMarker;
class QToolButton;
class QHBoxLayout;

namespace kvlens::ui {

class ChartCallouts;
class RunRecord;

// What the charts show: the selected run, the run overlaid on it (may be
// null), and the recent runs for the side-by-side bars, oldest first.
struct ChartInput {
    const RunRecord* primary = nullptr;
    const RunRecord* compare = nullptr;
    QVector<const RunRecord*> recent;
    QString kvFormula;          // "2 × 30 layers × 3 KV heads × 64 × 2 B = 23,040 B per token"
    QString kvGroupFormula;     // the layer groups of a sliding-window model ("" for most models)
};

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    // `key` names the exported files ("prefill" -> prefill.png).
    ChartPanel(const QString& key, QWidget* parent = nullptr);

    QString key() const { return key_; }
    QChart* chart() const { return chart_; }
    QString title() const;       // heading and figures, as shown
    QChartView* view() const { return view_; }
    const ChartStyle& style() const { return style_; }
    int pointCount() const;    // points over all XY series: tests watch it grow

    void setStyle(const ChartStyle& style);
    // A checkable button at the right of the heading (e.g. the KV chart's
    // decode zoom); the panel owns it.
    QToolButton* addHeaderToggle(const QString& text);
    virtual void plot(const ChartInput& in) = 0;
    // The legend below the plot when its entries fit the width in one row
    // and the plot keeps its height, else beside it (one entry per line):
    // Qt Charts cuts legend entries that do not fit, it never wraps them.
    void placeLegend();
    // Whether the legend is the wrapped text under the chart (not Qt's own).
    bool legendWrapped() const;
    // Tick counts that leave every tick label whole at the current size;
    // true when an axis's range changed with them (a re-plot then draws the
    // lines that span the axis to its new end).
    bool fitTicks();
    // Writes the chart to `path` (format from the suffix); "" or the reason.
    // A valid `size` draws it at that size (logical pixels) instead of its own.
    // The chart's callouts are drawn in the file whatever the window shows
    // (figures that explain themselves travel with the figure).
    QString exportTo(const QString& path, QSize size = QSize()) const;

signals:
    void exportRequested(kvlens::ui::ChartPanel* panel);

protected:
    virtual void restyle() = 0;   // re-apply style_ to the series and axes
    void contextMenuEvent(QContextMenuEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;
    static QString runName(const RunRecord* r);
    // The run's own colour (slot 0/1 colours when there is no run).
    static QColor colorOf(const RunRecord* r, int slot);
    // The heading above the plot: the chart's name and a line of live figures.
    void setHeader(const QString& title, const QString& figures);
    void styleHeader();
    // A legend drawn under the chart as text that wraps onto more lines when
    // the cell is narrow (Qt's own legend is hidden): for charts whose entries
    // do not fit beside or below a small plot. Empty: Qt's legend again.
    void setWrappedLegend(const QVector<QPair<QColor, QString>>& items);
    void showWrappedLegend(const QStringList& entries);   // HTML entries; empty: Qt's legend
    // Shows or hides one entry of Qt's legend, and keeps it out of (or in)
    // the wrapped text, whichever legend is shown now.
    static void showLegendEntry(QLegendMarker* marker, bool shown);
    static bool legendEntryShown(QLegendMarker* marker);
    // Callouts this chart draws (exportTo turns them on for the file).
    ChartCallouts* addCallouts();

    ChartStyle style_;
    QChart* chart_ = nullptr;

private:
    QString key_;
    QChartView* view_ = nullptr;
    QLabel* title_ = nullptr;
    QHBoxLayout* headerRow_ = nullptr;
    QLabel* figures_ = nullptr;
    QLabel* legendLabel_ = nullptr;
    bool placing_ = false;
    bool compactHeader_ = false;   // figures beside the name (the desk view on a small screen)
    bool wrappedAlways_ = false;   // setWrappedLegend: this chart's legend is always the wrapped text
    QString figuresText_;
    QVector<ChartCallouts*> callouts_;
};

}  // namespace kvlens::ui
