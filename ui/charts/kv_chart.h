// SPDX-License-Identifier: Apache-2.0
// The KV cache of a request against the tokens it holds: logical bytes (what
// the formula 2 × layers × kv_heads × head_dim × bytes × tokens says), the
// bytes of whole blocks allocated (a staircase in paged mode), and what the
// mode reserved (flat from the start in static mode), next to the formula's
// line, from 0 and chunk by chunk through the prefill, then step by step. A
// toggle zooms to the decode steps. KV mode "off" keeps no cache: the chart
// then shows the tokens each step recomputed instead. The compared run is
// drawn dashed in its own colour. A remote run's KV cache is the server's:
// its /metrics KV usage (% of the whole cache) per token where the server
// reports it, else no line and a caption that says so. A model with
// sliding-window layers (Gemma 3) has its logical line split in two: the
// local layers' KV, flat once the window is full, and the global layers',
// rising with every token.
#pragma once

#include "ui/charts/chart_callouts.h"
#include "ui/charts/chart_panel.h"

class QLineSeries;
class QValueAxis;

namespace kvlens::ui {

class ChartCallouts;

class KvChart : public ChartPanel {
    Q_OBJECT
public:
    explicit KvChart(QWidget* parent = nullptr);
    void plot(const ChartInput& in) override;

    // Points with a vertical step wherever y changes: (x0,y0) (x1,y0) (x1,y1) ...
    static QList<QPointF> staircase(const QVector<QPointF>& pts, double scale);
    bool decodeZoom() const { return zoom_; }
    void setDecodeZoom(bool on);
    QToolButton* zoomButton() const { return zoomButton_; }
    // "98.9 MiB = 4,503 tokens × 23,040 B" at the end of the logical line
    // (ui/charts/chart_callouts.h); on in presentation mode.
    ChartCallouts* callouts() const { return callouts_; }
    // The series of the layer groups (tests look at what is drawn).
    QLineSeries* localSeries() const { return local_; }
    QLineSeries* globalSeries() const { return global_; }
    QLineSeries* logicalSeries() const { return logical_; }

protected:
    void restyle() override;

private:
    void plotServerKv(const ChartInput& in);
    QVector<ChartCallouts::Callout> groupCallouts(const RunRecord* p, const QList<QPointF>& local,
                                                  const QList<QPointF>& global, bool localIsConv);

private:
    QLineSeries* formula_;
    QLineSeries* reserved_;
    QLineSeries* allocated_;
    QLineSeries* logical_;
    QLineSeries* local_;        // sliding-window layers' logical bytes
    QLineSeries* global_;       // full-attention layers' logical bytes
    QLineSeries* compareAllocated_;
    QLineSeries* compareLogical_;
    QLineSeries* recomputed_;
    QLineSeries* compareRecomputed_;
    QToolButton* zoomButton_;
    ChartCallouts* callouts_;
    bool zoom_ = false;
    ChartInput last_;
    QString xTitle_, yTitle_;   // as the data asks (units, KV off); restyle keeps them
    QValueAxis* x_;
    QValueAxis* y_;
};

}  // namespace kvlens::ui
