// SPDX-License-Identifier: Apache-2.0
// Decode latency: the time of every generated token since the one before
// (points), their moving average (line) and the tok/s in the title. The first
// token's latency is TTFT and lives in the TTFT chart, so it is left out here.
// With the KV cache off the points climb linearly: every step recomputes the
// prefix. Tokens of hidden reasoning (<think>…</think>) are marked apart
// from the answer's, and a vertical line stands at the first visible token,
// with TTFT and the time to the first visible token in the heading.
// Callouts (presentation mode, exports): the mean time per output token.
#pragma once

#include "ui/charts/chart_panel.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace kvlens::ui {

class ChartCallouts;

class LatencyChart : public ChartPanel {
    Q_OBJECT
public:
    explicit LatencyChart(QWidget* parent = nullptr);
    void plot(const ChartInput& in) override;
    static constexpr int kAverageWindow = 8;   // tokens
    QScatterSeries* hiddenSeries() const { return hidden_; }
    QScatterSeries* draftedSeries() const { return drafted_; }
    QLineSeries* firstVisibleSeries() const { return firstVisible_; }
    // "mean TPOT 61 ms = 5.9 s over 96 tokens" on the mean line (ui/charts/chart_callouts.h).
    ChartCallouts* callouts() const { return callouts_; }

protected:
    void restyle() override;

private:
    QScatterSeries* points_;
    QLineSeries* average_;
    QScatterSeries* comparePoints_;
    QLineSeries* compareAverage_;
    QScatterSeries* hidden_;        // the shown run's tokens inside <think>…</think>
    QScatterSeries* drafted_;       // the shown run's accepted draft tokens (speculative decoding)
    QLineSeries* firstVisible_;     // a vertical line at the shown run's first visible token
    ChartCallouts* callouts_;
    QValueAxis* x_;
    QValueAxis* y_;
};

}  // namespace kvlens::ui
