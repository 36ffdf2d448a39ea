// SPDX-License-Identifier: Apache-2.0
// Decode latency: the time of every generated token since the one before
// (points), their moving average (line) and the tok/s in the title. The first
// token's latency is TTFT and lives in the TTFT chart, so it is left out here.
// With the KV cache off the points climb linearly: every step recomputes the
// prefix.
#pragma once

#include "ui/charts/chart_panel.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace kvlens::ui {

class LatencyChart : public ChartPanel {
    Q_OBJECT
public:
    explicit LatencyChart(QWidget* parent = nullptr);
    void plot(const ChartInput& in) override;
    static constexpr int kAverageWindow = 8;   // tokens

protected:
    void restyle() override;

private:
    QScatterSeries* points_;
    QLineSeries* average_;
    QScatterSeries* comparePoints_;
    QLineSeries* compareAverage_;
    QValueAxis* x_;
    QValueAxis* y_;
};

}  // namespace kvlens::ui
