// SPDX-License-Identifier: Apache-2.0
// Time to first token, split into queue, tokenize, prefill and first sample:
// one stacked horizontal bar per recent run, so runs compare side by side
// (a shorter answer does not shorten TTFT; a prefix cache hit does). A run
// whose model thought first (<think>…</think>) has a fifth segment after its
// TTFT: the hidden reasoning up to the first visible token, so both times
// are drawn, TTFT at the end of "first sample", the first visible token at
// the end of the bar.
#pragma once

#include "ui/charts/chart_panel.h"

class QBarSet;
class QBarCategoryAxis;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace kvlens::ui {

class ChartCallouts;

class TtftChart : public ChartPanel {
    Q_OBJECT
public:
    explicit TtftChart(QWidget* parent = nullptr);
    void plot(const ChartInput& in) override;
    static constexpr int kMaxRuns = 6;
    // "TTFT 1.2 s = prefill of 2,048 tokens at 1,700 tok/s" at the shown run's
    // bar (ui/charts/chart_callouts.h); on in presentation mode.
    ChartCallouts* callouts() const { return callouts_; }
    QBarSet* hiddenSet() const { return hidden_; }

protected:
    void restyle() override;

private:
    QHorizontalStackedBarSeries* series_;
    QBarSet* queue_;
    QBarSet* tokenize_;
    QBarSet* prefill_;
    QBarSet* sample_;
    QBarSet* hidden_;           // first token -> first visible token (hidden reasoning)
    QBarCategoryAxis* runs_;
    QValueAxis* ms_;
    ChartCallouts* callouts_;
};

}  // namespace kvlens::ui
