// SPDX-License-Identifier: Apache-2.0
// Prefill progress: prompt tokens whose KV is held vs time since submission,
// one point per chunk, with the percentage, the computed tok/s and the ETA in
// the title; a line at the prompt's length and one at the tokens reused from
// the prefix cache. The compared run is drawn dashed.
#pragma once

#include "ui/charts/chart_panel.h"

class QLineSeries;
class QValueAxis;

namespace kvlens::ui {

class PrefillChart : public ChartPanel {
    Q_OBJECT
public:
    explicit PrefillChart(QWidget* parent = nullptr);
    void plot(const ChartInput& in) override;

protected:
    void restyle() override;

private:
    QLineSeries* primary_;
    QLineSeries* compare_;
    QLineSeries* total_;
    QLineSeries* cached_;
    QValueAxis* x_;
    QValueAxis* y_;
};

}  // namespace kvlens::ui
