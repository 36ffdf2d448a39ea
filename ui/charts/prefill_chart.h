// SPDX-License-Identifier: Apache-2.0
// Prefill progress: prompt tokens whose KV is held vs time since submission,
// one point per chunk, with the percentage, the computed tok/s and the ETA in
// the title; a line at the prompt's length and one at the tokens reused from
// the prefix cache. The compared run is drawn dashed. Callout (presentation
// mode, exports): the prefill throughput at the last chunk, "1,700 tok/s =
// 2,048 tokens in 1.20 s".
#pragma once

#include "ui/charts/chart_panel.h"

class QLineSeries;
class QValueAxis;

namespace kvlens::ui {

class ChartCallouts;

class PrefillChart : public ChartPanel {
    Q_OBJECT
public:
    explicit PrefillChart(QWidget* parent = nullptr);
    void plot(const ChartInput& in) override;
    ChartCallouts* callouts() const { return callouts_; }

protected:
    void restyle() override;

private:
    QLineSeries* primary_;
    QLineSeries* compare_;
    QLineSeries* total_;
    QLineSeries* cached_;
    ChartCallouts* callouts_;
    QValueAxis* x_;
    QValueAxis* y_;
};

}  // namespace kvlens::ui
